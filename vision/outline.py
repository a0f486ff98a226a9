"""How clearly a die's outline stands out from what lies around it, on each of its four sides.

A die is a solid with edges: along each side of its top face the color steps, from the face
or its rounded edge to the die's side, its shadow or the table. A patch of table, a stretch of a
card or a printed line in a die's color has no such step all the way round (a finger or a
line has two sides, a patch of cloth none); this holds whatever the symbol art, the table or the
lamp, so it tells dice from die-colored things where the face cannot be read.

The step is measured along rays from the face's center, in opponent colors (lightness,
red-green, yellow-blue: a red die on red felt still steps in lightness), as the biggest change
over a short stretch of each ray between a third of a face side and well outside the face;
each side's strength is the median over its rays, so a single touching neighbour or a line
crossing one side moves it little.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .detect import CHANNEL_SUM, OPPONENT

RAYS = 32  # rays around the die, eight per side
SAMPLES = 24  # points along each ray
REACH = 0.85  # rays end this many face sides from the center (past the die's rounded edge)
FROM = 0.3  # steps nearer the center than this (the symbol's paint) are not the outline
STEP = 0.08  # a step is the change over twice this many face sides along a ray

_RAYS = np.arange(RAYS)
_GAP = max(1, round(STEP / REACH * SAMPLES))
_FIRST = max(0, int(FROM / REACH * SAMPLES) - _GAP)


def side_steps(frame_bgr: np.ndarray, center: tuple[float, float], size: float, angle: float) -> np.ndarray:
    """The color step across the outline on each side of a die whose face, `size` pixels wide
    and turned by `angle` degrees, is centered at `center`: four values, weakest first."""
    image, center = _within(frame_bgr, center, REACH * size)
    polar = cv2.warpPolar(image, (SAMPLES, RAYS), (float(center[0]), float(center[1])), REACH * size,
                          cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR)
    opponent = cv2.transform(np.float32(polar), OPPONENT)
    # OpenCV's calls on these small arrays cost a fraction of numpy's: this runs for every blob.
    change = cv2.transform(cv2.absdiff(opponent[:, 2 * _GAP + _FIRST:], opponent[:, _FIRST:-2 * _GAP]), CHANNEL_SUM)
    per_ray = change.max(axis=1).ravel()
    # Rays are at 0, 360/RAYS, ... degrees; turn them so each side's rays sit together.
    first_ray = int(round((angle - 45.0) / 360.0 * RAYS))
    sides = np.sort(per_ray[(_RAYS + first_ray) % RAYS].reshape(4, RAYS // 4), axis=1)
    middle = RAYS // 8  # the median of a side's rays
    return np.sort((sides[:, middle - 1] + sides[:, middle]) * 0.5)


def _within(frame_bgr: np.ndarray, center: tuple[float, float], radius: float
            ) -> tuple[np.ndarray, tuple[float, float]]:
    """An image holding the frame around `center` to `radius`, and the center in it: the frame
    itself, or for a die near its edge a crop with what lies beyond the edge replicated from it.
    warpPolar leaves the rays' points it cannot sample untouched (uninitialized memory, a
    different step on every call); replicated, the frame's edge is no step at all. A center off
    the frame is taken at the nearest point of the frame."""
    height, width = frame_bgr.shape[:2]
    cx, cy = min(max(float(center[0]), 0.0), width - 1.0), min(max(float(center[1]), 0.0), height - 1.0)
    reach = int(math.ceil(radius)) + 2
    x0, y0 = int(round(cx)) - reach, int(round(cy)) - reach
    x1, y1 = x0 + 2 * reach + 1, y0 + 2 * reach + 1
    if x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height:
        return frame_bgr, center
    inside = frame_bgr[max(y0, 0):min(y1, height), max(x0, 0):min(x1, width)]
    crop = cv2.copyMakeBorder(inside, max(0, -y0), max(0, y1 - height), max(0, -x0), max(0, x1 - width),
                              cv2.BORDER_REPLICATE)
    return crop, (cx - x0, cy - y0)
