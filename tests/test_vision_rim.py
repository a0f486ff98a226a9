"""Telling a die's color from the rim of its top face (see `vision.rim`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from vision.exposure import exposure_gain
from vision.labels import load_labelled
from vision.profile import Profile
from vision.rim import RimColors, rim_chroma

from vision_support import FIXTURES, read_and_score, taught

PHOTOREAL = FIXTURES / "photoreal-c"
# A hard lamp washes the red and blue dice's faces out to pink and pale blue in this scene.
WASHED_OUT = PHOTOREAL / "test" / "c_test_020.jpg"


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


def test_distances_probabilities_and_shares_are_mahalanobis_under_each_color_s_spread() -> None:
    colors = RimColors.fit({"red": [np.array([50.0, 30.0]), np.array([58.0, 24.0]), np.array([46.0, 36.0])],
                            "blue": [np.array([14.0, -50.0]), np.array([16.0, -54.0]), np.array([9.0, -47.0])]})
    assert colors is not None
    chromas = np.random.default_rng(3).normal((40.0, 20.0), 25.0, (500, 2)).astype(np.float32)
    lengths = {}
    for k, color in enumerate(colors.colors):  # written out here with numpy's inverse
        offsets = chromas.astype(np.float64) - colors.means[k]
        lengths[color] = np.sqrt(np.einsum("ni,ij,nj->n", offsets, np.linalg.inv(colors.covariances[k]), offsets))
        assert np.allclose(colors.distances(chromas, color), lengths[color], rtol=1e-12)
        assert all(abs(float(colors.distances(c, color)) - d) < 1e-9 for c, d in zip(chromas[:20], lengths[color]))
        for limit in (1.0, 3.0):
            assert colors.near_share(chromas, color, limit) == np.mean(lengths[color] < limit)
    assert 0.0 < colors.near_share(chromas, "red", 3.0) < 1.0  # shares that tell
    assert colors.near_share(chromas, "white", 3.0) == 0.0  # a color not taught
    log_dets = {color: np.log(np.linalg.det(colors.covariances[k])) for k, color in enumerate(colors.colors)}
    for i in range(20):
        weights = {c: np.exp(-0.5 * lengths[c][i] ** 2 - 0.5 * log_dets[c]) for c in colors.colors}
        said = colors.probabilities(chromas[i])
        assert all(abs(said[c] - w / sum(weights.values())) < 1e-9 for c, w in weights.items())


def test_teaching_learns_rim_colors_that_a_saved_profile_keeps(tmp_path: Path) -> None:
    profile = taught("photoreal-c")
    assert profile.rim_colors is not None and set(profile.rim_colors.colors) == set(profile.colors)
    profile.save(tmp_path / "p.json")
    loaded = Profile.load(tmp_path / "p.json")
    assert loaded.rim_colors is not None
    assert np.allclose(loaded.rim_colors.means, profile.rim_colors.means, atol=1e-3)


def test_the_rim_tells_every_labelled_die_of_a_washed_out_scene_its_color() -> None:
    image, labels = load_labelled(str(WASHED_OUT))
    rim_colors = taught("photoreal-c").rim_colors
    gain = exposure_gain(image)
    for die in labels["dice"]:
        probabilities = rim_colors.probabilities(rim_chroma(image, die["center"], die["size"], gain))
        assert max(probabilities, key=probabilities.get) == die["color"], die


def test_washed_out_dice_are_read_right_only_with_rim_colors() -> None:
    image, labels = load_labelled(str(WASHED_OUT))
    with_rim = read_and_score(taught("photoreal-c"), [(image, labels)])
    assert with_rim.wrong == with_rim.missed == with_rim.phantoms == 0, with_rim
    # The face's middle alone calls pink faces white or loses them: the rim is what reads them.
    without = dataclasses.replace(taught("photoreal-c"), rim_colors=None)
    face_only = read_and_score(without, [(image, labels)])
    assert face_only.wrong + face_only.missed + face_only.flagged > 0, face_only


def test_no_rim_outside_the_frame() -> None:
    image = np.zeros((100, 100, 3), np.uint8)
    assert rim_chroma(image, (-200.0, -200.0), 40.0) is None


def test_distances_from_a_frame_s_own_dice_use_the_color_s_taught_spread() -> None:
    colors = RimColors.fit({"white": [np.array([0.0, 0.0]), np.array([0.0, 20.0]), np.array([2.0, 10.0])],
                            "blue": [np.array([14.0, -50.0]), np.array([16.0, -54.0])]})
    assert colors is not None
    frame_white = np.array([1.0, 12.0])  # this frame's lamp
    near, yellow = colors.distances_from(np.array([[1.0, 15.0], [1.0, 60.0]]), frame_white, "white")
    # Along the lamp's axis (b) the taught spread is wide, yet print far yellower than the
    # frame's white dice stands apart.
    assert near < 0.5 < 3.0 < yellow
    assert float(colors.distances(np.array([1.0, 60.0]), "white")) > yellow - 1.0  # same spread, other center
    assert np.isinf(colors.distances_from(np.array([0.0, 0.0]), frame_white, "green"))


def test_a_patch_of_blue_felt_hemmed_in_by_cards_is_not_a_blue_die() -> None:
    # Between two cards the felt has an edge all round and a blue die's size; its blue is not
    # the blue of the frame's blue dice.
    profile = taught("line")
    image, labels = load_labelled(str(FIXTURES / "line" / "test" / "line_test_0001.jpg"))
    score = read_and_score(profile, [(image, labels)])
    assert score.phantoms == 0 and score.missed == 0 and score.wrong == 0, score
