"""The second opinion on doubtful faces: learnt from the teaching faces, kept in the profile."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from vision.profile import Profile, ProfileError
from vision.render import random_scene, render
from vision.symbol_discriminant import SymbolDiscriminant, fit_discriminant
from vision.symbols import aligned_patches, face_angle, face_window, ink_map, match

from vision_support import taught_on_renders


def _faces(seeds: range, style: str = "classic") -> list[tuple]:
    faces = []
    for seed in seeds:
        image, labels = render(random_scene(seed, style=style, all_faces=True))
        faces += [(image, tuple(d["center"]), d["size"], d["symbol"]) for d in labels["dice"] if d["symbol"]]
    return faces


def _window_ink(face: tuple):
    image, center, size, _ = face
    return ink_map(face_window(image, center, size, face_angle(image, center, size)))


def test_the_discriminant_reads_faces_it_was_not_taught_on() -> None:
    model = taught_on_renders("classic").discriminant
    assert model is not None and set(model.symbols) == {"cocktail", "finger", "gavel", "gun"}
    faces = _faces(range(20_000, 20_004))
    verdicts = [model.verdict(_window_ink(face)) for face in faces]
    right = sum(symbol == face[3] for (symbol, _), face in zip(verdicts, faces))
    assert right >= 0.95 * len(faces), (right, len(faces))
    # Its gap is told in taught faces' median gaps: a clear face is read by about one of them.
    assert sorted(gap for _, gap in verdicts)[len(verdicts) // 2] > 0.5


def test_the_discriminant_is_kept_in_the_profile_file(tmp_path) -> None:
    profile = taught_on_renders("classic")
    path = tmp_path / "profile.json"
    profile.save(path)
    loaded = Profile.load(path).discriminant
    face = _faces(range(20_000, 20_001))[0]
    assert loaded.verdict(_window_ink(face)) == pytest.approx(profile.discriminant.verdict(_window_ink(face)), abs=1e-4)


def _one_symbol(model: dict) -> None:
    """The discriminant cut down to its first symbol, every array consistent with that."""
    model["symbols"] = model["symbols"][:1]
    for key in ("anchors", "class_means"):
        rows = np.frombuffer(base64.b64decode(model[key]["float32"]), np.float32).reshape(model[key]["shape"])
        model[key] = {"shape": [1, *model[key]["shape"][1:]], "float32": base64.b64encode(rows[:1].tobytes()).decode()}


@pytest.mark.parametrize("damage", [
    lambda model: model["shrunk"].update(shape=[3]),
    _one_symbol,  # it could tell nothing apart
])
def test_a_damaged_discriminant_makes_the_profile_unreadable(tmp_path, damage) -> None:
    data = taught_on_renders("classic").to_json()
    damage(data["discriminant"])
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match="damaged profile"):
        Profile.load(path)


def test_no_discriminant_is_learnt_from_faces_of_one_symbol() -> None:
    faces = [face for face in _faces(range(20_000, 20_002)) if face[3] == "gun"]
    anchors = {s: t for s, t in taught_on_renders("classic").templates if s in ("gun", "gavel")}
    assert len(faces) >= 2
    assert fit_discriminant(faces, anchors) is None
    assert isinstance(fit_discriminant(faces + [f for f in _faces(range(20_002, 20_003)) if f[3] == "gavel"] * 2, anchors),
                      SymbolDiscriminant)


def test_each_template_s_best_patch_is_found_as_matching_with_it_alone_finds_it() -> None:
    profile = taught_on_renders("classic")
    templates = [(name, template) for name, template in profile.templates if "/" not in name][:6]
    for face in _faces(range(20_000, 20_001))[:5]:
        window = _window_ink(face)
        alone = [match(window, [template]).patch for template in templates]
        together = aligned_patches(window, templates)
        assert all((a == b).all() for a, b in zip(alone, together))
