"""The profile file: per-color symbol templates survive saving, and older files still load."""

from __future__ import annotations

from vision.profile import Profile, default_profile


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


def test_a_profile_without_template_colors_matches_every_template() -> None:
    data = default_profile().to_json()
    for template in data["templates"]:
        template.pop("color")
    old = Profile.from_json(data)
    assert old.template_colors == ()
    assert len(old.templates_for("red")) == len(old.templates)
