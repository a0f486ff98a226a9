"""The settled-dice trigger: decides from a stream of frames when a roll can be read.

Nobody presses a button after rolling: the companion watches the table and reads the frame once the
dice have stopped and hands are out of the way. Frames are shrunk to a small blurred colour image
(sensor noise and JPEG blocking vanish in the blur), and each is compared with the one before.
Many changed pixels mean motion. A scene still for `still_frames` frames *and* `still_seconds`
seconds counts as settled — but the trigger fires only when that still scene differs from the last
one it fired on (or from the scene it started on), so an idle table never fires twice.

A hand held still over the table moves no pixels; a large skin-coloured region that was not in the
reference scene and touches the frame's edge (an arm reaches in from a side) counts as a hand and
holds the trigger back. Timestamps are inputs, never read from a clock, so tests can drive it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np


class SettleState(Enum):
    """What the table is doing, frame by frame."""

    MOVING = "moving"  # dice rolling, or a hand in view
    SETTLING = "settling"  # still, and different from the last capture, but not still long enough yet
    SETTLED = "settled"  # fire: read this frame (given once per roll)
    IDLE = "idle"  # still, and nothing new since the last capture


@dataclass(frozen=True)
class SettleConfig:
    """Tuning of the trigger; fractions are of the working image's pixels.

    At 320 px wide a die seen from 60–80 cm is about 10–15 px across (~0.2 % of the picture), so
    one die landing or leaving is well above `scene_change_fraction`.
    """

    width: int = 320
    blur_kernel: int = 5
    pixel_threshold: int = 22  # levels of any colour channel; blurred sensor noise stays far below
    motion_fraction: float = 0.0008  # changed pixels between consecutive frames that mean "moving"
    scene_change_fraction: float = 0.0008  # changed pixels vs the last capture that mean "new roll"
    still_frames: int = 3
    still_seconds: float = 0.8
    detect_hands: bool = True
    hand_fraction: float = 0.02  # a hand from above covers far more than a few dice
    hand_patience_seconds: float = 3.0  # still skin longer than this is scenery (a resting forearm)
    fire_on_first_scene: bool = False  # fire for the scene seen at start-up when nothing moved?


@dataclass(frozen=True)
class SettleReport:
    """The last frame's measurements, for a status line or for tuning."""

    state: SettleState
    motion: float  # fraction of pixels changed since the previous frame
    scene_change: float  # fraction of pixels changed since the last capture
    hand: bool
    still_for: float  # seconds the scene has been still (0 while moving)


class SettleDetector:
    """Feed frames with `update(frame, timestamp)`; it answers a `SettleState` per frame.

    `SETTLED` is answered for exactly one frame per roll: the frame to read.
    """

    def __init__(self, config: SettleConfig | None = None) -> None:
        self.config = config or SettleConfig()
        self._previous: np.ndarray | None = None
        self._reference: np.ndarray | None = None  # the scene last fired on (or the first scene)
        self._still_since = 0.0  # timestamp of the frame since which nothing moved
        self._still_count = 0  # still frames seen since then
        self._fired_this_stillness = False
        self._skin_since: float | None = None
        self.last = SettleReport(SettleState.IDLE, 0.0, 0.0, False, 0.0)

    def reset(self) -> None:
        """Forget everything (e.g. after the camera was moved): the next scene becomes the reference."""
        self.__init__(self.config)

    def mark_captured(self, frame: np.ndarray) -> None:
        """Take `frame` as the last captured scene, e.g. after a roll was read on request: the
        trigger will not fire for that same scene again."""
        self._reference = self._prepare(frame)
        self._fired_this_stillness = True

    def update(self, frame: np.ndarray, timestamp: float) -> SettleState:
        """Take the next frame (BGR) seen at `timestamp` seconds; answer what the table is doing."""
        config = self.config
        image = self._prepare(frame)
        first = self._previous is None or self._previous.shape != image.shape
        if first:
            motion = 0.0
            stale = self._reference is not None and self._reference.shape != image.shape
            if self._reference is None or stale:
                self._reference = None if config.fire_on_first_scene else image
        else:
            motion = _changed_fraction(image, self._previous, config.pixel_threshold)
        self._previous = image
        hand = not first and config.detect_hands and self._hand_in_view(image, timestamp)
        change = self._scene_change(image)

        if first or motion > config.motion_fraction or hand:
            # The scene is as it is now since this frame; stillness is counted from here.
            self._still_since, self._still_count = timestamp, 0
        else:
            self._still_count += 1
        if not first and (motion > config.motion_fraction or hand):
            self._fired_this_stillness = False
            state = SettleState.MOVING
        else:
            state = self._state_when_still(image, change, timestamp)
        still_for = 0.0 if state is SettleState.MOVING else timestamp - self._still_since
        self.last = SettleReport(state, motion, change, hand, still_for)
        return state

    def _state_when_still(self, image: np.ndarray, change: float, timestamp: float) -> SettleState:
        config = self.config
        # Fire at most once per stillness, so slow light drift on an idle table cannot re-fire.
        if self._fired_this_stillness or change <= config.scene_change_fraction:
            return SettleState.IDLE
        still_long_enough = (
            self._still_count >= config.still_frames and timestamp - self._still_since >= config.still_seconds
        )
        if not still_long_enough:
            return SettleState.SETTLING
        self._fired_this_stillness = True
        self._reference = image
        return SettleState.SETTLED

    def _scene_change(self, image: np.ndarray) -> float:
        if self._reference is None:
            return 1.0
        return _changed_fraction(image, self._reference, self.config.pixel_threshold)

    def _hand_in_view(self, image: np.ndarray, timestamp: float) -> bool:
        """A large skin-coloured region, new since the reference scene, that touches the frame edge."""
        config = self.config
        ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
        # Skin tones of all complexions fall in this Cr/Cb box; saturated red dice have a higher Cr.
        skin = cv2.inRange(ycrcb, (40, 135, 80), (240, 175, 130))
        if self._reference is not None:
            new = _changed(image, self._reference, config.pixel_threshold)
            skin = np.where(new, skin, 0).astype(np.uint8)
        count, _labels, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
        height, width = skin.shape
        min_area = config.hand_fraction * height * width
        found = False
        for label in range(1, count):
            x, y, w, h, area = stats[label]
            touches_edge = x == 0 or y == 0 or x + w >= width or y + h >= height
            if area >= min_area and touches_edge:
                found = True
                break
        if not found:
            self._skin_since = None
            return False
        if self._skin_since is None:
            self._skin_since = timestamp
        return timestamp - self._skin_since <= config.hand_patience_seconds

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        """The frame shrunk to `config.width` and blurred: small enough to be quick, blurred to drown noise."""
        config = self.config
        height, width = frame.shape[:2]
        size = (config.width, max(1, round(height * config.width / float(width))))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        if small.ndim == 2:
            small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
        kernel = config.blur_kernel | 1
        return cv2.GaussianBlur(small, (kernel, kernel), 0)


def _changed(a: np.ndarray, b: np.ndarray, threshold: int) -> np.ndarray:
    """Pixels whose colour changed by more than `threshold` in any channel.

    Colour, not gray: a red or blue die on green cloth can have the cloth's brightness exactly.
    """
    return cv2.absdiff(a, b).max(axis=2) > threshold


def _changed_fraction(a: np.ndarray, b: np.ndarray, threshold: int) -> float:
    changed = _changed(a, b, threshold)
    return float(np.count_nonzero(changed)) / changed.size
