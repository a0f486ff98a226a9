"""The one thread that owns the camera.

A camera is not thread-safe and can be opened only once, yet the web server's threads all want to
see the table. `CameraOwner` opens the camera in its own thread, grabs frames at a modest rate,
feeds each to the settle trigger, and keeps only the latest frame. Every other thread asks it for
that frame (or its JPEG) and never touches the camera.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from vision.camera import Camera, CameraError, EndOfFrames
from vision.settle import SettleDetector, SettleState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """One frame as the owner saw it. `frame` is read-only: it is shared between threads."""

    frame: np.ndarray
    timestamp: float  # seconds on the owner's clock (monotonic by default)
    number: int  # 1 for the first frame, counting up
    state: SettleState


class CameraOwner:
    """Owns one camera in one thread; hands out the latest frame to anyone who asks.

    `open_camera` is called once, inside the owner thread. `on_settled` is called (in the owner
    thread) with the snapshot of each settled roll; keep it quick or hand the work to a queue.
    """

    def __init__(
        self,
        open_camera: Callable[[], Camera],
        *,
        fps: float = 4.0,
        settle: SettleDetector | None = None,
        on_settled: Callable[[Snapshot], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_failures: int = 20,
    ) -> None:
        self._open_camera = open_camera
        self._interval = 1.0 / fps if fps > 0 else 0.0
        self.settle = settle if settle is not None else SettleDetector()
        self._on_settled = on_settled
        self._clock = clock
        self._max_failures = max_failures
        self._lock = threading.Lock()
        self._new_frame = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._opened = threading.Event()
        self._thread: threading.Thread | None = None
        self._latest: Snapshot | None = None
        self._settled: Snapshot | None = None
        self._jpeg: tuple[tuple[int, int, int | None], bytes] | None = None  # ((number, quality, width), bytes)
        self.name = "camera (not started)"
        self.error: str | None = None  # why the owner stopped, if it stopped by itself
        self._open_error: str | None = None

    # --- life cycle ------------------------------------------------------------------------------

    def start(self, timeout: float = 30.0) -> None:
        """Open the camera in the owner thread and start grabbing; raises CameraError if it cannot open.

        A second start is refused: the camera must never be opened twice.
        """
        with self._lock:
            if self._thread is not None:
                raise RuntimeError("camera owner already started; a camera is opened only once")
            self._thread = threading.Thread(target=self._run, name="camera-owner", daemon=True)
        self._thread.start()
        if not self._opened.wait(timeout):
            self._stop.set()
            raise CameraError(f"the camera did not open within {timeout:.0f} s")
        if self._open_error is not None:
            raise CameraError(self._open_error)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop grabbing and close the camera; waits for the owner thread to end."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        with self._new_frame:
            self._new_frame.notify_all()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> "CameraOwner":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- what other threads may ask ---------------------------------------------------------------

    def latest(self) -> Snapshot | None:
        """The newest frame, or None before the first one."""
        with self._lock:
            return self._latest

    def last_settled(self) -> Snapshot | None:
        """The frame of the last settled roll, or None if none settled yet."""
        with self._lock:
            return self._settled

    def wait_for_frame(self, after: int = 0, timeout: float = 5.0) -> Snapshot | None:
        """Block until a frame numbered above `after` exists; None on timeout or when stopped."""
        deadline = time.monotonic() + timeout
        with self._new_frame:
            while self._latest is None or self._latest.number <= after:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._stop.is_set() and not self.running:
                    return None
                self._new_frame.wait(min(remaining, 0.5))
            return self._latest

    def latest_jpeg(self, quality: int = 80, max_width: int | None = 1280) -> bytes | None:
        """The newest frame as JPEG bytes, scaled down to `max_width` (None: full size).

        Encoded once per frame however many viewers ask: a full 12 MP frame would cost a Pi a
        noticeable share of a second each time, and a table screen needs no more than 1280 px.
        """
        snapshot = self.latest()
        if snapshot is None:
            return None
        key = (snapshot.number, quality, max_width)
        with self._lock:
            cached = self._jpeg
        if cached is not None and cached[0] == key:
            return cached[1]
        image = snapshot.frame
        if max_width is not None and image.shape[1] > max_width:
            height = max(1, round(image.shape[0] * max_width / image.shape[1]))
            image = cv2.resize(image, (max_width, height), interpolation=cv2.INTER_AREA)
        ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            return None
        data = buffer.tobytes()
        with self._lock:
            if self._jpeg is None or self._jpeg[0][0] <= snapshot.number:
                self._jpeg = (key, data)
        return data

    # --- the owner thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            camera = self._open_camera()
        except Exception as error:  # reported to start()'s caller
            self.error = str(error) if isinstance(error, CameraError) else f"cannot open camera: {error}"
            self._open_error = self.error
            self._opened.set()
            return
        if camera is None:
            self.error = self._open_error = "no camera to own (source 'none')"
            self._opened.set()
            return
        self.name = camera.name
        self._opened.set()
        try:
            self._grab_loop(camera)
        finally:
            try:
                camera.close()
            except Exception:
                log.exception("closing %s failed", self.name)
            with self._new_frame:
                self._new_frame.notify_all()

    def _grab_loop(self, camera: Camera) -> None:
        number = 0
        failures = 0
        while not self._stop.is_set():
            started = self._clock()
            try:
                frame = camera.frame()
            except EndOfFrames:
                self.error = f"{self.name}: no more frames"
                return
            except Exception as error:  # a dropped frame must not kill the owner at once
                failures += 1
                log.warning("%s: frame failed (%d in a row): %s", self.name, failures, error)
                if failures >= self._max_failures:
                    self.error = f"{self.name} stopped after {failures} failed frames: {error}"
                    return
                self._stop.wait(0.5)
                continue
            failures = 0
            number += 1
            timestamp = self._clock()
            state = self.settle.update(frame, timestamp)
            frame.setflags(write=False)
            snapshot = Snapshot(frame=frame, timestamp=timestamp, number=number, state=state)
            with self._new_frame:
                self._latest = snapshot
                if state is SettleState.SETTLED:
                    self._settled = snapshot
                self._new_frame.notify_all()
            if state is SettleState.SETTLED and self._on_settled is not None:
                try:
                    self._on_settled(snapshot)
                except Exception:
                    log.exception("on_settled failed for frame %d", number)
            if self._interval:
                self._stop.wait(max(0.0, self._interval - (self._clock() - started)))
