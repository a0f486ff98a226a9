"""The small-array medians and percentiles give numpy's values exactly: the reader's decisions
(a face's body color, how much paint a window holds, where a die's outline stops) sit on
bars these values are compared with."""

from __future__ import annotations

import numpy as np
import pytest

from vision.medians import column_medians, median, percentile


@pytest.mark.parametrize("rows", [1, 2, 3, 26, 675, 676])
def test_column_medians_and_median_are_numpys(rows: int) -> None:
    rng = np.random.default_rng(rows)
    for _ in range(200):
        values = (rng.random((rows, 3)) * rng.choice([1.0, 40.0, 300.0])).astype(np.float32)
        if rng.random() < 0.5:
            values = np.round(values)  # ties, as in 8-bit pixels
        assert np.array_equal(column_medians(values), np.median(values, axis=0))
        assert median(values[:, 0]) == float(np.median(values[:, 0]))


@pytest.mark.parametrize("q", [0.0, 1.0, 25.0, 50.0, 75.0, 99.0, 100.0])
def test_percentile_is_numpys(q: float) -> None:
    rng = np.random.default_rng(int(q))
    for shape in [(1,), (2,), (5, 5), (26, 26)]:
        for _ in range(200):
            values = (rng.random(shape) * rng.choice([1.0, 40.0, 300.0])).astype(np.float32)
            if rng.random() < 0.5:
                values = np.round(values)
            assert percentile(values, q) == float(np.percentile(values, q)), (shape, q)
