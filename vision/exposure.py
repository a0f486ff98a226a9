"""Exposure normalization, so a dim lamp and a bright one give the color model the same shades.

The gain maps a high percentile of the brightest channel to a fixed level. Dice faces and cards
are among the brightest things on a table, so this mostly undoes lamp brightness and camera
exposure while leaving hue alone.
"""

from __future__ import annotations

import cv2
import numpy as np

from .medians import level_percentile

TARGET_LEVEL = 235.0
PERCENTILE = 99.5
GAIN_LIMITS = (0.6, 4.0)


def exposure_gain(bgr: np.ndarray) -> float:
    """Gain that brings the (uint8 BGR) frame's bright end to `TARGET_LEVEL` (clipped to sane limits)."""
    step = max(1, int(np.sqrt(bgr.shape[0] * bgr.shape[1] / 40000)))  # ~40k samples are plenty
    sample = bgr[::step, ::step]
    brightest = np.maximum(np.maximum(sample[..., 0], sample[..., 1]), sample[..., 2])  # fast per plane
    level = level_percentile(brightest, PERCENTILE)
    return float(np.clip(TARGET_LEVEL / max(level, 1.0), *GAIN_LIMITS))


def normalized(bgr: np.ndarray, gain: float | None = None) -> np.ndarray:
    """The frame with exposure gain applied (uint8, saturating)."""
    return cv2.convertScaleAbs(bgr, alpha=exposure_gain(bgr) if gain is None else gain)
