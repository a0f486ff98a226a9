"""A lamp's glare on a die's face, told from the paint under it.

Glare whitens a soft blob of the face: it rises to its peak over several pixels. Paint, even
light paint on a colored die, has sharp edges, and thin strokes of it are opened away. Left in
the face's ink, a glare blob reads as paint, as much as the thickest symbol's: over line art's
thin strokes it matched the finger best. The reader asks of the player a die read surely whose
face, read again without the glare, matches another symbol best, or its own too poorly for any
face to be read (`vision.reader.GLARE_MADE`; the first rule alone: renderer, 300 scenes per
style: errors 244 -> 237, wrong 60 -> 53; flagged 1599 -> 1621, 7 dice read wrong and 15 read
right now asked; with cocked dice as cubes 685 -> 676; box C, taught on 8 and on its 70
four-image teachings, read die for die as before).
"""

from __future__ import annotations

import cv2
import numpy as np

from .medians import column_medians
from .symbols import inner

GLARE_LEVEL = 40.0  # whitening (BGR distance toward white) below which a face shows no glare
STROKE_PX = 5  # paint strokes narrower than this (face window pixels) are opened away
SOFT_PX = 3.5  # a whitened blob whose peak is this many times its steepest rise (px) is glare
_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (STROKE_PX, STROKE_PX))
_GROW = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def glare_mask(pixels_bgr: np.ndarray, face_bgr: np.ndarray | None = None) -> np.ndarray | None:
    """Where a soft glare blob whitens `pixels_bgr` (a face's window or patch, at the reader's
    face scale), grown by two pixels, or None when it shows none. The face's body color is the
    median of `face_bgr` (default: the pixels themselves)."""
    body = column_medians((pixels_bgr if face_bgr is None else face_bgr).reshape(-1, 3))
    toward_white = 255.0 - body
    length = float(np.sqrt(toward_white @ toward_white))
    if length < 1.0:
        return None  # a face as white as can be shows no glare
    whitening = (np.float32(pixels_bgr) - body) @ (toward_white / length).astype(np.float32)
    if float(whitening.max()) < GLARE_LEVEL:
        return None
    np.maximum(whitening, 0.0, out=whitening)
    opened = cv2.morphologyEx(whitening, cv2.MORPH_OPEN, _OPEN)
    peak = float(opened.max())
    if peak < GLARE_LEVEL:
        return None
    around = cv2.dilate((opened > 0.5 * peak).astype(np.uint8), _GROW) > 0
    smooth = cv2.GaussianBlur(whitening, (0, 0), 1.0)
    rise = cv2.magnitude(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3))
    if peak < SOFT_PX * float(rise[around].max()) / 8.0:  # (Sobel's 3x3 weighs a step 8 times)
        return None  # sharp-edged: paint
    return around


def without_glare(window_bgr: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """`ink` (the window's ink map, `vision.symbols.ink_map`) with a glare blob on the face set
    to the window's plain level, or `ink` itself when the face shows none."""
    mask = glare_mask(window_bgr, inner(window_bgr))
    if mask is None:
        return ink
    cleaned = ink.copy()
    cleaned[mask] = float(np.median(ink))
    return cleaned
