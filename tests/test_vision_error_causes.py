"""The spec's matching of readings to labels, and the benchmark's account of why each error of a
rendered scene's reading happened (vision.error_causes)."""

from __future__ import annotations

import dataclasses

from vision.distractors import Distractor
from vision.error_causes import causes_line, error_causes, flag_causes
from vision.render import random_scene, render
from vision.scene import DieSpec, Scene
from vision.scoring import matched_pairs, score_image


def _label(center: tuple[float, float], color: str = "red", symbol: str | None = "gun", size: float = 90.0) -> dict:
    return {"color": color, "symbol": symbol, "center": list(center), "size": size}


def _read(center: tuple[float, float], color: str = "red", symbol: str | None = "gun",
          confidence: float = 0.9) -> dict:
    return {"color": color, "symbol": symbol, "center": list(center), "size": 90.0, "confidence": confidence}


def test_each_label_is_matched_to_its_nearest_reading_once() -> None:
    labels = [_label((100.0, 100.0)), _label((170.0, 100.0))]
    # The first reading lies within half a side of both labels, nearer the first; but the first
    # label has a nearer reading still, so the first reading goes to the second label.
    read = [_read((130.0, 100.0)), _read((105.0, 100.0))]
    assert sorted(matched_pairs(read, labels)) == [(0, 1), (1, 0)]
    assert matched_pairs([_read((134.0, 100.0))], labels) == [(0, 0)]  # alone, it goes to the nearer
    assert matched_pairs([_read((100.0, 146.0))], labels) == []  # past half a side of both


# Seven dice, one of them leaning, the sixth touching the fifth: what each test reads of them,
# right or wrong, is in its own readings.
DICE = (
    DieSpec("red", "gun", (300.0, 300.0), 90.0, 10.0),
    DieSpec("blue", "cocktail", (700.0, 300.0), 90.0, 0.0),
    DieSpec("white", None, (1100.0, 300.0), 90.0, 30.0, cocked=True, tilt=45.0, faces=("gun", "gavel")),
    DieSpec("white", "finger", (1450.0, 300.0), 90.0, 0.0),
    DieSpec("red", "finger", (300.0, 800.0), 90.0, 0.0),
    DieSpec("red", "gavel", (391.0, 800.0), 90.0, 0.0),
    DieSpec("blue", "gun", (1300.0, 900.0), 90.0, 0.0),
)


def _scene_of_dice(table: str, glare: tuple, distractors: tuple = ()) -> tuple[Scene, list[dict]]:
    """DICE on `table` under `glare` spots among `distractors`, and their labels."""
    scene = dataclasses.replace(random_scene(1, table=table), dice=DICE, hand=None, distractors=distractors,
                                glare=glare)
    return scene, render(scene)[1]["dice"]


def test_every_error_is_put_down_to_what_the_scene_shows_there() -> None:
    # Glare on the first die, read as a finger; the second read white; the fourth read wrong but
    # flagged; the sixth, touching the fifth, missed, and the last missed alone.
    scene, labels = _scene_of_dice("playmat", ((310.0, 290.0, 15.0, 0.5),),
                                   (Distractor("token", (800.0, 900.0), 60.0, 0.0, 1),))
    read = [
        _read((301.0, 300.0), "red", "finger"),
        _read((700.0, 302.0), "white", "cocktail"),
        _read((1098.0, 300.0), "white", "gun"),
        _read((1450.0, 300.0), "white", "gun", confidence=0.3),
        _read((300.0, 800.0), "red", "finger"),
        _read((800.0, 900.0), "red", None, confidence=0.3),  # on the token
        _read((700.0, 395.0), "blue", None, confidence=0.3),  # a side below the blue die
        _read((1000.0, 1100.0), "white", None, confidence=0.3),  # on the mat, near no die
    ]
    causes = error_causes(scene, labels, read)
    assert causes == {
        "wrong: glare on its face": 1,
        "wrong: its color": 1,
        "wrong: a cocked die read as a flat one": 1,
        "missed: a flat die touching another": 1,
        "missed: a flat die alone": 1,
        "phantom: a token or coin": 1,
        "phantom: beside a die": 1,
        "phantom: the table's print": 1,
    }, causes
    score = score_image(read, labels)
    assert (score.wrong, score.missed, score.phantoms) == (3, 2, 3)
    assert causes_line(causes).startswith("missed: a flat die alone 1; missed: a flat die touching another 1; ")
    # Off the printed mat, the same stray reading is the table's own doing.
    plain = dataclasses.replace(scene, table="felt_green")
    assert error_causes(plain, labels, read)["phantom: the table"] == 1
    assert causes_line(error_causes(scene, labels, [_read(tuple(d["center"]), d["color"], d["symbol"])
                                                    for d in labels])) == "no errors"


def test_every_flag_is_put_down_to_the_die_and_what_the_scene_shows_there() -> None:
    # Glare on the first two dice, asked, one read right and one wrong; the leaning die asked;
    # the fourth asked, read null; the fifth read surely; the sixth, touching it, asked; the last
    # missed (an error, no flag).
    scene, labels = _scene_of_dice("felt_green", ((310.0, 290.0, 15.0, 0.5), (690.0, 310.0, 15.0, 0.5)))
    read = [
        _read((301.0, 300.0), "red", "gun", confidence=0.4),
        _read((700.0, 302.0), "blue", "finger", confidence=0.2),
        _read((1098.0, 300.0), "white", None, confidence=0.3),
        _read((1450.0, 300.0), "white", None, confidence=0.3),
        _read((300.0, 800.0), "red", "finger"),
        _read((391.0, 800.0), "red", "gavel", confidence=0.45),
        _read((1000.0, 1100.0), "white", None, confidence=0.3),  # a phantom: an error, no flag
    ]
    causes = flag_causes(scene, labels, read)
    assert causes == {
        "a flat die read right: glare on its face": 1,
        "a flat die read wrong: glare on its face": 1,
        "a cocked die": 1,
        "a flat die read null: alone": 1,
        "a flat die read right: touching another": 1,
    }, causes
    assert sum(causes.values()) == score_image(read, labels).flagged == 5
    # A cocked die read null surely is no flag, nor is any die read surely.
    sure = [dict(die, confidence=0.9) for die in read]
    assert flag_causes(scene, labels, sure) == {}
    assert causes_line(flag_causes(scene, labels, sure), "none flagged") == "none flagged"
