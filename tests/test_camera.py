"""Camera sources: folder replay, source parsing, and the Pi camera's start-up against a recording stand-in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import (
    Camera,
    CameraError,
    EndOfFrames,
    FolderCamera,
    LockedExposure,
    OpenCVCamera,
    PiCamera,
    default_pi_size,
    open_camera,
)


def _write_images(folder: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        # Each image's first pixel encodes its number, so the order can be checked after decoding.
        number = int("".join(ch for ch in Path(name).stem if ch.isdigit()))
        image = np.full((24, 32, 3), number * 10, dtype=np.uint8)
        assert cv2.imwrite(str(folder / name), image)


def _numbers(camera: Camera, count: int) -> list[int]:
    return [int(camera.frame()[0, 0, 0]) // 10 for _ in range(count)]


# --- FolderCamera ---------------------------------------------------------------------------------


def test_folder_camera_replays_in_natural_order_and_loops(tmp_path: Path) -> None:
    _write_images(tmp_path, ["frame10.png", "frame2.png", "frame1.png"])
    (tmp_path / "notes.txt").write_text("not an image")
    with FolderCamera(tmp_path) as camera:
        assert isinstance(camera, Camera)
        assert _numbers(camera, 7) == [1, 2, 10, 1, 2, 10, 1]
        assert camera.frame().shape == (24, 32, 3)


def test_folder_camera_without_loop_ends(tmp_path: Path) -> None:
    _write_images(tmp_path, ["a1.png", "a2.png"])
    camera = FolderCamera(tmp_path, loop=False)
    assert _numbers(camera, 2) == [1, 2]
    with pytest.raises(EndOfFrames):
        camera.frame()


def test_folder_camera_recursive_takes_sub_folders(tmp_path: Path) -> None:
    _write_images(tmp_path / "b", ["s3.png"])
    _write_images(tmp_path / "a", ["s4.jpg"])
    assert _numbers(FolderCamera(tmp_path, recursive=True), 2) == [4, 3]  # a/ before b/
    with pytest.raises(CameraError, match="no images"):
        FolderCamera(tmp_path)  # not recursive: the top folder itself holds no image


def test_folder_camera_errors_name_the_folder(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no image folder"):
        FolderCamera(tmp_path / "missing")
    with pytest.raises(CameraError, match="no images"):
        FolderCamera(tmp_path)
    (tmp_path / "broken.png").write_bytes(b"not a png")
    camera = FolderCamera(tmp_path)
    with pytest.raises(CameraError, match="cannot read image"):
        camera.frame()
    camera.close()
    with pytest.raises(CameraError, match="closed"):
        camera.frame()


# --- open_camera ---------------------------------------------------------------------------------


def test_open_camera_none_means_no_camera() -> None:
    assert open_camera("none") is None
    assert open_camera(" None ") is None


def test_open_camera_folder_and_demo_factory(tmp_path: Path) -> None:
    _write_images(tmp_path, ["f1.png"])
    camera = open_camera(str(tmp_path))
    assert isinstance(camera, FolderCamera) and camera.loop

    made = []

    def factory() -> FolderCamera:
        made.append(True)
        return FolderCamera(tmp_path)

    assert isinstance(open_camera("demo", demo_factory=factory), FolderCamera)
    assert made == [True]


def test_open_camera_demo_without_factory_replays_demo_images(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.camera as camera_module

    _write_images(tmp_path / "sub", ["d1.png", "d2.png"])
    monkeypatch.setattr(camera_module, "demo_image_folders", lambda: (tmp_path / "absent", tmp_path))
    camera = open_camera("demo")
    assert isinstance(camera, FolderCamera) and camera.loop and len(camera.paths) == 2
    monkeypatch.setattr(camera_module, "demo_image_folders", lambda: (tmp_path / "absent",))
    with pytest.raises(CameraError, match="no demo images"):
        open_camera("demo")


def test_open_camera_rejects_unknown_sources(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="unknown camera source 'webcam'.*pi, none, demo"):
        open_camera("webcam")
    with pytest.raises(CameraError, match="unknown camera source"):
        open_camera(str(tmp_path / "no-such-folder"))


def test_open_camera_index_that_does_not_exist_fails_clearly() -> None:
    with pytest.raises(CameraError, match="cannot open camera 97"):
        open_camera("97")
    with pytest.raises(CameraError, match="cannot open camera 98"):
        OpenCVCamera(98)


def test_open_camera_pi_without_picamera2_explains_the_install() -> None:
    try:
        import picamera2  # noqa: F401  (only on a Pi)
    except ImportError:
        with pytest.raises(CameraError, match="python3-picamera2"):
            open_camera("pi")
    else:  # pragma: no cover - on a Raspberry Pi with no camera attached this still must fail cleanly
        pytest.fail("this test expects a machine without picamera2")


def test_importing_everything_never_imports_picamera2() -> None:
    """Every module of the companion imports on a machine without a Pi camera, and none pulls picamera2 in."""
    script = """
