"""A frame at half its size: where the dice detector and the die finder both start.

Both shrink a frame by exact halvings (a 2 x 2 mean: cheap and alias-free) before a last linear
step; a reader halves its frame once and hands the half to both (0.45 ms of a 1640x1232 frame's
reading, whose target is 40 ms).
"""

from __future__ import annotations

import cv2
import numpy as np


def halved(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame at half its size, each pixel the mean of 2 x 2 (of a frame with an odd number
    of rows or columns, a weighted mean of a little more: OpenCV's area resize to half the size,
    rounded down)."""
    return cv2.resize(frame_bgr, (frame_bgr.shape[1] // 2, frame_bgr.shape[0] // 2), interpolation=cv2.INTER_AREA)
