"""Vision-test support: the committed labelled fixture sets, each taught once per test run
(teaching takes seconds; many test modules read with the same set's profile)."""

from __future__ import annotations

import glob
import math
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.labels import load_labelled
from vision.profile import Profile
from vision.reader import read_frame
from vision.render import random_scene, render
from vision.scoring import Score, score_image
from vision.teach import teach

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "images"


def images(folder: Path) -> list[str]:
    """The labelled images (PNG or JPEG) in a folder, in name order."""
    return sorted(glob.glob(str(folder / "*.png")) + glob.glob(str(folder / "*.jpg")))


@lru_cache(maxsize=None)
def taught(name: str) -> Profile:
    """The profile taught from fixture set `name`'s teach/ images."""
    return teach([load_labelled(path) for path in images(FIXTURES / name / "teach")])


@lru_cache(maxsize=None)
def taught_on_four() -> Profile:
    """Box C taught on four of its fixture images (01, 03, 07, 08), as few as the spec allows:
    their tables (light wood with cream lettering among them) teach the lamp and the table's
    colors less fully than eight do."""
    return taught_on_photoreal("teach/c_teach_01.jpg", "teach/c_teach_03.jpg", "teach-extra/c_teach_07.jpg",
                               "teach/c_teach_08.jpg")


@lru_cache(maxsize=None)
def taught_on_photoreal(*names: str) -> Profile:
    """Box C taught on the named images of its fixture set (paths under photoreal-c/)."""
    return teach([load_labelled(str(FIXTURES / "photoreal-c" / name)) for name in names])


@lru_cache(maxsize=None)
def teaching_renders(style: str, cocked_3d: bool = False) -> tuple[tuple[np.ndarray, dict], ...]:
    """The 12 freshly rendered all-faces scenes of `style` (seeds 10000+) the benchmark teaches
    on (`cocked_3d`: as its `--cocked-3d` run does, cocked dice as cubes), with their labels."""
    return tuple(render(random_scene(10_000 + i, style=style, all_faces=True, cocked_3d=cocked_3d))
                 for i in range(12))


@lru_cache(maxsize=None)
def taught_on_renders(style: str, cocked_3d: bool = False) -> Profile:
    """A profile taught on `teaching_renders(style, cocked_3d)`, as the benchmark teaches."""
    return teach(list(teaching_renders(style, cocked_3d)))


def scene_die(style: str, seed: int, near: tuple[float, float], cocked_3d: bool = False
              ) -> tuple[np.ndarray, Profile, dict]:
    """A rendered scene of `style` (its image and the profile taught on its style's renders) and
    its labelled die nearest `near`."""
    # `taught_on_renders` caches by its arguments as given: called as the other tests call it,
    # so one teaching serves them all.
    profile = taught_on_renders(style, cocked_3d=True) if cocked_3d else taught_on_renders(style)
    image, labels = render(random_scene(seed, style=style, cocked_3d=cocked_3d))
    return image, profile, min(labels["dice"], key=lambda d: math.dist(d["center"], near))


def read_and_score(profile: Profile, labelled: Iterable[tuple[np.ndarray, dict]]) -> Score:
    """Read each (BGR image, labels) with `profile` and score it as the spec does: the sum."""
    total = Score()
    for image, labels in labelled:
        total = total + score_image([d.to_json() for d in read_frame(image, profile)], labels["dice"])
    return total


def read_at(image: np.ndarray, profile: Profile, label: dict) -> list[tuple[str, str | None, bool]]:
    """(color, symbol, sure) of each die read within half a side of a labelled die."""
    return [(d.color, d.symbol, d.confidence >= 0.5) for d in read_frame(image, profile)
            if math.dist(d.center, label["center"]) <= label["size"] / 2]