import importlib, pkgutil, sys
count = 0
for package in ("vision", "companion", "web"):
    root = importlib.import_module(package)
    for module in pkgutil.walk_packages(root.__path__, package + "."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
            count += 1
import vision.camera, vision.camera_owner, vision.settle, vision.seats, vision.overlay, vision.camera_cli
print(count, "picamera2" in sys.modules)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    count, imported = result.stdout.split()
    assert int(count) >= 6 and imported == "False"


# --- PiCamera against a recording stand-in for picamera2.Picamera2 ------------------------------


class RecordingPicamera2:
    """Records every call PiCamera makes; gives metadata whose AE/AWB converge after a few frames."""

    sensor_resolution = (4608, 2592)  # camera module 3
    camera_controls = {"AfMode": (0, 2, 0), "ExposureTime": (1, 1000000, 20000)}

    def __init__(self, camera_num: int = 0) -> None:
        self.calls: list[tuple] = [("init", camera_num)]
        self.config: dict | None = None
        self.metadata_frames = 0

    def create_still_configuration(self, main=None, **kwargs):
        self.calls.append(("create_still_configuration", main, kwargs))
        return {"use_case": "still", "main": dict(main or {}), **kwargs}

    def configure(self, config) -> None:
        self.config = config
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start",))

    def capture_metadata(self) -> dict:
        self.metadata_frames += 1
        n = min(self.metadata_frames, 8)  # values still moving for the first 8 frames, then fixed
        return {
            "ExposureTime": 20000 - 1000 * (8 - n),
            "AnalogueGain": 2.0 + 0.25 * (8 - n),
            "ColourGains": (1.9 + 0.05 * (8 - n), 1.6),
            "Lux": 300.0,
        }

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", controls))

    def autofocus_cycle(self) -> bool:
        self.calls.append(("autofocus_cycle",))
        return True

    def capture_array(self, stream: str = "main") -> np.ndarray:
        self.calls.append(("capture_array", stream))
        width, height = self.config["main"]["size"]
        return np.zeros((height, width, 3), dtype=np.uint8)

    def stop(self) -> None:
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))

    def names(self) -> list[str]:
        return [call[0] for call in self.calls]


def test_pi_camera_configures_a_bgr_still_stream_and_locks_settled_exposure() -> None:
    fakes: list[RecordingPicamera2] = []

    def factory(camera_num: int = 0) -> RecordingPicamera2:
        fakes.append(RecordingPicamera2(camera_num))
        return fakes[-1]

    camera = PiCamera(picamera2_factory=factory)
    fake = fakes[0]
    names = fake.names()
    assert names[:5] == ["init", "create_still_configuration", "configure", "start", "autofocus_cycle"]
    assert camera.focused is True
    _, main, options = fake.calls[1]
    assert main == {"size": (4608, 2592), "format": "RGB888"}  # RGB888 is [B, G, R] in memory
    assert options.get("queue") is False

    # Exposure is locked only after the values stopped moving, with exactly those values.
    assert fake.metadata_frames >= 10
    set_calls = [call for call in fake.calls if call[0] == "set_controls"]
    assert len(set_calls) == 1 and names.index("set_controls") > names.index("start")
    assert set_calls[0][1] == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 20000,
        "AnalogueGain": 2.0,
        "ColourGains": (1.9, 1.6),
    }
    assert camera.exposure == LockedExposure(20000, 2.0, (1.9, 1.6))

    frame = camera.frame()
    assert frame.shape == (2592, 4608, 3) and frame.dtype == np.uint8
    assert ("capture_array", "main") in fake.calls
    assert "4608x2592" in camera.name

    camera.close()
    camera.close()  # twice is harmless
    assert fake.names()[-2:] == ["stop", "close"] and fake.names().count("close") == 1
    with pytest.raises(CameraError, match="closed"):
        camera.frame()


def test_pi_camera_uses_the_size_asked_for_and_the_full_sensor_by_default() -> None:
    made: list[RecordingPicamera2] = []

    def factory(camera_num: int = 0) -> RecordingPicamera2:
        made.append(RecordingPicamera2(camera_num))
        return made[-1]

    class FixedFocus(RecordingPicamera2):  # camera module 2: no autofocus
        sensor_resolution = (3280, 2464)
        camera_controls = {"ExposureTime": (1, 1000000, 20000)}

    camera = PiCamera(picamera2_factory=lambda camera_num=0: made.append(FixedFocus(camera_num)) or made[-1])
    assert camera.focused is None and "autofocus_cycle" not in made[-1].names()
    assert made[-1].calls[1][1]["size"] == (3280, 2464)
    camera.close()
    made.clear()

    PiCamera((2304, 1296), camera_num=1, picamera2_factory=factory).close()
    assert made[0].calls[0] == ("init", 1)
    assert made[0].calls[1][1]["size"] == (2304, 1296)
    assert default_pi_size((3280, 2464)) == (3280, 2464)  # camera module 2
    assert default_pi_size((4056, 3040)) == (4056, 3040)  # HQ camera
    assert default_pi_size((2593, 1945)) == (2592, 1944)  # even sizes only


def test_pi_camera_start_failure_closes_the_device_and_says_why() -> None:
    class NoMetadata(RecordingPicamera2):
        def capture_metadata(self) -> dict:
            return {"Lux": 10.0}

    fakes: list[RecordingPicamera2] = []

    def factory(camera_num: int = 0) -> RecordingPicamera2:
        fakes.append(NoMetadata(camera_num))
        return fakes[-1]

    with pytest.raises(CameraError, match="reported no ColourGains in its frame metadata"):
        PiCamera(picamera2_factory=factory)
    assert fakes[0].names()[-2:] == ["stop", "close"]

    def absent(camera_num: int = 0):
        raise IndexError("list index out of range")  # what picamera2 raises with no camera attached

    with pytest.raises(CameraError, match="cannot open Pi camera 0"):
        PiCamera(picamera2_factory=absent)
