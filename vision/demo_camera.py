"""The demo camera: films a rendered table showing the game's real dice.

With no camera attached, the companion still runs its whole round loop (settling, reading, seat
assignment, mismatches, corrections) on frames that the scene renderer makes from what the game
knows: each seat's stash, rolled at random and laid in that seat's zone. A new roll is rendered
whenever the table's *roll key* changes (a new round, or a seat asked to re-roll); the camera then
shows the dice tumbling in and settling, and after that the still table.

It is deliberately a camera like any other (``frame()``, ``close()``): the reader does not know
that the dice it reads were drawn.
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np

from vision.render import DieSpec, Scene, die_faces, place_dice, random_scene, render
from vision.seats import Zones

#: Frame size of the demo camera (the size of a Pi camera module v2 still).
DEMO_SIZE = (1640, 1232)
#: The art style the shipped default profile was taught on.
DEMO_STYLE = "classic"


@dataclass(frozen=True)
class DemoTable:
    """What the demo camera must show: who sits where, and what each stash holds.

    ``key`` names one round (e.g. game and round): a new key means everyone rolls. ``rerolls``
    counts, per seat, how often that seat re-rolled this round: only that seat's dice move then.
    ``faults`` asks, for a roll, for a misread die ("cocked": one die leans on another, so no face
    is on top) or a mismatch ("missing": one die has rolled off the table) at a seat, to show
    what the table does then; faults apply to that key only.
    """

    key: tuple
    zones: Zones
    stashes: tuple[Mapping[str, int], ...]
    faults: tuple[tuple[str, int], ...] = ()
    rerolls: tuple[int, ...] = ()

    def roll_of(self, seat: int) -> tuple:
        """What names the roll of one seat: the round, and that seat's re-rolls."""
        return (self.key, seat, self.rerolls[seat] if seat < len(self.rerolls) else 0)


class DemoCamera:
    """A camera whose frames are rendered from a :class:`DemoTable` supplied by ``table()``.

    ``table`` is called once per frame (from the camera's one owner thread); it returns None
    while there is nothing to show (an empty table is shown then).
    """

    name = "demo"

    def __init__(
        self,
        table: Callable[[], DemoTable | None],
        *,
        size: tuple[int, int] = DEMO_SIZE,
        style: str = DEMO_STYLE,
        seed: int = 0,
        tumble_frames: int = 2,
        die_size: float = 78.0,
    ) -> None:
        self._table = table
        self.width, self.height = size
        self._style = style
        self._seed = seed
        self._tumble_frames = tumble_frames
        self._die_size = die_size
        self._lock = threading.Lock()
        # One table, lamp and camera for the whole session, as at a real table.
        self._base = dataclasses.replace(
            random_scene(seed, style=style, n_dice=0, width=self.width, height=self.height,
                         table="felt_green", light="neutral", distractors=False, hand=False, edge=False,
                         glare=False, cocked_fraction=0.0),
            dice=(), distractors=(), hand=None,
        )
        self._key: tuple | None = None
        self._queue: list[np.ndarray] = []
        self._still: np.ndarray | None = None
        self.truth: tuple[DieSpec, ...] = ()

    def frame(self) -> np.ndarray:
        with self._lock:
            table = self._table()
            rolls = None if table is None else tuple(table.roll_of(seat) for seat in range(len(table.stashes)))
            if rolls != self._key or self._still is None:
                self._start_roll(table, self._key)
                self._key = rolls
            if self._queue:
                return self._queue.pop(0)
            assert self._still is not None
            return self._still

    def close(self) -> None:
        pass

    def __enter__(self) -> "DemoCamera":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start_roll(self, table: DemoTable | None, before: tuple | None) -> None:
        if table is None:
            self.truth = ()
            self._queue = []
            self._still = render(self._base)[0]
            return
        zones = table.zones.scaled_to(self.width, self.height)
        faults = dict((seat, kind) for kind, seat in table.faults)
        dice: list[DieSpec] = []
        moved: set[int] = set()
        for seat, stash in enumerate(table.stashes):
            if seat >= len(zones.polygons):
                break
            roll = table.roll_of(seat)
            if before is None or seat >= len(before) or before[seat] != roll:
                moved.add(seat)
            # Each seat's dice depend on that seat's roll alone: a re-roll moves no one else's dice.
            rng = np.random.default_rng(_key_seed(self._seed, roll))
            rolled = [(color, _roll(rng, color)) for color in ("white", "red", "blue") for _ in range(stash.get(color, 0))]
            fault = faults.get(seat)
            if fault == "missing" and rolled:
                rolled.pop(int(rng.integers(len(rolled))))
            elif fault == "cocked" and len(rolled) >= 2:
                i = int(rng.integers(len(rolled)))
                rolled[i] = (rolled[i][0], None)
                # a cocked die leans on a neighbour, so lay it down last
                rolled.append(rolled.pop(i))
            zone = _shrunk(zones.polygons[seat], 0.72)
            dice.extend(place_dice(rolled, zone, rng, size=self._die_size, touching=0.25, seat=seat))
        rng = np.random.default_rng(_key_seed(self._seed, tuple(table.roll_of(s) for s in range(len(table.stashes)))))
        final = dataclasses.replace(self._base, dice=tuple(dice), noise_seed=int(rng.integers(1 << 30)))
        self.truth = tuple(dice)
        self._queue = [self._tumbling(final, rng, f, moved) for f in range(self._tumble_frames)]
        self._still = render(final)[0]

    def _tumbling(self, final: Scene, rng: np.random.Generator, f: int, moving: set[int]) -> np.ndarray:
        """A frame with the dice of the ``moving`` seats still rolling: off their places, tilted."""
        p = (f + 1) / (self._tumble_frames + 1)
        dice = []
        for d in final.dice:
            if d.seat not in moving:
                dice.append(d)
                continue
            angle = rng.uniform(0, 2 * np.pi)
            shift = d.size * 2.5 * (1 - p)
            faces = die_faces(d.color)
            dice.append(dataclasses.replace(
                d, center=(d.center[0] + shift * np.cos(angle), d.center[1] + shift * np.sin(angle)),
                angle=float(d.angle + rng.uniform(-60, 60)), cocked=True, symbol=None,
                tilt=float(rng.uniform(30, 60)), faces=(faces[int(rng.integers(6))], faces[int(rng.integers(6))])))
        scene = dataclasses.replace(final, dice=tuple(dice), noise_seed=final.noise_seed + 1 + f)
        return render(scene)[0]


def _roll(rng: np.random.Generator, color: str) -> str:
    faces = die_faces(color)
    return faces[int(rng.integers(len(faces)))]


def _shrunk(polygon: Sequence[Sequence[float]], factor: float) -> np.ndarray:
    """The polygon scaled toward its centroid, so dice lie well inside their seat's zone."""
    pts = np.asarray(polygon, dtype=np.float64)
    centre = pts.mean(axis=0)
    return centre + (pts - centre) * factor


def _key_seed(seed: int, key: tuple) -> int:
    import hashlib

    digest = hashlib.sha256(repr((seed, key)).encode()).digest()
    return int.from_bytes(digest[:8], "little")
