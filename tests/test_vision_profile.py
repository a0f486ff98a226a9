"""The profile file: per-color symbol templates survive saving, and older files still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.die_finder import find_dice
from vision.labels import load_labelled
from vision.profile import Profile, ProfileError, default_profile
from vision.reader import read_frame

CLASSIC_TEST = Path(__file__).resolve().parents[1] / "fixtures" / "images" / "classic" / "test" / "classic_test_0001.jpg"


def test_template_colors_round_trip() -> None:
    profile = default_profile()
    assert len(profile.template_colors) == len(profile.templates)
    again = Profile.from_json(profile.to_json())
    assert again.template_colors == profile.template_colors


def test_a_die_is_matched_against_its_color_and_the_all_color_templates() -> None:
    profile = default_profile()
    for color in profile.colors:
        chosen = profile.templates_for(color)
        expected = [t for t, c in zip(profile.templates, profile.template_colors) if c in ("", color)]
        assert len(chosen) == len(expected) < len(profile.templates)
        assert all(a is b for a, b in zip(chosen, expected))


def test_the_paint_each_symbol_showed_in_teaching_survives_saving() -> None:
    profile = default_profile()
    assert set(profile.symbols) < set(profile.ink_limits)  # per symbol, and per symbol on a die color
    assert {f"{symbol}/white" for symbol in profile.symbols} <= set(profile.ink_limits)
    assert all(0.0 < share <= 1.0 for share in profile.ink_limits.values()), profile.ink_limits
    assert Profile.from_json(profile.to_json()).ink_limits == pytest.approx(profile.ink_limits)
    data = profile.to_json()
    data.pop("ink_limits")
    assert Profile.from_json(data).ink_limits == {}  # an older profile doubts no face for its paint


def test_the_learnt_die_finder_survives_saving() -> None:
    profile = default_profile()
    assert profile.finder is not None
    again = Profile.from_json(json.loads(json.dumps(profile.to_json())))
    frame, labels = load_labelled(str(CLASSIC_TEST))
    found = find_dice(frame, profile.finder)
    assert len(found) >= 0.8 * len(labels["dice"])  # most dice: the blobs find the rest
    assert find_dice(frame, again.finder) == found
    data = profile.to_json()
    data.pop("finder")
    assert Profile.from_json(data).finder is None  # an older profile: no dice found without a blob


def test_a_profile_without_template_colors_matches_every_template() -> None:
    data = default_profile().to_json()
    for template in data["templates"]:
        template.pop("color")
    old = Profile.from_json(data)
    assert old.template_colors == ()
    assert len(old.templates_for("red")) == len(old.templates)


def test_a_profile_taught_by_an_older_reader_is_refused_with_a_reason() -> None:
    data = default_profile().to_json()
    plausibility = data["calibration"]["plausibility"]
    for key in ("mean", "scale", "weights"):
        plausibility[key] = plausibility[key][:6]  # the die-or-not model before the outline measures
    with pytest.raises(ProfileError, match="older reader.*teach it again"):
        Profile.from_json(data, "old.json")


def test_a_profile_that_has_read_a_frame_still_saves(tmp_path) -> None:
    # Reading fills caches on the profile's parts (the die-or-not model's arrays); they are
    # not part of the profile and must not reach its file.
    profile = default_profile()
    frame, _ = load_labelled(str(CLASSIC_TEST))
    assert read_frame(frame, profile)
    profile.save(tmp_path / "used.json")
    again = Profile.load(tmp_path / "used.json")
    assert again.calibration == profile.calibration
