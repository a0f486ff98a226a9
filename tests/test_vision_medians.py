"""The small-array medians and percentiles give numpy's values exactly: the reader's decisions
(a face's body color, how much paint a window holds, where a die's outline stops) sit on
bars these values are compared with."""

from __future__ import annotations

import numpy as np
import pytest

from vision.medians import column_medians, level_percentile, median, percentile


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


@pytest.mark.parametrize("q", [0.0, 1.0, 50.0, 99.0, 99.5, 100.0])
def test_level_percentile_is_numpys(q: float) -> None:
    rng = np.random.default_rng(int(q * 10))
    for size in [1, 2, 5, 676, 58_000]:
        for _ in range(100):
            # Spread or bunched levels: a bright end of few distinct levels has many ties.
            levels = np.clip(rng.normal(rng.uniform(0, 255), rng.choice([0.5, 5.0, 80.0]), size), 0, 255)
            levels = levels.astype(np.uint8).reshape(-1, 2) if size % 2 == 0 else levels.astype(np.uint8)
            assert level_percentile(levels, q) == float(np.percentile(levels, q)), (size, q)
