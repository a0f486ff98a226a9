"""Table surfaces seen from above: wood, felt, cloth, laminate and printed play mats.

Every surface is a float32 BGR image in [0, 1] made from a seed, so a scene renders the same
each time. The set deliberately includes hard cases for the reader: dark blue felt (blue dice
nearly vanish), white cloth and laminate (white dice nearly vanish), red felt and a red mat (red
dice), and busy printed mats with gold lines and lettering that look like paint.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.noise_fields import fine_noise, smooth_noise

TABLE_KINDS: tuple[str, ...] = (
    "wood", "wood_dark", "felt_green", "felt_red", "felt_blue", "felt_darkblue",
    "laminate_light", "cloth_white", "gingham", "cloth_print", "playmat",
)

# Base colors, BGR in [0, 1].
_FELT = {
    "felt_green": (0.22, 0.42, 0.10),
    "felt_red": (0.14, 0.12, 0.50),
    "felt_blue": (0.55, 0.30, 0.12),
    "felt_darkblue": (0.32, 0.16, 0.08),
}


def _wood(rng: np.random.Generator, h: int, w: int, dark: bool) -> np.ndarray:
    """Planks with growth rings along x: thin dark latewood lines bent by a smooth warp,
    open pores as fine streaks, seams, and a tint and grain of its own for every plank."""
    if dark:
        base = np.array([0.10, 0.17, 0.27], np.float32) * rng.uniform(0.8, 1.2)
    else:
        base = np.array([0.33, 0.52, 0.70], np.float32) * rng.uniform(0.85, 1.1)
    img = np.zeros((h, w, 3), np.float32)
    plank = int(rng.uniform(0.12, 0.25) * max(h, w))
    ys = np.arange(h, dtype=np.float32)[:, None]
    y = 0
    while y < h:
        y1 = min(h, y + plank)
        ph = y1 - y
        warp = smooth_noise(rng, ph, w, 60, 500) * rng.uniform(8, 20) \
            + smooth_noise(rng, ph, w, 25, 160) * rng.uniform(1, 4)
        period = rng.uniform(7, 16) * (1 + 0.25 * smooth_noise(rng, ph, w, 80, 400))
        phase = (ys[y:y1] - y + warp) / period
        frac = phase - np.floor(phase)
        late = np.clip((frac - 0.72) / 0.28, 0, 1) ** 2  # latewood: a dark band at the end
        pores = smooth_noise(rng, ph, w, 1.2, 60)
        mottle = smooth_noise(rng, ph, w, 120, 300)
        shade = 1.0 - 0.28 * late + 0.035 * pores + 0.07 * mottle
        tint = base * rng.uniform(0.9, 1.1, 3).astype(np.float32) ** 0.3 * rng.uniform(0.85, 1.12)
        img[y:y1] = shade[:, :, None] * tint
        if y1 < h:
            img[max(0, y1 - 2):y1] *= 0.45  # seam between planks
        y = y1
    return img


def _felt(rng: np.random.Generator, h: int, w: int, color: tuple[float, float, float]) -> np.ndarray:
    base = np.array(color, np.float32) * rng.uniform(0.85, 1.12)
    fibre = fine_noise(rng, h, w, 1.6)
    mottle = smooth_noise(rng, h, w, 120)
    shade = 1.0 + 0.045 * fibre + 0.03 * mottle
    return shade[:, :, None] * base


def _cloth_white(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Off-white linen with a fine weave and soft folds."""
    base = np.array([0.80, 0.84, 0.86], np.float32) * rng.uniform(0.92, 1.05)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weave = np.sin(xx * 2.6) * np.sin(yy * 2.6)
    folds = smooth_noise(rng, h, w, 200, 90)
    shade = 1.0 + 0.02 * weave + 0.025 * folds + 0.01 * fine_noise(rng, h, w)
    return shade[:, :, None] * base


