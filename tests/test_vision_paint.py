"""Paint colors (`vision.paint`): teaching keeps each die color's paint, the mat showing through
a printed numeral is paint of no taught die's color, and a face read surely whose paint no taught
face of its color carried is taken for print and not reported."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from vision import reader
from vision.exposure import exposure_gain
from vision.labels import load_labelled
from vision.paint import PaintColors, paint_chroma
from vision.profile import Profile
from vision.reader import FOREIGN_PAINT, read_frame
from vision.symbols import face_angle, face_window, inner

from vision_support import FIXTURES, taught

PRINTED_MAT = FIXTURES / "photoreal-c" / "printed-mat" / "c_test_010.jpg"
# Cream print on that teal mat that box C's four-image teachings read as white dice, surely
# ("6", "R" and another "6"): (x, y, side).
NUMERALS = ((371.0, 1197.0, 69.0), (1690.0, 773.0, 77.0), (196.0, 1156.0, 67.0))


def _paint(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    window = face_window(image, (x, y), side, face_angle(image, (x, y), side))
    chroma = paint_chroma(inner(window), exposure_gain(image))
    assert chroma is not None
    return chroma


def test_the_mat_through_printed_numerals_is_paint_no_die_of_their_color_carries() -> None:
    profile = taught("photoreal-c")
    image, labels = load_labelled(str(PRINTED_MAT))
    for x, y, side in NUMERALS:
        assert profile.paint_colors.distance("white", _paint(image, x, y, side)) > FOREIGN_PAINT
    for die in labels["dice"]:
        if die["symbol"] is not None:
            distance = profile.paint_colors.distance(die["color"], _paint(image, *die["center"], die["size"]))
            assert distance < FOREIGN_PAINT / 2, die


def test_a_face_whose_paint_no_taught_face_of_its_color_carried_is_taken_for_print(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A profile that says white dice carry only the mat's teal takes the frame's white dice,
    # whose paint is red or black, for print: they are no longer reported.
    profile = taught("photoreal-c")
    image, labels = load_labelled(str(PRINTED_MAT))
    teal = _paint(image, *NUMERALS[0])
    samples = dict(profile.paint_colors.samples, white=teal.reshape(1, 2))
    mistaught = dataclasses.replace(profile, paint_colors=PaintColors(samples))
    whites = [die for die in labels["dice"] if die["color"] == "white" and die["symbol"] is not None]
    assert len(whites) >= 4

    def sure_whites(dice) -> int:
        return sum(1 for label in whites for die in dice
                   if die.color == "white" and die.confidence >= 0.5 and
                   math.dist(die.center, label["center"]) < label["size"] / 2)

    assert sure_whites(read_frame(image, profile)) == len(whites)
    assert sure_whites(read_frame(image, mistaught)) == 0
    monkeypatch.setattr(reader, "FOREIGN_PAINT", math.inf)
    assert sure_whites(read_frame(image, mistaught)) == len(whites)


def test_paint_colors_survive_saving_and_an_older_profile_has_none() -> None:
    profile = taught("photoreal-c")
    assert set(profile.paint_colors.samples) == set(profile.colors)
    again = Profile.from_json(profile.to_json())
    for color, chromas in profile.paint_colors.samples.items():
        assert np.allclose(again.paint_colors.samples[color], chromas, atol=0.01)
    data = profile.to_json()
    data.pop("paint_colors")
    assert Profile.from_json(data).paint_colors is None
