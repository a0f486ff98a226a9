"""A second opinion on a face whose symbol the templates read doubtfully: a discriminant learnt
from the teaching faces themselves.

Template matching compares a face with each symbol's mean face and reads the symbol from the
margin between the two best correlations. Blur, grain and glare shrink that margin even when the
face is plain to see, because every pixel counts alike: the ones where the symbols differ and the
ones where faces of one symbol differ among themselves (worn paint, a shadow's edge, the die's
rim). A linear discriminant weighs them apart. From the teaching faces (each seen a little off
center and off size too, as a reading finds them) it learns how faces of one symbol vary, and
measures a face's distance to each symbol's mean face in those terms (Mahalanobis, with the
within-symbol covariance shrunk toward a multiple of the identity: a few hundred faces cannot
fill 676 dimensions, and the shrinkage keeps what plain correlation already knew). Only the
`RANK` directions that vary most within a symbol are stored; every other direction counts as
the shrinkage's multiple of the identity, which is what it nearly is.

Each face is aligned to each symbol's own template first (quarter turn and shift, as
`vision.symbols.match` does), so each symbol is asked about its best view of the face. The gap
between the best and second-best symbol's log-likelihood is told in units of the teaching faces'
own median gap: in raw units it moves with the teaching (twofold between two of the renderer's
art styles).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .stored_arrays import array_from_json, array_to_json
from .symbols import TEMPLATE_PX, aligned_patches, face_angle, face_window, ink_map, match, standardized

# Within-symbol directions kept: on the doubtful faces of 200 renderer scenes (classic and line
# art), 96 told right from wrong readings as the whole covariance did, 32 somewhat worse.
RANK = 64
SHRINK = 0.3  # share of the covariance replaced by a multiple of the identity
# Each taught face is also seen this far off center (in face sides) and this much off size: a
# reading's window sits no better (a face refined to within a few pixels, a size from its blob).
JITTERS = ((0.0, 0.0, 1.0), (0.04, 0.0, 1.0), (0.0, 0.04, 1.0), (-0.04, 0.0, 1.0), (0.0, -0.04, 1.0),
           (0.0, 0.0, 0.93), (0.0, 0.0, 1.07))
_KEYS = ("anchors", "mean", "class_means", "axes", "shrunk")


@dataclass(frozen=True, eq=False)
class SymbolDiscriminant:
    """Per symbol (`symbols`), the template a face is aligned to (`anchors`) and the mean
    aligned face (`class_means`, relative to `mean`); the within-symbol covariance as its
    `axes` (TEMPLATE_PX**2 x RANK) with the share of each axis' spread that counts
    (`shrunk`), over `floor`, the spread every other direction has; `scale`: the teaching
    faces' median gap."""

    symbols: tuple[str, ...]
    anchors: np.ndarray
    mean: np.ndarray
    class_means: np.ndarray
    axes: np.ndarray
    shrunk: np.ndarray
    floor: float
    scale: float

    def verdict(self, window_ink: np.ndarray) -> tuple[str, float]:
        """The symbol a face's ink window (WINDOW_PX square, see `vision.symbols.ink_map`) most
        likely shows, and by how much more likely than the next: the log-likelihood gap in
        units of the teaching faces' median gap."""
        likelihoods = self._log_likelihoods(self._aligned(window_ink))
        order = np.argsort(likelihoods)
        return self.symbols[int(order[-1])], float(likelihoods[order[-1]] - likelihoods[order[-2]]) / self.scale

    def _aligned(self, window_ink: np.ndarray) -> np.ndarray:
        """The window's best patch for each symbol's template, turned like it, standardized
        (one row per symbol)."""
        return np.array([standardized(patch).ravel() for patch in aligned_patches(window_ink, self._anchor_list)],
                        np.float32)

    @cached_property
    def _anchor_list(self) -> list[tuple[str, np.ndarray]]:
        """The anchors as `vision.symbols` takes templates: one list for good, which keeps its
        turned bank cached by the list."""
        return list(zip(self.symbols, self.anchors))

    def _log_likelihoods(self, aligned: np.ndarray) -> np.ndarray:
        """Row k of `aligned` as symbol k's face: minus half its Mahalanobis distance."""
        offsets = aligned - self.mean - self.class_means
        along = offsets @ self.axes
        return -0.5 * ((offsets * offsets).sum(axis=1) - (along * along) @ self.shrunk) / self.floor

    def to_json(self) -> dict:
        """The arrays as `vision.stored_arrays` keeps them, the rest as numbers."""
        return {"symbols": list(self.symbols), "floor": self.floor, "scale": self.scale,
                **{key: array_to_json(getattr(self, key)) for key in _KEYS}}

    @staticmethod
    def from_json(data: dict) -> "SymbolDiscriminant":
        """What `to_json` wrote; ValueError when its arrays do not fit together or it tells
        fewer than two symbols apart."""
        arrays = {key: array_from_json(data[key]) for key in _KEYS}
        symbols = tuple(str(s) for s in data["symbols"])
        pixels = TEMPLATE_PX * TEMPLATE_PX
        if len(symbols) < 2 or arrays["anchors"].shape != (len(symbols), TEMPLATE_PX, TEMPLATE_PX) or \
                arrays["mean"].shape != (pixels,) or arrays["class_means"].shape != (len(symbols), pixels) or \
                arrays["axes"].shape[0] != pixels or arrays["shrunk"].shape != (arrays["axes"].shape[1],):
            raise ValueError("symbol discriminant arrays do not fit together, or fewer than two symbols")
        return SymbolDiscriminant(symbols, floor=float(data["floor"]), scale=float(data["scale"]), **arrays)


