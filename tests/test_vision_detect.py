"""Finding dice on tables that look like them (see `vision.detect`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision import detect
from vision.detect import PLAIN_TABLE_FLOOR, _frame_contrast_range, find_candidates
from vision.labels import load_labelled
from vision.reader import read_frame
from vision.render import random_scene, render
from vision.scoring import matched_pairs, score_image

from vision_support import FIXTURES, read_and_score, taught, taught_on_four, taught_on_renders


def test_the_contrast_ramp_is_lowered_on_a_plain_table_only() -> None:
    ramp = (70.0, 120.0)  # as taught
    plain = np.full((100, 100), 4.0, np.float32)  # felt: the table hardly differs from itself
    low, high = _frame_contrast_range(plain, ramp)
    assert low == PLAIN_TABLE_FLOOR and abs((high - low) / low - (120.0 - 70.0) / 70.0) < 1e-6
    busy = np.full((100, 100), 40.0, np.float32)  # gingham: it differs a lot
    assert _frame_contrast_range(busy, ramp) == ramp


def test_blue_dice_on_plain_blue_felt_are_found() -> None:
    profile = taught("classic")
    scene = random_scene(24, style="classic")
    assert scene.table == "felt_blue"
    image, labels = render(scene)
    blue = [die for die in labels["dice"] if die["color"] == "blue"]
    assert len(blue) >= 4
    dice = read_frame(image, profile)
    for die in blue:
        assert any(math.dist(d.center, die["center"]) < die["size"] / 2 and d.color == "blue" for d in dice), die


def test_dice_run_together_with_the_table_are_found_by_their_lit_tops() -> None:
    # Dark wood under a warm lamp is as red as the red dice: the red dice, the grain between them
    # and their shadows make one blob far bigger than any heap of dice, once dropped whole.
    profile = taught("classic")
    scene = random_scene(60, style="classic")
    assert (scene.table, scene.light.kind) == ("wood_dark", "warm")
    image, labels = render(scene)
    red = [die for die in labels["dice"] if die["color"] == "red"]
    dice = read_frame(image, profile)
    found = [die for die in red
             if any(math.dist(d.center, die["center"]) < die["size"] / 2 and d.color == "red" for d in dice)]
    assert len(found) >= len(red) - 1 >= 3, (len(found), len(red))


def test_a_white_die_touching_a_white_card_at_a_corner_is_found_apart_from_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Classic scene 136: a white die on a black mat touches a white card at a corner. The white
    # mask holds die and card as one blob twenty dice big, as bright all over, so it is no heap
    # of dice and has no brighter core: only where it narrows to the card does the die come apart.
    profile = taught_on_renders("classic")
    scene = random_scene(136, style="classic")
    assert (scene.table, scene.light.kind) == ("playmat", "neutral")
    image, labels = render(scene)
    die = min(labels["dice"], key=lambda d: math.dist(d["center"], (187.8, 516.7)))
    assert (die["color"], die["symbol"]) == ("white", "finger")

    def on(dice: list) -> list:
        return [(d.color, d.symbol, d.confidence >= 0.5) for d in dice if math.dist(d.center, die["center"]) <= die["size"] / 2]

    dice = read_frame(image, profile)
    assert on(dice) == [("white", "finger", True)]
    # And the card is no die: nothing read lies on it but dice.
    cards = [thing for thing in scene.distractors if thing.kind == "card"]
    card = min(cards, key=lambda thing: math.dist(thing.center, die["center"]))
    read = [d.to_json() for d in dice]
    dice_read = {j for _, j in matched_pairs(read, labels["dice"])}
    assert not [d for j, d in enumerate(read) if j not in dice_read and math.dist(d["center"], card.center) < card.size / 2]
    monkeypatch.setattr(detect, "NECK_CORE", (math.inf, math.inf))
    assert on(read_frame(image, profile)) == []


def test_dice_bigger_than_the_checks_of_a_gingham_are_read_whole() -> None:
    # The checks are square blobs of a die's color smaller than the dice: taken for the frame's
    # usual die, they made every die two dice' area, split in two halves (15 of 24 dice missed).
    profile = taught("classic")
    scene = random_scene(17, style="classic")
    assert scene.table == "gingham"
    score = read_and_score(profile, [render(scene)])
    assert score.dice == 24 and score.missed <= 2 and score.phantoms == 0, score


def test_checks_that_outnumber_the_dice_do_not_set_the_frames_die_size() -> None:
    # Three times as many die-shaped checks as dice, each a quarter of a die's area: the checks'
    # size was taken for the frame's die, and nearly every die was split into quarters. The
    # dice carry paint, which leaves holes in their blobs; the checks do not.
    profile = taught_on_renders("classic")
    scene = random_scene(53, style="classic")
    assert scene.table == "gingham"
    image, labels = render(scene)
    candidates = find_candidates(image, profile.color_model, profile.die_sizes, profile.blob_side_ratio,
                                 profile.contrast_range)
    per_die = [sum(1 for c in candidates if math.dist(c.center, d["center"]) < d["size"] / 2) for d in labels["dice"]]
    assert sum(n == 1 for n in per_die) >= len(per_die) - 1 and max(per_die) == 1, per_die
    score = score_image([d.to_json() for d in read_frame(image, profile)], labels["dice"])
    assert score.missed <= 1 and score.phantoms == 0, score

def test_white_dice_the_teach_tables_call_table_are_found_by_how_they_stand_out() -> None:
    # Taught on four images whose tables show a white die's shades (cream lettering, light
    # wood), the color model calls most of c_test_011's white dice surely table: too few die
    # pixels for a blob. They stand out from the light wood more than twice as much as a die must.
    profile = taught_on_four()
    image, labels = load_labelled(str(FIXTURES / "photoreal-c" / "light-wood" / "c_test_011.jpg"))
    dice = read_frame(image, profile)
    white = [die for die in labels["dice"] if die["color"] == "white"]
    assert len(white) == 2
    for die in white:
        assert any(math.dist(d.center, die["center"]) < die["size"] / 2 and d.color == "white" for d in dice), die
    assert score_image([d.to_json() for d in dice], labels["dice"]).errors == 0


def test_what_stands_out_against_the_color_model_counts_only_when_read_surely() -> None:
    # A playmat's printed border under a hard lamp stands out from the mat as much as a die:
    # its pieces, read at best doubtfully, were reported as 14 more dice nobody rolled.
    profile = taught_on_renders("classic")
    scene = random_scene(166, style="classic")
    assert (scene.table, scene.light.kind) == ("playmat", "hard")
    image, labels = render(scene)
    dice = read_frame(image, profile)
    from_standing_out = find_candidates(image, profile.color_model, profile.die_sizes, profile.blob_side_ratio,
                                        profile.contrast_range)
    assert sum(c.standing_out for c in from_standing_out) >= 10  # the border's pieces are there
    score = score_image([d.to_json() for d in dice], labels["dice"])
    assert score.missed == 0 and score.wrong == 0 and score.phantoms <= 12, score
