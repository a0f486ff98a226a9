"""Feature channels for the sliding-window die finder.

A frame is shrunk once to a *base* image (the smallest searched die about ``MODEL_SIDE`` px
wide) where per-pixel work is done: Lab color and four absolute directional derivatives (0, 45,
90, 135 degrees, a rotation-fair stand-in for orientation bins). Each pyramid level then only
pools those base channels over its own cell size, so a die is ``MODEL_SIDE / CELL`` cells wide
at every level, and derives the rest at cell resolution: color relative to the local table
(a median over a few dice sides, so a new table or lamp moves the table, not the die's
contrast) and gradients over their local mean. Relative features generalise across tables better
than absolute colors; the finder's linear model scores windows of these channels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .halving import halved

MODEL_SIDE = 24.0  # die side, pixels, at base scale for the smallest searched die
CELL = 4.0  # pooling cell for a die of MODEL_SIDE px: a die is 6 cells wide at every level
WINDOW = 10  # window side, cells (1.67 die sides: the die and a ring of its surround)
N_CHANNELS = 12
BACKGROUND_CELLS = 25  # local table color: median over this many cells (4 sides of the smallest die)
NORM_CELLS = 13  # gradients are divided by their mean over this many cells (about 2 die sides)


FINE = 2  # base pixels per fine cell: per-pixel channels are first pooled 2 x 2


@dataclass(frozen=True)
class Base:
    """Per-pixel channels of a frame shrunk by `scale` (Lab, and |d/dx|, |d/dy| and the two
    diagonal derivatives of L), pooled FINE x FINE, uint8."""

    scale: float
    lab: np.ndarray
    grad: np.ndarray
    gray: np.ndarray  # L at base resolution (unpooled), for the shape of a few candidates
    background: np.ndarray  # Lab of the local table: a median over BACKGROUND_CELLS cells of CELL px


def shrink(frame_bgr: np.ndarray, scale: float, half_frame: np.ndarray | None = None) -> np.ndarray:
    """Resize by `scale`: exact halvings (fast, alias-free) then one linear step. `half_frame`
    is the frame `halved` already, if the caller has it."""
    img = frame_bgr
    if scale <= 0.5 and half_frame is not None:
        img, scale = half_frame, scale * 2.0
    while scale <= 0.5:
        img = halved(img)
        scale *= 2.0
    if abs(scale - 1.0) < 1e-3:
        return img
    return cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)


def _pooled_derivatives(gray: np.ndarray) -> np.ndarray:
    """|d/dx|, |d/dy| and the two diagonal derivatives of `gray` (even sides), each pooled
    FINE x FINE, as 4 uint8 channels. The four are planes of one tall image, written in place:
    the scaling and the halving are a call or two over all four, and only the pooled quarter is
    interleaved (the halving never mixes planes: their heights are even)."""
    h, w = gray.shape
    d = np.empty((4 * h, w), np.int16)
    cv2.Sobel(gray, cv2.CV_16S, 1, 0, dst=d[:h], ksize=3)
    cv2.Sobel(gray, cv2.CV_16S, 0, 1, dst=d[h:2 * h], ksize=3)
    cv2.add(d[:h], d[h:2 * h], dst=d[2 * h:3 * h])
    cv2.subtract(d[:h], d[h:2 * h], dst=d[3 * h:])
    mag = np.empty((4 * h, w), np.uint8)
    cv2.convertScaleAbs(d[:2 * h], dst=mag[:2 * h], alpha=0.5)
    cv2.convertScaleAbs(d[2 * h:], dst=mag[2 * h:], alpha=0.354)
    pooled = cv2.resize(mag, (w // FINE, 4 * h // FINE), interpolation=cv2.INTER_AREA)
    return cv2.merge(np.split(pooled, 4))


def make_base(frame_bgr: np.ndarray, scale: float, half_frame: np.ndarray | None = None) -> Base:
    """Shrink (or enlarge) a frame by `scale` and compute its per-pixel channels (`half_frame`:
    the frame halved already, see `shrink`)."""
    img = shrink(frame_bgr, scale, half_frame)
    h, w = img.shape[:2]
    img = img[:h - h % FINE, :w - w % FINE]
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    gray = cv2.extractChannel(lab, 0)  # contiguous: Sobel reads a strided channel at half speed
    grad = _pooled_derivatives(gray)
    size = (img.shape[1] // FINE, img.shape[0] // FINE)
    fine_lab = cv2.resize(lab, size, interpolation=cv2.INTER_AREA)
    coarse = cv2.resize(fine_lab, (max(1, int(size[0] * FINE / CELL)), max(1, int(size[1] * FINE / CELL))),
                        interpolation=cv2.INTER_AREA)
    k = BACKGROUND_CELLS if min(coarse.shape[:2]) > BACKGROUND_CELLS else (max(1, min(coarse.shape[:2]) - 1) | 1)
    background = cv2.medianBlur(coarse, k) if k >= 3 else coarse
    return Base(scale, fine_lab, grad, gray, background)


@dataclass(frozen=True)
class Level:
    """Pooled channels (rows, cols, N_CHANNELS), each channel contiguous in memory (a view of
    planes, see `pool`), and the cell size in base pixels (x, y)."""

    pooled: np.ndarray
    cell_x: float
    cell_y: float


def pool(base: Base, cell_px: float) -> Level:
    """Channels pooled over cells of `cell_px` base pixels (any real size >= FINE).

    The channels are built as planes, one contiguous (rows, cols) array each, and the level
    holds them as a (rows, cols, N_CHANNELS) view: `score_map` correlates each plane without
    copying it out, and whole-array steps on planes avoid numpy's slow short last axis."""
    h, w = base.lab.shape[:2]
    cols, rows = max(1, int(round(w * FINE / cell_px))), max(1, int(round(h * FINE / cell_px)))
    lab = cv2.resize(base.lab, (cols, rows), interpolation=cv2.INTER_AREA).reshape(rows, cols, 3)
    grad = cv2.resize(base.grad, (cols, rows), interpolation=cv2.INTER_AREA).reshape(rows, cols, 4)
    bg = cv2.resize(base.background, (cols, rows), interpolation=cv2.INTER_LINEAR).reshape(rows, cols, 3)
    lab, bg = lab.transpose(2, 0, 1), bg.transpose(2, 0, 1)
    planes = np.empty((N_CHANNELS, rows, cols), np.float32)
    rel, contrast, norm_mag, norm_grad, absolute = planes[0:3], planes[3], planes[4], planes[5:9], planes[9:12]
    np.subtract(lab, bg, out=rel, dtype=np.float32)
    rel[0] *= 100.0 / (bg[0].astype(np.float32) * 0.5 + 40.0)  # dim lamp or bright, alike
    square = rel * rel
    np.add(square[0], square[1], out=contrast)  # in the order numpy sums a last axis of 3
    contrast += square[2]
    np.sqrt(contrast, out=contrast)
    norm_grad[...] = grad.transpose(2, 0, 1)
    mag = norm_grad.sum(axis=0)  # whole numbers: exact in any order
    scale = 8.0 / (cv2.blur(mag, (NORM_CELLS, NORM_CELLS)) + 6.0)
    np.multiply(mag, scale, out=norm_mag)
    norm_grad *= scale
    np.subtract(lab, np.array([0.0, 128.0, 128.0], np.float32)[:, None, None], out=absolute, dtype=np.float32)
    return Level(planes.transpose(1, 2, 0), w * FINE / cols, h * FINE / rows)


