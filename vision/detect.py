"""Finding dice: die-colored blobs of a die's size, split where dice touch.

Works on a downscaled frame (a die about `DETECT_SIDE_PX` wide) because finding is about
blobs, not detail; the symbol is read later on full-resolution crops. Every die color is found
separately, so touching dice of different colors come apart for free; touching dice of the same
color are split by area (how many dice fit in the blob) and k-means on the blob's pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .color import ColorModel
from .exposure import normalized

DETECT_SIDE_PX = 20.0  # die side at detection scale, for the smallest taught die
MAX_DICE_PER_BLOB = 6  # a bigger same-colored blob is a card or a mat, not a heap of dice
MIN_BLOB_SHARE = 0.35  # blobs smaller than this share of a die are specks, ink, or noise


@dataclass(frozen=True)
class Candidate:
    """A die-shaped blob: where it is (full-resolution pixels), how big, and its color."""

    color: str
    center: tuple[float, float]
    side: float  # sqrt of the blob area per die, full-resolution pixels (top face plus sides)
    color_confidence: float  # mean posterior of `color` over the blob


def detection_scale(min_die_size: float) -> float:
    """Downscale factor that makes the smallest taught die `DETECT_SIDE_PX` wide."""
    return min(1.0, DETECT_SIDE_PX / max(min_die_size, 1.0))


def class_posteriors(frame_bgr: np.ndarray, model: ColorModel, scale: float) -> np.ndarray:
    """Per-pixel class posteriors of the downscaled, exposure-normalized frame, lightly smoothed
    so single noisy pixels do not make or break a die."""
    small = cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    posterior = model.classify(normalized(small))
    return cv2.blur(posterior, (3, 3))


def _blob_masks(posterior: np.ndarray) -> list[np.ndarray]:
    """One cleaned binary mask per die color (class 1..K)."""
    winner = posterior.argmax(axis=-1)
    kernel = np.ones((3, 3), np.uint8)
    masks = []
    for k in range(1, posterior.shape[-1]):
        mask = ((winner == k) & (posterior[..., k] > 0.5)).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        masks.append(mask)
    return masks


def _frame_die_area(stats: list[np.ndarray], expected_area: float) -> float:
    """Typical single-die blob area in this frame, from blobs that look like one die (near
    square, well filled); the camera height changes it from frame to frame."""
    singles = []
    for area, width, height in stats:
        if not 0.4 * expected_area <= area <= 2.6 * expected_area:
            continue
        aspect = max(width, height) / max(1, min(width, height))
        if aspect < 1.35 and area >= 0.55 * width * height:
            singles.append(area)
    return float(np.median(singles)) if len(singles) >= 2 else expected_area


def find_candidates(frame_bgr: np.ndarray, model: ColorModel, die_sizes: tuple[float, float, float],
                    blob_side_ratio: float) -> list[Candidate]:
    """All die-shaped blobs in the frame.

    `die_sizes` is (min, median, max) taught top-face side in pixels and `blob_side_ratio` the
    taught ratio of blob side (sqrt area) to top-face side, so the expected blob area is known
    before looking at the frame.
    """
    min_size, median_size, _ = die_sizes
    scale = detection_scale(min_size)
    posterior = class_posteriors(frame_bgr, model, scale)
    expected_area = (median_size * blob_side_ratio * scale) ** 2
    blobs = []  # (class index, pixel coords (N,2) x,y, posterior mean)
    shapes = []
    for k, mask in enumerate(_blob_masks(posterior), start=1):
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA]
            if area < MIN_BLOB_SHARE * 0.4 * expected_area:
                continue
            x, y, w, h = stats[i, :4]
            blobs.append((k, labels[y:y + h, x:x + w] == i, (x, y), area))
            shapes.append(np.array([area, stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]]))
    die_area = _frame_die_area(shapes, expected_area)
    candidates = []
    for k, inside, (x0, y0), area in blobs:
        if area < MIN_BLOB_SHARE * die_area:
            continue
        count = int(round(area / die_area))
        if count > MAX_DICE_PER_BLOB:
            continue
        ys, xs = np.nonzero(inside)
        xs, ys = xs + x0, ys + y0
        points = np.stack([xs, ys], axis=1).astype(np.float32)
        confidence = float(posterior[ys, xs, k].mean())
        groups = _split(points, max(1, count))
        for group in groups:
            cx, cy = group.mean(axis=0)
            side = np.sqrt(len(group)) / scale
            candidates.append(Candidate(model.classes[k], ((cx + 0.5) / scale - 0.5, (cy + 0.5) / scale - 0.5),
                                        float(side), confidence))
    return candidates


def _split(points: np.ndarray, count: int) -> list[np.ndarray]:
    """Split a blob's pixels into `count` compact groups (k-means), one per die."""
    if count == 1:
        return [points]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    cv2.setRNGSeed(1)  # deterministic readings
    _, assignment, _ = cv2.kmeans(points, count, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    assignment = assignment.ravel()
    return [points[assignment == j] for j in range(count) if np.any(assignment == j)]
