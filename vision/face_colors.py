"""The colors of a face, its paint and its body, and whether they are colors this box's dice have.

A numeral or a letter printed on a mat can read as a die's face: a cream "6" on a teal mat is a
white face to the color model, and the teal showing through its strokes is paint to the ink map,
shaped enough like a gun to match it well. A die's paint has the colors its box was painted
with, which teaching sees (box C: red or black on white dice, black on red and blue ones); the mat
showing through print has the mat's. So each die color's paint is kept as the taught faces'
paint chromas, and a face read surely whose paint lies far from every one of its color's is
print (box C, taught on four images: a real die's paint lay at most 7.8, 14.2 and 16.7 from the
nearest taught one on red, white and blue dice; the cream numerals' teal at 38 and 41).

Gold numerals on a maroon cloth read as white dice the other way round: their maroon "paint" is
as red as a white die's red ink, but their body is gold. So the taught faces' body chromas are
kept too. Only the palest die color's body says much: a white body takes the lamp's color and
little else, where a red or blue body's chroma swings with exposure (box C, taught on four of
its images: the test images' white dice lay at most 11.5-16.5 from the nearest taught white
body, the gold numerals 27.3-32.7; red and blue dice up to 56 and 52 from their colors').
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .medians import column_medians, percentile
from .symbols import INK_LEVEL, STRONG_INK_SHARE_OF_PEAK, face_ink


def paint_chroma(face_bgr: np.ndarray, gain: float = 1.0) -> np.ndarray | None:
    """The Lab (a, b) chroma of a face's paint, or None when the face carries none: the median
    of the pixels of `face_bgr` (BGR, a face patch as `vision.symbols.face_ink` takes it) that
    are paint for sure (STRONG_INK_SHARE_OF_PEAK of the strongest), each channel times `gain`
    (the frame's exposure gain, `vision.exposure`)."""
    paint = _sure_paint(face_bgr)
    return None if paint is None else _chroma(face_bgr.reshape(-1, 3)[paint], gain)


def body_chroma(face_bgr: np.ndarray, gain: float = 1.0) -> np.ndarray:
    """The Lab (a, b) chroma of a face's body: the median of the pixels of `face_bgr` that are
    not paint for sure, at `gain` (see `paint_chroma`); of every pixel when the face carries no
    paint, or when every pixel is as far from the median (a patch half of one color, half of
    another)."""
    pixels = face_bgr.reshape(-1, 3)
    paint = _sure_paint(face_bgr)
    if paint is not None and not paint.all():
        pixels = pixels[~paint]
    return _chroma(pixels, gain)


def _sure_paint(face_bgr: np.ndarray) -> np.ndarray | None:
    """Which pixels of `face_bgr` (flat) are paint for sure (STRONG_INK_SHARE_OF_PEAK of the
    strongest), or None when the face carries no paint (INK_LEVEL)."""
    ink = face_ink(face_bgr)
    peak = percentile(ink, 99)
    return None if peak < INK_LEVEL else ink.ravel() >= STRONG_INK_SHARE_OF_PEAK * peak


def _chroma(pixels: np.ndarray, gain: float) -> np.ndarray:
    """The Lab (a, b) chroma of the median of `pixels` (BGR rows), each channel times `gain`."""
    color = np.clip(column_medians(np.ascontiguousarray(pixels, np.float32)) * gain, 0.0, 255.0)
    lab = cv2.cvtColor(np.round(color).astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_BGR2LAB)
    return lab[0, 0, 1:].astype(np.float32) - 128.0


@dataclass(frozen=True, eq=False)
class TaughtChromas:
    """Per die color, the chromas (N, 2) of one part of its taught faces: their paint, or their
    body."""

    samples: dict[str, np.ndarray]

    @staticmethod
    def fit(samples: dict[str, list[np.ndarray]]) -> "TaughtChromas | None":
        """From each die color's chromas; None when no color has any."""
        kept = {color: np.array(chromas, np.float32).reshape(-1, 2) for color, chromas in samples.items() if chromas}
        return TaughtChromas(kept) if kept else None

    def distance(self, color: str, chroma: np.ndarray) -> float | None:
        """How far `chroma` lies from the nearest taught chroma of `color` dice (Lab units), or
        None when teaching saw none on that color."""
        taught = self.samples.get(color)
        if taught is None or not len(taught):
            return None
        return float(np.sqrt(((taught - chroma) ** 2).sum(axis=1).min()))

    def to_json(self) -> dict:
        return {color: np.round(chromas, 2).tolist() for color, chromas in self.samples.items()}

    @staticmethod
    def from_json(data: dict) -> "TaughtChromas":
        return TaughtChromas({str(color): np.array(chromas, np.float32).reshape(-1, 2) for color, chromas in data.items()})