def fit_discriminant(faces: list[tuple[np.ndarray, tuple[float, float], float, str]],
                     anchors: dict[str, np.ndarray]) -> SymbolDiscriminant | None:
    """Learn from taught faces, (BGR image, face center, face side, symbol) each, and one
    template per symbol to align them to (`anchors`). None when too few faces teach it: fewer
    than two symbols, or fewer faces than symbols twice over."""
    symbols = tuple(sorted(s for s in anchors if any(face[3] == s for face in faces)))
    if len(symbols) < 2 or len(faces) < 2 * len(symbols):
        return None
    lists = {s: [(s, anchors[s])] for s in symbols}
    vectors, labels = [], []
    for image, (x, y), side, symbol in faces:
        if symbol not in lists:
            continue
        for dx, dy, stretch in JITTERS:
            center, size = (x + dx * side, y + dy * side), side * stretch
            window = face_window(image, center, size, face_angle(image, center, size))
            vectors.append(standardized(match(ink_map(window), lists[symbol]).patch).ravel())
            labels.append(symbols.index(symbol))
    data = np.array(vectors, np.float64)
    classes = np.array(labels)
    mean = data.mean(axis=0)
    centered = data - mean
    class_means = np.array([centered[classes == k].mean(axis=0) for k in range(len(symbols))])
    within = centered - class_means[classes]
    covariance = within.T @ within / len(within)
    floor = SHRINK * float(np.trace(covariance)) / covariance.shape[0]
    spreads, axes = np.linalg.eigh(covariance)
    rank = min(RANK, len(spreads))
    spreads, axes = (1.0 - SHRINK) * spreads[::-1][:rank], axes[:, ::-1][:, :rank]
    model = SymbolDiscriminant(symbols, np.array([anchors[s] for s in symbols], np.float32),
                               mean.astype(np.float32), class_means.astype(np.float32), axes.astype(np.float32),
                               (spreads / (spreads + floor)).astype(np.float32), floor, 1.0)
    # The scale: the median gap of the taught faces themselves, each as its own symbol's.
    gaps = []
    for vector, k in zip(data.astype(np.float32), classes):
        likelihoods = model._log_likelihoods(np.repeat(vector[None, :], len(symbols), axis=0))
        gaps.append(likelihoods[k] - np.delete(likelihoods, k).max())
    return dataclasses.replace(model, scale=max(float(np.median(gaps)), 1e-6))
