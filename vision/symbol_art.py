"""Procedural art for the four die symbols, in several clearly different styles.

Each symbol is drawn with OpenCV primitives on a 256 x 256 canvas and returned as a float mask
(1 where the symbol is engraved and painted, 0 elsewhere), scaled down to the size asked for.
Real boxes differ in their art, so the reader must learn a style from teaching images; having
several styles here is what lets tests check that teaching actually generalises.

Styles:
- ``classic``: filled, rounded silhouettes (pointing hand, pistol, martini glass, gavel).
- ``line``: the classic silhouettes as thin outlines with a few inner detail lines.
- ``bold``: blocky, geometric icons built from straight-edged blocks (tommy gun, square glass).
- ``stencil``: the classic silhouettes cut by stencil bridges into separate painted pieces.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

STYLES: tuple[str, ...] = ("classic", "line", "bold", "stencil")
SYMBOLS: tuple[str, ...] = ("finger", "gun", "cocktail", "gavel")

_CANVAS = 256
_AA = cv2.LINE_AA


def _pts(points: list[tuple[float, float]]) -> np.ndarray:
    return np.array(points, dtype=np.int32).reshape(-1, 1, 2)


def _rounded_rect(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, r: int, value: int) -> None:
    """Fill an axis-aligned rectangle with rounded corners."""
    r = max(1, min(r, (x1 - x0) // 2, (y1 - y0) // 2))
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), value, -1, _AA)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), value, -1, _AA)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, value, -1, _AA)


def _rotated_box(img: np.ndarray, center: tuple[float, float], size: tuple[float, float],
                 angle: float, value: int) -> None:
    box = cv2.boxPoints((center, size, angle))
    cv2.fillConvexPoly(img, box.astype(np.int32), value, _AA)


# --- classic silhouettes --------------------------------------------------------------------

def _classic_finger(img: np.ndarray) -> None:
    # Fist, index finger pointing up, thumb across the front, and a cuff.
    _rounded_rect(img, 78, 112, 186, 212, 26, 255)
    _rounded_rect(img, 84, 22, 124, 140, 20, 255)
    cv2.rectangle(img, (96, 214), (174, 240), 255, -1, _AA)
    for y in (142, 168, 192):  # gaps between the curled fingers
        cv2.line(img, (130, y), (190, y), 0, 6, _AA)
    cv2.line(img, (128, 112), (128, 140), 0, 6, _AA)
    cv2.line(img, (80, 150), (134, 150), 0, 6, _AA)  # thumb across the fist
    cv2.ellipse(img, (134, 164), (14, 14), 0, -90, 90, 0, 6, _AA)
    cv2.line(img, (80, 178), (134, 178), 0, 6, _AA)
    cv2.line(img, (90, 213), (180, 213), 0, 5, _AA)


def _classic_gun(img: np.ndarray) -> None:
    # Pistol pointing right: slide, sights, slanted grip, trigger guard.
    _rounded_rect(img, 34, 72, 222, 112, 8, 255)
    cv2.rectangle(img, (204, 60), (214, 74), 255, -1, _AA)
    cv2.rectangle(img, (34, 58), (52, 76), 255, -1, _AA)
    cv2.fillConvexPoly(img, _pts([(58, 108), (118, 108), (100, 206), (40, 198)]), 255, _AA)
    cv2.circle(img, (140, 128), 24, 255, 9, _AA)
    cv2.line(img, (138, 112), (132, 134), 255, 7, _AA)
    cv2.line(img, (40, 92), (200, 92), 0, 4, _AA)  # slide seam
    for i in range(3):  # grip checkering
        y = 140 + 20 * i
        cv2.line(img, (62 - i * 3, y), (100 - i * 3, y), 0, 4, _AA)


def _classic_cocktail(img: np.ndarray) -> None:
    # Martini glass with an olive on a pick.
    cv2.fillConvexPoly(img, _pts([(40, 52), (216, 52), (128, 146)]), 255, _AA)
    cv2.rectangle(img, (121, 140), (135, 208), 255, -1, _AA)
    cv2.ellipse(img, (128, 214), (56, 13), 0, 0, 360, 255, -1, _AA)
    cv2.line(img, (52, 66), (204, 66), 0, 5, _AA)  # liquid line
    cv2.circle(img, (150, 88), 20, 0, -1, _AA)
    cv2.circle(img, (150, 88), 14, 255, -1, _AA)
    cv2.line(img, (118, 20), (162, 104), 255, 6, _AA)  # pick


def _classic_gavel(img: np.ndarray) -> None:
    # Judge's hammer: head with wider end caps, handle, sound block.
    _rotated_box(img, (100, 78), (130, 50), -40, 255)
    _rotated_box(img, (100 - 50, 78 + 42), (24, 66), -40, 255)
    _rotated_box(img, (100 + 50, 78 - 42), (24, 66), -40, 255)
    cv2.line(img, (100, 78), (190, 186), 255, 17, _AA)
    cv2.circle(img, (190, 186), 11, 255, -1, _AA)
    _rounded_rect(img, 24, 200, 140, 234, 8, 255)
    cv2.line(img, (24, 212), (140, 212), 0, 4, _AA)


_CLASSIC = {
    "finger": _classic_finger,
    "gun": _classic_gun,
    "cocktail": _classic_cocktail,
    "gavel": _classic_gavel,
}


# --- bold, blocky icons ---------------------------------------------------------------------

def _bold_finger(img: np.ndarray) -> None:
    # Index finger as a tall block, fist as stacked bars with clear gaps, a square cuff.
    cv2.rectangle(img, (70, 24), (112, 120), 255, -1)
    for i, y in enumerate((122, 152, 182)):
        cv2.rectangle(img, (70, y), (200 - 8 * i, y + 24), 255, -1)
    cv2.fillConvexPoly(img, _pts([(40, 130), (70, 130), (70, 200), (40, 178)]), 255)
    cv2.rectangle(img, (80, 212), (186, 240), 255, -1)


def _bold_gun(img: np.ndarray) -> None:
    # Tommy gun: barrel, body, drum magazine (octagon), stock and grip.
    cv2.rectangle(img, (120, 92), (236, 108), 255, -1)
    cv2.rectangle(img, (70, 84), (150, 118), 255, -1)
    cv2.fillConvexPoly(img, _pts([(20, 96), (70, 86), (70, 118), (20, 142)]), 255)
    octagon = cv2.ellipse2Poly((118, 140), (26, 26), 22, 0, 360, 45)
    cv2.fillConvexPoly(img, octagon, 255)
    cv2.circle(img, (118, 140), 8, 0, -1)
    cv2.fillConvexPoly(img, _pts([(150, 118), (170, 118), (176, 168), (156, 168)]), 255)
    cv2.rectangle(img, (190, 108), (204, 150), 255, -1)


def _bold_cocktail(img: np.ndarray) -> None:
    # Geometric glass: thick V with a square olive cut out, square stem and foot bar.
    cv2.fillConvexPoly(img, _pts([(30, 40), (226, 40), (128, 150)]), 255)
    cv2.fillConvexPoly(img, _pts([(68, 62), (188, 62), (128, 128)]), 0)
    cv2.rectangle(img, (112, 76), (138, 102), 255, -1)
    cv2.rectangle(img, (116, 148), (140, 204), 255, -1)
    cv2.rectangle(img, (60, 204), (196, 228), 255, -1)


def _bold_gavel(img: np.ndarray) -> None:
    # Head as a blocky diagonal bar, square handle, stepped sound block.
    _rotated_box(img, (100, 86), (140, 60), 45, 255)
    _rotated_box(img, (100, 86), (44, 88), 45, 0)
    _rotated_box(img, (100, 86), (30, 60), 45, 255)
    _rotated_box(img, (164, 150), (110, 24), 45, 255)
    cv2.rectangle(img, (40, 204), (176, 236), 255, -1)
    cv2.rectangle(img, (64, 186), (152, 204), 255, -1)


_BOLD = {
    "finger": _bold_finger,
    "gun": _bold_gun,
    "cocktail": _bold_cocktail,
    "gavel": _bold_gavel,
}


def _draw_canvas(style: str, symbol: str) -> np.ndarray:
    """The symbol at full canvas resolution, uint8 0/255."""
    img = np.zeros((_CANVAS, _CANVAS), np.uint8)
    if style == "bold":
        _BOLD[symbol](img)
        return img
    _CLASSIC[symbol](img)
    if style == "line":
        # Outline of the silhouette: a clean line-art look from the same design.
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
        return cv2.subtract(img, cv2.erode(img, kernel))
    if style == "stencil":
        # Diagonal bridges cut the paint into separate pieces, like stencilled engraving.
        cut = np.zeros_like(img)
        for k in range(-256, 512, 54):
            cv2.line(cut, (k, 0), (k + 140, 256), 255, 6, _AA)
        return cv2.subtract(img, cut)
    return img


@lru_cache(maxsize=None)
def _canvas(style: str, symbol: str) -> np.ndarray:
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; expected one of {STYLES}")
    if symbol not in SYMBOLS:
        raise ValueError(f"unknown symbol {symbol!r}; expected one of {SYMBOLS}")
    img = _draw_canvas(style, symbol)
    img.setflags(write=False)
    return img


@lru_cache(maxsize=2048)
def symbol_mask(style: str, symbol: str, size: int) -> np.ndarray:
    """The symbol as a float32 mask of ``size`` x ``size`` pixels, values in [0, 1].

    Cached per (style, symbol, size) because a scene draws many dice of similar sizes.
    The returned array is read-only: callers must copy before changing it.
    """
    size = max(4, int(size))
    canvas = _canvas(style, symbol)
    mask = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    mask.setflags(write=False)
    return mask
