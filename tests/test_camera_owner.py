"""The camera owner thread: opens once, keeps the latest frame, feeds the settle trigger, stops cleanly."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, EndOfFrames
from vision.camera_owner import CameraOwner
from vision.settle import SettleConfig, SettleDetector, SettleState


class ScriptedCamera:
    """Serves the given frames in order (the last one forever, or EndOfFrames), recording its use."""

    name = "scripted"

    def __init__(self, frames: list[np.ndarray], end: bool = False) -> None:
        self.frames = frames
        self.end = end
        self.served = 0
        self.closed = 0
        self.threads: set[str] = set()

    def frame(self) -> np.ndarray:
        self.threads.add(threading.current_thread().name)
        if self.served >= len(self.frames) and self.end:
            raise EndOfFrames("done")
        image = self.frames[min(self.served, len(self.frames) - 1)].copy()
        self.served += 1
        return image

    def close(self) -> None:
        self.closed += 1

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _frames(count: int) -> list[np.ndarray]:
    return [np.full((48, 64, 3), 10 * i, dtype=np.uint8) for i in range(count)]


class FakeClock:
    """Advances 0.25 s per reading, so settling is decided by frame count, not by the test's speed."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.25
        return self.now


def test_owner_opens_once_in_its_thread_and_serves_the_latest_frame() -> None:
    cameras: list[ScriptedCamera] = []

    def open_it() -> ScriptedCamera:
        cameras.append(ScriptedCamera(_frames(5)))
        return cameras[-1]

    owner = CameraOwner(open_it, fps=0)
    owner.start()
    try:
        with pytest.raises(RuntimeError, match="already started"):
            owner.start()
        snapshot = owner.wait_for_frame(after=5, timeout=5)
        assert snapshot is not None and snapshot.number > 5
        assert int(snapshot.frame[0, 0, 0]) == 40  # the script's last frame
        assert not snapshot.frame.flags.writeable  # shared between threads: read-only
        latest = owner.latest()
        assert latest is not None and latest.number >= snapshot.number
        assert owner.name == "scripted"
        jpeg = owner.latest_jpeg()
        assert jpeg is not None and jpeg[:2] == b"\xff\xd8"
        decoded = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert decoded.shape == (48, 64, 3)
    finally:
        owner.stop()
    assert not owner.running
    assert len(cameras) == 1 and cameras[0].closed == 1
    assert cameras[0].threads == {"camera-owner"}  # nobody else touched the camera


def test_latest_jpeg_is_encoded_once_per_frame() -> None:
    owner = CameraOwner(lambda: ScriptedCamera(_frames(1)), fps=0.2)  # next frame only after 5 s
    owner.start()
    try:
        assert owner.wait_for_frame(timeout=5) is not None
        first = owner.latest_jpeg()
        again = owner.latest_jpeg()
        assert owner.latest().number == 1
        assert first is not None and again is first  # the cached bytes, not a new encoding
        assert owner.latest_jpeg(quality=50) is not first  # another quality is encoded anew
        small = owner.latest_jpeg(max_width=32)
        assert cv2.imdecode(np.frombuffer(small, np.uint8), cv2.IMREAD_COLOR).shape == (24, 32, 3)
    finally:
        started = time.monotonic()
        owner.stop()
        assert time.monotonic() - started < 2  # stop interrupts the wait between frames


def test_owner_reports_a_camera_that_cannot_open() -> None:
    def broken():
        raise CameraError("cannot open camera 7: no such device")

    owner = CameraOwner(broken)
    with pytest.raises(CameraError, match="camera 7"):
        owner.start()
    assert owner.latest() is None and owner.latest_jpeg() is None

    with pytest.raises(CameraError, match="no camera"):
        CameraOwner(lambda: None).start()


def test_owner_feeds_the_settle_trigger_and_calls_back_once_per_roll() -> None:
    empty = np.full((120, 160, 3), (40, 100, 40), np.uint8)
    rolled = empty.copy()
    cv2.rectangle(rolled, (60, 50), (75, 65), (40, 40, 200), -1)
    frames = [empty] * 3 + [rolled] * 12
    settled = []
    done = threading.Event()

    def on_settled(snapshot) -> None:
        settled.append(snapshot)
        done.set()

    camera = ScriptedCamera(frames, end=True)
    owner = CameraOwner(lambda: camera, fps=0, settle=SettleDetector(SettleConfig(width=160)), on_settled=on_settled, clock=FakeClock())
    owner.start()
    try:
        assert done.wait(5)
        deadline = time.monotonic() + 5
        while owner.running and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        owner.stop()
    assert len(settled) == 1 and settled[0].state is SettleState.SETTLED
    assert owner.last_settled() is settled[0]
    assert int(settled[0].frame[57, 67, 2]) == 200  # the frame with the die on it
    assert owner.error is not None and "no more frames" in owner.error
    assert camera.closed == 1


def test_owner_survives_a_failing_callback_and_stops_after_repeated_frame_failures() -> None:
    class Flaky(ScriptedCamera):
        def frame(self) -> np.ndarray:
            raise CameraError("unplugged")

    owner = CameraOwner(lambda: Flaky([]), fps=0, max_failures=2)
    owner.start()
    owner._thread.join(5)  # two failures half a second apart, then it gives up
    assert not owner.running
    assert owner.error is not None and "2 failed frames" in owner.error
    owner.stop()