N_SHAPE = 3


def shape_features(base: Base, x: float, y: float, side: float) -> np.ndarray:
    """How square the thing at base pixel (x, y) of side `side` looks, whatever its rotation:
    the 4th circular harmonic of gradient directions, m*exp(4i*theta) summed over the die's disc
    and over its rim, each over the summed magnitude (a square's straight sides give about 1, a
    round chip or coin about 0), and the share of gradient on the rim."""
    r = int(math.ceil(0.8 * side)) + 2
    x0, y0 = int(round(x)) - r, int(round(y)) - r
    h, w = base.gray.shape
    crop = base.gray[max(0, y0):min(h, y0 + 2 * r + 1), max(0, x0):min(w, x0 + 2 * r + 1)].astype(np.float32)
    if crop.shape[0] < 5 or crop.shape[1] < 5:
        return np.zeros(N_SHAPE, np.float32)
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    # Distances from (x, y) by broadcasting a row against a column: no full grids of indices.
    d = np.hypot(np.arange(crop.shape[1]) - (x - max(0, x0)),
                 (np.arange(crop.shape[0]) - (y - max(0, y0)))[:, None]) / side
    disc = d < 0.78
    rim = (d > 0.32) & disc
    # Only the disc's gradients are summed: the terms are worked out for its pixels alone (about
    # half the crop), in the crop's order, so each sum adds the same values in the same order.
    gx, gy = gx[disc], gy[disc]
    gx2, gy2 = gx * gx, gy * gy
    m2 = gx2 + gy2 + 1e-6
    c2, s2 = gx2 - gy2, 2 * gx * gy  # m^2 e^{2i theta}
    # m, and m^4 e^{4i theta} over m^3, as three contiguous rows of one array: each sum below is
    # one call, and along a contiguous row as m[disc].sum() would be.
    terms = np.empty((3, gx.size), np.float32)
    m, c4, s4 = terms
    np.sqrt(m2, out=m)
    m3 = m2 * m
    np.divide(c2 * c2 - s2 * s2, m3, out=c4)
    np.divide(2 * c2 * s2, m3, out=s4)
    m_disc, c_disc, s_disc = (float(v) for v in terms.sum(axis=1))
    m_rim, c_rim, s_rim = (float(v) for v in np.compress(rim[disc], terms, axis=1).sum(axis=1))
    return np.array([math.hypot(c_disc, s_disc) / (m_disc + 1e-3), math.hypot(c_rim, s_rim) / (m_rim + 1e-3),
                     m_rim / (m_disc + 1e-3)], np.float32)


def score_map(pooled: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    """Linear window scores for every top-left cell: sum over channels of a correlation."""
    rows, cols = pooled.shape[0] - WINDOW + 1, pooled.shape[1] - WINDOW + 1
    if rows <= 0 or cols <= 0:
        return np.zeros((0, 0), np.float32)
    w = weights.reshape(WINDOW, WINDOW, N_CHANNELS)
    total = np.full((rows, cols), bias, np.float32)
    for c in range(N_CHANNELS):
        r = cv2.filter2D(np.ascontiguousarray(pooled[..., c]), cv2.CV_32F, np.ascontiguousarray(w[..., c]),
                         anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
        total += r[:rows, :cols]
    return total
