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
    arm = np.stack([e + v * pw * 0.42, p + v * pw * 0.48, p - v * pw * 0.48, e - v * pw * 0.42])
    cv2.fillConvexPoly(mask, np.round(arm * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    angle = float(np.degrees(np.arctan2(u[1], u[0])))
    palm = p + u * pw * 0.35
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(pw * 0.55), int(pw * 0.5)), angle, 0, 360,
                255, -1, cv2.LINE_AA)
    for i, off in enumerate((-0.36, -0.12, 0.12, 0.34)):  # fingers, the middle ones longest
        reach = (0.95, 1.08, 1.02, 0.85)[i]
        base = palm + v * pw * off + u * pw * 0.35
        tip = base + u * pw * reach * 0.7
        cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255,
                 max(2, int(pw * 0.2)), cv2.LINE_AA)
    thumb0 = palm + v * pw * 0.45
    thumb1 = thumb0 + (u * 0.5 + v * 0.6) * pw * 0.55
    cv2.line(mask, (int(thumb0[0]), int(thumb0[1])), (int(thumb1[0]), int(thumb1[1])), 255,
             max(2, int(pw * 0.22)), cv2.LINE_AA)
    return mask.astype(np.float32) / 255.0


def draw_hand(img: np.ndarray, hand: Hand, shadow_offset: np.ndarray, shadow_strength: float) -> None:
    """Paint the hand and its soft shadow onto ``img`` (float32 BGR) in place."""
    h, w = img.shape[:2]
    q = 4
    small = hand_mask(hand, h, w, 1.0 / q)
    m = np.float32([[1, 0, shadow_offset[0] / q], [0, 1, shadow_offset[1] / q]])
    shadow = cv2.warpAffine(small, m, (small.shape[1], small.shape[0]))
    shadow = cv2.GaussianBlur(shadow, (0, 0), hand.width / q * 0.1)
    img *= 1.0 - shadow_strength * 0.8 * cv2.resize(shadow, (w, h))[:, :, None]
    # Rounded-limb shading: brighter along the middle, darker at the silhouette (from the
    # quarter-size mask, which is plenty for so smooth a gradient).
    inner_small = cv2.GaussianBlur(small, (0, 0), hand.width / q * 0.12)
    full = hand_mask(hand, h, w)
    ys, xs = np.nonzero(small > 0)
    if len(ys) == 0:
        return
    y0, y1 = max(0, ys.min() * q - q), min(h, ys.max() * q + 2 * q)
    x0, x1 = max(0, xs.min() * q - q), min(w, xs.max() * q + 2 * q)
    inner = cv2.resize(inner_small, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    skin = np.asarray(_SKIN[hand.tone % len(_SKIN)], np.float32)
    color = skin * (0.55 + 0.55 * inner)[:, :, None]
    a = full[y0:y1, x0:x1, None]
    region = img[y0:y1, x0:x1]
    region *= 1 - a
    region += color * a
