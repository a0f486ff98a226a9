"""Per-pixel color model: which die color (or the table) a pixel most likely belongs to.

Taught from labelled images: pixels near labelled die centers give each die color's histogram,
pixels far from every die give the table's. Reading is then one table look-up per pixel, which is
what a Pi-class CPU can afford on every frame. Nothing about the colors is fixed in code: a box
with green dice on a white table works the same once taught.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BITS = 5  # bits kept per BGR channel: 32 levels, 32768 bins
LEVELS = 1 << BITS
BACKGROUND = "table"


def bin_index(bgr: np.ndarray) -> np.ndarray:
    """Histogram bin of every BGR pixel (any leading shape)."""
    q = (bgr >> (8 - BITS)).astype(np.int32)
    return (q[..., 0] << (2 * BITS)) | (q[..., 1] << BITS) | q[..., 2]


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


@dataclass(frozen=True)
class ColorModel:
    """Posterior of each class (table first, then die colors) for every BGR bin."""

    classes: tuple[str, ...]  # classes[0] is the table
    posterior: np.ndarray  # (LEVELS**3, len(classes)) float32, rows sum to 1

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
        return ColorModel(classes, posterior.astype(np.float32))

    def classify(self, bgr: np.ndarray) -> np.ndarray:
        """Posterior per class for every pixel: shape (*bgr.shape[:-1], len(classes))."""
        return self.posterior[bin_index(bgr)]
