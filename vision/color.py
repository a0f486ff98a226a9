"""Per-pixel color model: which die color (or the table) a pixel most likely belongs to.

Taught from labelled images: pixels near labelled die centers give each die color's histogram,
pixels far from every die give the table's. Reading is then one table look-up per pixel, which is
what a Pi-class CPU can afford on every frame. Nothing about the colors is fixed in code: a box
with green dice on a white table works the same once taught.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

BITS = 5  # bits kept per BGR channel: 32 levels, 32768 bins
LEVELS = 1 << BITS
BACKGROUND = "table"


def bin_index(bgr: np.ndarray) -> np.ndarray:
    """Histogram bin of every BGR pixel (any leading shape)."""
    # In place on one uint16 plane: a third fewer passes over the frame than one expression.
    q = bgr >> (8 - BITS)
    index = q[..., 0].astype(np.uint16)
    index <<= 2 * BITS
    green = q[..., 1].astype(np.uint16)
    green <<= BITS
    index |= green
    index |= q[..., 2]
    return index


def _smooth(hist: np.ndarray, passes: int = 2) -> np.ndarray:
    """Blur a 3-D histogram with a [1 2 1] kernel along each axis, so unseen shades of a color
    next to seen ones (other lamps, JPEG noise) still count for it."""
    h = hist.reshape(LEVELS, LEVELS, LEVELS).astype(np.float64)
    for _ in range(passes):
        for axis in range(3):
            padded = np.concatenate([h.take([0], axis), h, h.take([-1], axis)], axis=axis)
            n = h.shape[axis]
            h = (padded.take(range(0, n), axis) + 2 * padded.take(range(1, n + 1), axis)
                 + padded.take(range(2, n + 2), axis)) / 4.0
    return h.reshape(-1)


CHROMA_LEVELS = 24  # bins per chromaticity axis (r and g shares of r+g+b)
BRIGHTNESS_EDGES = (40.0, 90.0, 160.0)  # mean-level edges of the 4 coarse brightness bins


def _chroma_index(bgr: np.ndarray) -> np.ndarray:
    """Bin of each pixel in (chromaticity r, chromaticity g, coarse brightness): a space where
    a shaded die and a lit one of the same paint mostly fall together."""
    pixels = bgr.reshape(-1, 3).astype(np.float32) + 0.5
    total = pixels.sum(axis=1)
    r = np.minimum((pixels[:, 2] / total * CHROMA_LEVELS).astype(np.int32), CHROMA_LEVELS - 1)
    g = np.minimum((pixels[:, 1] / total * CHROMA_LEVELS).astype(np.int32), CHROMA_LEVELS - 1)
    brightness = np.searchsorted(np.array(BRIGHTNESS_EDGES), total / 3.0)
    return ((r * CHROMA_LEVELS + g) * (len(BRIGHTNESS_EDGES) + 1) + brightness).reshape(bgr.shape[:-1])


def _smooth_chroma(hist: np.ndarray) -> np.ndarray:
    """Blur a chroma histogram: [1 2 1] twice along both chroma axes, and mostly flatten the
    brightness axis, so a die color seen only under bright lamps is still known in the shade."""
    h = hist.reshape(CHROMA_LEVELS, CHROMA_LEVELS, -1).astype(np.float64)
    for _ in range(2):
        for axis in range(2):
            n = h.shape[axis]
            padded = np.concatenate([h.take([0], axis), h, h.take([-1], axis)], axis=axis)
            h = (padded.take(range(0, n), axis) + 2 * padded.take(range(1, n + 1), axis)
                 + padded.take(range(2, n + 2), axis)) / 4.0
    h = 0.5 * h + 0.5 * h.mean(axis=2, keepdims=True)
    return h.reshape(-1)


def _bin_centers() -> np.ndarray:
    """BGR value at the center of every histogram bin, in bin-index order."""
    levels = (np.arange(LEVELS) << (8 - BITS)) + (1 << (7 - BITS))
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    return np.stack([b, g, r], axis=-1).reshape(-1, 3).astype(np.uint8)


@dataclass(frozen=True)
class ColorModel:
    """Posterior of each class (table first, then die colors) for every BGR bin, and, for a
    pixel known to be on a die, which die color it is (from a brightness-tolerant model)."""

    classes: tuple[str, ...]  # classes[0] is the table
    posterior: np.ndarray  # (LEVELS**3, len(classes)) float32, rows sum to 1
    die_color: np.ndarray  # (LEVELS**3, len(classes) - 1) float32, rows sum to 1

    @staticmethod
    def from_samples(samples: dict[str, np.ndarray], die_prior: float = 0.35) -> "ColorModel":
        """Build from BGR pixel samples per class (key `BACKGROUND` for the table).

        `die_prior` is the share of prior mass given to dice as a whole: dice are rare pixels
        but we would rather see a die-colored pixel as a die and let size and shape reject it.
        """
        colors = sorted(k for k in samples if k != BACKGROUND)
        classes = (BACKGROUND, *colors)
        likelihoods = []
        for name in classes:
            counts = np.bincount(bin_index(samples[name]), minlength=LEVELS ** 3)
            smoothed = _smooth(counts) + 1e-3
            likelihoods.append(smoothed / smoothed.sum())
        prior = np.array([1 - die_prior] + [die_prior / len(colors)] * len(colors))
        joint = np.stack(likelihoods, axis=1) * prior
        posterior = joint / joint.sum(axis=1, keepdims=True)
        chroma_bins = CHROMA_LEVELS * CHROMA_LEVELS * (len(BRIGHTNESS_EDGES) + 1)
        chroma_likelihoods = []
        for name in colors:
            counts = np.bincount(_chroma_index(samples[name][:, None, :]).ravel(), minlength=chroma_bins)
            smoothed = _smooth_chroma(counts) + 1e-6
            chroma_likelihoods.append(smoothed / smoothed.sum())
        per_bin = np.stack(chroma_likelihoods, axis=1)[_chroma_index(_bin_centers()[:, None, :]).ravel()]
        die_color = per_bin / per_bin.sum(axis=1, keepdims=True)
        return ColorModel(classes, posterior.astype(np.float32), die_color.astype(np.float32))

    def classify(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per pixel: posterior of the table (*shape) and die color given die, one plane per
        die color (len(classes) - 1, *shape): contiguous planes, which the detector thresholds
        and blurs one by one."""
        # np.take makes its indices intp: once here, not for each of the four tables (0.25 ms).
        index = bin_index(bgr).astype(np.intp)
        table = np.take(self._posterior_planes[0], index, mode="clip")  # (see `_lookup`)
        return table, _lookup(self._die_color_planes, index)

    # Each table one class per contiguous row: a 1-D take per class is much faster than
    # gathering rows of the (bins, classes) table. Kept on the model itself: a cache keyed by
    # the arrays' ids handed a new model a freed model's tables once their ids were reused.
    @cached_property
    def _posterior_planes(self) -> np.ndarray:
        return np.ascontiguousarray(self.posterior.T)

    @cached_property
    def _die_color_planes(self) -> np.ndarray:
        return np.ascontiguousarray(self.die_color.T)


def _lookup(planes: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Each plane's value at every index: (len(planes), *index.shape)."""
    out = np.empty((planes.shape[0],) + index.shape, np.float32)
    for k in range(planes.shape[0]):
        # Every bin index is in range, so "clip" changes nothing but speed: with the default
        # "raise" numpy buffers `out` (a third slower than no `out` at all).
        np.take(planes[k], index, out=out[k], mode="clip")
    return out
