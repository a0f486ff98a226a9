"""A lamp's glare on a face (vision.glare): told from light paint by its soft rise, and a die
whose symbol only the glare made is asked of the player."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision import glare, reader
from vision.glare import without_glare
from vision.reader import read_frame
from vision.render import random_scene, render
from vision.symbols import WINDOW_PX, ink_map

from vision_support import taught_on_renders

RED = np.float32([40.0, 40.0, 190.0])  # BGR


def _face() -> np.ndarray:
    """A red face window with a thin white stroke down its left side."""
    window = np.tile(RED, (WINDOW_PX, WINDOW_PX, 1))
    window[6:28, 8:10] = 235.0
    return window


def _line_die(seed: int, near: tuple[float, float]) -> tuple[np.ndarray, dict]:
    """Line-art renderer scene `seed`, and the label of its die nearest `near`."""
    image, labels = render(random_scene(seed, style="line"))
    return image, min(labels["dice"], key=lambda d: math.dist(d["center"], near))


def _read_on(image: np.ndarray, truth: dict) -> list:
    """The dice read, taught on line-art renders, within half a side of a labelled die's center."""
    dice = read_frame(image, taught_on_renders("line"))
    return [d for d in dice if math.dist(d.center, truth["center"]) <= truth["size"] / 2]


def test_a_soft_blob_of_glare_is_left_out_of_the_ink_and_the_paint_is_kept() -> None:
    window = _face()
    yy, xx = np.mgrid[0:WINDOW_PX, 0:WINDOW_PX].astype(np.float32)
    blob = np.exp(-((xx - 22.0) ** 2 + (yy - 17.0) ** 2) / (2 * 5.0 ** 2)) * 160.0
    lit = np.minimum(window + blob[:, :, None], 255.0)
    ink = ink_map(lit)
    cleaned = without_glare(lit, ink)
    assert cleaned is not ink
    assert cleaned[17, 22] < 0.2 * ink[17, 22]  # the glare's middle is plain face now
    assert np.array_equal(cleaned[6:28, 8:10], ink[6:28, 8:10])  # the stroke is still paint


def test_sharp_edged_paint_and_thin_strokes_are_not_taken_for_glare() -> None:
    plain = _face()
    ink = ink_map(plain)
    assert without_glare(plain, ink) is ink  # a thin stroke alone: no glare
    bold = _face()
    bold[10:24, 14:28] = 235.0  # a filled square of white paint, as bold art has
    bold = cv2.GaussianBlur(bold, (0, 0), 0.7)  # the lens softens every edge a little
    ink = ink_map(bold)
    assert without_glare(bold, ink) is ink


def test_a_die_whose_symbol_the_glare_made_is_asked_of_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    # Line art (thin light strokes on red): a glare spot over a cocktail's face reads as a
    # finger, the symbol with the most paint in one place.
    image, truth = _line_die(42, (1161.0, 429.0))
    assert (truth["color"], truth["symbol"]) == ("red", "cocktail")
    asked = _read_on(image, truth)
    assert len(asked) == 1 and asked[0].confidence < 0.5, asked
    monkeypatch.setattr(glare, "SOFT_PX", math.inf)  # no blob is soft enough: glare never told
    sure = _read_on(image, truth)
    assert [(d.color, d.symbol) for d in sure] == [("red", "finger")] and sure[0].confidence >= 0.5, sure


def test_a_die_whose_symbol_only_the_glare_still_matches_is_asked_of_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    # Line art, scene 186: a glare spot over a red gun's thin strokes reads as a finger. Read
    # without the glare the face still matches the finger best, but far under any face the
    # calibration reads at all: the glare blob was what matched.
    image, truth = _line_die(186, (395.0, 398.0))
    assert (truth["color"], truth["symbol"]) == ("red", "gun")
    asked = _read_on(image, truth)
    assert len(asked) == 1 and asked[0].color == "red" and asked[0].confidence < 0.5, asked
    monkeypatch.setattr(reader, "GLARE_MADE", 0.0)  # the symbol matched best at all is enough
    sure = _read_on(image, truth)
    assert [(d.color, d.symbol) for d in sure] == [("red", "finger")] and sure[0].confidence >= 0.5, sure
