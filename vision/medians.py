"""Column medians of a small 2-D array, without numpy's generic machinery.

`np.median(values, axis=0)` spends most of its time in argument handling when the array holds
a few hundred rows; the reader takes such a median for every blob (a face's body color, a
rim's chroma), so this does the same partition directly, with the same values.
"""

from __future__ import annotations

import numpy as np


def column_medians(values: np.ndarray) -> np.ndarray:
    """np.median(values, axis=0) for a 2-D array with at least one row."""
    count = values.shape[0]
    middle = count // 2
    if count % 2:
        return np.partition(values, middle, axis=0)[middle]
    ordered = np.partition(values, (middle - 1, middle), axis=0)
    return (ordered[middle - 1] + ordered[middle]) * 0.5
