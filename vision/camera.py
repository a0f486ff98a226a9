"""Camera sources: where frames of the table come from.

Every source gives BGR frames (OpenCV's order) through one small interface, `Camera`, so the rest
of the companion never cares whether the table is seen by a Raspberry Pi camera module, a USB
webcam or a folder of photos replayed for a demo. `open_camera` turns the `--camera` option of the
command line into a source.

No source is thread-safe: one thread owns a camera (see `vision.camera_owner.CameraOwner`).
picamera2 exists only on a Raspberry Pi, so it is imported inside `PiCamera`'s constructor and
never when this module loads.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Protocol, runtime_checkable

import cv2
import numpy as np

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".webp"})


class CameraError(RuntimeError):
    """A camera cannot be opened or cannot give a frame; the message says which and why."""


class EndOfFrames(CameraError):
    """A finite source (a folder replayed once) has given its last frame."""


@runtime_checkable
class Camera(Protocol):
    """What every frame source offers. Usable as a context manager that closes it."""

    name: str

    def frame(self) -> np.ndarray:
        """The next frame: an H×W×3 uint8 BGR array owned by the caller."""
        ...

    def close(self) -> None:
        """Release the device; calling it twice is harmless."""
        ...

    def __enter__(self) -> "Camera": ...

    def __exit__(self, *exc: object) -> None: ...


class _ClosesOnExit:
    """Context-manager behaviour shared by the sources below."""

    def close(self) -> None:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# --- Raspberry Pi camera module ------------------------------------------------------------------


@dataclass(frozen=True)
class LockedExposure:
    """The exposure and colour settings a PiCamera settled on and then froze.

    Locked so that the same die looks the same in every frame of an evening: automatic exposure
    and white balance would otherwise drift whenever a hand or a dark sleeve enters the picture,
    and the reader's colour thresholds would drift with them.
    """

    exposure_time_us: int
    analogue_gain: float
    colour_gains: tuple[float, float]

    def as_controls(self) -> dict[str, Any]:
        """The libcamera controls that switch AE/AWB off and pin these values."""
        return {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": self.exposure_time_us,
            "AnalogueGain": self.analogue_gain,
            "ColourGains": self.colour_gains,
        }


def default_pi_size(sensor_size: tuple[int, int]) -> tuple[int, int]:
    """The sensor's full resolution (rounded down to even numbers): 4608×2592 on camera module 3,
    3280×2464 on module 2, 4056×3040 on the HQ camera.

    Why full: the reader wants dice 60–120 px wide, and the camera should hang 60–80 cm above the
    table, out of the players' way. From 70 cm module 3 sees about 91 cm of table across, so a
    16 mm die is about 80 px at full resolution but only 40 px at half. The settle trigger works on
    a 320 px copy, and the web asks for a scaled-down JPEG, so only the reader sees full frames.
    """
    width, height = sensor_size
    return width & ~1, height & ~1


class PiCamera(_ClosesOnExit):
    """A Raspberry Pi camera module through picamera2, with exposure and white balance locked.

    Start-up: a still configuration at `size` (default: the full sensor resolution), main stream
    in "RGB888" — which picamera2 documents as pixels laid out [B, G, R], exactly what OpenCV
    wants — then one autofocus cycle where the lens can focus, then automatic exposure and white
    balance run until they stop changing, and their values are locked with `set_controls`. `picamera2_factory` is the `Picamera2` class; it is
    only given by tests, which pass a recording stand-in because no camera exists in CI.
    """

    FORMAT = "RGB888"

    def __init__(
        self,
        size: tuple[int, int] | None = None,
        *,
        camera_num: int = 0,
        picamera2_factory: Callable[..., Any] | None = None,
        min_settle_frames: int = 6,
        max_settle_frames: int = 40,
        settle_tolerance: float = 0.03,
    ) -> None:
        if picamera2_factory is None:
            try:
                from picamera2 import Picamera2  # only present on a Raspberry Pi
            except ImportError as error:
                raise CameraError(
                    "the Pi camera needs picamera2: on Raspberry Pi OS run "
                    "'sudo apt install python3-picamera2' and make the venv with "
                    f"--system-site-packages ({error})"
                ) from error
            picamera2_factory = Picamera2
        try:
            self._cam = picamera2_factory(camera_num=camera_num)
        except Exception as error:  # picamera2 raises plain errors when no camera is attached
            raise CameraError(f"cannot open Pi camera {camera_num}: {error}") from error
        try:
            self.size = size or default_pi_size(_sensor_size(self._cam))
            config = self._cam.create_still_configuration(
                main={"size": self.size, "format": self.FORMAT},
                buffer_count=2,
                # A frame asked for must be exposed after the request, never an old queued one:
                # the settle trigger compares consecutive frames.
                queue=False,
            )
            self._cam.configure(config)
            self._cam.start()
            self.focused = self._focus_once()
            self.exposure = self._settle_and_lock(min_settle_frames, max_settle_frames, settle_tolerance)
        except Exception as error:
            self._close_quietly()
            if isinstance(error, CameraError):
                raise
            raise CameraError(f"cannot start Pi camera {camera_num}: {error}") from error
        self.name = f"pi camera {camera_num} ({self.size[0]}x{self.size[1]})"
        self._closed = False

    def _focus_once(self) -> bool | None:
        """On a camera with autofocus (module 3), focus once on the table and leave the lens there.

        Once, not continuously: a hand passing close to the lens must not pull the focus away from
        the dice. None when the camera has a fixed-focus lens (module 2).
        """
        if "AfMode" not in (getattr(self._cam, "camera_controls", None) or {}):
            return None
        return bool(self._cam.autofocus_cycle())

    def _settle_and_lock(self, min_frames: int, max_frames: int, tolerance: float) -> LockedExposure:
        """Let AE/AWB converge (values stable over three frames, or libcamera says AeLocked), then lock."""
        previous: LockedExposure | None = None
        stable = 0
        current: LockedExposure | None = None
        for index in range(max_frames):
            current = _exposure_from_metadata(self._cam.capture_metadata())
            if previous is not None and _close(previous, current, tolerance):
                stable += 1
            else:
                stable = 0
            previous = current
            if index + 1 >= min_frames and stable >= 2:
                break
        assert current is not None, "max_settle_frames must be at least 1"
        self._cam.set_controls(current.as_controls())
        return current

    def frame(self) -> np.ndarray:
        if self._closed:
            raise CameraError(f"{self.name} is closed")
        array = self._cam.capture_array("main")
        if array.ndim == 3 and array.shape[2] == 4:  # XRGB8888 on some set-ups: drop the padding
            array = array[:, :, :3]
        return np.ascontiguousarray(array)

    def close(self) -> None:
        if getattr(self, "_closed", True):
            return
        self._closed = True
        self._close_quietly()

    def _close_quietly(self) -> None:
        for method in ("stop", "close"):
            try:
                getattr(self._cam, method)()
            except Exception:  # closing a half-started camera must not hide the real error
                pass


def _sensor_size(cam: Any) -> tuple[int, int]:
    size = getattr(cam, "sensor_resolution", None)
    if size is None:
        size = cam.camera_properties["PixelArraySize"]
    return int(size[0]), int(size[1])


def _exposure_from_metadata(metadata: dict[str, Any]) -> LockedExposure:
    try:
        red, blue = metadata["ColourGains"]
        return LockedExposure(
            exposure_time_us=int(metadata["ExposureTime"]),
            analogue_gain=float(metadata["AnalogueGain"]),
            colour_gains=(float(red), float(blue)),
        )
    except KeyError as error:
        raise CameraError(f"the Pi camera reported no {error.args[0]} in its frame metadata") from error


def _close(a: LockedExposure, b: LockedExposure, tolerance: float) -> bool:
    pairs = [
        (a.exposure_time_us, b.exposure_time_us),
        (a.analogue_gain, b.analogue_gain),
        (a.colour_gains[0], b.colour_gains[0]),
        (a.colour_gains[1], b.colour_gains[1]),
    ]
    return all(abs(x - y) <= tolerance * max(abs(x), abs(y), 1e-9) for x, y in pairs)


# --- Any camera OpenCV can open (USB webcam, laptop camera) --------------------------------------


class OpenCVCamera(_ClosesOnExit):
    """A camera by `cv2.VideoCapture` index: a USB webcam on a Pi or a laptop's own camera."""

    def __init__(self, index: int, size: tuple[int, int] | None = (1920, 1080)) -> None:
        self._capture = cv2.VideoCapture(index)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"cannot open camera {index}: no such device, or it is in use")
        if size is not None:
            # A request, not a promise: the driver picks its nearest mode.
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.name = f"camera {index}"
        self._closed = False

    def frame(self) -> np.ndarray:
        if self._closed:
            raise CameraError(f"{self.name} is closed")
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraError(f"{self.name} gave no frame (unplugged?)")
        return image

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._capture.release()


