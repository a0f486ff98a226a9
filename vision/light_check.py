"""Is the camera set up well? A verdict on light, glare, focus and die size, in words.

Shown on the calibration page while the table sets the camera up: each problem is one short
sentence that says what to do ("dice too small: lower the camera"), and an empty list means the
camera sees the dice well.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.reader import Die

#: Mean brightness (0-255) below which the table is too dark to read, and above which it washes out.
DARK, BRIGHT = 55.0, 215.0
#: A die whose top face has more than this share of blown-out pixels has glare on it.
GLARE_SHARE = 0.04
#: Variance of the Laplacian on a die's face below which it is out of focus (or blurred by motion).
SHARP = 40.0
#: Die sizes (top face side, px) the reader works best with.
SMALLEST, LARGEST = 50.0, 140.0


def assess(frame: np.ndarray, dice: Sequence[Die]) -> list[str]:
    """The problems with this frame for reading dice; [] when all is well."""
    problems: list[str] = []
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    brightness = float(gray.mean())
    if brightness < DARK:
        problems.append("too dark: add light over the table")
    elif brightness > BRIGHT:
        problems.append("too bright: the picture is washed out; dim or diffuse the light")
    if not dice:
        problems.append("no dice seen: roll some dice in view of the camera")
        return problems
    glare = blurred = 0
    for die in dice:
        face = _face(gray, die)
        if face.size == 0:
            continue
        if float((face >= 250).mean()) > GLARE_SHARE:
            glare += 1
        if float(cv2.Laplacian(face, cv2.CV_64F).var()) < SHARP:
            blurred += 1
    if glare:
        problems.append(f"glare on {glare} {'die' if glare == 1 else 'dice'}: move or diffuse the lamp")
    if blurred > len(dice) // 3:
        problems.append("out of focus: adjust the camera's focus or hold it steady")
    size = float(np.median([d.size for d in dice]))
    if size < SMALLEST:
        problems.append(f"dice too small ({size:.0f} px): lower the camera")
    elif size > LARGEST:
        problems.append(f"dice too large ({size:.0f} px): raise the camera")
    return problems


def _face(gray: np.ndarray, die: Die) -> np.ndarray:
    half = die.size * 0.35  # the middle of the top face, clear of its edges
    x, y = die.center
    h, w = gray.shape
    x0, x1 = int(max(0, x - half)), int(min(w, x + half))
    y0, y1 = int(max(0, y - half)), int(min(h, y + half))
    return gray[y0:y1, x0:x1]
