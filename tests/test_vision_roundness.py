"""A poker chip or a coin is a disc, a die is not (vision.roundness): so a die-colored chip is not
taken for a die the reader cannot read."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision import roundness
from vision.reader import read_frame
from vision.render import random_scene, render
from vision.roundness import is_disc, round_misfit

from vision_support import taught_on_renders

CHIP = (472.1, 192.9)  # line scene 5: a blue chip on pale cloth, by a card's corner


def _chip_scene() -> tuple[np.ndarray, dict]:
    scene = random_scene(5, style="line")
    assert any(thing.kind == "token" and math.dist(thing.center, CHIP) < 10 for thing in scene.distractors)
    return render(scene)


def test_a_chip_is_a_disc_and_no_die_is() -> None:
    image, labels = _chip_scene()
    size = float(np.median([d["size"] for d in labels["dice"]]))
    assert is_disc(image, CHIP, size)
    assert is_disc(image, (CHIP[0] + 0.1 * size, CHIP[1] - 0.1 * size), size)  # about a point off its middle too
    for die in labels["dice"]:  # flat and cocked, some touching
        assert round_misfit(image, die["center"], die["size"]) > 1.5 * roundness.DISC, die


def test_a_chip_of_a_die_s_color_is_not_taken_for_a_die(monkeypatch: pytest.MonkeyPatch) -> None:
    image, _ = _chip_scene()
    profile = taught_on_renders("line")

    def on_chip() -> list:
        return [d for d in read_frame(image, profile) if math.dist(d.center, CHIP) < 40]

    assert on_chip() == []
    monkeypatch.setattr(roundness, "DISC", 0.0)  # nothing is a disc
    assert [(d.color, d.symbol) for d in on_chip()] == [("blue", None)]
