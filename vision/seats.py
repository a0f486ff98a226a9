"""Seat zones: which player's part of the table each die lies in, and whether a stash adds up.

The camera hangs above the middle of the table and the players sit around it, so each seat owns
the part of the picture on its side: halves for two players, wedges from the centre for three,
the four edge triangles for four. The zones are plain polygons in frame pixels, saved as an
editable JSON file, so a table with an odd shape can be redrawn by hand.

The rules only care how many dice of each colour a seat holds (its stash). `check_stash` compares
what the camera saw in a seat's zone with the stash the game expects and says what is off, in words
a player understands, and as values a UI can list.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterable, Mapping, Protocol, Sequence

import cv2
import numpy as np

ZONES_FILE = "zones.json"
FLAG_CONFIDENCE = 0.5  # below this the reader's answer is asked of the player (see dice-images.md)

Point = tuple[float, float]


class DieLike(Protocol):
    """What this module needs of `vision.reader.Die`."""

    color: str
    symbol: str | None
    center: tuple[float, float]
    confidence: float


@dataclass(frozen=True)
class Zones:
    """One polygon per seat (seat i = polygons[i]) in the pixels of a width×height frame."""

    width: int
    height: int
    polygons: tuple[tuple[Point, ...], ...]

    def __post_init__(self) -> None:
        for seat, polygon in enumerate(self.polygons):
            if len(polygon) < 3:
                raise ValueError(f"seat {seat}'s zone needs at least 3 corners, has {len(polygon)}")

    @property
    def seats(self) -> int:
        return len(self.polygons)

    def seat_of(self, point: Sequence[float]) -> int | None:
        """The seat whose zone holds `point` (edges count as inside; first seat wins on a shared edge)."""
        x, y = float(point[0]), float(point[1])
        for seat, contour in enumerate(self._contours):
            if cv2.pointPolygonTest(contour, (x, y), False) >= 0:
                return seat
        return None

    @cached_property
    def _contours(self) -> tuple[np.ndarray, ...]:
        return tuple(np.asarray(p, dtype=np.float32).reshape(-1, 1, 2) for p in self.polygons)

    def scaled_to(self, width: int, height: int) -> "Zones":
        """The same zones for a frame of another size (zones drawn on a preview, used at full size)."""
        if (width, height) == (self.width, self.height):
            return self
        sx, sy = width / self.width, height / self.height
        return Zones(width, height, tuple(tuple((x * sx, y * sy) for x, y in p) for p in self.polygons))

    def to_json(self) -> dict:
        return {
            "width": self.width,
            "height": self.height,
            "seats": [
                {"seat": seat, "polygon": [[round(x, 1), round(y, 1)] for x, y in polygon]}
                for seat, polygon in enumerate(self.polygons)
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping) -> "Zones":
        seats = sorted(data["seats"], key=lambda entry: int(entry["seat"]))
        if [int(entry["seat"]) for entry in seats] != list(range(len(seats))):
            raise ValueError("zone seats must be numbered 0, 1, 2, … without gaps")
        polygons = tuple(tuple((float(x), float(y)) for x, y in entry["polygon"]) for entry in seats)
        return cls(int(data["width"]), int(data["height"]), polygons)


def default_zones(n_players: int, width: int, height: int) -> Zones:
    """Zones for players sitting around a table, camera above its middle.

    Wedges from the centre of the frame, each with an equal share of the table's area, seats
    going clockwise as seen in the picture and seat 0's wedge centred on the bottom edge. So two
    players get the bottom and top halves, four the bottom, left, top and right triangles cut by
    the diagonals, three or more a fair slice each even on a wide frame. Together they cover the
    whole frame.
    """
    if n_players < 1:
        raise ValueError("a table needs at least one player")
    w, h = float(width), float(height)
    if n_players == 1:
        return Zones(width, height, (((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)),))
    share = w * h / n_players
    wedges = tuple(_wedge(w, h, (seat - 0.5) * share, (seat + 0.5) * share) for seat in range(n_players))
    return Zones(width, height, wedges)


def _perimeter(w: float, h: float) -> list[tuple[Point, Point, float]]:
    """The frame's border walked clockwise from the middle of the bottom edge, as (start, end, area)
    segments: `area` is what the triangle from the centre to that segment covers (base × height / 2)."""
    corners = [(w / 2, h), (0.0, h), (0.0, 0.0), (w, 0.0), (w, h), (w / 2, h)]
    segments = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        distance = h / 2 if y0 == y1 else w / 2  # from the centre to this edge
        segments.append(((x0, y0), (x1, y1), length * distance / 2))
    return segments


def _point_at_area(w: float, h: float, area: float) -> tuple[Point, int]:
    """The border point reached once the swept area from the bottom middle is `area` (mod the frame's
    area), and the index of the segment it lies on."""
    area %= w * h
    for index, (start, end, segment_area) in enumerate(_perimeter(w, h)):
        if area <= segment_area or index == 4:
            t = min(1.0, area / segment_area) if segment_area else 0.0
            return (start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1])), index
        area -= segment_area
    raise AssertionError("unreachable")


def _wedge(w: float, h: float, start_area: float, end_area: float) -> tuple[Point, ...]:
    """The part of the frame swept from the centre between two swept-area marks (start < end)."""
    first, first_segment = _point_at_area(w, h, start_area)
    last, last_segment = _point_at_area(w, h, end_area)
    points: list[Point] = [(w / 2, h / 2), first]
    segments = _perimeter(w, h)
    index = first_segment
    while index != last_segment:  # the corners passed on the way from `first` to `last`
        points.append(segments[index][1])
        index = (index + 1) % len(segments)
    points.append(last)
    unique = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    return tuple((round(x, 3), round(y, 3)) for x, y in unique)


def zones_path(data_dir: str | Path) -> Path:
    """Where a table's zones are kept: `zones.json` in the companion's data directory."""
    return Path(data_dir) / ZONES_FILE


def save_zones(zones: Zones, path: str | Path) -> None:
    """Write the zones as indented JSON (meant to be edited by hand), atomically."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(target.suffix + ".tmp")
    temporary.write_text(json.dumps(zones.to_json(), indent=2) + "\n", encoding="utf-8")
    temporary.replace(target)


