"""A player's hand and forearm reaching over the table: a large skin-colored occluder.

Drawn as a shaded forearm from the frame edge to a palm with four fingers and a thumb. Its
shadow falls far from it because a hand is well above the table. Frames with a hand are where a
reader is most tempted to report phantom dice or to commit a half-covered roll.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

_SKIN = [(0.55, 0.66, 0.86), (0.45, 0.58, 0.80), (0.32, 0.45, 0.66), (0.20, 0.30, 0.45),
         (0.60, 0.72, 0.90)]


@dataclass(frozen=True)
class Hand:
    """Forearm from ``entry`` (usually outside the frame) to the palm centre ``palm`` (px);
    ``width`` is the palm width in px; ``tone`` picks a skin tone."""

    entry: tuple[float, float]
    palm: tuple[float, float]
    width: float
    tone: int


def _capsule(mask: np.ndarray, p0: np.ndarray, p1: np.ndarray, w0: float, w1: float) -> None:
    """A tapered limb segment: widths ``w0`` at ``p0`` and ``w1`` at ``p1``, rounded ends."""
    axis = p1 - p0
    n = float(np.linalg.norm(axis)) or 1.0
    v = np.array([-axis[1], axis[0]], np.float32) / n
    quad = np.stack([p0 + v * w0 / 2, p1 + v * w1 / 2, p1 - v * w1 / 2, p0 - v * w0 / 2])
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    for p, wd in ((p0, w0), (p1, w1)):
        cv2.circle(mask, (int(round(p[0] * 16)), int(round(p[1] * 16))), int(wd / 2 * 16), 255,
                   -1, cv2.LINE_AA, 4)


def hand_mask(hand: Hand, height: int, width: int, scale: float = 1.0) -> np.ndarray:
    """Float mask (0..1) of the hand at ``scale`` times the frame resolution."""
    h, w = int(height * scale), int(width * scale)
    mask = np.zeros((h, w), np.uint8)
    e = np.asarray(hand.entry, np.float32) * scale
    p = np.asarray(hand.palm, np.float32) * scale
    pw = hand.width * scale
    axis = p - e
    length = float(np.linalg.norm(axis)) or 1.0
    u = axis / length
    v = np.array([-u[1], u[0]], np.float32)
    wrist = p - u * pw * 0.55
    _capsule(mask, e, wrist, pw * 0.78, pw * 0.6)  # forearm, narrowing to the wrist
    angle = float(np.degrees(np.arctan2(u[1], u[0])))
    cv2.ellipse(mask, (int(p[0]), int(p[1])), (int(pw * 0.55), int(pw * 0.47)), angle, 0, 360,
                255, -1, cv2.LINE_AA)
    spread = (-13, -4.5, 4.5, 13)
    reach = (0.55, 0.7, 0.66, 0.5)
    for i, off in enumerate((-0.33, -0.11, 0.11, 0.31)):  # fingers, fanning out a little
        a = np.radians(spread[i])
        d = u * np.cos(a) + v * np.sin(a)
        base = p + v * pw * off + u * pw * 0.3
        tip = base + d * pw * reach[i]
        _capsule(mask, base, tip, pw * 0.2, pw * 0.15)
    a = np.radians(55)
    d = u * np.cos(a) + v * np.sin(a)
    thumb0 = p + v * pw * 0.3 - u * pw * 0.15
    _capsule(mask, thumb0, thumb0 + d * pw * 0.55, pw * 0.24, pw * 0.16)
    return mask.astype(np.float32) / 255.0


def draw_hand(img: np.ndarray, hand: Hand, shadow_offset: np.ndarray, shadow_strength: float) -> None:
    """Paint the hand and its soft shadow onto ``img`` (float32 BGR) in place."""
    h, w = img.shape[:2]
    q = 4
    small = hand_mask(hand, h, w, 1.0 / q)
    m = np.float32([[1, 0, shadow_offset[0] / q], [0, 1, shadow_offset[1] / q]])
    shadow = cv2.warpAffine(small, m, (small.shape[1], small.shape[0]))
    shadow = cv2.GaussianBlur(shadow, (0, 0), hand.width / q * 0.12)
    img *= 1.0 - shadow_strength * 0.8 * cv2.resize(shadow, (w, h))[:, :, None]
    # Rounded-limb shading: brighter along the middle, darker at the silhouette (from the
    # quarter-size mask, which is plenty for so smooth a gradient).
    inner_small = cv2.GaussianBlur(small, (0, 0), hand.width / q * 0.07)
    full = hand_mask(hand, h, w)
    ys, xs = np.nonzero(small > 0)
    if len(ys) == 0:
        return
    y0, y1 = max(0, ys.min() * q - q), min(h, ys.max() * q + 2 * q)
    x0, x1 = max(0, xs.min() * q - q), min(w, xs.max() * q + 2 * q)
    inner = cv2.resize(inner_small, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    skin = np.asarray(_SKIN[hand.tone % len(_SKIN)], np.float32)
    color = skin * (0.35 + 0.75 * inner)[:, :, None]
    a = full[y0:y1, x0:x1, None]
    region = img[y0:y1, x0:x1]
    region *= 1 - a
    region += color * a
