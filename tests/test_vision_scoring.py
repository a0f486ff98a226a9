"""The spec's scoring rule, as the benchmark and the round-trip tests apply it."""

from __future__ import annotations

from vision.scoring import Score, score_image


def die(color: str, symbol: str | None, x: float, y: float, confidence: float = 0.9, size: float = 60.0) -> dict:
    return {"color": color, "symbol": symbol, "center": [x, y], "size": size, "confidence": confidence}


def label(color: str, symbol: str | None, x: float, y: float, size: float = 60.0) -> dict:
    return {"color": color, "symbol": symbol, "center": [x, y], "size": size}


def test_a_die_within_half_a_side_matches() -> None:
    score = score_image([die("red", "gun", 129.0, 100.0)], [label("red", "gun", 100.0, 100.0)])
    assert score == Score(dice=1, read=1)


def test_a_die_beyond_half_a_side_is_a_miss_and_a_phantom() -> None:
    score = score_image([die("red", "gun", 131.0, 100.0)], [label("red", "gun", 100.0, 100.0)])
    assert (score.missed, score.phantoms, score.errors) == (1, 1, 2)


def test_wrong_symbol_or_color_counts_unless_flagged() -> None:
    labels = [label("red", "gun", 100, 100), label("blue", "finger", 300, 100)]
    confident = score_image([die("red", "gavel", 100, 100), die("white", "finger", 300, 100)], labels)
    assert confident.wrong == 2
    doubtful = score_image([die("red", "gavel", 100, 100, 0.4), die("white", "finger", 300, 100, 0.49)], labels)
    assert (doubtful.wrong, doubtful.flagged) == (0, 2)


def test_cocked_die_is_handled_when_null_or_flagged() -> None:
    labels = [label("red", None, 100, 100), label("red", None, 300, 100), label("red", None, 500, 100)]
    read = [die("red", None, 100, 100, 0.3), die("red", "gun", 300, 100, 0.2), die("red", "gun", 500, 100, 0.9)]
    score = score_image(read, labels)
    assert (score.cocked, score.cocked_ok, score.wrong) == (3, 2, 1)


def test_each_die_matches_once_nearest_first() -> None:
    labels = [label("red", "gun", 100, 100), label("red", "gun", 150, 100)]
    score = score_image([die("red", "gun", 140, 100)], labels)
    assert (score.missed, score.phantoms, score.wrong) == (1, 0, 0)


def test_scores_add_up() -> None:
    a = Score(dice=2, read=2, wrong=1)
    b = Score(dice=3, read=1, missed=2, flagged=1)
    assert a + b == Score(dice=5, read=3, wrong=1, missed=2, flagged=1)
    assert (a + b).errors == 3
