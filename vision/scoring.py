"""Scoring readings against labels, exactly as `dice-images.md` says: a read die matches a
labelled die when their centers lie within half the die's side; then missed, phantom, wrong and
flagged are counted per image."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FLAG_BELOW = 0.5


@dataclass(frozen=True)
class Score:
    """Counts for one or more images; `cocked_ok` counts cocked dice read null or flagged."""

    dice: int = 0
    read: int = 0
    wrong: int = 0
    missed: int = 0
    phantoms: int = 0
    flagged: int = 0
    cocked: int = 0
    cocked_ok: int = 0

    def __add__(self, other: "Score") -> "Score":
        return Score(*(a + b for a, b in zip(vars(self).values(), vars(other).values())))

    @property
    def errors(self) -> int:
        return self.wrong + self.missed + self.phantoms


def matched_pairs(read: list[dict], labels: list[dict], default_size: float | None = None) -> list[tuple[int, int]]:
    """The (label index, reading index) pairs the spec's scoring matches: greedy by distance,
    one-to-one, a reading within half the die's side of a label's center (the label's size if it
    has one, else the read size)."""
    pairs = []
    for i, truth in enumerate(labels):
        for j, die in enumerate(read):
            side = truth.get("size") or die.get("size") or default_size or 0.0
            distance = float(np.hypot(truth["center"][0] - die["center"][0], truth["center"][1] - die["center"][1]))
            if distance <= 0.5 * side:
                pairs.append((distance, i, j))
    pairs.sort()
    used_truth, used_read, matched = set(), set(), []
    for _, i, j in pairs:
        if i in used_truth or j in used_read:
            continue
        used_truth.add(i)
        used_read.add(j)
        matched.append((i, j))
    return matched


def score_image(read: list[dict], labels: list[dict], default_size: float | None = None) -> Score:
    """Score one image's reading (dicts with color, symbol, center, size, confidence) against its
    labelled dice, matched as `matched_pairs` says."""
    matched = matched_pairs(read, labels, default_size)
    wrong = flagged = cocked_ok = 0
    for i, j in matched:
        truth, die = labels[i], read[j]
        is_flagged = die["confidence"] < FLAG_BELOW
        flagged += is_flagged
        if truth.get("symbol") is None:
            cocked_ok += die.get("symbol") is None or is_flagged
        if not is_flagged and (die["color"] != truth["color"] or die.get("symbol") != truth.get("symbol")):
            wrong += 1
    cocked = sum(1 for t in labels if t.get("symbol") is None)
    return Score(dice=len(labels), read=len(read), wrong=wrong, missed=len(labels) - len(matched),
                 phantoms=len(read) - len(matched), flagged=flagged, cocked=cocked, cocked_ok=cocked_ok)
