"""Seat zones, dice per seat, and the stash mismatch report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from vision.seats import (
    Mismatch,
    Zones,
    assign,
    check_stash,
    check_table,
    default_zones,
    load_or_default_zones,
    load_zones,
    save_zones,
    stash_mismatches,
    why_asked,
    zones_path,
)


@dataclass(frozen=True)
class Die:
    """The reader's die value, as the seats module sees it."""

    color: str
    symbol: str | None
    center: tuple[float, float]
    size: float = 80.0
    confidence: float = 0.97


def _grid(width: int, height: int, points: int = 60):
    step = max(width, height) / points
    xs = np.linspace(0, width, round(width / step) + 1)
    ys = np.linspace(0, height, round(height / step) + 1)
    return [(float(x), float(y)) for x in xs for y in ys]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("size", [(2304, 1296), (1640, 1232), (800, 800)])
def test_default_zones_cover_the_whole_frame(players: int, size: tuple[int, int]) -> None:
    width, height = size
    zones = default_zones(players, width, height)
    assert zones.seats == players
    seats = [zones.seat_of(point) for point in _grid(width, height)]
    assert None not in seats, "every point of the frame (edges included) belongs to a seat"
    assert set(seats) == set(range(players)), "every seat owns part of the table"
    # Fair shares: no seat gets less than half of an even split (sampled on the grid).
    counts = np.bincount(seats, minlength=players)
    assert counts.min() >= 0.5 * len(seats) / players


def test_two_players_get_bottom_and_top_halves() -> None:
    zones = default_zones(2, 1600, 900)
    assert zones.seat_of((100, 880)) == 0 and zones.seat_of((1500, 460)) == 0
    assert zones.seat_of((100, 20)) == 1 and zones.seat_of((1500, 440)) == 1


def test_four_players_own_their_edge_of_the_table() -> None:
    zones = default_zones(4, 1600, 900)
    assert zones.seat_of((800, 880)) == 0  # bottom
    assert zones.seat_of((20, 450)) == 1  # left
    assert zones.seat_of((800, 20)) == 2  # top
    assert zones.seat_of((1580, 450)) == 3  # right
    assert zones.seat_of((100, 850)) == 0 and zones.seat_of((50, 800)) == 1  # split on the diagonal


def test_three_players_sit_bottom_then_clockwise() -> None:
    zones = default_zones(3, 1200, 1200)
    assert zones.seat_of((600, 1180)) == 0
    assert zones.seat_of((20, 200)) == 1  # upper left
    assert zones.seat_of((1180, 200)) == 2  # upper right


def test_seat_of_outside_the_frame_is_none_and_bad_zones_are_refused() -> None:
    zones = default_zones(2, 100, 100)
    assert zones.seat_of((-5, 50)) is None and zones.seat_of((50, 130)) is None
    with pytest.raises(ValueError):
        default_zones(0, 100, 100)
    with pytest.raises(ValueError, match="at least 3 corners"):
        Zones(100, 100, (((0, 0), (10, 10)),))


def test_zones_save_load_round_trip_and_scale(tmp_path: Path) -> None:
    zones = default_zones(3, 2304, 1296)
    path = zones_path(tmp_path / "data")
    save_zones(zones, path)
    text = path.read_text()
    assert json.loads(text)["seats"][0]["seat"] == 0 and "\n  " in text  # indented: editable by hand
    loaded = load_zones(path)
    assert loaded.width == 2304 and loaded.seats == 3
    for point in [(100, 1200), (200, 100), (2200, 100), (1152, 648)]:
        assert loaded.seat_of(point) == zones.seat_of(point)
    half = loaded.scaled_to(1152, 648)
    assert half.seat_of((50, 600)) == zones.seat_of((100, 1200))

    # A hand-edited file: seat 0 gets a small square in a corner, seat 1 the rest of the top.
    path.write_text(json.dumps({"width": 100, "height": 100, "seats": [
        {"seat": 1, "polygon": [[0, 0], [100, 0], [100, 50], [0, 50]]},
        {"seat": 0, "polygon": [[0, 60], [40, 60], [40, 100], [0, 100]]},
    ]}))
    edited = load_or_default_zones(tmp_path / "data", 2, 200, 200)
    assert edited.seat_of((20, 180)) == 0 and edited.seat_of((150, 150)) is None
    assert load_or_default_zones(tmp_path / "data", 4, 200, 200).seats == 4  # saved zones do not fit: defaults

    path.write_text('{"seats": [{"seat": 1, "polygon": [[0,0],[1,0],[1,1]]}], "width": 1, "height": 1}')
    with pytest.raises(ValueError, match="numbered 0, 1, 2"):
        load_zones(path)
    path.write_text("not json")
    with pytest.raises(ValueError, match="not a zones file"):
        load_zones(path)