def load_zones(path: str | Path) -> Zones:
    """Read zones saved by `save_zones` (or edited by hand); ValueError says what is wrong."""
    try:
        return Zones.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (KeyError, TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not a zones file ({error})") from error


def load_or_default_zones(data_dir: str | Path, n_players: int, width: int, height: int) -> Zones:
    """The saved zones for this table when they fit `n_players`, else the default ones; sized to the frame."""
    path = zones_path(data_dir)
    if path.exists():
        zones = load_zones(path)
        if zones.seats == n_players:
            return zones.scaled_to(width, height)
    return default_zones(n_players, width, height)


# --- dice per seat -------------------------------------------------------------------------------


def assign(dice: Iterable[DieLike], zones: Zones) -> dict[int | None, list[DieLike]]:
    """Dice grouped by seat: a key per seat (empty lists included), and None for dice outside every zone."""
    groups: dict[int | None, list[DieLike]] = {seat: [] for seat in range(zones.seats)}
    groups[None] = []
    for die in dice:
        groups[zones.seat_of(die.center)].append(die)
    return groups


def is_flagged(die: DieLike) -> bool:
    """A die the reader could not read for sure: to be asked of the player, not trusted."""
    return die.symbol is None or die.confidence < FLAG_CONFIDENCE


def why_asked(die: DieLike) -> str | None:
    """Why a die is asked of the player (None: it is not, `is_flagged`): "cocked" when the
    reader is sure no face is on top (no symbol, read surely), "unread" when it saw a die but
    could not read it, "doubtful" when it read a symbol but not surely."""
    if not is_flagged(die):
        return None
    if die.symbol is None:
        return "cocked" if die.confidence >= FLAG_CONFIDENCE else "unread"
    return "doubtful"


@dataclass(frozen=True)
class Mismatch:
    """One thing the camera saw that does not fit the expected stash.

    kind: "missing" (fewer dice of `color` than expected), "extra" (more), "cocked" (`count`
    dice of `color` with no face on top), "unread" (`count` dice of `color` seen but not read),
    "doubtful" (`count` dice of `color` read, but not surely), "outside" (`count` dice in no
    seat's zone; `seat` is None). Cocked, unread and doubtful are what `why_asked` says of each
    die.
    """

    kind: str
    seat: str | None
    color: str | None
    expected: int | None
    seen: int | None
    count: int
    message: str


def _dice(count: int) -> str:
    return "die" if count == 1 else "dice"


def _asked_message(seat_name: str, kind: str, color: str, dice: Sequence[DieLike]) -> str:
    """The sentence that asks a player about `dice` of `color`, all asked for `kind`."""
    count, one = len(dice), len(dice) == 1
    what = f"{seat_name}: {count} {color} {_dice(count)}"
    if kind == "cocked":
        return f"{what} {'looks' if one else 'look'} cocked: roll {'it' if one else 'them'} again"
    if kind == "unread":
        return f"{what} could not be read"
    guesses = " or ".join(dict.fromkeys(f"a {die.symbol}" for die in dice))
    return f"{what} not read for sure ({guesses}?)"


def stash_mismatches(seat_name: str, dice_of_seat: Iterable[DieLike], expected: Mapping[str, int]) -> list[Mismatch]:
    """Compare the dice seen in a seat's zone with its expected stash (dice per colour).

    Every die counts under the colour read for it, flagged or not (colour is far surer than the
    symbol); flagged dice are reported besides, per colour and per why they are asked
    (`why_asked`: cocked, unread, doubtful), so the player knows which die to look at and what
    to do about it.
    """
    dice = list(dice_of_seat)
    seen = Counter(die.color for die in dice)
    result: list[Mismatch] = []
    colors = list(expected) + sorted(set(seen) - set(expected))  # the stash's order, then any other
    for color in colors:
        want, got = int(expected.get(color, 0)), seen.get(color, 0)
        if got < want:
            message = f"{seat_name}: expected {want} {color} {_dice(want)}, saw {got}"
            result.append(Mismatch("missing", seat_name, color, want, got, want - got, message))
        elif got > want:
            extra = got - want
            message = f"{seat_name}: saw {extra} {color} {_dice(extra)} too many"
            result.append(Mismatch("extra", seat_name, color, want, got, extra, message))
    whys = [why_asked(die) for die in dice]  # once a die, not once a kind and colour
    for kind in ("cocked", "unread", "doubtful"):
        for color in colors:
            asked = [die for die, why in zip(dice, whys) if die.color == color and why == kind]
            if asked:
                message = _asked_message(seat_name, kind, color, asked)
                result.append(Mismatch(kind, seat_name, color, None, None, len(asked), message))
    return result


def check_stash(seat_name: str, dice_of_seat: Iterable[DieLike], expected: Mapping[str, int]) -> list[str]:
    """The mismatches of `stash_mismatches`, as sentences; empty when the stash adds up."""
    return [mismatch.message for mismatch in stash_mismatches(seat_name, dice_of_seat, expected)]


def outside_mismatch(dice_outside: Sequence[DieLike]) -> list[Mismatch]:
    """A report of the dice lying in no seat's zone (none when there are none)."""
    if not dice_outside:
        return []
    count = len(dice_outside)
    where = ", ".join(f"{die.color} at ({die.center[0]:.0f}, {die.center[1]:.0f})" for die in dice_outside)
    verb = "lies" if count == 1 else "lie"
    message = f"{count} {_dice(count)} {verb} outside every seat's zone: {where}"
    return [Mismatch("outside", None, None, None, None, count, message)]


def check_table(
    dice: Iterable[DieLike],
    zones: Zones,
    seat_names: Sequence[str],
    stashes: Sequence[Mapping[str, int]],
) -> list[Mismatch]:
    """Every mismatch at the table: each seat's stash in seat order, then the dice outside all zones."""
    if not (len(seat_names) == len(stashes) == zones.seats):
        raise ValueError(f"{zones.seats} zones, {len(seat_names)} names and {len(stashes)} stashes do not match")
    groups = assign(dice, zones)
    result: list[Mismatch] = []
    for seat, (name, stash) in enumerate(zip(seat_names, stashes)):
        result += stash_mismatches(name, groups[seat], stash)
    return result + outside_mismatch(groups[None])


def stash_slots(dice_of_seat: Iterable[DieLike], expected: Mapping[str, int]) -> dict[str, list[str | None]]:
    """A seat's reading laid out die by die against its stash: for each colour, one entry per die
    the stash holds, the symbol read or None where the player must say (a flagged die, or a die
    the camera did not see). Surest readings first; dice beyond the stash are left out (and
    reported by `stash_mismatches`)."""
    slots: dict[str, list[str | None]] = {}
    for color, want in expected.items():
        of_color = sorted((d for d in dice_of_seat if d.color == color), key=lambda d: -d.confidence)
        read: list[str | None] = [None if is_flagged(d) else d.symbol for d in of_color[: int(want)]]
        slots[color] = read + [None] * (int(want) - len(read))
    return slots