# --- A folder of images: the simplest demo camera -------------------------------------------------


def _natural_key(path: Path) -> list[object]:
    """Sort key that puts frame_2 before frame_10."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", str(path))]


class FolderCamera(_ClosesOnExit):
    """The images of a folder (sorted by name, numbers in natural order), one per `frame()` call.

    With `loop=True` it starts again after the last image; otherwise it raises `EndOfFrames`.
    `recursive=True` also takes images from sub-folders. `interval` (seconds) paces the frames
    like a real camera would; 0 serves them as fast as asked.
    """

    def __init__(self, path: str | Path, loop: bool = True, *, recursive: bool = False, interval: float = 0.0) -> None:
        folder = Path(path)
        if not folder.is_dir():
            raise CameraError(f"no image folder at {folder}")
        pattern = "**/*" if recursive else "*"
        self.paths = tuple(
            sorted((p for p in folder.glob(pattern) if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()), key=_natural_key)
        )
        if not self.paths:
            raise CameraError(f"no images (.png, .jpg) in {folder}")
        self.loop = loop
        self.interval = interval
        self.name = f"folder {folder} ({len(self.paths)} images{', looping' if loop else ''})"
        self._next = 0
        self._last_time: float | None = None
        self._closed = False

    def frame(self) -> np.ndarray:
        if self._closed:
            raise CameraError(f"{self.name} is closed")
        if self._next >= len(self.paths):
            if not self.loop:
                raise EndOfFrames(f"{self.name}: no more images")
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        self._pace()
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"cannot read image {path}")
        return image

    def _pace(self) -> None:
        if self.interval > 0 and self._last_time is not None:
            wait = self._last_time + self.interval - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        self._last_time = time.monotonic()

    def close(self) -> None:
        self._closed = True


# --- From the command line's --camera option ------------------------------------------------------

SOURCES_HELP = "pi, none, demo, a camera index such as 0, or a folder of images"


def demo_image_folders() -> tuple[Path, ...]:
    """Where the default demo camera looks for images: the package's demo folder, then the repo's fixtures."""
    package = Path(__file__).resolve().parent
    return (package / "demo", package.parent / "fixtures" / "images")


def open_camera(
    source: str,
    *,
    size: tuple[int, int] | None = None,
    demo_factory: Callable[[], Camera] | None = None,
) -> Camera | None:
    """Open the camera named by `source`; None for "none" (play without a camera).

    - "pi": the Raspberry Pi camera module (`PiCamera`), at `size` or the full sensor resolution;
    - "0", "1", …: an OpenCV camera index (`OpenCVCamera`), at `size` or 1920×1080;
    - "demo": `demo_factory()` when given (the companion plugs in frames rendered from the game),
      else the images of `demo_image_folders()` replayed in a loop;
    - a folder path: its images replayed in a loop (`FolderCamera`).
    """
    text = source.strip()
    key = text.lower()
    if key in ("none", ""):
        return None
    if key == "pi":
        return PiCamera(size)
    if re.fullmatch(r"\d+", key):
        return OpenCVCamera(int(key), size if size is not None else (1920, 1080))
    if key == "demo":
        if demo_factory is not None:
            return demo_factory()
        for folder in demo_image_folders():
            if folder.is_dir() and any(p.suffix.lower() in IMAGE_SUFFIXES for p in folder.rglob("*")):
                return FolderCamera(folder, loop=True, recursive=True, interval=0.25)
        raise CameraError("no demo images found in " + " or ".join(str(f) for f in demo_image_folders()))
    if Path(text).expanduser().is_dir():
        return FolderCamera(Path(text).expanduser(), loop=True)
    raise CameraError(f"unknown camera source {source!r}: use {SOURCES_HELP}")