def test_assign_groups_dice_by_seat_and_keeps_the_strays() -> None:
    zones = default_zones(2, 1000, 1000)
    dice = [Die("red", "gun", (100, 900)), Die("blue", "finger", (500, 100)), Die("white", "gavel", (1200, 500))]
    groups = assign(dice, zones)
    assert groups == {0: [dice[0]], 1: [dice[1]], None: [dice[2]]}
    assert assign([], zones) == {0: [], 1: [], None: []}


def test_check_stash_says_what_is_missing_extra_and_flagged() -> None:
    dice = [
        Die("blue", "gun", (0, 0)),
        Die("blue", "gavel", (0, 0)),
        Die("red", "finger", (0, 0)),
        Die("red", "gun", (0, 0)),
        Die("red", None, (0, 0), confidence=0.3),
        Die("white", "cocktail", (0, 0), confidence=0.4),
    ]
    messages = check_stash("Bob", dice, {"white": 1, "red": 2, "blue": 3})
    assert messages == [
        "Bob: saw 1 red die too many",
        "Bob: expected 3 blue dice, saw 2",
        "Bob: 1 red die could not be read",
        "Bob: 1 white die not read for sure (a cocktail?)",
    ]
    structured = stash_mismatches("Bob", dice, {"white": 1, "red": 2, "blue": 3})
    assert structured[1] == Mismatch("missing", "Bob", "blue", 3, 2, 1, "Bob: expected 3 blue dice, saw 2")
    assert [m.kind for m in structured] == ["extra", "missing", "unread", "doubtful"]


def test_check_stash_says_which_dice_to_look_at_and_why() -> None:
    # A die read with no symbol surely has no face on top (cocked): roll it again. One seen but
    # not read, or read doubtfully, is asked as such; each colour on its own line.
    dice = [
        Die("red", None, (0, 0), confidence=0.9),
        Die("red", None, (0, 0), confidence=0.8),
        Die("blue", None, (0, 0), confidence=0.3),
        Die("white", "gun", (0, 0), confidence=0.4),
        Die("white", "gavel", (0, 0), confidence=0.2),
        Die("white", "gun", (0, 0), confidence=0.45),
        Die("blue", "gun", (0, 0), confidence=0.95),
    ]
    assert [why_asked(die) for die in dice] == ["cocked", "cocked", "unread", "doubtful", "doubtful", "doubtful", None]
    assert check_stash("Cy", dice, {"white": 3, "red": 2, "blue": 2}) == [
        "Cy: 2 red dice look cocked: roll them again",
        "Cy: 1 blue die could not be read",
        "Cy: 3 white dice not read for sure (a gun or a gavel?)",
    ]
    assert check_stash("Cy", dice[:1], {"red": 1}) == ["Cy: 1 red die looks cocked: roll it again"]
    counted = stash_mismatches("Cy", dice, {"white": 3, "red": 2, "blue": 2})
    assert [(m.kind, m.color, m.count) for m in counted] == \
        [("cocked", "red", 2), ("unread", "blue", 1), ("doubtful", "white", 3)]


def test_check_stash_is_quiet_when_the_stash_adds_up_and_counts_unexpected_colours() -> None:
    dice = [Die("white", "gun", (0, 0)), Die("red", "gun", (0, 0))]
    assert check_stash("Ann", dice, {"white": 1, "red": 1, "blue": 0}) == []
    assert check_stash("Ann", [], {"white": 1}) == ["Ann: expected 1 white die, saw 0"]
    assert check_stash("Ann", dice + [Die("green", "gun", (0, 0))], {"white": 1, "red": 1}) == [
        "Ann: saw 1 green die too many"
    ]
    assert check_stash("Ann", [Die("red", "gun", (0, 0))] * 3, {"red": 1}) == ["Ann: saw 2 red dice too many"]


def test_check_table_reports_every_seat_then_the_dice_outside_all_zones() -> None:
    zones = default_zones(2, 1000, 1000)
    dice = [
        Die("red", "gun", (100, 900)),
        Die("blue", "gun", (500, 100)),
        Die("white", "finger", (1050, 500)),
    ]
    mismatches = check_table(dice, zones, ["Ann", "Bob"], [{"red": 1}, {"blue": 2}])
    assert [m.message for m in mismatches] == [
        "Bob: expected 2 blue dice, saw 1",
        "1 die lies outside every seat's zone: white at (1050, 500)",
    ]
    assert mismatches[-1].kind == "outside" and mismatches[-1].seat is None
    with pytest.raises(ValueError, match="do not match"):
        check_table(dice, zones, ["Ann"], [{"red": 1}])
