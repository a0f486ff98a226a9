"""Telling a die's color from the rim of its top face (see `vision.rim`)."""

from __future__ import annotations

import dataclasses
import glob
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.exposure import exposure_gain
from vision.labels import load_labelled
from vision.profile import Profile
from vision.reader import read_frame
from vision.rim import RimColors, rim_chroma
from vision.scoring import score_image
from vision.teach import teach

PHOTOREAL = Path(__file__).resolve().parents[1] / "fixtures" / "images" / "photoreal-c"
# A hard lamp washes the red and blue dice's faces out to pink and pale blue in this scene.
WASHED_OUT = PHOTOREAL / "test" / "c_test_020.jpg"


@lru_cache(maxsize=None)
def _profile() -> Profile:
    return teach([load_labelled(p) for p in sorted(glob.glob(str(PHOTOREAL / "teach" / "*.jpg")))])


def test_rim_colors_need_two_samples_of_every_color() -> None:
    assert RimColors.fit({"red": [np.array([50.0, 30.0])]}) is None
    assert RimColors.fit({}) is None


def test_rim_colors_tell_the_nearest_taught_color_and_survive_json() -> None:
    colors = RimColors.fit({"red": [np.array([50.0, 30.0]), np.array([54.0, 34.0])],
                            "blue": [np.array([14.0, -50.0]), np.array([16.0, -54.0])]})
    assert colors is not None
    probabilities = colors.probabilities(np.array([45.0, 25.0]))
    assert probabilities["red"] > 0.99 and abs(sum(probabilities.values()) - 1.0) < 1e-9
    again = RimColors.from_json(colors.to_json())
    assert again.colors == colors.colors
    assert again.probabilities(np.array([10.0, -40.0]))["blue"] > 0.99


def test_teaching_learns_rim_colors_that_a_saved_profile_keeps(tmp_path: Path) -> None:
    profile = _profile()
    assert profile.rim_colors is not None and set(profile.rim_colors.colors) == set(profile.colors)
    profile.save(tmp_path / "p.json")
    loaded = Profile.load(tmp_path / "p.json")
    assert loaded.rim_colors is not None
    assert np.allclose(loaded.rim_colors.means, profile.rim_colors.means, atol=1e-3)


def test_the_rim_tells_every_labelled_die_of_a_washed_out_scene_its_color() -> None:
    image, labels = load_labelled(str(WASHED_OUT))
    rim_colors = _profile().rim_colors
    gain = exposure_gain(image)
    for die in labels["dice"]:
        probabilities = rim_colors.probabilities(rim_chroma(image, die["center"], die["size"], gain))
        assert max(probabilities, key=probabilities.get) == die["color"], die


def test_washed_out_dice_are_read_right_only_with_rim_colors() -> None:
    image, labels = load_labelled(str(WASHED_OUT))
    with_rim = score_image([d.to_json() for d in read_frame(image, _profile())], labels["dice"])
    assert with_rim.wrong == with_rim.missed == with_rim.phantoms == 0, with_rim
    # The face's middle alone calls pink faces white or loses them: the rim is what reads them.
    without = dataclasses.replace(_profile(), rim_colors=None)
    face_only = score_image([d.to_json() for d in read_frame(image, without)], labels["dice"])
    assert face_only.wrong + face_only.missed + face_only.flagged > 0, face_only


def test_no_rim_outside_the_frame() -> None:
    image = np.zeros((100, 100, 3), np.uint8)
    assert rim_chroma(image, (-200.0, -200.0), 40.0) is None
