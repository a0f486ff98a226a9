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
from .medians import column_medians

RAYS = 32  # rays around the die, eight per side
SAMPLES = 24  # points along each ray
REACH = 0.85  # rays end this many face sides from the center (past the die's rounded edge)
FROM = 0.3  # steps nearer the center than this (the symbol's paint) are not the outline
STEP = 0.08  # a step is the change over twice this many face sides along a ray

_RAYS = np.arange(RAYS)
_TURNED_RAYS = (_RAYS[None, :] + _RAYS[:, None]) % RAYS  # row k: the rays from the k-th on
_GAP = max(1, round(STEP / REACH * SAMPLES))
_FIRST = max(0, int(FROM / REACH * SAMPLES) - _GAP)


def side_steps(frame_bgr: np.ndarray, center: tuple[float, float], size: float, angle: float) -> np.ndarray:
    """The color step across the outline on each side of a die whose face, `size` pixels wide
    and turned by `angle` degrees, is centered at `center`: four values, weakest first."""
    change = ray_steps(frame_bgr, center, REACH * size, RAYS, SAMPLES, 2 * _GAP, _FIRST)
    per_ray = cv2.reduce(change, 1, cv2.REDUCE_MAX).ravel()
    # Rays are at 0, 360/RAYS, ... degrees; turn them so each side's rays sit together (the
    # turned order looked up: two numpy calls fewer, each some 1.5 us).
    first_ray = int(round((angle - 45.0) / 360.0 * RAYS))
    sides = np.sort(per_ray.take(_TURNED_RAYS[first_ray % RAYS]).reshape(4, RAYS // 4), axis=1)
    middle = RAYS // 8  # the median of a side's rays
    return np.sort((sides[:, middle - 1] + sides[:, middle]) * 0.5)


def ray_steps(frame_bgr: np.ndarray, center: tuple[float, float], reach: float, rays: int, samples: int,
              span: int, first: int) -> np.ndarray:
    """The color steps along `rays` rays from `center`, `samples` points each out to `reach`
    pixels (evenly round, the first pointing right): a (rays, n) array whose column i is the
    change, summed over the opponent colors, from point first + i to point first + i + `span`."""
    image, center = _within(frame_bgr, center, reach)
    polar = cv2.warpPolar(image, (samples, rays), (float(center[0]), float(center[1])), reach,
                          cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR)
    opponent = cv2.transform(np.float32(polar), OPPONENT)
    # OpenCV's calls on these small arrays cost a fraction of numpy's: this runs for every blob.
    return cv2.transform(cv2.absdiff(opponent[:, first + span:], opponent[:, first:samples - span]), CHANNEL_SUM)


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


PAST_FACE = (0.62, 0.95)  # face sides from the center, out past a side: a cocked die's second face
# ... and past where any die's outline ends: a cocked die's second face reaches about 1.05 sides
# from the center of the face read, a card's edge, a finger or a printed line run on
PAST_DIE = (1.05, 1.45)
ALONG_FACE = 0.25  # face sides either way of the center: the face's own sides
SIDE_LINE = (0.32, 0.72)  # face sides from the center line, across which a side's step is sought
EDGE_PX = 40  # pixels per face side in the crop these are measured on
_EDGE_GAP = round(0.1 * EDGE_PX)  # a step across a side line is the change over this many pixels
_LINE = (int(SIDE_LINE[0] * EDGE_PX), int(SIDE_LINE[1] * EDGE_PX))


def edges_past_face(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
                    angle: float, past: tuple[float, float] = PAST_FACE) -> list[tuple[tuple[float, float], float]]:
    """How far a die's outline runs on past each side of its top face: for each side, the way
    out of the face across it (a unit vector in the frame; down and up the face turned by
    `angle` first, then right and left) and how strongly the two sides next to it step on past
    it, `past` sides out (PAST_FACE: over a cocked die's second face; PAST_DIE: beyond any die),
    over how strongly they step along the face (the weaker side of the two each time).

    A cocked die's face lies next to its second face: its outline runs on over that face, a
    flat die's stops at its side and shade. A neighbour's outline runs on too, so the caller
    asks only of the sides where it knows of no other die."""
    zoom = EDGE_PX / size
    # The crop reaches past `past` and SIDE_LINE each way (a face side at least).
    half = max(EDGE_PX, int(math.ceil(past[1] * EDGE_PX)) + 1)
    rotation = cv2.getRotationMatrix2D((float(center[0]), float(center[1])), angle, zoom)
    rotation[:, 2] += (half - center[0], half - center[1])
    crop = cv2.warpAffine(frame_bgr, rotation, (2 * half, 2 * half), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)
    opponent = cv2.transform(np.float32(crop), OPPONENT)
    # Steps across columns (the side lines of the ways up and down the crop), and across rows
    # (of the ways left and right).
    across_columns = cv2.transform(cv2.absdiff(opponent[:, _EDGE_GAP:], opponent[:, :-_EDGE_GAP]), CHANNEL_SUM)
    across_rows = cv2.transform(cv2.absdiff(opponent[_EDGE_GAP:], opponent[:-_EDGE_GAP]), CHANNEL_SUM)
    # The steps across a side line, on either side of the center line: the step between pixels
    # i and i + _EDGE_GAP sits at i, so the far side's window starts _EDGE_GAP nearer.
    sides = (slice(half + _LINE[0], half + _LINE[1] - _EDGE_GAP),
             slice(half - _LINE[1] + 1, half - _LINE[0] - _EDGE_GAP + 1))
    # Each side line's strongest step at each point along its way (OpenCV's reduce: a tenth of
    # numpy's time on these small arrays), one column per side line.
    # (np.concatenate: hstack and vstack add a third to its time here.)
    along_columns = np.concatenate([cv2.reduce(across_columns[:, side], 1, cv2.REDUCE_MAX) for side in sides], axis=1)
    along_rows = np.concatenate([cv2.reduce(across_rows[side], 0, cv2.REDUCE_MAX) for side in sides]).T
    own_rows = slice(half - int(ALONG_FACE * EDGE_PX), half + int(ALONG_FACE * EDGE_PX))
    first, last = int(past[0] * EDGE_PX), int(past[1] * EDGE_PX)
    beyond_rows = (slice(half + first, half + last), slice(half - last + 1, half - first + 1))
    ways = face_ways(center, size, angle)
    found = []
    for strongest, (out, back) in ((along_columns, ways[:2]), (along_rows, ways[2:])):
        # The medians of the face's own stretch and of the stretches past it either way, for
        # both side lines at a time.
        # (Least of two or four values as Python floats: numpy's min costs 1.5 us a call.)
        own = min(column_medians(strongest[own_rows]).tolist())
        beyond = column_medians(np.concatenate([strongest[rows] for rows in beyond_rows], axis=1)).tolist()
        for way, far in ((out, min(beyond[:2])), (back, min(beyond[2:]))):
            found.append((way, far / max(own, 1.0)))
    return found


def face_ways(center: tuple[float, float], size: float, angle: float) -> list[tuple[float, float]]:
    """The four ways out of the face `size` wide at `center`, turned by `angle`, across its sides,
    as unit vectors in the frame, in the order `edges_past_face` gives them: down and up the
    face's columns, then right and left along its rows."""
    # `edges_past_face`'s own crop map: its first row is zoom * (cos, sin).
    rotation = cv2.getRotationMatrix2D((float(center[0]), float(center[1])), angle, EDGE_PX / size)
    cos, sin = float(rotation[0, 0]), float(rotation[0, 1])
    length = math.hypot(cos, sin)
    across, down = (cos / length, sin / length), (-sin / length, cos / length)  # the crop's x and y
    return [down, (-down[0], -down[1]), across, (-across[0], -across[1])]
