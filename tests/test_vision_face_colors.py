"""Face colors (`vision.face_colors`): teaching keeps each die color's paint and body; the mat
showing through a printed numeral is paint of no taught die's color, a gold numeral's body is no
white die's; and a face read surely whose paint or body no taught face of its color had is taken
for print and not reported."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from vision import reader
from vision.detect import Candidate
from vision.exposure import exposure_gain
from vision.face_colors import TaughtChromas, body_chroma, paint_chroma
from vision.labels import load_labelled
from vision.profile import Profile
from vision.reader import FOREIGN_BODY, FOREIGN_PAINT, _foreign_colors, read_candidate, read_frame
from vision.symbols import face_angle, face_window, inner

from vision_support import FIXTURES, taught

PHOTOREAL = FIXTURES / "photoreal-c"
PRINTED_MAT = PHOTOREAL / "printed-mat" / "c_test_010.jpg"
# A cut of c_test_009: "1929" in gold on maroon cloth. Its "9", at the middle, is the one box C's
# four-image teachings read as a white gun: its blob is red, and the rim says white.
GOLD_NUMERALS = PHOTOREAL / "more" / "c_test_009_table_art.png"
GOLD_NINE = (150.0, 150.0, 68.0)
# Cream print on that teal mat that box C's four-image teachings read as white dice, surely
# ("6", "R" and another "6"): (x, y, side).
NUMERALS = ((371.0, 1197.0, 69.0), (1690.0, 773.0, 77.0), (196.0, 1156.0, 67.0))


def _face(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    return inner(face_window(image, (x, y), side, face_angle(image, (x, y), side)))


def _paint(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    chroma = paint_chroma(_face(image, x, y, side), exposure_gain(image))
    assert chroma is not None
    return chroma


def _body(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    return body_chroma(_face(image, x, y, side), exposure_gain(image))


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
    mistaught = dataclasses.replace(profile, paint_colors=TaughtChromas(samples))
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


def test_a_gold_numeral_has_a_body_no_white_die_has() -> None:
    profile = taught("photoreal-c")
    assert profile.rim_colors.palest == "white"
    art = cv2.imread(str(GOLD_NUMERALS))
    assert profile.body_colors.distance("white", _body(art, *GOLD_NINE)) > FOREIGN_BODY
    # Every white die of box C's photo-like fixture images, whatever its table and lamp, lies well
    # within the bar.
    whites = 0
    for path in sorted(PHOTOREAL.glob("*/*.jpg")):
        if path.parent.name == "teach" or not path.with_suffix(".json").exists():
            continue
        image, labels = load_labelled(str(path))
        for die in labels["dice"]:
            if die["color"] == "white" and die["symbol"] is not None:
                whites += 1
                assert profile.body_colors.distance("white", _body(image, *die["center"], die["size"])) < \
                    0.75 * FOREIGN_BODY, (path.name, die)
    assert whites >= 20


def test_a_face_recolored_white_whose_body_no_white_die_has_is_taken_for_print(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The gold "9" makes a red blob; the rim recolors it white, and its face reads as a gun. Its
    # body says print (the paint of a recolored blob is not asked).
    profile = taught("photoreal-c")
    art = cv2.imread(str(GOLD_NUMERALS))
    x, y, side = GOLD_NINE
    look = read_candidate(art, Candidate("red", (x, y), side * profile.blob_side_ratio, 0.9, 0.8, 1.1), profile,
                          exposure_gain(art))
    assert (look.blob_color, look.candidate.color) == ("red", "white")
    gain = exposure_gain(art)
    assert _foreign_colors(art, look, look.reading, profile, gain)
    monkeypatch.setattr(reader, "FOREIGN_BODY", math.inf)
    assert not _foreign_colors(art, look, look.reading, profile, gain)



def test_the_body_is_asked_only_of_a_face_the_rim_recolored(monkeypatch: pytest.MonkeyPatch) -> None:
    # A lamp unlike teaching's moves white dice's bodies as far as the gold's: a white die on a
    # blob of its color is not asked, even with no room at all for its body.
    profile = taught("photoreal-c")
    image, labels = load_labelled(str(PRINTED_MAT))
    gain = exposure_gain(image)
    die = next(d for d in labels["dice"] if d["color"] == "white" and d["symbol"] is not None)
    candidate = Candidate("white", tuple(die["center"]), die["size"] * profile.blob_side_ratio, 0.95, 0.9, 1.05)
    look = read_candidate(image, candidate, profile, gain)
    assert look.blob_color == look.candidate.color == "white"
    monkeypatch.setattr(reader, "FOREIGN_BODY", -1.0)  # every body lies past it
    assert not _foreign_colors(image, look, look.reading, profile, gain)
    assert _foreign_colors(image, dataclasses.replace(look, blob_color="red"), look.reading, profile, gain)


def test_the_body_of_a_patch_half_of_one_color_half_of_another_is_their_middle() -> None:
    # Every pixel lies as far from the patch's median, so none is body for sure: all count.
    patch = np.zeros((26, 26, 3), np.float32)
    patch[:, :13] = (200.0, 200.0, 200.0)
    patch[:, 13:] = (20.0, 20.0, 200.0)
    middle = cv2.cvtColor(np.uint8([[[110, 110, 200]]]), cv2.COLOR_BGR2LAB)[0, 0, 1:].astype(np.float32) - 128.0
    assert np.allclose(body_chroma(patch), middle)
    plain = np.full((26, 26, 3), 200.0, np.float32)
    assert np.allclose(body_chroma(plain), (0.0, 0.0))


def test_face_colors_survive_saving_and_an_older_profile_has_none() -> None:
    profile = taught("photoreal-c")
    for field in ("paint_colors", "body_colors"):
        assert set(getattr(profile, field).samples) == set(profile.colors)
        again = Profile.from_json(profile.to_json())
        for color, chromas in getattr(profile, field).samples.items():
            assert np.allclose(getattr(again, field).samples[color], chromas, atol=0.01)
        data = profile.to_json()
        data.pop(field)
        assert getattr(Profile.from_json(data), field) is None
