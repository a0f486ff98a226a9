"""Scene lighting: light direction, color cast, falloff, vignetting, cast shadows and glare.

A ``Light`` is a small immutable description; the functions here apply it to a float32 BGR image.
Presets cover the rooms a table companion meets: a neutral ceiling light, a warm lamp, cool
daylight, a dim evening room, a hard, low spotlight with crisp long shadows, and a mixed room
(a lamp plus a window) where every die throws two shadows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.noise_fields import smooth_noise

LIGHT_KINDS: tuple[str, ...] = ("neutral", "warm", "cool", "dim", "hard", "mixed")


@dataclass(frozen=True)
class Light:
    """How the table is lit.

    ``azimuth``/``elevation`` (degrees) point toward the main light; ``tint`` multiplies BGR;
    ``gain`` is overall brightness; ``falloff`` darkens away from ``hotspot`` (fractions of the
    frame); ``shadow_strength``/``shadow_blur`` (blur in die sizes) shape cast shadows;
    ``glare_spots`` is how many bright specular blobs appear on the table or dice;
    a second, weaker light (``fill_*``) throws a second shadow when ``fill_strength`` > 0.
    """

    kind: str
    azimuth: float
    elevation: float
    tint: tuple[float, float, float]
    gain: float
    falloff: float
    hotspot: tuple[float, float]
    vignette: float
    shadow_strength: float
    shadow_blur: float
    glare_spots: int
    fill_azimuth: float = 0.0
    fill_elevation: float = 60.0
    fill_strength: float = 0.0


def random_light(rng: np.random.Generator, kind: str | None = None) -> Light:
    """A light of ``kind`` (random when None) with randomized details."""
    kind = kind or LIGHT_KINDS[int(rng.integers(len(LIGHT_KINDS)))]
    if kind not in LIGHT_KINDS:
        raise ValueError(f"unknown light {kind!r}; expected one of {LIGHT_KINDS}")
    jitter = rng.uniform(0.96, 1.04, 3)
    base = {
        "neutral": ((1.0, 1.0, 1.0), 1.0, 55, 75, 0.55, 0.30, 0.25),
        "warm": ((0.78, 0.95, 1.12), 0.98, 45, 70, 0.60, 0.25, 0.35),
        "cool": ((1.12, 1.0, 0.88), 1.0, 50, 75, 0.50, 0.35, 0.25),
        "dim": ((0.90, 0.97, 1.05), 0.55, 45, 70, 0.45, 0.35, 0.45),
        "hard": ((1.0, 1.0, 1.0), 1.08, 35, 55, 0.70, 0.05, 0.30),
        "mixed": ((0.92, 0.98, 1.06), 0.95, 45, 70, 0.45, 0.15, 0.30),
    }[kind]
    tint, gain, el_lo, el_hi, shadow, blur, falloff = base
    return Light(
        kind=kind,
        azimuth=float(rng.uniform(0, 360)),
        elevation=float(rng.uniform(el_lo, el_hi)),
        tint=tuple(float(t * j) for t, j in zip(tint, jitter)),
        gain=float(gain * rng.uniform(0.92, 1.06)),
        falloff=float(falloff * rng.uniform(0.5, 1.2)),
        hotspot=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
        vignette=float(rng.uniform(0.15, 0.45)),
        shadow_strength=float(shadow * rng.uniform(0.85, 1.1)),
        shadow_blur=float(blur * rng.uniform(0.7, 1.3)),
        glare_spots=int(rng.integers(0, 3)),
        fill_azimuth=float(rng.uniform(0, 360)),
        fill_elevation=float(rng.uniform(40, 70)),
        fill_strength=float(rng.uniform(0.25, 0.4)) if kind == "mixed" else 0.0,
    )


def shadow_offset(light: Light, height: float, fill: bool = False) -> np.ndarray:
    """How far (x, y) a point ``height`` above the table throws its shadow (from the main
    light, or from the fill light when ``fill``)."""
    if fill:
        az, el = np.radians(light.fill_azimuth), np.radians(light.fill_elevation)
    else:
        az, el = np.radians(light.azimuth), np.radians(light.elevation)
    reach = height / np.tan(el)
    return -np.array([np.cos(az), np.sin(az)], np.float32) * reach


def apply_shadows(img: np.ndarray, polygons: list[np.ndarray], light: Light, die_size: float,
                  contact: list[np.ndarray], fill_polygons: list[np.ndarray] = ()) -> None:
    """Darken ``img`` in place under soft cast shadows and contact shadows.

    Drawn at quarter resolution and blurred: shadows are soft, and this keeps them cheap.
    """
    h, w = img.shape[:2]
    q = 4
    sh, sw = (h + q - 1) // q, (w + q - 1) // q
    cast = np.zeros((sh, sw), np.uint8)
    for poly in polygons:
        cv2.fillPoly(cast, [np.round(poly * (16 / q)).astype(np.int32)], 255, cv2.LINE_AA, 4)
    near = np.zeros((sh, sw), np.uint8)
    for poly in contact:
        cv2.fillPoly(near, [np.round(poly * (16 / q)).astype(np.int32)], 255, cv2.LINE_AA, 4)
    sigma = max(0.6, light.shadow_blur * die_size / q)
    cast_f = cv2.GaussianBlur(cast.astype(np.float32) / 255.0, (0, 0), sigma)
    near_f = cv2.GaussianBlur(near.astype(np.float32) / 255.0, (0, 0), max(0.8, 0.08 * die_size / q))
    dark = light.shadow_strength * cast_f + 0.35 * near_f
    if light.fill_strength > 0 and len(fill_polygons):
        second = np.zeros((sh, sw), np.uint8)
        for poly in fill_polygons:
            cv2.fillPoly(second, [np.round(poly * (16 / q)).astype(np.int32)], 255, cv2.LINE_AA, 4)
        second_f = cv2.GaussianBlur(second.astype(np.float32) / 255.0, (0, 0), sigma * 1.5)
        dark = 1.0 - (1.0 - dark) * (1.0 - light.fill_strength * second_f)
    keep = 1.0 - np.clip(dark, 0, 0.9)
    np.multiply(img, cv2.resize(keep, (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None], out=img)


def illumination(light: Light, height: int, width: int, seed: int) -> np.ndarray:
    """The light reaching each pixel (H x W x 3): tint, falloff from a hotspot, vignetting."""
    rng = np.random.default_rng(seed)
    small_w, small_h = 160, max(2, int(160 * height / width))
    ys, xs = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    u, v = xs / (small_w - 1), ys / (small_h - 1)
    hx, hy = light.hotspot
    d2 = (u - hx) ** 2 + ((v - hy) * height / width) ** 2
    level = 1.0 - light.falloff * np.clip(d2 / 0.5, 0, 1)
    r2 = ((u - 0.5) ** 2 + ((v - 0.5) * height / width) ** 2) / 0.3
    level *= 1.0 - light.vignette * np.clip(r2, 0, 1.4) ** 1.5
    level *= 1.0 + 0.04 * smooth_noise(rng, small_h, small_w, 40)
    tint = np.asarray(light.tint, np.float32) * light.gain
    small = level.astype(np.float32)[:, :, None] * tint
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def add_glare(img: np.ndarray, spots: list[tuple[float, float, float, float]]) -> None:
    """Add soft specular blobs (x, y, radius, strength) in place: lamp reflections."""
    h, w = img.shape[:2]
    for x, y, r, strength in spots:
        x0, x1 = max(0, int(x - 3 * r)), min(w, int(x + 3 * r) + 1)
        y0, y1 = max(0, int(y - 3 * r)), min(h, int(y + 3 * r) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        blob = np.exp(-((xx - x) ** 2 + ((yy - y) * 1.3) ** 2) / (2 * r * r)) * strength
        img[y0:y1, x0:x1] += blob[:, :, None]
