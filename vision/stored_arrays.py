"""Numpy arrays in a profile's JSON: each as its shape and its float32 bytes in base64, a tenth
of the size of a list of numbers (a finder's principal axes alone are 76,800 of them)."""

from __future__ import annotations

import base64

import numpy as np


def array_to_json(array: np.ndarray) -> dict:
    """`array` as {"shape": [...], "float32": base64 of its float32 bytes}."""
    return {"shape": list(array.shape),
            "float32": base64.b64encode(np.ascontiguousarray(array, np.float32).tobytes()).decode("ascii")}


def array_from_json(value: dict) -> np.ndarray:
    """The array `array_to_json` wrote (a writable float32 copy); ValueError (or KeyError) when
    the text is no base64 or its bytes do not fill the shape."""
    raw = np.frombuffer(base64.b64decode(value["float32"].encode("ascii"), validate=True), np.float32)
    return raw.reshape([int(n) for n in value["shape"]]).copy()
