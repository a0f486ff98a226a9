"""Drawing a reading on a frame: a box and a "red gun 0.97" label per die, optionally the seat zones.

Used by the `camera` command to save what it saw and by the web's camera view, so both show a
reading the same way. Drawing never changes the frame given; it returns a new one.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import cv2
import numpy as np

from vision.seats import DieLike, Zones, is_flagged

# BGR colours of the boxes: close to the dice's own, with white drawn light gray so it shows on a pale table.
BOX_COLORS = {"white": (235, 235, 235), "red": (40, 40, 230), "blue": (230, 120, 30)}
FLAGGED_COLOR = (0, 215, 255)  # amber: "ask the player"
OTHER_COLOR = (200, 0, 200)
ZONE_COLOR = (80, 220, 80)


def die_label(die: DieLike) -> str:
    """The text shown beside a die: colour, symbol ("?" when unread) and confidence."""
    return f"{die.color} {die.symbol or '?'} {die.confidence:.2f}"


def draw_reading(frame: np.ndarray, dice: Iterable[DieLike]) -> np.ndarray:
    """A copy of `frame` with each die boxed (its read size) and labelled; flagged dice in amber."""
    canvas = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    scale = max(canvas.shape[:2]) / 1600.0  # text and lines grow with the picture
    thickness = max(1, round(2 * scale))
    font_scale = max(0.4, 0.6 * scale)
    for die in dice:
        size = float(getattr(die, "size", 0.0) or 40.0)
        x, y = die.center
        half = size / 2.0
        top_left = (round(x - half), round(y - half))
        bottom_right = (round(x + half), round(y + half))
        color = FLAGGED_COLOR if is_flagged(die) else BOX_COLORS.get(die.color, OTHER_COLOR)
        cv2.rectangle(canvas, top_left, bottom_right, (0, 0, 0), thickness + 2)  # dark rim: visible on any cloth
        cv2.rectangle(canvas, top_left, bottom_right, color, thickness)
        _label(canvas, die_label(die), (top_left[0], top_left[1] - 4), color, font_scale, thickness)
    return canvas


def draw_zones(frame: np.ndarray, zones: Zones, names: Sequence[str] | None = None) -> np.ndarray:
    """A copy of `frame` with the seat zones outlined and named (for checking them on the table)."""
    canvas = frame.copy()
    zones = zones.scaled_to(canvas.shape[1], canvas.shape[0])
    scale = max(canvas.shape[:2]) / 1600.0
    thickness = max(1, round(2 * scale))
    for seat, polygon in enumerate(zones.polygons):
        points = np.asarray(polygon, dtype=np.float32).round().astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(canvas, [points], True, ZONE_COLOR, thickness)
        name = names[seat] if names and seat < len(names) else f"seat {seat + 1}"
        cx, cy = np.asarray(polygon, dtype=np.float64)[1:].mean(axis=0)  # away from the shared centre
        _label(canvas, name, (round(cx), round(cy)), ZONE_COLOR, max(0.5, 0.8 * scale), thickness)
    return canvas


def _label(canvas: np.ndarray, text: str, origin: tuple[int, int], color: tuple[int, int, int], font_scale: float, thickness: int) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    (width, height), baseline = cv2.getTextSize(text, font, font_scale, thickness)
    x = min(max(origin[0], 0), max(0, canvas.shape[1] - width))
    y = min(max(origin[1], height + baseline), canvas.shape[0] - baseline)
    cv2.rectangle(canvas, (x, y - height - baseline), (x + width, y + baseline), (0, 0, 0), cv2.FILLED)
    cv2.putText(canvas, text, (x, y), font, font_scale, color, thickness, cv2.LINE_AA)
