"""Things on the table that are not dice: cards, poker-chip tokens, coins and the table's edge.

Each is a small immutable ``Distractor``; ``draw_distractor`` paints it onto a float32 BGR image
and ``distractor_outline`` gives the polygon it covers, so dice placement can avoid (or, for
cards, deliberately allow) overlap. They are here because a reader must not take a red card
corner, a round token or a coin's glint for a die.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

DISTRACTOR_KINDS: tuple[str, ...] = ("card", "token", "coin", "edge")

_CARD_BACKS = [(0.12, 0.10, 0.55), (0.45, 0.22, 0.08), (0.10, 0.10, 0.10), (0.15, 0.35, 0.12)]
_TOKEN_COLORS = [(0.12, 0.12, 0.70), (0.60, 0.30, 0.10), (0.12, 0.12, 0.12), (0.20, 0.55, 0.20),
                 (0.85, 0.85, 0.85), (0.10, 0.60, 0.80)]


@dataclass(frozen=True)
class Distractor:
    """``kind`` at ``center`` (px), ``size`` (card height / token or coin diameter / edge band
    width, px), rotated by ``angle`` degrees; ``variant`` picks colors and print."""

    kind: str
    center: tuple[float, float]
    size: float
    angle: float
    variant: int


def distractor_outline(d: Distractor) -> np.ndarray:
    """Polygon (N x 2, float32) covered by the distractor in the image."""
    if d.kind == "card":
        box = ((d.center[0], d.center[1]), (d.size * 0.7, d.size), d.angle)
        return cv2.boxPoints(box).astype(np.float32)
    if d.kind in ("token", "coin"):
        pts = cv2.ellipse2Poly((int(d.center[0]), int(d.center[1])),
                               (int(d.size / 2), int(d.size / 2)), 0, 0, 360, 20)
        return pts.astype(np.float32)
    raise ValueError(f"{d.kind!r} has no outline")


def _poly(img: np.ndarray, pts: np.ndarray, color, shift: int = 4) -> None:
    cv2.fillPoly(img, [np.round(pts * (1 << shift)).astype(np.int32)], color, cv2.LINE_AA, shift)


def _draw_card(img: np.ndarray, d: Distractor) -> None:
    rng = np.random.default_rng(d.variant)
    w, h = d.size * 0.7, d.size
    pad = int(d.size * 0.8)
    cx, cy = d.center
    x0, y0 = int(cx) - pad, int(cy) - pad
    tile = np.zeros((2 * pad, 2 * pad, 3), np.float32)
    mask = np.zeros((2 * pad, 2 * pad), np.float32)
    local = ((cx - x0, cy - y0), (w, h), d.angle)
    outer = cv2.boxPoints(local)
    inner = cv2.boxPoints((local[0], (w * 0.86, h * 0.9), d.angle))
    face_up = rng.random() < 0.4
    white = (0.88, 0.90, 0.92)
    _poly(mask, outer, 1.0)
    _poly(tile, outer, white)
    if face_up:  # a favor card: title band, a picture box and lines of text
        ink = _CARD_BACKS[int(rng.integers(len(_CARD_BACKS)))]
        _poly(tile, cv2.boxPoints((local[0], (w * 0.8, h * 0.45), d.angle)), ink)
        rot = np.radians(d.angle)
        up = np.array([np.sin(rot), -np.cos(rot)], np.float32)
        for k in range(4):
            c = np.array(local[0], np.float32) - up * (h * (0.3 + 0.06 * k) - h * 0.02)
            _poly(tile, cv2.boxPoints((tuple(c), (w * 0.7 * (1 - 0.15 * (k % 2)), h * 0.02), d.angle)),
                  (0.2, 0.2, 0.2))
    else:  # a card back: colored field with a diamond lattice and a logo ring
        back = _CARD_BACKS[int(rng.integers(len(_CARD_BACKS)))]
        field = np.zeros_like(mask)
        _poly(field, inner, 1.0)
        # Diamond lattice sin(x+y)·sin(x-y) = sin²x - sin²y: separable, so cheap to build.
        t = np.sin(np.arange(2 * pad, dtype=np.float32) * 0.35) ** 2
        lattice = ((t[None, :] - t[:, None]) > 0.2).astype(np.float32)
        colors = np.asarray(back, np.float32) * (0.85 + 0.25 * lattice[:, :, None])
        tile = tile * (1 - field[:, :, None]) + colors * field[:, :, None]
        cv2.ellipse(tile, (int(local[0][0]), int(local[0][1])), (int(w * 0.25), int(h * 0.14)),
                    d.angle, 0, 360, (0.3, 0.7, 0.9), max(2, int(d.size / 60)), cv2.LINE_AA)
    _paste(img, x0, y0, tile, mask)


def _draw_round(img: np.ndarray, d: Distractor) -> None:
    r = d.size / 2
    pad = int(r) + 4
    cx, cy = d.center
    x0, y0 = int(cx) - pad, int(cy) - pad
    yy, xx = np.mgrid[0:2 * pad, 0:2 * pad].astype(np.float32)
    dx, dy = xx + 0.5 - (cx - x0), yy + 0.5 - (cy - y0)
    dist = np.hypot(dx, dy)
    mask = np.clip(r - dist + 0.5, 0, 1)
    if d.kind == "coin":  # flat metal disc: brushed sheen, raised rim, embossed emblem
        gold = d.variant % 2 == 0
        base = np.array((0.30, 0.60, 0.78) if gold else (0.66, 0.66, 0.64), np.float32)
        ang = np.radians(d.angle)
        along = (dx * np.cos(ang) + dy * np.sin(ang)) / r
        sheen = 0.85 + 0.2 * along + 0.08 * np.cos(6 * np.arctan2(dy, dx))
        ring = np.abs(dist - r * 0.86)
        rim = np.clip(1 - ring / (r * 0.06), 0, 1)
        relief = np.zeros_like(dist)
        star = cv2.ellipse2Poly((int(cx - x0), int(cy - y0)), (int(r * 0.45), int(r * 0.45)),
                                int(d.angle), 0, 360, 72)
        cv2.polylines(relief, [star[[0, 2, 4, 1, 3]]], True, 1.0, max(1, int(r / 10)), cv2.LINE_AA)
        tile = base * (sheen + 0.25 * rim * np.sign(along + 0.2) - 0.2 * relief)[:, :, None]
    else:  # poker-chip token: colored disc, white edge spots, inner ring
        base = np.array(_TOKEN_COLORS[d.variant % len(_TOKEN_COLORS)], np.float32)
        ang = np.mod(np.degrees(np.arctan2(dy, dx)) + d.angle, 60)
        spots = ((ang < 15) & (dist > r * 0.75)).astype(np.float32)
        ring = np.clip(1 - np.abs(dist - r * 0.62) / (r * 0.04), 0, 1)
        tile = base * np.ones_like(dist)[:, :, None]
        white = np.array((0.9, 0.9, 0.9), np.float32)
        tile = tile * (1 - spots[:, :, None]) + white * spots[:, :, None]
        tile = tile * (1 - ring[:, :, None]) + white * ring[:, :, None]
        tile *= (1.0 - 0.15 * np.clip(dist / r, 0, 1) ** 4)[:, :, None]
    _paste(img, x0, y0, tile.astype(np.float32), mask)


def _draw_edge(img: np.ndarray, d: Distractor) -> None:
    """The table's edge: a wooden rim band with a bevel highlight, then the dark floor."""
    h, w = img.shape[:2]
    side = d.variant % 4
    band = int(d.size)
    rng = np.random.default_rng(d.variant)
    length = w if side in (0, 2) else h
    rim = np.empty((band, length, 3), np.float32)
    ys = np.arange(band, dtype=np.float32)[:, None]
    grain = 0.5 + 0.5 * np.sin(ys * 0.7 + rng.uniform(0, 6) + 0.02 * np.arange(length)[None, :])
    rim[:] = np.array((0.08, 0.14, 0.22), np.float32)
    rim *= (0.85 + 0.15 * grain)[:, :, None]
    lip = max(3, band // 5)
    rim[:lip] *= np.linspace(1.8, 1.0, lip, dtype=np.float32)[:, None, None]
    floor = int(band * 0.55)
    rim[band - floor:] = np.array((0.05, 0.05, 0.06), np.float32)
    if side == 0:
        img[h - band:] = rim
    elif side == 2:
        img[:band] = rim[::-1]
    elif side == 1:
        img[:, w - band:] = rim.transpose(1, 0, 2)
    else:
        img[:, :band] = rim.transpose(1, 0, 2)[:, ::-1]


def edge_side(d: Distractor) -> str:
    """Which frame side an ``edge`` distractor covers: bottom, right, top or left."""
    return ("bottom", "right", "top", "left")[d.variant % 4]


def _paste(img: np.ndarray, x0: int, y0: int, tile: np.ndarray, mask: np.ndarray) -> None:
    h, w = img.shape[:2]
    th, tw = mask.shape
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x0 + tw), min(h, y0 + th)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    t = tile[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    m = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    region = img[cy0:cy1, cx0:cx1]
    region *= 1 - m
    region += t * m


def draw_distractor(img: np.ndarray, d: Distractor) -> None:
    """Paint ``d`` onto ``img`` (float32 BGR) in place."""
    if d.kind == "card":
        _draw_card(img, d)
    elif d.kind in ("token", "coin"):
        _draw_round(img, d)
    elif d.kind == "edge":
        _draw_edge(img, d)
    else:
        raise ValueError(f"unknown distractor {d.kind!r}; expected one of {DISTRACTOR_KINDS}")
