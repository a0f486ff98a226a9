"""A frame at half its size: where the dice detector and the die finder both start, and where
a big die's face window is cut (`vision.symbols.face_window`).

Both shrink a frame by exact halvings (a 2 x 2 mean: cheap and alias-free) before a last linear
step; a reader halves its frame once and hands the half to both (0.45 ms of a 1640x1232 frame's
reading, whose target is 40 ms). Face windows, cut a hundred times a frame from all over it,
find that half through `known_half` while a reading lasts (`halves_known`) instead of being
handed it through every step of the reader: cut from it or from their own stretch of the frame
halved, they are the same to the bit, so the half only saves time and cannot change a reading.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import cv2
import numpy as np


def halved(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame at half its size, each pixel the mean of 2 x 2 (of a frame with an odd number
    of rows or columns, a weighted mean of a little more: OpenCV's area resize to half the size,
    rounded down)."""
    return cv2.resize(frame_bgr, (frame_bgr.shape[1] // 2, frame_bgr.shape[0] // 2), interpolation=cv2.INTER_AREA)


# The frame being read and its half, in this thread or task only (a table's camera thread and a
# teaching request can read at once).
_KNOWN: ContextVar[tuple[np.ndarray, np.ndarray] | None] = ContextVar("known_half", default=None)


@contextmanager
def halves_known(frame_bgr: np.ndarray, half_frame: np.ndarray) -> Iterator[None]:
    """While within: `known_half(frame_bgr)` is `half_frame` (the frame `halved`). The frame
    must not change meanwhile."""
    token = _KNOWN.set((frame_bgr, half_frame))
    try:
        yield
    finally:
        _KNOWN.reset(token)


def known_half(frame_bgr: np.ndarray) -> np.ndarray | None:
    """The half of this very frame (by identity) that `halves_known` holds, when its rows and
    columns are even (an odd one's half is not its 2 x 2 means, see `halved`), else None."""
    known = _KNOWN.get()
    if known is None or known[0] is not frame_bgr or frame_bgr.shape[0] % 2 or frame_bgr.shape[1] % 2:
        return None
    return known[1]
