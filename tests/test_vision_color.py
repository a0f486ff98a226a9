"""The color model classifies with its own tables, whatever models came and went before it."""

from __future__ import annotations

import numpy as np

from vision.color import LEVELS, ColorModel, bin_index


def _model(table_share: float) -> ColorModel:
    """A model that gives every pixel the table posterior `table_share`."""
    posterior = np.empty((LEVELS ** 3, 3), np.float32)
    posterior[:, 0] = table_share
    posterior[:, 1:] = (1.0 - table_share) / 2.0
    return ColorModel(("table", "red", "white"), posterior, np.full((LEVELS ** 3, 2), 0.5, np.float32))


def test_a_new_model_never_reads_with_a_freed_model_s_tables() -> None:
    # A model made where a freed one lived may get its arrays' ids: a cache of tables keyed by
    # id alone handed the new model the old one's tables.
    pixels = np.array([[[40, 40, 200], [30, 120, 30], [220, 225, 230]]], np.uint8)
    reused = 0
    seen: set[int] = set()
    for round_ in range(20):
        share = 0.1 + 0.04 * round_
        model = _model(share)
        reused += id(model.posterior) in seen
        seen.add(id(model.posterior))
        table, die = model.classify(pixels)
        assert np.allclose(table, share), (round_, table)
        assert np.array_equal(np.moveaxis(die, 0, -1), model.die_color[bin_index(pixels)])
        del model
    assert reused, "no array id was reused: the test did not exercise a freed model's id"
