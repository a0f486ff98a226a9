"""Finding dice with a size-tuned, learnt sliding-window detector (an experiment beside
``vision.detect``; same frames in, die centers and sides out).

``train_finder`` learns from a few labelled frames of one box: the die size (label "size" when
given, else measured from the image), then two classifiers at a scale where a die is
``MODEL_SIDE`` px wide. Stage 1 is linear over windows of the pooled channels of
``vision.die_features`` (color relative to the local table, normalized directional gradients,
absolute Lab), so one correlation per channel scores a whole pyramid level; it is retrained on
its own worst false alarms, with windows half a die off a die and between touching dice as
negatives so each die gives one sharp peak. Stage 2 is a small MLP over each stage-1 peak's
window plus rotation-free shape measures (how square, not round; gradient on the rim), trained
on what stage 1 finds in the teaching views. Teaching views are augmented: the 8 symmetries of
the square, size jitter, lamp gain/gamma/white balance, the table recoloured, and dice seen at
wrong sizes as negatives.

``find_dice`` scores a pyramid covering the taught die sizes, re-scores the peaks with stage 2
(with ``rescale``, a peak just short of the bar again on a crop shrunk to another scale: stage 2's
verdict on one die moves with the shrinking), keeps those of about the frame's own die size
(coins, chips and fingertips are smaller or larger) and suppresses peaks closer than
``NMS_SIDES`` die sides to a better one. Teaching trains ``MEMBERS`` such finders, each on its
own draw of augmented views, and keeps their mean: one finder's results move a lot with the draw.
The model is plain numbers (``to_json``/``from_json``) so it fits in a profile.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from .blas import use_one_blas_thread
from .cores import map_on_cores
from .die_features import (CELL, MODEL_SIDE, N_CHANNELS, N_SHAPE, WINDOW, Base, make_base, pool, score_map,
                           shape_features)
from .stored_arrays import array_from_json, array_to_json

MEASURED_TO_SIDE = 0.8  # a measured blob takes in the die's sides and edge: about 1.25 top faces
SIZE_SLACK = (0.8, 1.3)  # die sides searched, relative to the smallest and largest taught
LEVEL_RATIO = 1.2  # pyramid step between searched die sides
NMS_SIDES = 0.6  # two detections closer than this many die sides are one die
POSITIVE_SIDES = 0.42  # windows nearer a die than this (but not on it) are neither die nor not
OFF_SCALES = (0.55, 1.7)  # teaching frames also seen at these scales: dice of a wrong size
RECALL_QUANTILE = 0.004  # threshold: this share of taught dice may score below it
HARD_ROUNDS = 2
SAME_SIZE = 1.45  # dice in one frame are within this factor of the frame's die side
CONFIDENT_LOGIT = 2.0  # peaks this sure set the frame's die side
PRE_LOGIT = -3.0  # peaks below this before their shape is looked at are dropped
STAGE2_PEAKS = 120  # per teaching view, the best stage-1 peaks stage 2 learns from
DIE_LOGIT = 1.0  # stage-2 logit a die needs: training is class-balanced, dice are rare in a frame
LINEAR_DIMS = 160  # principal axes the linear stage is fitted on (then mapped back to raw)
# Finders averaged (`train_finder`). One finder learns from a few frames seen through random
# augmentations, and which ones it drew moves what it finds: the reader with one finder
# taught from seeds 0, 1 and 2 made 262, 315 and 393 errors on the renderer benchmark (missed
# 142, 166, 239) and 370, 399 and 373 on box C's 70 four-image teachings; with those three
# averaged, 300 and 351; with seeds 3, 4 and 5 averaged, 283 and 357.
MEMBERS = 3
# Memory one member's training takes: bytes per byte of its teaching frames, plus a worker
# process's own (box C: 8.6 and 7.0 bytes a byte on four and eight of its frames, over 88-118 MB).
MEMBER_MEMORY = (9, 120_000_000)
MLP_DIMS, MLP_HIDDEN = 64, 24  # the second stage: principal axes in, hidden units
# A die's stage-2 logit depends on how the frame was shrunk for the search: one die scored 0.40
# where the search's base made it MODEL_SIDE px wide and 0.88 where it made it 1.96 times that,
# both sizes taught (teaching views put dice at 1-2 times MODEL_SIDE). With `rescale`, the
# RESCALE_LOOKS best peaks that fall short of the threshold by less than RESCALE_BELOW are
# looked at again on a base of their own, where a die is RESCALE times MODEL_SIDE wide, made
# from a crop reaching RESCALE_REACH die sides around them, and keep the better logit. In the
# reader, renderer, 300 scenes per style: errors 447 -> 430 (missed 214 -> 191, phantoms 140 ->
# 145), flagged 2009 -> 2017; box C's 70 four-image teachings: 402 -> 393 (missed 113 -> 104).
# Every peak in the band (8 on the 24-dice frame): about as good, offline, for 3 ms more; 2
# looks: fewer found; a crop reaching 2.4 sides: no better, 0.6 ms a look against 0.4.
RESCALE_BELOW, RESCALE_LOOKS = 3.0, 3
RESCALE, RESCALE_REACH = 1.45, 1.8


@dataclass(frozen=True)
class Candidate:
    """A die found: center and side in full-resolution pixels, score in 0..1; `below_bar` when
    it scored under the threshold asked for, kept only because a lower `floor` was (`find_dice`)."""

    center: tuple[float, float]
    size: float
    score: float
    below_bar: bool = False


_STAGE2_KEYS = ("mean", "std", "axes", "shape_mean", "shape_std", "w1", "b1", "w2", "b2")


@dataclass(frozen=True, eq=False)
class Stage2:
    """The second look at each stage-1 peak: window features standardized and projected on
    principal axes, then one hidden ReLU layer; its logit decides die or not."""

    mean: np.ndarray
    std: np.ndarray
    axes: np.ndarray
    shape_mean: np.ndarray
    shape_std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def logits(self, x: np.ndarray, shape: np.ndarray | None = None, core: np.ndarray | None = None) -> np.ndarray:
        """Die-or-not logits for rows of raw window features and their shape features (None:
        each at the mean taught, for peaks whose crops were not looked at); `core` is `_core(x)`,
        if the caller has it (a model's members all need it)."""
        if shape is None:
            shape = np.tile(self.shape_mean[:N_SHAPE], (len(x), 1))
        extra = np.concatenate([shape, _core(x) if core is None else core], axis=1)
        z = np.concatenate([((x - self.mean) / self.std) @ self.axes,
                            (extra - self.shape_mean) / self.shape_std], axis=1)
        return np.maximum(z @ self.w1 + self.b1, 0) @ self.w2 + self.b2[0]

    def to_json(self) -> dict:
        """Each array as `vision.stored_arrays` keeps it."""
        return {k: array_to_json(getattr(self, k)) for k in _STAGE2_KEYS}

    @staticmethod
    def from_json(data: dict) -> "Stage2":
        """The arrays `to_json` wrote (or plain lists of numbers, as earlier models were kept)."""
        def array(value: dict | list) -> np.ndarray:
            return array_from_json(value) if isinstance(value, dict) else np.asarray(value, np.float32)
        return Stage2(*(array(data[k]) for k in _STAGE2_KEYS))


@dataclass(frozen=True, eq=False)
class FinderModel:
    """Stage 1: linear window weights over raw pooled channels (WINDOW x WINDOW x N_CHANNELS),
    a logit bias and a peak threshold (set for high recall); stage 2 re-scores the peaks; and the
    range of die sides (full-resolution pixels) taught.

    A model taught as MEMBERS finders (see `train_finder`) keeps their stage 1 averaged, which
    for linear scores is their scores averaged, and each member's stage 2, whose logits
    `stage2_logits` averages."""

    weights: tuple[float, ...]
    bias: float
    threshold: float
    min_side: float
    max_side: float
    stage2: tuple[Stage2, ...]

    def stage2_logits(self, x: np.ndarray, shape: np.ndarray | None = None) -> np.ndarray:
        """The members' mean stage-2 logit for rows of window features (see `Stage2.logits`)."""
        core = _core(x)  # the same for every member: taken once, not by each (40 us a time)
        return sum(member.logits(x, shape, core) for member in self.stage2) / len(self.stage2)

    def to_json(self) -> dict:
        """Plain numbers, for the profile file."""
        return {"weights": [round(w, 6) for w in self.weights], "bias": self.bias,
                "threshold": self.threshold, "min_side": self.min_side, "max_side": self.max_side,
                "stage2": [member.to_json() for member in self.stage2],
                "model_side": MODEL_SIDE, "cell": CELL, "window": WINDOW, "channels": N_CHANNELS}

    @staticmethod
    def from_json(data: dict) -> "FinderModel":
        """The model `to_json` wrote (a profile taught before members kept one stage 2, not a
        list); ValueError if it was made for other features."""
        shape = (data.get("model_side"), data.get("cell"), data.get("window"), data.get("channels"))
        if shape != (MODEL_SIDE, CELL, WINDOW, N_CHANNELS):
            raise ValueError(f"finder model made for features {shape}, not {(MODEL_SIDE, CELL, WINDOW, N_CHANNELS)}")
        stored = data["stage2"]
        members = stored if isinstance(stored, list) else [stored]
        if not members:
            raise ValueError("finder model without a stage 2")
        return FinderModel(tuple(float(w) for w in data["weights"]), float(data["bias"]),
                           float(data["threshold"]), float(data["min_side"]), float(data["max_side"]),
                           tuple(Stage2.from_json(member) for member in members))

    @cached_property
    def weight_array(self) -> np.ndarray:
        """Stage-1 weights as float32, for `score_map` (read-only: made once per model, since
        converting the 1200 numbers cost 0.03 ms a call and a frame makes four calls)."""
        weights = np.asarray(self.weights, np.float32)
        weights.flags.writeable = False
        return weights


# --- die size from labels ------------------------------------------------------------------

def measure_side(frame_bgr: np.ndarray, center: tuple[float, float], bound: float) -> float | None:
    """A die's side measured from the image: the blob around `center` that differs from the
    table color (the median on a ring at radius `bound`), holes filled, as sqrt of its area.
    None when no sensible blob is found."""
    h, w = frame_bgr.shape[:2]
    r = int(max(8, bound))
    x0, y0 = int(center[0]) - r, int(center[1]) - r
    crop = frame_bgr[max(0, y0):min(h, y0 + 2 * r + 1), max(0, x0):min(w, x0 + 2 * r + 1)]
    if crop.size == 0:
        return None
    cx, cy = center[0] - max(0, x0), center[1] - max(0, y0)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).astype(np.float32)
    yy, xx = np.mgrid[0:crop.shape[0], 0:crop.shape[1]]
    dist = np.hypot(xx - cx, yy - cy)
    ring = lab[(dist > 0.85 * r) & (dist <= r)]
    if len(ring) < 10:
        return None
    diff = np.sqrt(((lab - np.median(ring, axis=0)) ** 2).sum(axis=2))
    diff8 = np.clip(diff * 2, 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(diff8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k = max(3, int(r * 0.15) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, lab_img, stats, _ = cv2.connectedComponentsWithStats(mask)
    near = lab_img[max(0, int(cy) - 2):int(cy) + 3, max(0, int(cx) - 2):int(cx) + 3].ravel()
    near = near[near > 0]
    if len(near) == 0:
        return None
    area = float(stats[np.bincount(near).argmax(), cv2.CC_STAT_AREA])
    side = math.sqrt(area)
    return side if 0.15 * r < side < 2.2 * r else None


def label_sides(frame_bgr: np.ndarray, dice: list[dict]) -> list[float]:
    """Each labelled die's side: its "size" when the label has one, else measured (bounded by
    the distance to its nearest labelled neighbour, since dice do not overlap)."""
    centers = np.array([d["center"] for d in dice], np.float64).reshape(-1, 2)
    limit = min(frame_bgr.shape[:2]) / 6.0
    sides: list[float] = []
    for i, d in enumerate(dice):
        if d.get("size"):
            sides.append(float(d["size"]))
            continue
        others = np.delete(centers, i, axis=0)
        nn = float(np.min(np.hypot(*(others - centers[i]).T))) if len(others) else limit
        side = measure_side(frame_bgr, tuple(centers[i]), min(limit, max(nn * 1.1, 12.0)))
        if side is not None:
            sides.append(min(side * MEASURED_TO_SIDE, nn * 1.2 if len(others) else side))
    return sides


# --- training -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _View:
    """One augmented teaching frame at one level: pooled channels and dice in cell units."""

    pooled: np.ndarray
    base: Base
    cell: tuple[float, float]  # cell size, base pixels (x, y)
    cells: np.ndarray  # (n, 2) die centers, (x, y) in cells from the map's top-left corner
    side: float  # die side, cells
    positive: bool  # dice here are at a searched size (else they are negatives too)


def _dihedral(img: np.ndarray, pts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Rotate by k*90 degrees (k mod 4) and mirror when k >= 4; points (edge coordinates) follow."""
    p = pts.copy()
    if k >= 4:
        img = img[:, ::-1]
        p[:, 0] = img.shape[1] - p[:, 0]
    for _ in range(k % 4):  # np.rot90 counter-clockwise: (x, y) -> (y, w - x)
        w = img.shape[1]
        img = np.rot90(img)
        p = np.stack([p[:, 1], w - p[:, 0]], axis=1)
    return np.ascontiguousarray(img), p


def _jitter_light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A new lamp: gain, gamma and white balance drawn at random."""
    gain = rng.uniform(0.6, 1.35)
    wb = rng.uniform(0.85, 1.15, 3)
    gamma = rng.uniform(0.8, 1.25)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    # Gain and white balance, then gamma, as one table per channel: each channel's value alone
    # decides its new value (ten times faster than the arithmetic on every pixel).
    scaled = np.clip(np.arange(256, dtype=np.float32)[:, None] * (gain * wb), 0, 255).astype(np.uint8)
    return cv2.LUT(img, lut[scaled].reshape(256, 1, 3))


def _new_table(img: np.ndarray, dice: np.ndarray, side: float, rng: np.random.Generator) -> np.ndarray:
    """The same dice on another table: everything farther than about a die side from every die
    gets a random Lab change (brightness, contrast, hue turn, saturation), so the finder learns
    dice rather than this box's tables. (Painting plain squares and discs there as well made
    it worse.)"""
    h, w = img.shape[:2]
    keep = np.zeros((h, w), np.uint8)
    for x, y in dice:
        cv2.circle(keep, (int(round(x)), int(round(y))), int(side * 1.0), 255, -1)
    keep = cv2.GaussianBlur(keep, (0, 0), side * 0.15).astype(np.float32)[..., None] / 255.0
    lightness, a, b = cv2.split(cv2.cvtColor(img, cv2.COLOR_BGR2Lab))
    turn = rng.uniform(0, 2 * np.pi)
    ca, sa, gain = math.cos(turn), math.sin(turn), rng.uniform(0.5, 1.6)
    # The change as tables: new lightness from lightness alone, new a and b from (a, b).
    values = np.arange(256, dtype=np.float32)
    new_lightness = np.clip((values - 128.0) * rng.uniform(0.6, 1.4) + 128.0 + rng.uniform(-60, 60), 0, 255)
    a_values, b_values = values[:, None] - 128.0, values[None, :] - 128.0
    new_a = np.clip(128.0 + gain * (ca * a_values - sa * b_values) + rng.uniform(-20, 20), 0, 255)
    new_b = np.clip(128.0 + gain * (sa * a_values + ca * b_values) + rng.uniform(-20, 20), 0, 255)
    pair = a.astype(np.intp) * 256 + b
    lab = cv2.merge([cv2.LUT(lightness, new_lightness.astype(np.uint8)),
                     new_a.astype(np.uint8).ravel()[pair], new_b.astype(np.uint8).ravel()[pair]])
    out = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)
    return (img.astype(np.float32) * keep + out.astype(np.float32) * (1 - keep)).astype(np.uint8)


_NOTHING = np.zeros((0, 0, 0), np.uint8)


def _views(frame: np.ndarray, centers: np.ndarray, side: float, rng: np.random.Generator) -> list[_View]:
    """Augmented levels of one teaching frame: 4 at searched sizes, the rest dice of a wrong size."""
    out = []
    plan = [(float(rng.uniform(0.9, 1.1)), True) for _ in range(4)] + [(s, False) for s in OFF_SCALES]
    ks = rng.permutation(8)
    for i, (jit, pos) in enumerate(plan):
        rho = float(rng.uniform(1.0, 2.0))  # how much bigger than the smallest searched die
        fb = MODEL_SIDE * rho / side
        img = cv2.resize(frame, None, fx=fb, fy=fb, interpolation=cv2.INTER_AREA if fb < 1 else cv2.INTER_LINEAR)
        pts = (centers + 0.5) * np.array([img.shape[1] / frame.shape[1], img.shape[0] / frame.shape[0]])
        img, pts = _dihedral(img, pts, int(ks[i % 8]))
        if i % 2 == 1:
            img = _new_table(img, pts - 0.5, side * fb, rng)
        base = make_base(_jitter_light(img, rng), 1.0)
        level = pool(base, CELL * rho * jit)
        cells = pts / np.array([level.cell_x, level.cell_y])
        # Only its gray is looked at again (`shape_features`): the rest is two thirds of the
        # view's memory, and teaching holds six views of every frame (box C's eight: 590 MB).
        base = dataclasses.replace(base, lab=_NOTHING, grad=_NOTHING, background=_NOTHING)
        out.append(_View(level.pooled, base, (level.cell_x, level.cell_y), cells, side * fb / level.cell_x, pos))
    return out


def _label_grid(view: _View) -> np.ndarray:
    """Per window position: 1 a die, 0 not a die, -1 ignored (just off a die)."""
    rows, cols = view.pooled.shape[0] - WINDOW + 1, view.pooled.shape[1] - WINDOW + 1
    grid = np.zeros((max(rows, 0), max(cols, 0)), np.int8)
    if grid.size == 0 or len(view.cells) == 0:
        return grid
    half = WINDOW // 2
    cy = np.arange(rows) + half
    cx = np.arange(cols) + half
    for (px, py) in view.cells:
        d = np.hypot(cx[None, :] - px, cy[:, None] - py)
        grid[d < (POSITIVE_SIDES if view.positive else 0.15) * view.side] = -1
    if view.positive:
        for px, py in view.cells:
            r, c = int(round(py - half)), int(round(px - half))
            if 0 <= r < rows and 0 <= c < cols:
                grid[r, c] = 1
    return grid


def _core(x: np.ndarray) -> np.ndarray:
    """Mean of each channel over the window's central 4 x 4 cells (the die's middle), per row."""
    lo = WINDOW // 2 - 2
    cells = x.reshape(len(x), WINDOW, WINDOW, N_CHANNELS)[:, lo:lo + 4, lo:lo + 4]
    return cells.mean(axis=(1, 2))


def _window(pooled: np.ndarray, r: int, c: int) -> np.ndarray:
    """The flattened window whose top-left cell is (r, c)."""
    return pooled[r:r + WINDOW, c:c + WINDOW].reshape(-1)


def _windows(pooled: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """`_window` for every top-left cell (rows[i], cols[i]), one row each, gathered at once."""
    cells = np.arange(WINDOW)
    gathered = pooled[rows[:, None, None] + cells[None, :, None], cols[:, None, None] + cells[None, None, :]]
    return gathered.reshape(len(rows), -1)


def _adam_fit(params: list[np.ndarray], grad_fn, iters: int, lr: float) -> None:
    """Minimise in place with Adam; grad_fn(params) returns the gradients."""
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2 = 0.9, 0.999
    for t in range(1, iters + 1):
        grads = grad_fn(params)
        corr = math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        for p, g, mi, vi in zip(params, grads, m, v):
            mi *= b1
            mi += (1 - b1) * g
            vi *= b2
            vi += (1 - b2) * g * g
            p -= lr * corr * mi / (np.sqrt(vi) + 1e-8)


def _balance(y: np.ndarray) -> np.ndarray:
    """Sample weights giving dice and not-dice half the loss each."""
    n_pos, n_neg = max(1, int(y.sum())), max(1, int((1 - y).sum()))
    return np.where(y > 0, 0.5 / n_pos, 0.5 / n_neg).astype(np.float32)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """Logistic function, clipped so it never overflows."""
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


@dataclass(frozen=True)
class _Basis:
    """Standardize then project on the leading principal axes: z = ((x - mean) / std) @ axes."""

    mean: np.ndarray
    std: np.ndarray
    axes: np.ndarray

    def project(self, x: np.ndarray) -> np.ndarray:
        """Rows of raw features in principal-axis coordinates."""
        return ((x - self.mean) / self.std) @ self.axes


def _basis(x: np.ndarray, k: int, rng: np.random.Generator) -> _Basis:
    """Whitened leading principal axes of standardized features (randomized SVD: fast)."""
    sample = x[rng.choice(len(x), size=min(len(x), 4000), replace=False)].astype(np.float32)
    mean = sample.mean(axis=0)
    std = sample.std(axis=0) + 1e-2
    z = (sample - mean) / std
    k = min(k, z.shape[1], z.shape[0])
    q, _ = np.linalg.qr(z.T @ (z @ rng.normal(size=(z.shape[1], min(k + 20, z.shape[1]))).astype(np.float32)))
    _, sv, vt = np.linalg.svd(z @ q, full_matrices=False)
    axes = q @ vt.T[:, :k] / np.maximum(sv[:k] / math.sqrt(len(z)), 1e-3)
    return _Basis(mean.astype(np.float32), std.astype(np.float32), axes.astype(np.float32))


def _fit_linear(z: np.ndarray, y: np.ndarray, l2: float = 1e-3, iters: int = 150) -> tuple[np.ndarray, float]:
    """Class-balanced L2 logistic regression (on projected features)."""
    sw = _balance(y)
    z, y = z.astype(np.float32), y.astype(np.float32)
    params = [np.zeros(z.shape[1], np.float32), np.zeros(1, np.float32)]

    def grads(p):
        g = (_sigmoid(z @ p[0] + p[1][0]) - y) * sw
        return [z.T @ g + l2 * p[0], np.array([g.sum()], np.float32)]
    _adam_fit(params, grads, iters, 0.05)
    return params[0], float(params[1][0])


def _fit_mlp(z: np.ndarray, y: np.ndarray, hidden: int, rng: np.random.Generator,
             l2: float = 3e-3, iters: int = 300) -> list[np.ndarray]:
    """One hidden ReLU layer, class-balanced logistic loss: [w1, b1, w2, b2]."""
    sw = _balance(y)
    z, y = z.astype(np.float32), y.astype(np.float32)
    params = [rng.normal(0, 1.0 / math.sqrt(z.shape[1]), (z.shape[1], hidden)).astype(np.float32),
              np.zeros(hidden, np.float32), rng.normal(0, 1.0 / math.sqrt(hidden), hidden).astype(np.float32),
              np.zeros(1, np.float32)]

    def grads(p):
        pre = z @ p[0] + p[1]
        h = np.maximum(pre, 0)
        g = (_sigmoid(h @ p[2] + p[3][0]) - y) * sw
        gh = np.outer(g, p[2]) * (pre > 0)
        return [z.T @ gh + l2 * p[0], gh.sum(axis=0), h.T @ g + l2 * p[2], np.array([g.sum()], np.float32)]
    _adam_fit(params, grads, iters, 0.01)
    return params


def train_finder(labelled: list[tuple[np.ndarray, dict]], seed: int = 0, members: int = MEMBERS,
                 workers: int | None = None) -> FinderModel:
    """Learn die size and a window classifier from labelled frames (spec label format): `members`
    finders, each from its own augmented views (seeds `seed`, `seed` + 1, ...), averaged. Taught
    in `workers` processes at once (`vision.cores.map_on_cores`; unless given, as many as the
    machine's cores and memory allow)."""
    if members < 1:
        raise ValueError(f"a finder needs at least one member, not {members}")
    # Each member in its own worker process where the machine has the cores and the memory: the
    # same members as one after another, each drawn from its own seed.
    per_byte, own = MEMBER_MEMORY
    memory_each = per_byte * sum(frame.nbytes for frame, _ in labelled) + own
    taught = map_on_cores(_member_job, [(labelled, seed + k) for k in range(members)], memory_each, workers)
    weights = np.mean([np.asarray(model.weights, np.float64) for model in taught], axis=0)
    return FinderModel(tuple(float(w) for w in weights), float(np.mean([model.bias for model in taught])),
                       float(np.mean([model.threshold for model in taught])), taught[0].min_side, taught[0].max_side,
                       tuple(model.stage2[0] for model in taught))


def _member_job(job: tuple[list[tuple[np.ndarray, dict]], int]) -> FinderModel:
    """`_train_member` on one (labelled frames, seed) job (`vision.cores.map_on_cores`)."""
    return _train_member(*job)


def _train_member(labelled: list[tuple[np.ndarray, dict]], seed: int) -> FinderModel:
    """One finder, from views augmented with random numbers drawn from `seed`."""
    use_one_blas_thread()
    rng = np.random.default_rng(seed)
    views: list[_View] = []
    all_sides: list[float] = []
    for frame, labels in labelled:
        dice = labels["dice"]
        if not dice:
            continue
        sides = label_sides(frame, dice)
        if not sides:
            continue
        side = float(np.median(sides))
        all_sides += sides
        centers = np.array([d["center"] for d in dice], np.float64)
        views += _views(frame, centers, side, rng)
    if not views:
        raise ValueError("no labelled dice to learn the finder from")
    grids = [_label_grid(v) for v in views]
    pos, neg = [], []
    for v, g in zip(views, grids):
        pos += [_window(v.pooled, r, c) for r, c in zip(*np.nonzero(g == 1))]
        idx = np.flatnonzero(g.ravel() == 0)
        take = rng.choice(idx, size=min(len(idx), 300), replace=False)
        neg += [_window(v.pooled, *divmod(int(i), g.shape[1])) for i in take]
    x_pos = np.stack(pos)
    x_neg = np.stack(neg)
    basis = _basis(np.concatenate([x_pos, x_neg]), LINEAR_DIMS, rng)
    z_pos, z_neg = basis.project(x_pos), basis.project(x_neg)

    def fit() -> tuple[np.ndarray, float]:
        y = np.r_[np.ones(len(z_pos)), np.zeros(len(z_neg))].astype(np.float32)
        wz, b = _fit_linear(np.concatenate([z_pos, z_neg]), y)
        w = basis.axes @ wz / basis.std  # back to raw features
        return w.astype(np.float32), float(b - (basis.mean * w).sum())
    w, b = fit()
    for _ in range(HARD_ROUNDS):
        hard = []
        for v, g in zip(views, grids):
            s = score_map(v.pooled, w, b)
            s[g != 0] = -np.inf
            peaks = _peaks(s, -2.0)
            order = np.argsort([-s[r, c] for r, c in peaks])[:100]
            hard += [_window(v.pooled, *peaks[i]) for i in order]
        if hard:
            z_neg = np.concatenate([z_neg, basis.project(np.stack(hard))])
        w, b = fit()
    threshold = float(min(0.0, np.quantile(x_pos @ w + b, RECALL_QUANTILE)))
    # Stage 2: what stage 1 finds on the teaching views, die or not, for a small nonlinear model.
    xs, es, ys = [], [], []
    half = WINDOW // 2
    for v, g in zip(views, grids):
        s = score_map(v.pooled, w, b)
        spots = [(r, c, 1.0) for r, c in zip(*np.nonzero(g == 1))]
        peaks = _peaks(s, threshold - 1.0)
        peaks = [peaks[i] for i in np.argsort([-s[r, c] for r, c in peaks])[:STAGE2_PEAKS]]
        for r, c in peaks:
            d = (np.min(np.hypot(v.cells[:, 0] - (c + half), v.cells[:, 1] - (r + half))) / v.side
                 if len(v.cells) else 9.0)
            if v.positive and d < 0.3:
                spots.append((r, c, 1.0))
            elif d > (POSITIVE_SIDES if v.positive else 0.15):
                spots.append((r, c, 0.0))
        for r, c, label in spots:
            xs.append(_window(v.pooled, r, c))
            es.append(shape_features(v.base, (c + half) * v.cell[0], (r + half) * v.cell[1], v.side * v.cell[0]))
            ys.append(label)
    x2 = np.stack(xs)
    e2 = np.concatenate([np.stack(es), _core(x2)], axis=1)
    y2 = np.array(ys, np.float32)
    basis2 = _basis(x2, MLP_DIMS, rng)
    e_mean, e_std = e2.mean(axis=0), e2.std(axis=0) + 1e-3
    mlp = _fit_mlp(np.concatenate([basis2.project(x2), (e2 - e_mean) / e_std], axis=1), y2, MLP_HIDDEN, rng)
    return FinderModel(tuple(float(v) for v in w), float(b), threshold,
                       float(np.min(all_sides)), float(np.max(all_sides)),
                       (Stage2(basis2.mean, basis2.std, basis2.axes, e_mean, e_std, *mlp),))


# --- finding --------------------------------------------------------------------------------

def _peaks(scores: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """Cells that are 3x3 local maxima above threshold."""
    if scores.size == 0:
        return []
    top = cv2.dilate(scores, np.ones((3, 3), np.uint8))
    rr, cc = np.nonzero((scores >= top) & (scores > threshold))
    return list(zip(rr.tolist(), cc.tolist()))


def _subcells(scores: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parabolic sub-cell offsets of peaks at (rows, cols), each within +-0.5 (0 at the map's
    edge or where the scores do not bend down): all peaks at once, a frame has about a hundred."""
    def off(before: np.ndarray, at: np.ndarray, after: np.ndarray, inner: np.ndarray) -> np.ndarray:
        bend = before - 2 * at + after
        step = 0.5 * (before - after).astype(np.float64) / bend.astype(np.float64)
        return np.where(inner & (bend < 0), np.minimum(0.5, np.maximum(-0.5, step)), 0.0)
    height, width = scores.shape
    at = scores[rows, cols]
    with np.errstate(divide="ignore", invalid="ignore"):  # where the bend is 0, the offset is 0
        dr = off(scores[np.maximum(rows - 1, 0), cols], at, scores[np.minimum(rows + 1, height - 1), cols],
                 (rows > 0) & (rows < height - 1))
        dc = off(scores[rows, np.maximum(cols - 1, 0)], at, scores[rows, np.minimum(cols + 1, width - 1)],
                 (cols > 0) & (cols < width - 1))
    return dr, dc


def search_sides(model: FinderModel) -> list[float]:
    """The die sides (full-resolution pixels) the pyramid looks for."""
    lo, hi = model.min_side * SIZE_SLACK[0], model.max_side * SIZE_SLACK[1]
    n = max(1, int(math.ceil(math.log(hi / lo) / math.log(LEVEL_RATIO))) + 1)
    return [lo * (hi / lo) ** (i / max(n - 1, 1)) for i in range(n)]


def _distinct(found: list[tuple[float, float, float]], logits: np.ndarray) -> np.ndarray:
    """Peaks above PRE_LOGIT that are the best within a third of a die side (one die is a peak
    at two or three neighbouring levels: its shape need be looked at once)."""
    keep: list[int] = []
    for i in np.argsort(-logits):
        if logits[i] <= PRE_LOGIT:
            break
        x, y, side = found[i]
        if all(math.hypot(x - found[j][0], y - found[j][1]) >= 0.33 * min(side, found[j][2]) for j in keep):
            keep.append(int(i))
    return np.array(keep, np.int64)


def _frame_side(sides: np.ndarray, logits: np.ndarray) -> float | None:
    """The die side of this frame: the logit-weighted median side of confident peaks."""
    sure = logits > CONFIDENT_LOGIT
    if sure.sum() < 1:
        return None
    s, w = np.log(sides[sure]), logits[sure] - CONFIDENT_LOGIT + 1.0
    order = np.argsort(s)
    cum = np.cumsum(w[order])
    return float(np.exp(s[order][np.searchsorted(cum, cum[-1] / 2.0)]))


def sides_near(model: FinderModel, side: float, count: int = 2) -> list[float]:
    """The `count` searched die sides (`search_sides`) nearest `side`, smallest first: where a
    frame's die size is known already, only they need be searched."""
    return sorted(sorted(search_sides(model), key=lambda s: abs(math.log(s / side)))[:count])


def _rescaled_logit(frame_bgr: np.ndarray, model: FinderModel, x: float, y: float, side: float) -> float:
    """The stage-2 logit of a die of `side` at (x, y), looked at on a base of a crop around it
    where the die is RESCALE times MODEL_SIDE wide: at the best of the stage-1 windows
    within a cell of it (a peak moves by a cell from one scale to another)."""
    height, width = frame_bgr.shape[:2]
    reach = RESCALE_REACH * side
    x0, y0 = max(0, int(x - reach)), max(0, int(y - reach))
    x1, y1 = min(width, int(x + reach) + 1), min(height, int(y + reach) + 1)
    # Sides a multiple of 4: `shrink` halves exactly, which OpenCV does ten times faster.
    x1, y1 = x1 - (x1 - x0) % 4, y1 - (y1 - y0) % 4
    if x1 <= x0 or y1 <= y0:
        return -math.inf
    base = make_base(frame_bgr[y0:y1, x0:x1], MODEL_SIDE * RESCALE / side)
    level = pool(base, CELL * RESCALE)
    half = WINDOW // 2
    rows, cols = level.pooled.shape[0] - WINDOW + 1, level.pooled.shape[1] - WINDOW + 1
    r = int(round((y - y0 + 0.5) * base.scale / level.cell_y - half))
    c = int(round((x - x0 + 0.5) * base.scale / level.cell_x - half))
    spots = [(rr, cc) for rr in (r - 1, r, r + 1) for cc in (c - 1, c, c + 1) if 0 <= rr < rows and 0 <= cc < cols]
    if not spots:
        return -math.inf
    windows = _windows(level.pooled, *np.array(spots, np.intp).T)
    best = int(np.argmax(windows @ model.weight_array))
    r, c = spots[best]
    shape = shape_features(base, (c + half) * level.cell_x, (r + half) * level.cell_y, side * base.scale)
    return float(model.stage2_logits(windows[best:best + 1], shape[None])[0])


def find_dice(frame_bgr: np.ndarray, model: FinderModel, threshold: float = DIE_LOGIT,
              sides: list[float] | None = None, taken: np.ndarray | None = None,
              apart: float = 0.0, rescale: bool = False, half_frame: np.ndarray | None = None,
              floor: float | None = None) -> list[Candidate]:
    """Every die in a BGR frame: centers and sides in frame pixels, best score first.

    `threshold` is on the stage-2 logit (0: score 0.5); lower it to trade phantoms for recall.
    With a `floor` under it, peaks scoring from `floor` up to `threshold` are kept too, marked
    `below_bar` (the rescaled looks stay those just short of `threshold`).
    `sides` are the die sides searched (default: `search_sides`); peaks within `apart` pixels
    of a (x, y) row of `taken` (dice found already) are not looked at. `rescale`: peaks
    just short of the threshold are scored again at another scale (see RESCALE_BELOW).
    `half_frame`: the frame halved already (`vision.halving.halved`), if the caller has it."""
    use_one_blas_thread()
    w = model.weight_array
    half = WINDOW // 2
    found: list[tuple[float, float, float]] = []
    windows: list[np.ndarray] = []  # each level's peaks' windows, one row a peak
    spots: list[tuple[Base, float, float, float]] = []
    base = None
    taken = np.zeros((0, 2)) if taken is None else np.asarray(taken, np.float64).reshape(-1, 2)
    for side in search_sides(model) if sides is None else sides:
        if base is None or side * base.scale > 2.0 * MODEL_SIDE * 1.001:
            base = make_base(frame_bgr, MODEL_SIDE / side, half_frame)  # a new octave: this die is MODEL_SIDE px
        level = pool(base, CELL * side * base.scale / MODEL_SIDE)
        s = score_map(level.pooled, w, model.bias)
        peaks = _peaks(s, model.threshold)
        if len(taken) and peaks:
            cells = np.array(peaks, np.float64)
            xs = (cells[:, 1] + half) * level.cell_x / base.scale
            ys = (cells[:, 0] + half) * level.cell_y / base.scale
            gaps = np.hypot(xs[:, None] - taken[None, :, 0], ys[:, None] - taken[None, :, 1]).min(axis=1)
            peaks = [peak for peak, gap in zip(peaks, gaps) if gap > apart]
        if not peaks:
            continue
        rows, cols = np.array(peaks, np.intp).T
        dr, dc = _subcells(s, rows, cols)
        across, down = (cols + dc + half) * level.cell_x, (rows + dr + half) * level.cell_y
        found += zip((across / base.scale - 0.5).tolist(), (down / base.scale - 0.5).tolist(), [side] * len(peaks))
        spots += [(base, x, y, side * base.scale) for x, y in zip(across.tolist(), down.tolist())]
        windows.append(_windows(level.pooled, rows, cols))
    if not found:
        return []
    # Shape features cost a crop each: look only at peaks the windows alone leave in doubt.
    x = np.concatenate(windows)
    logits = model.stage2_logits(x)
    sides = np.array([f[2] for f in found])
    frame_side = _frame_side(sides, logits)
    if frame_side is not None:
        logits[np.abs(np.log(sides / frame_side)) > math.log(SAME_SIZE * LEVEL_RATIO)] = -np.inf
    look = _distinct([found[i] for i in range(len(found))], logits)
    if len(look):
        shapes = np.stack([shape_features(*spots[i]) for i in look])
        logits[look] = model.stage2_logits(x[look], shapes)
    rest = np.ones(len(logits), bool)
    rest[look] = False
    logits[rest] = -np.inf
    if rescale:
        near_misses = [i for i in look if threshold - RESCALE_BELOW <= logits[i] < threshold]
        for i in sorted(near_misses, key=lambda i: -logits[i])[:RESCALE_LOOKS]:
            logits[i] = max(logits[i], _rescaled_logit(frame_bgr, model, *found[i]))
    frame_side = _frame_side(sides, logits)
    if frame_side is not None:  # dice in one frame are about one size: others are coins, fingers...
        off = np.abs(np.log(sides / frame_side))
        logits = np.where(off > math.log(SAME_SIZE), -np.inf, logits)
    order = np.argsort(-logits)
    kept: list[Candidate] = []
    lowest = threshold if floor is None else min(floor, threshold)
    for i in order:
        if logits[i] < lowest:
            break
        x, y, side = found[i]
        if any(math.hypot(x - k.center[0], y - k.center[1]) < NMS_SIDES * min(side, k.size) for k in kept):
            continue
        kept.append(Candidate((x, y), side, float(_sigmoid(np.array(logits[i]))), bool(logits[i] < threshold)))
    return kept
