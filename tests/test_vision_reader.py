"""The reader's sense of a frame's usual die size, and reading a die whose blob holds only
part of it."""

from __future__ import annotations

import glob
import math
from functools import lru_cache
from pathlib import Path

from vision.detect import Candidate
from vision.labels import load_labelled
from vision.profile import Profile
from vision.reader import read_face, read_frame, typical_face_size
from vision.teach import teach

PHOTOREAL = Path(__file__).resolve().parents[1] / "fixtures" / "images" / "photoreal-c"


@lru_cache(maxsize=None)
def _profile() -> Profile:
    return teach([load_labelled(p) for p in sorted(glob.glob(str(PHOTOREAL / "teach" / "*.jpg")))])


def _blob(side: float, fill: float = 0.9, aspect: float = 1.05) -> Candidate:
    return Candidate("red", (0.0, 0.0), side, 0.95, fill, aspect)


def test_the_usual_size_comes_from_blobs_shaped_like_a_whole_die() -> None:
    profile = _profile()
    usual = profile.die_sizes[1]
    side = usual * profile.blob_side_ratio
    # Many small ragged pieces (a face split by its paint, sides in shade) and two whole dice.
    pieces = [_blob(0.65 * side, fill=0.5, aspect=1.8) for _ in range(5)]
    whole = [_blob(side), _blob(1.02 * side)]
    typical = typical_face_size(pieces + whole, profile)
    assert typical is not None and abs(typical / usual - 1.01) < 0.02
    # With fewer than two whole dice, every plausible blob counts.
    typical = typical_face_size(pieces + whole[:1], profile)
    assert typical is not None and typical < 0.8 * usual
    assert typical_face_size(whole[:1], profile) is None


def test_a_blob_holding_part_of_a_die_is_read_at_the_usual_size() -> None:
    profile = _profile()
    image, labels = load_labelled(str(PHOTOREAL / "test" / "c_test_024.jpg"))
    read, better = 0, 0
    for die in labels["dice"]:
        if die["symbol"] is None:
            continue
        part = Candidate(die["color"], tuple(die["center"]), 0.6 * die["size"] * profile.blob_side_ratio, 0.95, 0.7, 1.2)
        alone = read_face(image, part, profile)
        helped = read_face(image, part, profile, typical_size=die["size"])
        assert helped.best_score >= alone.best_score
        read += helped.best_symbol == die["symbol"]
        better += helped.best_score > alone.best_score + 0.05
    assert read == sum(d["symbol"] is not None for d in labels["dice"])
    assert better > 0


def test_a_face_that_reads_clearly_is_a_die_whatever_its_blob_looks_like() -> None:
    # This white die's blob is shaped so that the die-or-not model alone rejects it; its
    # cocktail reads clearly.
    image, labels = load_labelled(str(PHOTOREAL / "more" / "c_test_017.jpg"))
    label = next(d for d in labels["dice"] if d["color"] == "white" and d["symbol"] == "cocktail")
    near = [d for d in read_frame(image, _profile()) if math.dist(d.center, label["center"]) < label["size"] / 2]
    assert [(d.color, d.symbol) for d in near] == [("white", "cocktail")] and near[0].confidence > 0.5
