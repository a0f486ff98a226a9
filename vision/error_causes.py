"""Why a reading of a rendered scene went wrong: each error the spec's scoring counts (a die read
wrong, missed, or a phantom) put down to what the scene shows there; and why each die it asked
of the player (flagged) was asked.

The benchmark counts errors; this says where they lie (leaning dice read as flat ones, glare on
a face, dice lost against a neighbour, tokens or print taken for dice), so that work on the
reader goes where its errors are. Only a rendered scene knows its glare spots and distractors:
photographs are scored by count alone.
"""

from __future__ import annotations

import math
from collections import Counter

import cv2

from .distractors import distractor_outline
from .scene import Scene
from .scoring import FLAG_BELOW, matched_pairs

GLARE_ON_FACE = 0.35  # a glare spot this many die sides from a die's middle lies on its face
TOUCHING = 1.25  # dice whose middles lie closer than this many sides touch
BESIDE = 1.2  # a phantom this near a labelled die (in its sides) is that die read off its middle
PRINTED_TABLES = frozenset({"playmat", "cloth_print"})  # tables with die-sized print on them


def error_causes(scene: Scene, labels: list[dict], read: list[dict]) -> Counter[str]:
    """The errors of `read` (dicts as `vision.reader.Die.to_json` gives) against the scene's
    `labels` (as `vision.render.render` gives, each with its size), counted by cause: keys are
    "wrong: ...", "missed: ..." and "phantom: ...", and their counts add up to the scoring's
    wrong, missed and phantoms."""
    matched = matched_pairs(read, labels)
    causes: Counter[str] = Counter()
    for i, j in matched:
        truth, die = labels[i], read[j]
        if die["confidence"] < FLAG_BELOW or _read_right(truth, die):
            continue
        causes["wrong: " + _why_wrong(scene, truth, die)] += 1
    found = {i for i, _ in matched}
    for i, truth in enumerate(labels):
        if i not in found:
            causes["missed: " + _why_missed(labels, truth)] += 1
    taken = {j for _, j in matched}
    for j, die in enumerate(read):
        if j not in taken:
            causes["phantom: " + _why_phantom(scene, labels, die)] += 1
    return causes


def flag_causes(scene: Scene, labels: list[dict], read: list[dict]) -> Counter[str]:
    """The dice of `read` that the spec's scoring counts flagged (matched, confidence under
    FLAG_BELOW), counted by what they are and what the scene shows there: keys are "a cocked
    die" or "a flat die read right: ...", "... read wrong: ...", "... read null: ...", the
    symbol as read telling a flag that kept an error out from one that only cost the player a
    look; the counts add up to the scoring's flagged.

    The flag target counts both kinds alike: a leaning die must be null or flagged, and a face
    under glare is flagged when its symbol is not sure, so these say how much of the flagged share
    no reader could save (the renderer's glare and leaning dice) and where the rest lies."""
    causes: Counter[str] = Counter()
    for i, j in matched_pairs(read, labels):
        truth, die = labels[i], read[j]
        if die["confidence"] >= FLAG_BELOW:
            continue
        if truth.get("symbol") is None:
            causes["a cocked die"] += 1
            continue
        read_as = "null" if die.get("symbol") is None else "right" if _read_right(truth, die) else "wrong"
        causes[f"a flat die read {read_as}: {_why_flagged(scene, labels, truth)}"] += 1
    return causes


def _read_right(truth: dict, die: dict) -> bool:
    """Whether `die` was read with its label's (`truth`'s) color and symbol."""
    return (die["color"], die.get("symbol")) == (truth["color"], truth.get("symbol"))


def _why_flagged(scene: Scene, labels: list[dict], truth: dict) -> str:
    if _glare_on(scene, truth):
        return "glare on its face"
    return "touching another" if _touching(labels, truth) else "alone"


def _glare_on(scene: Scene, truth: dict) -> bool:
    return any(math.dist((x, y), truth["center"]) <= GLARE_ON_FACE * truth["size"] for x, y, _, _ in scene.glare)


def _touching(labels: list[dict], truth: dict) -> bool:
    return any(other is not truth and math.dist(other["center"], truth["center"]) < TOUCHING * truth["size"]
               for other in labels)


def _why_wrong(scene: Scene, truth: dict, die: dict) -> str:
    if truth.get("symbol") is None:
        return "a cocked die read as a flat one"
    if _glare_on(scene, truth):
        return "glare on its face"
    return "its color" if die["color"] != truth["color"] else "its symbol"


def _why_missed(labels: list[dict], truth: dict) -> str:
    kind = "a cocked die" if truth.get("symbol") is None else "a flat die"
    return f"{kind} touching another" if _touching(labels, truth) else f"{kind} alone"


def _why_phantom(scene: Scene, labels: list[dict], die: dict) -> str:
    x, y = die["center"]
    for thing in scene.distractors:
        if thing.kind in ("token", "coin") and math.dist(thing.center, (x, y)) <= thing.size / 2:
            return "a token or coin"
        if thing.kind == "card" and cv2.pointPolygonTest(distractor_outline(thing).reshape(-1, 1, 2),
                                                         (float(x), float(y)), False) >= 0:
            return "on a card"
    if any(math.dist(truth["center"], (x, y)) < BESIDE * truth["size"] for truth in labels):
        return "beside a die"
    return "the table's print" if scene.table in PRINTED_TABLES else "the table"


def causes_line(causes: Counter[str], empty: str = "no errors") -> str:
    """One line, the commonest causes first: `error_causes` (or `flag_causes`) as a benchmark
    prints it; `empty` when there are none."""
    if not causes:
        return empty
    return "; ".join(f"{cause} {count}" for cause, count in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])))
