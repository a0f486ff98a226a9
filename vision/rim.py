"""A die's color, told from its rim: the band around the edge of its top face.

Under a hard lamp the top face of a red or blue die washes out to pink or pale blue, close to
a white die's cream, while the rounded edges and sides beside it keep the plastic's full color.
The band from a little inside the face's edge to a little outside it holds those edges; its
more colorful half (which leaves out a white die's grey shading and the table between dice)
has a chroma that tells the die colors apart far better than the face does: on the photo-like
box C, 0 wrong of 245 dice from labelled centers, against 12 wrong from the face's middle.

The band needs the face center to within about a tenth of a side, so it is measured after the
symbol match has recentred the face window, not at a blob's centroid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from .medians import column_medians

BAND = (0.42, 0.58)  # inner and outer radius of the rim band, in face sides
SURROUND = (0.95, 1.15)  # the ring just outside a die's outline, seen from above
EDGE_RING = (0.55, 0.7)  # just past a face's edge: the die's own rounded edge when the face read is washed out
EDGE_RING_PIXELS = 150  # of it, sampled: enough to tell what share of it has a color, at a fifth of the cost
COLORFUL_SHARE = 0.5  # the rim's most colorful half is the plastic's edge, not shade or table
MIN_SPREAD = 3.0  # floor on a color's chroma spread (Lab units), so few samples do not overfit
MIN_PIXELS = 12
MAX_BAND_PIXELS = 600


def rim_chroma(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
               gain: float = 1.0) -> np.ndarray | None:
    """The rim band's (a, b) chroma in Lab, or None when too little of it lies in the frame.

    `gain` is the frame's exposure gain (`vision.exposure`), applied to the band's pixels only.
    """
    band = _band_chroma(frame_bgr, center, size, gain, BAND)
    return None if band is None else _colorful(band)


def _colorful(band: np.ndarray) -> np.ndarray:
    """The median chroma of the band's more colorful half."""
    chroma = band[:, 0] ** 2 + band[:, 1] ** 2
    keep = max(1, int(len(band) * COLORFUL_SHARE))
    colorful = band.take(np.argpartition(chroma, len(band) - keep)[len(band) - keep:], axis=0)
    return column_medians(colorful)


def surround_chromas(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
                     gain: float = 1.0) -> np.ndarray | None:
    """The (a, b) chroma of each pixel (sampled) of the ring just outside a die's outline,
    (N, 2), or None when too little of the ring lies in the frame."""
    return _band_chroma(frame_bgr, center, size, gain, SURROUND)


def edge_ring_chromas(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
                      gain: float = 1.0) -> np.ndarray | None:
    """The (a, b) chroma of each pixel (sampled) of the ring just past a face's edge (EDGE_RING),
    (N, 2), or None when too little of it lies in the frame. A face washed out by a hard lamp
    can be read smaller than its die: the die's own color rings it there."""
    return _band_chroma(frame_bgr, center, size, gain, EDGE_RING, most=EDGE_RING_PIXELS)


def band_pixels(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
                band: tuple[float, float] = BAND) -> np.ndarray | None:
    """The BGR pixels (N, 3) of a band around a face (inner and outer radius in face sides),
    or None when too little of it lies in the frame."""
    dy, dx, reach = _band_offsets(int(round(size)), band)
    cy, cx = int(round(center[1])), int(round(center[0]))
    height, width = frame_bgr.shape[:2]
    if reach <= cy < height - reach and reach <= cx < width - reach and len(dy) >= MIN_PIXELS:
        # The whole band in the frame (nearly every die).
        if frame_bgr.flags.c_contiguous and frame_bgr.ndim == 3:
            # Rows of the frame's pixels taken at flat offsets: a fifth of the time of indexing
            # by (row, column) pairs (600 pixels: 18.6 -> 4.7 us), the same pixels.
            pixels = frame_bgr.reshape(height * width, frame_bgr.shape[2])
            return pixels.take(_flat_offsets(dy, dx, width, int(round(size)), band) + (cy * width + cx), axis=0)
        return frame_bgr[dy + cy, dx + cx]
    ys, xs = dy + cy, dx + cx
    inside = (ys >= 0) & (ys < height) & (xs >= 0) & (xs < width)
    if np.count_nonzero(inside) < MIN_PIXELS:
        return None
    return frame_bgr[ys[inside], xs[inside]]


