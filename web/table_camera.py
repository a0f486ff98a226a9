"""The camera at the table: from settled dice to a proposed roll on every phone.

One :class:`TableCamera` joins the parts of a round that involve the camera: it owns the camera
(through :class:`vision.camera_owner.CameraOwner`, the only thread that touches it), waits for the
dice to settle (or for someone to press "Read now"), reads the frame once, gives each die to the
seat whose zone it lies in, checks each seat's dice against the stash the engine knows, and offers
each seat that has not yet confirmed its roll what was read, with what does not add up and a
picture of its zone. The phone then confirms or corrects; the engine only ever sees the confirmed
roll.

With the demo camera, the frames are rendered from the session's own stashes, so the whole loop
runs on a laptop as it does on a Pi.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.session import Session
from companion.state import Phase
from vision.camera import Camera, open_camera
from vision.camera_owner import CameraOwner, Snapshot
from vision.demo_camera import DemoCamera, DemoTable
from vision.overlay import draw_reading, draw_zones
from vision.profile import Profile, default_profile
from vision.reader import Die, Lamp, prepare, read_under_lamp
from vision.seats import Zones, assign, load_or_default_zones, outside_mismatch, stash_mismatches, stash_slots, zones_path, save_zones

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reading:
    """One frame read at the table: the dice, per seat, and when (frame number, seconds)."""

    frame_number: int
    captured_at: float
    dice: tuple[Die, ...]
    zones: Zones
    problems: tuple[str, ...]
    read_ms: float


@dataclass
class DemoFaults:
    """Faults the demo camera is asked to show, by round: (kind, seat) pairs (see DemoTable)."""

    by_round: dict[int, tuple[tuple[str, int], ...]] = field(default_factory=dict)


class TableCamera:
    """The camera of one table, feeding one session. ``source`` as ``gangster-dice serve --camera``."""

    def __init__(
        self,
        session: Session,
        source: str,
        data_dir: str | Path,
        *,
        profile: Profile | None = None,
        demo_faults: DemoFaults | None = None,
        fps: float = 4.0,
        auto_read: bool = True,
    ) -> None:
        self.session = session
        self.source = source
        self.data_dir = Path(data_dir)
        self.profile = profile if profile is not None else _table_profile(self.data_dir)
        self.demo_faults = demo_faults or DemoFaults()
        self.auto_read = auto_read
        self._rerolls: dict[int, int] = {}  # re-rolls per seat in the round named by _rerolls_key
        self._rerolls_key: tuple | None = None
        self._last_demo: DemoTable | None = None  # what the demo camera keeps showing between rounds
        self._lock = threading.Lock()
        self._reading: Reading | None = None
        self._reading_jpeg: bytes | None = None
        self._reading_frame: np.ndarray | None = None
        self._zones: Zones | None = None
        self._work = threading.Event()
        self._stop = threading.Event()
        self.demo: DemoCamera | None = None
        self.owner = CameraOwner(self._open, fps=fps, on_settled=self._settled)
        self._reader = threading.Thread(target=self._read_loop, name="table-reader", daemon=True)
        self._pending: Snapshot | None = None
        #: The frame last read on the calibration page, which teaching labels.
        self.checked: Snapshot | None = None
        # The lamp's correction the last frame needed, and the profile it was found with: the next
        # roll under the same lamp is then read once, not twice (see vision.reader.read_under_lamp).
        self._lamp: tuple[Profile, Lamp | None] = (self.profile, None)

    # Life cycle -----------------------------------------------------------------------------------

    def start(self) -> None:
        self.owner.start()
        self._reader.start()

    def stop(self) -> None:
        self._stop.set()
        self._work.set()
        self.owner.stop()

    def _open(self) -> Camera:
        if self.source == "demo":
            self.demo = DemoCamera(self._demo_table)
            return self.demo
        camera = open_camera(self.source)
        if camera is None:
            raise ValueError("no camera (--camera none)")
        return camera

    # What the demo camera films -------------------------------------------------------------------

    def _demo_table(self) -> DemoTable | None:
        state = self.session.state
        if state is None or state.phase is not Phase.BIDDING:
            return None if state is None else self._last_demo
        zones = self.zones_for(len(state.players))
        key = (self.session.game_id, state.round)
        if key != self._rerolls_key:
            self._rerolls, self._rerolls_key = {}, key
        rerolls = tuple(self._rerolls.get(seat, 0) for seat in range(len(state.players)))
        faults = tuple(
            fault for fault in self.demo_faults.by_round.get(state.round + 1, ())
            if rerolls[fault[1]] == 0  # a re-roll clears the fault, as at a real table
        )
        table = DemoTable(key, zones, tuple(s.as_dict() for s in state.stashes), faults, rerolls)
        self._last_demo = table
        return table


    def reroll(self, seat: int) -> None:
        """The player re-rolls (demo camera: a fresh roll of that seat's dice is rendered)."""
        with self._lock:
            self._rerolls[seat] = self._rerolls.get(seat, 0) + 1
        self.session.withdraw_proposal(seat)

    # Zones ----------------------------------------------------------------------------------------

    def zones_for(self, players: int) -> Zones:
        width, height = self.frame_size()
        zones = self._zones
        if zones is None or zones.seats != players or (zones.width, zones.height) != (width, height):
            zones = load_or_default_zones(self.data_dir, players, width, height)
            self._zones = zones
        return zones

    def set_zones(self, zones: Zones) -> None:
        save_zones(zones, zones_path(self.data_dir))
        self._zones = None

    def frame_size(self) -> tuple[int, int]:
        snap = self.owner.latest()
        if snap is not None:
            return snap.frame.shape[1], snap.frame.shape[0]
        if self.source == "demo":
            from vision.demo_camera import DEMO_SIZE

            return DEMO_SIZE
        return (1640, 1232)

    # Reading --------------------------------------------------------------------------------------

    def _settled(self, snapshot: Snapshot) -> None:
        if self.auto_read:
            self._queue(snapshot)

    def read_now(self) -> None:
        """Read the latest frame now (the "Read now" button), whether or not the trigger fired."""
        snapshot = self.owner.latest()
        if snapshot is None:
            raise RuntimeError("the camera has not given a frame yet")
        self._queue(snapshot)

    def _queue(self, snapshot: Snapshot) -> None:
        with self._lock:
            self._pending = snapshot
        self._work.set()

    def _read_loop(self) -> None:
        # Reading takes tens of milliseconds to seconds on a Pi: never in the camera's own thread.
        prepare()  # once, in this thread, so the table's first reading is as quick as the rest
        while not self._stop.is_set():
            self._work.wait()
            self._work.clear()
            with self._lock:
                snapshot, self._pending = self._pending, None
            if snapshot is None or self._stop.is_set():
                continue
            try:
                self.read(snapshot)
            except Exception:  # one bad frame must not stop the table
                log.exception("reading a frame failed")

    def read(self, snapshot: Snapshot) -> Reading | None:
        """Read one frame and offer each seat still rolling what the camera saw."""
        state = self.session.state
        if state is None or state.phase is not Phase.BIDDING:
            return None
        frame = snapshot.frame
        started = time.perf_counter()
        profile, lamp = self._lamp
        if profile is not self.profile:
            profile, lamp = self.profile, None  # retaught: its colors are the table's as it is now
        found, lamp = read_under_lamp(frame, profile, lamp)
        self._lamp = (profile, lamp)
        dice = tuple(found)
        read_ms = (time.perf_counter() - started) * 1000
        zones = self.zones_for(len(state.players)).scaled_to(frame.shape[1], frame.shape[0])
        groups = assign(dice, zones)
        problems: list[str] = [m.message for m in outside_mismatch(groups[None])]
        annotated = draw_zones(draw_reading(frame, list(dice)), zones, list(state.players))
        offers = []
        for seat, name in enumerate(state.players):
            if state.rolls[seat] is not None or state.bids[seat] is not None:
                continue  # this seat has confirmed its roll already
            expected = state.stashes[seat].as_dict()
            mine = groups.get(seat, [])
            mismatches = tuple(m.message for m in stash_mismatches(name, mine, expected))
            problems += mismatches
            offers.append((seat, stash_slots(mine, expected), mismatches, _seat_crop(annotated, zones.polygons[seat], mine)))
        reading = Reading(snapshot.number, snapshot.timestamp, dice, zones, tuple(problems), read_ms)
        with self._lock:  # the reading is known before any phone is offered it
            # the table screen's picture is encoded when first asked for, off the phones' path
            self._reading, self._reading_frame, self._reading_jpeg = reading, annotated, None
        self.session.propose_reading(offers, self.status())
        return reading

    def status(self) -> dict[str, Any]:
        """What every viewer may know of the camera: its source, the last reading, its problems."""
        reading = self.last_reading()
        return {
            "source": self.source,
            "error": self.owner.error,
            "frame": None if reading is None else reading.frame_number,
            "dice": None if reading is None else len(reading.dice),
            "problems": [] if reading is None else list(reading.problems),
        }

    def reading_jpeg(self) -> bytes | None:
        """The last frame read, with each die's reading and the seat zones drawn on it."""
        with self._lock:
            if self._reading_jpeg is None and self._reading_frame is not None:
                self._reading_jpeg = _jpeg(self._reading_frame, max_width=1280)
            return self._reading_jpeg

    def live_jpeg(self) -> bytes | None:
        return self.owner.latest_jpeg(quality=75, max_width=960)

    def last_reading(self) -> Reading | None:
        with self._lock:
            return self._reading


def _table_profile(data_dir: Path) -> Profile:
    """The table's own taught profile when there is one, else the shipped default."""
    path = data_dir / "profile.json"
    if path.exists():
        return Profile.load(path)
    return default_profile()


def _seat_crop(frame: np.ndarray, polygon: Any, dice: list[Die], max_width: int = 640) -> bytes:
    """A picture of one seat's dice for their phone: the dice seen, with a margin, or the whole
    zone when the camera saw none there."""
    h, w = frame.shape[:2]
    if dice:
        margin = 1.5 * max(d.size for d in dice)
        xs = [d.center[0] for d in dice]
        ys = [d.center[1] for d in dice]
        box = np.array([[min(xs) - margin, min(ys) - margin], [max(xs) + margin, max(ys) + margin]])
    else:
        pts = np.asarray(polygon, dtype=np.float64)
        box = np.array([pts.min(axis=0), pts.max(axis=0)])
    (x0, y0), (x1, y1) = np.clip(box, 0, [w, h]).astype(int)
    crop = frame[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)]
    return _jpeg(crop, max_width=max_width)


def _jpeg(frame: np.ndarray, max_width: int | None = None, quality: int = 80) -> bytes:
    if max_width is not None and frame.shape[1] > max_width:
        scale = max_width / frame.shape[1]
        frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("could not encode a JPEG")
    return buf.tobytes()
