"""Is a candidate blob a die? A small logistic model over what the reader measured.

Cards, tokens, coins, table art and shadows can be die-colored and die-sized; what gives them
away is the combination: poor symbol match, ragged or elongated blob, unsure color, odd size,
no step in color all round where a die's outline would be (`vision.outline`).
The weights are fitted at teaching time on the teach images themselves (blobs the detector
finds there, labelled die or not by the labels), so they fit this box and this table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

FEATURES = ("score", "margin", "fill", "aspect", "color_confidence", "size_misfit", "outline_weakest",
            "outline_second")
MAX_STEP = 400.0  # outline steps are clipped here (opponent-color units)


def features(score: float, margin: float, fill: float, aspect: float, color_confidence: float,
             size_ratio: float, outline: tuple[float, float]) -> np.ndarray:
    """Feature vector in `FEATURES` order; `size_ratio` is face size over the taught median,
    `outline` the color steps on the face's two weakest sides (`vision.outline`)."""
    return np.array([score, margin, fill, min(aspect, 3.0), color_confidence,
                     size_misfit(size_ratio), math.log1p(min(outline[0], MAX_STEP)),
                     math.log1p(min(outline[1], MAX_STEP))], dtype=np.float64)


def size_misfit(size_ratio: float) -> float:
    """How far a size ratio is from 1, alike for twice and half as big."""
    return abs(math.log(max(size_ratio, 1e-3)))


@dataclass(frozen=True)
class Plausibility:
    """Standardization and logistic weights; `probability` is P(die | features)."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def probability(self, x: np.ndarray) -> float:
        mean, scale, weights = self._arrays
        logit = float(((x - mean) / scale) @ weights) + self.bias
        return 1.0 / (1.0 + math.exp(-min(max(logit, -30.0), 30.0)))

    def highest_probability(self, low: np.ndarray, high: np.ndarray) -> float:
        """The highest `probability` over feature vectors with each feature anywhere between
        `low` and `high`: the logit is linear, so each feature's best end decides."""
        mean, scale, weights = self._arrays
        best = np.where(weights >= 0.0, np.maximum(low, high), np.minimum(low, high))
        return self.probability(best)

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.array(self.mean), np.array(self.scale), np.array(self.weights)

    @staticmethod
    def fit(x: np.ndarray, is_die: np.ndarray, l2: float = 0.15, steps: int = 800) -> "Plausibility":
        """Logistic regression by gradient descent (a few hundred samples: milliseconds).
        Classes are weighted equally so a table full of distractors does not drown the dice.

        The weights are held back (`l2`, on a loss whose classes weigh one half each) because the
        teach blobs are few and read with templates that saw their own box: fitted closely, the
        model turned down dice of the frame it had not seen (box C's 70 four-image teachings:
        l2 0.01 / 0.05 / 0.15 / 0.3 / 0.5 / 1.0 gave 766 / 720 / 694 / 683 / 681 / 947 errors;
        renderer, 400 scenes: 323 at 0.05 and 0.15). 0.15 keeps clear of the cliff, where the
        held-back model calls too many blobs dice; 0.3 already lost dice that 0.05 found (a red die
        a lamp's correction washed out, a die seen from a nearer camera) and took a patch of felt
        between cards for a die."""
        mean = x.mean(axis=0)
        scale = x.std(axis=0) + 1e-6
        z = (x - mean) / scale
        y = is_die.astype(np.float64)
        positives = max(y.sum(), 1.0)
        negatives = max(len(y) - y.sum(), 1.0)
        sample_weight = np.where(y > 0, 0.5 / positives, 0.5 / negatives)
        w = np.zeros(z.shape[1])
        b = 0.0
        for _ in range(steps):
            p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
            g = (p - y) * sample_weight
            w -= 1.0 * (z.T @ g + l2 * w)
            b -= 1.0 * g.sum()
        return Plausibility(tuple(mean.tolist()), tuple(scale.tolist()), tuple(w.tolist()), float(b))

    @staticmethod
    def permissive() -> "Plausibility":
        """Accepts everything: used when teaching saw no non-die blobs to learn from."""
        n = len(FEATURES)
        return Plausibility((0.0,) * n, (1.0,) * n, (0.0,) * n, 10.0)
