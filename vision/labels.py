"""Labelled images: an image file with a JSON file of the same name beside it.

The label format is the contract of `shared/spec/dice-images.md`: ``{"dice": [{"color", "symbol",
"center"}, ...]}``; other keys are ignored. Loading problems raise `ImageError` with one human
sentence naming the file, so the CLI can print it as its single stderr line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


class ImageError(Exception):
    """An image or its label file cannot be used; the message names the file and why."""


@dataclass(frozen=True)
class LabelledDie:
    """One die as a label gives it; `symbol` is None for a cocked die."""

    color: str
    symbol: str | None
    center: tuple[float, float]
    size: float | None = None


def read_image(path: str | Path) -> np.ndarray:
    """Decode an image file to BGR, or raise `ImageError` saying why not."""
    path = Path(path)
    if not path.is_file():
        raise ImageError(f"{path}: no such image file")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"{path}: not a readable image (cannot decode it)")
    return image


def label_path(image_path: str | Path) -> Path:
    """The JSON file that labels `image_path` (same name, `.json` suffix)."""
    return Path(image_path).with_suffix(".json")


def parse_labels(data: object, source: str = "labels") -> list[LabelledDie]:
    """Validate a label document and return its dice; raise `ImageError` on a malformed one."""
    if not isinstance(data, dict) or not isinstance(data.get("dice"), list):
        raise ImageError(f"{source}: label JSON has no 'dice' list")
    dice = []
    for index, entry in enumerate(data["dice"]):
        try:
            color = str(entry["color"])
            symbol = entry.get("symbol")
            x, y = (float(v) for v in entry["center"])
            size = entry.get("size")
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ImageError(f"{source}: die #{index} lacks a color or a 2-number center") from None
        dice.append(LabelledDie(color, None if symbol is None else str(symbol), (x, y),
                                None if size is None else float(size)))
    return dice


def load_labels(image_path: str | Path) -> list[LabelledDie]:
    """Load the labels beside `image_path`, or raise `ImageError` naming the missing/bad file."""
    path = label_path(image_path)
    if not path.is_file():
        raise ImageError(f"{image_path}: no label file {path.name} beside it")
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ImageError(f"{path}: not valid JSON ({error})") from None
    return parse_labels(data, str(path))


def load_labelled(path: str | Path) -> tuple[np.ndarray, dict]:
    """Load a labelled image: (BGR image, label dict as in the JSON file).

    The dict is the raw, validated label document so callers keep any extra keys.
    """
    labels = load_labels(path)  # checks the JSON first: cheaper than decoding
    image = read_image(path)
    data = json.loads(label_path(path).read_text())
    del labels
    return image, data
