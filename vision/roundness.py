"""Whether a thing's outline is round: a poker chip's or a coin's is, a die's is not, from any side.

Seen from above, a die's outline is a square or, cocked, a hexagon or an oblong: the distance
from its middle to its outline changes all the way round it (from 1 to 1.41 for a square). A chip
or a coin is a disc: that distance stays the same, about whatever point near its middle it is
measured from. So the outline is sought along rays from where the thing was reported, as each
ray's strongest color step, and a circle is fitted through the steps found, its middle allowed
off that point; how far the outline strays from the circle tells a disc from a die.
"""

from __future__ import annotations

import cv2
import numpy as np

from .outline import ray_steps

RAYS = 48
SAMPLES = 64  # points along each ray
REACH = 1.0  # rays end this many die sides from the point (a chip may be wider than a die)
FROM = 0.25  # steps nearer the point than this (a face's paint, a chip's inner ring) are not the outline
GAP = 2  # a step is the change over this many points of a ray
FIT_ROUNDS = 3  # the circle is fitted again without the rays that strayed (a neighbour, a line)
STRAY = 2.5  # a ray strays when it misses the circle by more than this many times the median miss
# A die's outline misses the best circle by this share of its radius at most (median over the
# rays) to count as a disc. Renderer, 300 scenes per style, every die read with confidence under
# 0.5 (1653 dice, cocked ones and flat): at least 0.046 (a cocked white die reported half a side
# off its label, 0.057 for the next); 100 scenes per style with cocked dice drawn as cubes (484
# dice): at least 0.057; box C, taught on its 8 and on 10 four-image teachings, under four lamps
# (158): at least 0.065. Of the 75 things the renderer's frames took for dice not read surely,
# 17 are discs by this bar (chips, coins and a mat's round letters, 0.025 or less; the next lies
# at 0.031).
DISC = 0.03


def round_misfit(frame_bgr: np.ndarray, center: tuple[float, float], size: float) -> float:
    """How far the outline of the thing at `center` (about `size` wide) strays from the circle
    that fits it best, as the median miss over the circle's radius: near 0 for a disc."""
    change = ray_steps(frame_bgr, center, REACH * size, RAYS, SAMPLES, GAP, _FIRST)
    radii = (np.argmax(change, axis=1) + _FIRST + GAP / 2.0).astype(np.float64)
    # r(theta) = r0 + a cos(theta) + b sin(theta): to first order, a circle of radius r0 whose
    # middle lies (a, b) off the point. (OpenCV's solve: 9 us a fit, numpy's lstsq 40 us.)
    kept = _ALL_RAYS
    for _ in range(FIT_ROUNDS):
        fit = cv2.solve(_CIRCLE[kept], radii[kept, None], flags=cv2.DECOMP_QR)[1].ravel()
        misses = np.abs(radii - _CIRCLE @ fit)
        kept = misses <= max(STRAY * float(np.median(misses[kept])), 1.0)
        if kept.sum() < RAYS // 2:
            break
    return float(np.median(misses) / max(fit[0], 1.0))


_FIRST = int(FROM / REACH * SAMPLES)  # the first point of a ray sought for the outline
_THETA = np.arange(RAYS) * (2.0 * np.pi / RAYS)
_CIRCLE = np.stack([np.ones(RAYS), np.cos(_THETA), np.sin(_THETA)], axis=1)  # a circle's terms per ray
_ALL_RAYS = np.ones(RAYS, bool)


def is_disc(frame_bgr: np.ndarray, center: tuple[float, float], size: float) -> bool:
    """Whether the thing at `center`, about `size` wide, is a disc (a chip, a coin): see DISC."""
    return round_misfit(frame_bgr, center, size) <= DISC
