"""What the camera does to a clean image: defocus, sensor noise, 8-bit output, JPEG artefacts.

These are the last steps of a render, applied to the lit float32 scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np


@dataclass(frozen=True)
class Optics:
    """Camera imperfections: Gaussian defocus (px), noise level (std of 8-bit values at mid
    grey, grows with brightness like shot noise), JPEG quality (None: no compression) and
    auto-exposure (a dark scene is brightened, at the price of amplified noise)."""

    blur: float
    noise: float
    jpeg_quality: int | None
    exposure_target: float = 0.42  # mean brightness auto-exposure aims for (0..1)
    auto_exposure: float = 0.0  # how far it goes there: 0 fixed exposure, 1 all the way


def random_optics(rng: np.random.Generator, gain: float = 1.0) -> Optics:
    """Random camera imperfections; a dim scene (low ``gain``) is noisier, as the camera has to
    amplify its signal (the camera's own denoising keeps the level modest)."""
    return Optics(blur=float(rng.choice([0.0, 0.6, 0.9, 1.3, 1.8], p=[0.2, 0.3, 0.25, 0.15, 0.1])),
                  noise=float(rng.uniform(0.5, 1.5) / np.sqrt(min(1.0, max(gain, 0.3)))),
                  jpeg_quality=int(rng.integers(70, 96)),
                  exposure_target=float(rng.uniform(0.33, 0.5)),
                  auto_exposure=float(rng.uniform(0.3, 0.6)))


_TILE_MARGIN = 256


@lru_cache(maxsize=4)
def _noise_tile(height: int, width: int) -> np.ndarray:
    """A fixed bank of sensor noise a little larger than the frame.

    Each frame takes a window at a seed-chosen offset: drawing fresh Gaussian noise for every
    pixel of every frame would dominate the render time, and a shifted window of a large bank
    is as good as fresh noise for a reader. Luma-heavy with weaker per-channel chroma.
    """
    rng = np.random.default_rng(20240917)
    h, w = height + _TILE_MARGIN, width + _TILE_MARGIN
    luma = rng.standard_normal((h, w), dtype=np.float32)
    chroma = rng.standard_normal((h // 2 + 1, w // 2 + 1, 3), dtype=np.float32)
    chroma = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_NEAREST)
    tile = luma[:, :, None] + 0.2 * chroma
    tile.setflags(write=False)
    return tile


def develop(img: np.ndarray, optics: Optics, noise_seed: int) -> np.ndarray:
    """Turn a lit float32 BGR scene (0..1) into the 8-bit BGR frame a camera would deliver."""
    if optics.blur > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), optics.blur)
    h, w = img.shape[:2]
    mean = max(float(np.mean(cv2.mean(img)[:3])), 1e-3)
    gain = 1.0
    if optics.auto_exposure > 0:  # partial: a dim room still looks dim, only less so
        gain = float(np.clip((optics.exposure_target / mean) ** optics.auto_exposure, 0.7, 1.5))
    out = cv2.multiply(img, (255.0 * gain, 255.0 * gain, 255.0 * gain, 0.0))
    if optics.noise > 0:
        rng = np.random.default_rng(noise_seed)
        tile = _noise_tile(h, w)
        oy, ox = (int(v) for v in rng.integers(0, _TILE_MARGIN, 2))
        # Shot-noise-like, a brighter frame is noisier, and a higher gain amplifies the sensor's
        # noise too. One level per frame keeps this a single fused pass over the image.
        level = float(optics.noise) * float(np.sqrt(np.clip(mean * gain * 2.0, 0.15, 2.0) * max(gain, 1.0)))
        out = cv2.scaleAdd(tile[oy:oy + h, ox:ox + w], level, out)
    frame = cv2.add(out, (0.5, 0.5, 0.5, 0.0), dtype=cv2.CV_8U)
    if optics.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(optics.jpeg_quality)])
        if ok:
            frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return frame
