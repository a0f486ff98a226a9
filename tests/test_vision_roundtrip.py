"""Teach on committed labelled fixtures, read held-out ones, score per the spec."""

from __future__ import annotations

from functools import lru_cache

import cv2
import pytest

from vision.labels import load_labelled
from vision.reader import Die, read_frame
from vision.render import random_scene, render
from vision.scoring import Score
from vision.teach import teach

from vision_support import FIXTURES, images, read_and_score, taught, taught_on_renders

# Sets with both teach/ and test/ folders: photoreal-c always, one per renderer art style once
# its fixtures are committed.
SETS = sorted(p.name for p in FIXTURES.iterdir() if (p / "teach").is_dir() and (p / "test").is_dir())


@lru_cache(maxsize=None)
def _score(name: str) -> Score:
    return read_and_score(taught(name), (load_labelled(path) for path in images(FIXTURES / name / "test")))


def test_photoreal_fixture_is_present() -> None:
    assert "photoreal-c" in SETS


# Confidently wrong readings silently change a bid: none on the photo-like box, and at most
# one die in 30 on the renderer's harder scenes (the benchmark's goal is 0.2 %).
MAX_WRONG_SHARE = {"photoreal-c": 0.0}
DEFAULT_MAX_WRONG_SHARE = 1 / 30


@pytest.mark.parametrize("name", SETS)
def test_few_confident_wrong_readings(name: str) -> None:
    score = _score(name)
    assert score.dice > 0
    assert score.wrong <= MAX_WRONG_SHARE.get(name, DEFAULT_MAX_WRONG_SHARE) * score.dice, score


# Regression guards, not goals (the goals are in the benchmark): what the reader achieves on
# these fixtures today with some slack, so a change that loses dice or doubts more fails here.
# The renderer's sets include white dice on cream gingham and dice under hands' shadows, which
# blob detection still misses often.
MAX_LOST_SHARE = {"photoreal-c": 0.05}
DEFAULT_MAX_LOST_SHARE = 0.30
# Symbol doubt is calibrated on the teach images (0.5 where wrong readings start), so few dice
# are asked: none of the photo-like box's 22; on the renderer's fixtures cocked-looking dice,
# doubtful colors and half-covered faces still are (classic: about a quarter).
MAX_FLAGGED_SHARE = {"photoreal-c": 0.05}
DEFAULT_MAX_FLAGGED_SHARE = 0.35


@pytest.mark.parametrize("name", SETS)
def test_few_missed_or_phantom_dice(name: str) -> None:
    score = _score(name)
    allowed = MAX_LOST_SHARE.get(name, DEFAULT_MAX_LOST_SHARE) * score.dice
    assert score.missed + score.phantoms <= max(1, allowed), score


@pytest.mark.parametrize("name", SETS)
def test_most_dice_are_read_confidently(name: str) -> None:
    score = _score(name)
    assert score.flagged <= max(1, MAX_FLAGGED_SHARE.get(name, DEFAULT_MAX_FLAGGED_SHARE) * score.read), score


@pytest.mark.parametrize("name", SETS)
def test_some_cocked_dice_are_seen_as_unreadable(name: str) -> None:
    score = _score(name)
    # (A cocked die read with a confident symbol counts as wrong, which the test above limits.)
    assert score.cocked == 0 or score.cocked_ok > 0, score


def test_read_frame_returns_dice_values() -> None:
    profile = taught("photoreal-c")
    image, _ = load_labelled(images(FIXTURES / "photoreal-c" / "test")[0])
    dice = read_frame(image, profile)
    assert dice and all(isinstance(d, Die) for d in dice)
    height, width = image.shape[:2]
    for die in dice:
        assert die.color in profile.colors
        assert die.symbol is None or die.symbol in profile.symbols
        assert 0 <= die.center[0] < width and 0 <= die.center[1] < height
        assert 0.5 * profile.die_sizes[0] < die.size < 2 * profile.die_sizes[2]
        assert 0.0 <= die.confidence <= 1.0


def _without_sizes(path: str) -> tuple:
    image, labels = load_labelled(path)
    return image, {"dice": [{k: v for k, v in die.items() if k != "size"} for die in labels["dice"]]}


def test_teaching_from_labels_without_sizes_measures_the_dice() -> None:
    # The spec's labels need no size: a table's own photos are labelled by clicking centers.
    # The profile must then measure the dice itself, close to what the labels' sizes teach.
    paths = images(FIXTURES / "photoreal-c" / "teach")
    measured = teach([_without_sizes(path) for path in paths])
    labelled = taught("photoreal-c")
    assert measured.die_sizes[1] == pytest.approx(labelled.die_sizes[1], rel=0.08)
    assert measured.die_sizes[0] >= 0.85 * labelled.die_sizes[0]
    assert measured.die_sizes[2] <= 1.15 * labelled.die_sizes[2]
    total = read_and_score(measured, (load_labelled(path) for path in images(FIXTURES / "photoreal-c" / "test")))
    assert total.wrong == 0 and total.missed + total.phantoms <= 1, total


@pytest.mark.parametrize("name", ["test/c_test_020.jpg", "sides/c_test_003.jpg"])
def test_dice_bigger_than_the_taught_median_by_more_than_half_are_read_whole(name: str) -> None:
    # Box C's photos magnified 1.35 times: dice of 107-124 px, 1.58-1.84 taught median sides
    # and up to 1.4 times the biggest taught. A one-die blob was judged against the taught
    # median alone, so the frame's die size came from pieces of dice, and each die was read in
    # pieces or missed (3 and 4 of these frames' dice missed; `detect.SINGLE_AREA`).
    profile = taught("photoreal-c")
    image, labels = load_labelled(FIXTURES / "photoreal-c" / name)
    factor = 1.35
    image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    dice = [dict(d, center=[c * factor for c in d["center"]], size=d["size"] * factor) for d in labels["dice"]]
    assert min(d["size"] for d in dice) > 1.55 * profile.die_sizes[1]
    total = read_and_score(profile, [(image, {"dice": dice})])
    assert total.errors == 0 and total.flagged <= 1, total


@pytest.mark.parametrize("seed", [2, 10])
def test_a_camera_nearer_than_at_teaching_still_finds_every_die(seed: int) -> None:
    # The camera's stand was moved: every die is 1.6 times the taught dice's median side, past
    # the biggest taught (classic scenes). Judged by the taught size alone, one die of each frame
    # was no die; the frame's own dice say the size (`vision.reader.size_ratio`).
    profile = taught_on_renders("classic")
    image, labels = render(random_scene(seed, style="classic", die_size=1.6 * profile.die_sizes[1]))
    assert min(d["size"] for d in labels["dice"]) > profile.die_sizes[2]
    total = read_and_score(profile, [(image, labels)])
    assert total.missed + total.phantoms == 0 and total.wrong == 0, total