def _laminate(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array([0.82, 0.88, 0.90], np.float32) * rng.uniform(0.9, 1.04)
    speck = fine_noise(rng, h, w, 2.0)
    shade = 1.0 + 0.012 * speck + 0.02 * smooth_noise(rng, h, w, 200)
    return shade[:, :, None] * base


def _gingham(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Checked tablecloth: bands overlap to three tones, slightly rotated, woven."""
    palettes = [(0.20, 0.20, 0.72), (0.55, 0.30, 0.15), (0.22, 0.45, 0.20), (0.15, 0.15, 0.15)]
    dark = np.array(palettes[int(rng.integers(len(palettes)))], np.float32)
    light = np.array([0.86, 0.88, 0.90], np.float32)
    period = rng.uniform(30, 70)
    theta = rng.uniform(-0.3, 0.3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(theta) + yy * np.sin(theta)
    v = -xx * np.sin(theta) + yy * np.cos(theta)
    band_u = (np.mod(u, period) < period / 2).astype(np.float32)
    band_v = (np.mod(v, period) < period / 2).astype(np.float32)
    amount = cv2.GaussianBlur(0.5 * (band_u + band_v), (0, 0), 1.2)[:, :, None]
    img = light * (1 - amount) + dark * amount
    weave = 1.0 + 0.03 * np.sin(u * 2.4) * np.sin(v * 2.4) + 0.04 * smooth_noise(rng, h, w, 200, 90)
    return img * weave[:, :, None]


def _cloth_print(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A printed tablecloth: a light ground with a repeating motif (dots, diamonds, small
    flowers) in red, blue or dark ink; small colored shapes a reader must not take for dice."""
    grounds = [(0.80, 0.86, 0.90), (0.62, 0.80, 0.88), (0.78, 0.80, 0.74)]
    inks = [(0.18, 0.18, 0.65), (0.60, 0.32, 0.12), (0.20, 0.20, 0.22), (0.25, 0.50, 0.25)]
    ground = np.array(grounds[int(rng.integers(len(grounds)))], np.float32)
    ink = tuple(float(c) * 255 for c in inks[int(rng.integers(len(inks)))])
    period = int(rng.uniform(40, 80))
    motif = int(rng.integers(3))
    tile = np.zeros((period, period, 3), np.uint8)
    tile[:] = (ground * 255).astype(np.uint8)
    c = period // 2
    if motif == 0:  # polka dots
        cv2.circle(tile, (c, c), period // 6, ink, -1, cv2.LINE_AA)
        cv2.circle(tile, (0, 0), period // 10, ink, -1, cv2.LINE_AA)
    elif motif == 1:  # diamonds
        r = period // 4
        cv2.fillConvexPoly(tile, np.array([[c, c - r], [c + r, c], [c, c + r], [c - r, c]]), ink, cv2.LINE_AA)
    else:  # five-petal flowers
        for k in range(5):
            a = 2 * np.pi * k / 5
            cv2.circle(tile, (int(c + np.cos(a) * period / 9), int(c + np.sin(a) * period / 9)),
                       period // 11, ink, -1, cv2.LINE_AA)
        cv2.circle(tile, (c, c), period // 14, (60, 180, 230), -1, cv2.LINE_AA)
    reps = (h // period + 2, w // period + 2, 1)
    img = np.tile(tile, reps)[:h, :w].astype(np.float32) / 255.0
    theta = float(rng.uniform(-8, 8))
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), theta, 1.0)
    img = cv2.warpAffine(img, rot, (w, h), borderMode=cv2.BORDER_REFLECT)
    folds = smooth_noise(rng, h, w, 220, 100)
    shade = 1.0 + 0.03 * folds + 0.015 * fine_noise(rng, h, w, 1.5)
    return img * shade[:, :, None]


def _seat_layout(ink: np.ndarray, rng: np.random.Generator, gold: tuple[int, int, int]) -> None:
    """Second mat design: a framed table with numbered seat boxes around the edge and a round
    pot in the middle; printed numbers and boxes sit right where dice land."""
    h, w = ink.shape[:2]
    line = max(2, int(min(h, w) / 220))
    cream = (170, 215, 235)
    m = int(min(h, w) * 0.04)
    cv2.rectangle(ink, (m, m), (w - m, h - m), gold, line * 2, cv2.LINE_AA)
    cv2.rectangle(ink, (m + 3 * line, m + 3 * line), (w - m - 3 * line, h - m - 3 * line), gold, line, cv2.LINE_AA)
    seats = int(rng.integers(4, 7))
    bw, bh = int(w * 0.24), int(h * 0.2)
    spots = [(0.08, 0.08), (0.68, 0.08), (0.08, 0.72), (0.68, 0.72), (0.38, 0.06), (0.38, 0.74)][:seats]
    scale = min(h, w) / 500
    for k, (fx, fy) in enumerate(spots, start=1):
        x0, y0 = int(fx * w), int(fy * h)
        cv2.rectangle(ink, (x0, y0), (x0 + bw, y0 + bh), gold, line, cv2.LINE_AA)
        cv2.putText(ink, str(k), (x0 + line * 4, y0 + int(36 * scale)), cv2.FONT_HERSHEY_DUPLEX, scale,
                    cream, max(1, line), cv2.LINE_AA)
    cx, cy, r = w // 2, h // 2, int(min(h, w) * 0.16)
    cv2.circle(ink, (cx, cy), r, gold, line * 2, cv2.LINE_AA)
    cv2.putText(ink, "POT", (cx - int(40 * scale), cy + int(14 * scale)), cv2.FONT_HERSHEY_TRIPLEX,
                scale * 1.2, gold, max(1, line), cv2.LINE_AA)


def _playmat(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A printed mat: dark base with either gold rings, rays, stars, corner zones and lettering,
    or numbered seat boxes around a central pot."""
    bases = [(0.10, 0.10, 0.36), (0.12, 0.24, 0.08), (0.28, 0.14, 0.06), (0.08, 0.08, 0.09)]
    base = np.array(bases[int(rng.integers(len(bases)))], np.float32)
    gold = (40, 170, 225)
    ink = np.zeros((h, w, 3), np.uint8)
    ink[:] = (base * 255).astype(np.uint8)
    if rng.random() < 0.5:
        _seat_layout(ink, rng, gold)
        img = cv2.GaussianBlur(ink.astype(np.float32) / 255.0, (0, 0), 0.8)
        shade = 1.0 + 0.025 * fine_noise(rng, h, w, 1.5) + 0.04 * smooth_noise(rng, h, w, 160)
        return img * shade[:, :, None]
    cx, cy = w // 2 + int(rng.integers(-w // 10, w // 10)), h // 2 + int(rng.integers(-h // 10, h // 10))
    r = int(min(h, w) * rng.uniform(0.28, 0.4))
    dark_line = tuple(int(c * 0.55) for c in ink[0, 0])
    for k in range(36):
        a = 2 * np.pi * k / 36
        p0 = (int(cx + np.cos(a) * r * 1.1), int(cy + np.sin(a) * r * 1.1))
        p1 = (int(cx + np.cos(a) * r * 3.0), int(cy + np.sin(a) * r * 3.0))
        cv2.line(ink, p0, p1, dark_line, 3, cv2.LINE_AA)
    for rr, t in ((r, 6), (int(r * 0.92), 3), (int(r * 0.55), 3)):
        cv2.circle(ink, (cx, cy), rr, gold, t, cv2.LINE_AA)
    zone = int(min(h, w) * 0.3)
    for x0, y0 in ((-zone // 3, -zone // 3), (w - zone + zone // 3, -zone // 3),
                   (-zone // 3, h - zone + zone // 3), (w - zone + zone // 3, h - zone + zone // 3)):
        cv2.rectangle(ink, (x0, y0), (x0 + zone, y0 + zone), gold, 4, cv2.LINE_AA)
    for _ in range(int(rng.integers(8, 20))):
        sx, sy = int(rng.integers(0, w)), int(rng.integers(0, h))
        r_star, turn = rng.uniform(6, 12), rng.uniform(0, 2 * np.pi)
        ang = turn + np.arange(10) * np.pi / 5
        radii = np.where(np.arange(10) % 2 == 0, r_star, r_star * 0.42)
        star = np.stack([sx + radii * np.cos(ang), sy + radii * np.sin(ang)], 1)
        cv2.fillPoly(ink, [np.round(star * 16).astype(np.int32)], gold, cv2.LINE_AA, 4)
    scale = min(h, w) / 420
    text = ["GANGSTER DICE", "NO DICE NO DEAL", "THE FAMILY"][int(rng.integers(3))]
    cv2.putText(ink, text, (int(w * 0.22), int(h * 0.1)), cv2.FONT_HERSHEY_TRIPLEX, scale, gold,
                max(2, int(scale * 2.5)), cv2.LINE_AA)
    img = ink.astype(np.float32) / 255.0
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    shade = 1.0 + 0.025 * fine_noise(rng, h, w, 1.5) + 0.04 * smooth_noise(rng, h, w, 160)
    return img * shade[:, :, None]


TABLE_VARIANTS = 8  # texture seeds per kind; a scene picks one, so the cache below stays useful


def make_table(kind: str, width: int, height: int, seed: int) -> np.ndarray:
    """The table surface ``kind`` as a fresh float32 BGR image (height, width, 3) in [0, 1],
    deterministic per seed."""
    return _table_u8(kind, width, height, seed).astype(np.float32) * np.float32(1 / 255)


@lru_cache(maxsize=24)
def _table_u8(kind: str, width: int, height: int, seed: int) -> np.ndarray:
    """The surface as read-only uint8, cached: a benchmark renders hundreds of scenes over a
    few tables, and drawing a texture costs more than all the dice. The texture is drawn at
    half resolution and upscaled: detail finer than two pixels is lost under the camera's own
    blur and noise anyway."""
    full_w, full_h = width, height
    width, height = (width + 1) // 2, (height + 1) // 2
    rng = np.random.default_rng(seed)
    if kind in ("wood", "wood_dark"):
        img = _wood(rng, height, width, dark=kind == "wood_dark")
    elif kind in _FELT:
        img = _felt(rng, height, width, _FELT[kind])
    elif kind == "cloth_white":
        img = _cloth_white(rng, height, width)
    elif kind == "laminate_light":
        img = _laminate(rng, height, width)
    elif kind == "gingham":
        img = _gingham(rng, height, width)
    elif kind == "cloth_print":
        img = _cloth_print(rng, height, width)
    elif kind == "playmat":
        img = _playmat(rng, height, width)
    else:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {TABLE_KINDS}")
    img = cv2.resize(np.clip(img * 255.0 + 0.5, 0, 255).astype(np.uint8), (full_w, full_h),
                     interpolation=cv2.INTER_LINEAR)
    img.setflags(write=False)
    return img
