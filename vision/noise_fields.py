"""Smooth random fields: the raw material for textures, mottling and light falloff.

A field is drawn at low resolution and upscaled with cubic interpolation, which is far cheaper
than filtering full-resolution noise and gives the same soft look.
"""

from __future__ import annotations

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, height: int, width: int,
                 scale_y: float, scale_x: float | None = None) -> np.ndarray:
    """Zero-mean, roughly unit-variance noise with features about ``scale`` pixels across.

    ``scale_x`` different from ``scale_y`` stretches the features (wood grain, cloth folds).
    """
    scale_x = scale_y if scale_x is None else scale_x
    small_h = max(2, int(np.ceil(height / scale_y)) + 2)
    small_w = max(2, int(np.ceil(width / scale_x)) + 2)
    small = rng.standard_normal((small_h, small_w)).astype(np.float32)
    big = cv2.resize(small, (int(small_w * scale_x), int(small_h * scale_y)),
                     interpolation=cv2.INTER_CUBIC)
    off_y = int(rng.integers(0, max(1, big.shape[0] - height)))
    off_x = int(rng.integers(0, max(1, big.shape[1] - width)))
    field = big[off_y:off_y + height, off_x:off_x + width]
    std = float(field.std()) or 1.0
    return (field - float(field.mean())) / std


def fine_noise(rng: np.random.Generator, height: int, width: int, grain: float = 1.0) -> np.ndarray:
    """Per-pixel noise (fibres, weave, sensor grain); ``grain`` > 1 makes the specks larger."""
    if grain <= 1.0:
        return rng.standard_normal((height, width), dtype=np.float32)
    small = rng.standard_normal((int(height / grain) + 1, int(width / grain) + 1), dtype=np.float32)
    big = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    return big / (float(big.std()) or 1.0)