def colorful_chromas(pixels: np.ndarray, ends: list[int], gains: tuple[float, float, float]) -> np.ndarray:
    """The rim chroma (see `rim_chroma`) of each of several bands, (K, 2), with per-channel
    gains applied; `pixels` holds the bands' BGR pixels one after another, band i ending at
    `ends[i]` (converted in one go: far faster than band by band)."""
    chromas = _chromas(cv2.multiply(pixels[:, None, :], (*gains, 0.0), dtype=cv2.CV_8U)[:, 0])
    return np.array([_colorful(band) for band in np.split(chromas, ends[:-1])])


def _band_chroma(frame_bgr: np.ndarray, center: tuple[float, float], size: float, gain: float,
                 band: tuple[float, float], most: int | None = None) -> np.ndarray | None:
    """The (a, b) chroma of each pixel of a band (see `band_pixels`), evenly sampled down to
    about `most` pixels when given; None when too little of it lies in the frame."""
    pixels = band_pixels(frame_bgr, center, size, band)
    if pixels is None:
        return None
    if most is not None and len(pixels) > most:
        pixels = np.ascontiguousarray(pixels[::len(pixels) // most])
    if gain != 1.0:
        # As one row of pixels, as `_chromas` converts them (the same values as a column).
        pixels = cv2.convertScaleAbs(pixels[None], alpha=gain)[0]
    return _chromas(pixels)


def _chromas(pixels: np.ndarray) -> np.ndarray:
    """Lab (a, b) of (N, 3) BGR pixels, (N, 2)."""
    # Converted as one row, not a column of one-pixel rows: OpenCV converts row by row, and a
    # row's SIMD path converts 600 pixels in half the time (7 against 14 us), to the same
    # values (checked on all 2^24 colors).
    return np.subtract(cv2.cvtColor(pixels[None], cv2.COLOR_BGR2LAB)[0, :, 1:], 128.0, dtype=np.float32)


_OFFSETS: dict[tuple[int, tuple[float, float]], tuple[np.ndarray, np.ndarray, int]] = {}
_FLAT_OFFSETS: dict[tuple[int, tuple[float, float], int], np.ndarray] = {}


def _flat_offsets(dy: np.ndarray, dx: np.ndarray, width: int, size: int, band: tuple[float, float]) -> np.ndarray:
    """The band's offsets (`_band_offsets`: `dy`, `dx`, for `size` and `band`) as offsets into
    a frame `width` pixels wide flattened to one row of pixels."""
    key = (size, band, width)
    flat = _FLAT_OFFSETS.get(key)
    if flat is None:
        if len(_FLAT_OFFSETS) > 256:
            _FLAT_OFFSETS.clear()
        flat = _FLAT_OFFSETS[key] = (dy * width + dx).astype(np.intp)
    return flat


def _band_offsets(size: int, band: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, int]:
    """Pixel offsets (dy, dx) of a band (inner and outer radius in face sides) around a die's
    center, for a face side of `size` pixels, and how far they reach at most either way."""
    key = (size, band)
    if key not in _OFFSETS:
        if len(_OFFSETS) > 256:
            _OFFSETS.clear()
        reach = int(math.ceil(band[1] * size))
        dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
        radius = np.hypot(dy, dx) / max(size, 1)
        inside = (radius >= band[0]) & (radius < band[1])
        dy, dx = dy[inside], dx[inside]
        step = max(1, len(dy) // MAX_BAND_PIXELS)  # a big die's band holds far more than needed
        _OFFSETS[key] = (dy[::step], dx[::step], reach)
    return _OFFSETS[key]


@dataclass(frozen=True)
class RimColors:
    """Per die color, the mean and covariance of its rim chroma, as taught."""

    colors: tuple[str, ...]
    means: np.ndarray  # (K, 2)
    covariances: np.ndarray  # (K, 2, 2)

    @staticmethod
    def fit(samples: dict[str, list[np.ndarray]]) -> "RimColors | None":
        """From rim chromas per color; None unless every color has at least two samples."""
        colors = tuple(sorted(samples))
        if not colors or any(len(samples[c]) < 2 for c in colors):
            return None
        means, covariances = [], []
        for color in colors:
            points = np.array(samples[color], np.float64)
            means.append(points.mean(axis=0))
            covariances.append(np.cov(points.T) + np.eye(2) * MIN_SPREAD ** 2)
        return RimColors(colors, np.array(means), np.array(covariances))

    def probabilities(self, chroma: np.ndarray) -> dict[str, float]:
        """Posterior of each color for one rim chroma (equal priors)."""
        # In Python floats: for one chroma and three colors numpy's calls cost more than the
        # arithmetic (12 -> 3 us), asked of every face read.
        x, y = float(chroma[0]), float(chroma[1])
        log_likelihoods = [-0.5 * _squared(x - mx, y - my, terms) - half_log_det
                           for (mx, my), terms, half_log_det in self._terms]
        top = max(log_likelihoods)
        weights = [math.exp(v - top) for v in log_likelihoods]
        total = sum(weights)
        return {c: w / total for c, w in zip(self.colors, weights)}

    def distances(self, chromas: np.ndarray, color: str) -> np.ndarray:
        """Mahalanobis distance of each chroma ((N, 2) or (2,)) from a color's taught rim
        chroma (inf for a color not taught)."""
        if color not in self.colors:
            return np.full(np.shape(chromas)[:-1], math.inf)
        return self.distances_from(chromas, self.means[self.colors.index(color)], color)

    def distances_from(self, chromas: np.ndarray, center: np.ndarray, color: str) -> np.ndarray:
        """Mahalanobis distance of each chroma from `center`, in a color's taught spread (inf
        for a color not taught)."""
        chromas = np.asarray(chromas, np.float64)
        if color not in self.colors:
            return np.full(chromas.shape[:-1], math.inf)
        _, terms, _ = self._terms[self.colors.index(color)]
        if chromas.ndim == 1:  # one chroma (most calls): in Python floats, as `probabilities`
            return np.float64(math.sqrt(max(_squared(float(chromas[0] - center[0]), float(chromas[1] - center[1]),
                                                     terms), 0.0)))
        x, y = chromas[..., 0] - center[0], chromas[..., 1] - center[1]
        return np.sqrt(np.maximum(_squared(x, y, terms), 0.0))

    def near_share(self, chromas: np.ndarray, color: str, limit: float) -> float:
        """The share of `chromas` ((N, 2)) within Mahalanobis distance `limit` of a color's
        taught rim chroma (0 for a color not taught)."""
        if color not in self.colors or len(chromas) == 0:
            return 0.0
        k = self.colors.index(color)
        x = np.asarray(chromas[:, 0], np.float64) - self.means[k, 0]
        y = np.asarray(chromas[:, 1], np.float64) - self.means[k, 1]
        return float(np.count_nonzero(_squared(x, y, self._terms[k][1]) < limit * limit)) / len(chromas)

    @cached_property
    def palest(self) -> str:
        """The color whose taught rim chroma is least colorful (a white die's)."""
        return self.colors[int(np.argmin(np.hypot(*self.means.T)))]

    @cached_property
    def _terms(self) -> list[tuple[tuple[float, float], tuple[float, float, float], float]]:
        """Per color: its mean, its inverse covariance's (a, b, c) (see `_squared`) and half
        its covariance's log determinant, as Python floats."""
        return [((float(mean[0]), float(mean[1])), (float(inverse[0, 0]), float(inverse[0, 1]), float(inverse[1, 1])),
                 0.5 * float(log_det))
                for mean, inverse, log_det in zip(self.means, self._inverses, self._log_determinants)]

    @cached_property
    def _inverses(self) -> np.ndarray:
        return np.linalg.inv(self.covariances)

    @cached_property
    def _log_determinants(self) -> np.ndarray:
        return np.log(np.linalg.det(self.covariances))

    def to_json(self) -> dict:
        return {"colors": list(self.colors), "means": self.means.round(3).tolist(),
                "covariances": self.covariances.round(3).tolist()}

    @staticmethod
    def from_json(data: dict) -> "RimColors":
        return RimColors(tuple(str(c) for c in data["colors"]), np.array(data["means"], np.float64).reshape(-1, 2),
                         np.array(data["covariances"], np.float64).reshape(-1, 2, 2))


def _squared(x: float | np.ndarray, y: float | np.ndarray, terms: tuple[float, float, float]) -> float | np.ndarray:
    """The squared Mahalanobis length of offsets (x, y) (floats or arrays) under the inverse
    covariance [[a, b], [b, c]] given as `terms` (a, b, c)."""
    a, b, c = terms
    return a * x * x + 2.0 * b * x * y + c * y * y
