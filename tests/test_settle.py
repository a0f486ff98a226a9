"""The settled-dice trigger on generated frame sequences: rolling dice, a passing hand, sensor noise."""

from __future__ import annotations


import cv2
import numpy as np
import pytest

from vision.settle import SettleConfig, SettleDetector, SettleState

WIDTH, HEIGHT = 640, 360
FELT = (40, 100, 40)  # BGR green cloth
WOOD = (60, 120, 180)  # BGR wooden table: skin-like colours, must not read as a hand
LIGHT_SKIN = (140, 170, 220)
DARK_SKIN = (60, 90, 140)
DICE = [((235, 235, 235), (200, 120)), ((40, 40, 200), (330, 200)), ((200, 80, 30), (450, 150))]
STEP = 0.25  # seconds between frames: the owner grabs at 4 fps


def _table(color: tuple[int, int, int], seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    table = np.empty((HEIGHT, WIDTH, 3), np.uint8)
    table[:] = color
    grain = rng.normal(0, 6, (HEIGHT // 8, WIDTH // 8, 1))  # fixed texture of the cloth or wood
    texture = cv2.resize(grain, (WIDTH, HEIGHT), interpolation=cv2.INTER_CUBIC)[:, :, None]
    return np.clip(table + texture, 0, 255).astype(np.uint8)


def _draw_die(image: np.ndarray, color, center, angle: float, side: float = 30.0) -> None:
    box = cv2.boxPoints(((float(center[0]), float(center[1])), (side, side), angle)).astype(np.int32)
    cv2.fillPoly(image, [box], color)
    cv2.circle(image, (int(center[0]), int(center[1])), 5, (20, 20, 20), -1)  # the engraved symbol


def _draw_hand(image: np.ndarray, skin, tip: tuple[int, int]) -> None:
    """A hand (ellipse) on an arm that reaches in from the bottom edge."""
    x, y = tip
    cv2.rectangle(image, (x - 35, y + 40), (x + 35, HEIGHT), skin, -1)
    cv2.ellipse(image, (x, y + 20), (55, 70), 0, 0, 360, skin, -1)


# Sensor noise fields (sigma 4 gray levels), made once: drawing fresh noise for every frame is slow.
_NOISE = np.random.default_rng(0).normal(0, 4, (6, HEIGHT, WIDTH, 3)).round().astype(np.int16)


def _camera_noise(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise, then JPEG compression, as a real camera frame through the web would have."""
    noise = _NOISE[rng.integers(len(_NOISE))]
    noisy = np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 75])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _scene(background, dice, hand=None, skin=LIGHT_SKIN) -> np.ndarray:
    image = background.copy()
    for color, center, angle in dice:
        _draw_die(image, color, center, angle)
    if hand is not None:
        _draw_hand(image, skin, hand)
    return image


def roll(background, rng, *, dice=DICE, idle_before=6, hand_still=4, settle_frames=12, skin=LIGHT_SKIN):
    """(phase, frame) pairs: idle table, a hand throwing dice that tumble in, the hand held still over
    the landed dice, the hand leaving, then the still scene."""
    frames: list[tuple[str, np.ndarray]] = []
    for _ in range(idle_before):
        frames.append(("idle", _scene(background, [])))
    # The hand comes in from the bottom edge and throws.
    for step in range(3):
        frames.append(("moving", _scene(background, [], hand=(300, 260 - 50 * step), skin=skin)))
    # The dice tumble from the bottom towards where they will lie, turning as they go.
    for step in range(6):
        progress = (step + 1) / 7
        tumbling = []
        for index, (color, (fx, fy)) in enumerate(DICE[: len(dice)]):
            x = fx + (1 - progress) * (40 - 30 * index)
            y = fy + (1 - progress) * 150
            tumbling.append((color, (x, y), 40 * step + 25 * index))
        frames.append(("moving", _scene(background, tumbling)))
    landed = [(color, center, 10.0 * index) for index, (color, center) in enumerate(dice)]
    # The player's hand lingers, still, in view above the landed dice (enters first: that moves).
    frames.append(("moving", _scene(background, landed, hand=(560, 230), skin=skin)))
    for _ in range(hand_still):
        frames.append(("hand", _scene(background, landed, hand=(560, 230), skin=skin)))
    frames.append(("moving", _scene(background, landed)))  # the hand leaves
    for _ in range(settle_frames):
        frames.append(("still", _scene(background, landed)))
    return [(phase, _camera_noise(frame, rng)) for phase, frame in frames]


def _run(detector: SettleDetector, frames, start: float = 0.0):
    states = []
    for index, (phase, frame) in enumerate(frames):
        states.append((phase, detector.update(frame, start + index * STEP)))
    return states


@pytest.mark.parametrize("background", [FELT, WOOD], ids=["felt", "wood"])
@pytest.mark.parametrize("skin", [LIGHT_SKIN, DARK_SKIN], ids=["light-skin", "dark-skin"])
def test_fires_once_after_the_dice_settle_and_the_hand_is_gone(background, skin) -> None:
    rng = np.random.default_rng(1)
    detector = SettleDetector()
    states = _run(detector, roll(_table(background), rng, skin=skin))

    for phase, state in states:
        if phase == "idle":
            assert state is SettleState.IDLE, "an idle table with sensor noise is not motion"
        if phase in ("moving", "hand"):
            assert state is SettleState.MOVING, f"{phase} frame judged {state}"
    fired = [index for index, (_, state) in enumerate(states) if state is SettleState.SETTLED]
    assert len(fired) == 1
    still = [index for index, (phase, _) in enumerate(states) if phase == "still"]
    # Fires once still for 0.8 s (4 frames at 4 fps after the first still one), not before.
    assert fired[0] == still[0] + 3
    assert [state for _, state in states[still[0] : fired[0]]] == [SettleState.SETTLING] * 3
    assert all(state is SettleState.IDLE for _, state in states[fired[0] + 1 :])


def test_idle_table_never_fires_again_after_a_roll() -> None:
    rng = np.random.default_rng(2)
    background = _table(FELT)
    detector = SettleDetector()
    states = _run(detector, roll(background, rng))
    assert [state for _, state in states].count(SettleState.SETTLED) == 1
    idle = [("still", _camera_noise(_scene(background, [(c, p, 10.0 * i) for i, (c, p) in enumerate(DICE)]), rng)) for _ in range(40)]
    later = _run(detector, idle, start=100.0)
    assert {state for _, state in later} == {SettleState.IDLE}
    assert detector.last.motion < detector.config.motion_fraction


def test_a_second_roll_fires_again_and_a_hand_passing_over_the_same_dice_does_not() -> None:
    rng = np.random.default_rng(3)
    background = _table(FELT)
    detector = SettleDetector()
    first = _run(detector, roll(background, rng))
    assert [s for _, s in first].count(SettleState.SETTLED) == 1

    # A hand sweeps over the table and leaves everything as it was: no new roll to read.
    landed = [(c, p, 10.0 * i) for i, (c, p) in enumerate(DICE)]
    sweep = [("moving", _camera_noise(_scene(background, landed, hand=(100 + 120 * k, 200)), rng)) for k in range(4)]
    sweep += [("still", _camera_noise(_scene(background, landed), rng)) for _ in range(10)]
    states = _run(detector, sweep, start=50.0)
    assert SettleState.SETTLED not in [s for _, s in states]

    # Only two dice this time (one die left the stash): a new scene, so it fires once more.
    second = _run(detector, roll(background, rng, dice=DICE[:2], idle_before=0), start=80.0)
    assert [s for _, s in second].count(SettleState.SETTLED) == 1


def test_a_die_moved_by_one_die_width_is_a_new_scene() -> None:
    rng = np.random.default_rng(4)
    background = _table(FELT)
    detector = SettleDetector()
    _run(detector, roll(background, rng))
    nudged = [(c, (p[0] + 30, p[1]) if i == 0 else p, 10.0 * i) for i, (c, p) in enumerate(DICE)]
    frames = [("still", _camera_noise(_scene(background, nudged), rng)) for _ in range(8)]
    states = [s for _, s in _run(detector, frames, start=60.0)]
    assert states[0] is SettleState.MOVING  # the nudge itself
    assert states.count(SettleState.SETTLED) == 1


def test_short_stillness_is_not_enough() -> None:
    """A pause of two frames in mid-roll (dice bounced to a stop, then pushed on) does not fire."""
    rng = np.random.default_rng(5)
    background = _table(FELT)
    detector = SettleDetector()
    pause = _scene(background, [(DICE[0][0], (100, 300), 0.0)])
    frames = [("idle", _scene(background, []))] + [("pause", pause)] * 3 + [("moved", _scene(background, [(DICE[0][0], (140, 280), 30.0)]))]
    states = [s for _, s in _run(detector, [(p, _camera_noise(f, rng)) for p, f in frames])]
    assert SettleState.SETTLED not in states
    assert states[-1] is SettleState.MOVING


def test_still_seconds_counts_time_not_only_frames() -> None:
    """With frames arriving fast, 3 still frames in 0.2 s are not yet settled; 0.8 s later they are."""
    rng = np.random.default_rng(6)
    background = _table(FELT)
    detector = SettleDetector(SettleConfig(still_frames=3, still_seconds=0.8))
    detector.update(_camera_noise(background, rng), 0.0)
    landed = _scene(background, [(DICE[1][0], DICE[1][1], 0.0)])
    assert detector.update(_camera_noise(landed, rng), 0.1) is SettleState.MOVING
    times = [0.15, 0.2, 0.25, 0.3, 0.6, 0.96]
    states = [detector.update(_camera_noise(landed, rng), t) for t in times]
    assert states == [SettleState.SETTLING] * 5 + [SettleState.SETTLED]


def test_fire_on_first_scene_reads_the_table_found_at_start_up() -> None:
    rng = np.random.default_rng(8)
    landed = _scene(_table(FELT), [(c, p, 0.0) for c, p in DICE])
    quiet = SettleDetector()
    eager = SettleDetector(SettleConfig(fire_on_first_scene=True))
    quiet_states = [quiet.update(_camera_noise(landed, rng), i * STEP) for i in range(8)]
    eager_states = [eager.update(_camera_noise(landed, rng), i * STEP) for i in range(8)]
    assert SettleState.SETTLED not in quiet_states
    assert eager_states.count(SettleState.SETTLED) == 1


def test_a_forearm_resting_in_view_stops_blocking_after_the_patience() -> None:
    """Still skin at the edge is a hand for a while, then scenery, so a resting arm cannot block forever."""
    rng = np.random.default_rng(9)
    background = _table(FELT)
    detector = SettleDetector(SettleConfig(hand_patience_seconds=2.0))
    detector.update(_camera_noise(background, rng), 0.0)
    arm = _scene(background, [(DICE[0][0], DICE[0][1], 0.0)], hand=(560, 230))
    states = [detector.update(_camera_noise(arm, rng), 0.25 * (i + 1)) for i in range(20)]
    assert states[:8] == [SettleState.MOVING] * 8  # still hand within 2 s: held back
    assert states.count(SettleState.SETTLED) == 1


def test_frame_size_change_restarts_cleanly() -> None:
    rng = np.random.default_rng(10)
    detector = SettleDetector()
    small = cv2.resize(_table(FELT), (320, 240))
    for i in range(3):
        detector.update(_camera_noise(_table(FELT), rng), i * STEP)
    assert detector.update(small, 1.0) in (SettleState.IDLE, SettleState.SETTLING)
    assert detector.update(small, 1.25) in (SettleState.IDLE, SettleState.SETTLING)


# --- On the scene renderer's roll sequences (dice tumbling in, a hand passing, still frames) -------


def _rendered_roll(seed: int, hand_resting: bool, n_frames: int = 20, extra_still: int = 0):
    """3 frames of the empty table, then `roll_sequence(n_frames)`, then `extra_still` still frames."""
    import dataclasses

    from vision.render import random_scene, render, roll_sequence

    scene = random_scene(seed, width=512, height=384, hand=hand_resting)
    frames = roll_sequence(scene, n_frames, seed)
    frames += [render(dataclasses.replace(scene, noise_seed=1000 + k))[0] for k in range(extra_still)]
    empty = render(dataclasses.replace(scene, dice=(), hand=None))[0]
    return [empty] * 3 + frames


@pytest.mark.parametrize("seed", [5])
def test_rendered_roll_fires_once_when_still_and_never_while_dice_or_hand_move(seed: int) -> None:
    frames = _rendered_roll(seed, hand_resting=False)
    detector = SettleDetector()
    states = [detector.update(frame, index * STEP) for index, frame in enumerate(frames)]
    # 3 empty-table frames, then roll_sequence(n=20): 8 tumbling frames, 6 with a hand passing and
    # 6 still ones, the first of which still differs from the last hand frame.
    assert states[:3] == [SettleState.IDLE] * 3
    assert states[3:18] == [SettleState.MOVING] * 15
    assert states[18:] == [SettleState.SETTLING] * 3 + [SettleState.SETTLED, SettleState.IDLE]


def test_rendered_hand_resting_in_view_holds_the_trigger_back() -> None:
    # roll_sequence(n=10): 4 tumbling frames (3-6), 3 with a hand passing (7-9), then still frames
    # (10-) of a scene in which a hand rests in view, away from the dice.
    frames = _rendered_roll(0, hand_resting=True, n_frames=10, extra_still=8)
    detector = SettleDetector(SettleConfig(hand_patience_seconds=1.5))
    states, hands = [], []
    for index, frame in enumerate(frames):
        states.append(detector.update(frame, index * STEP))
        hands.append(detector.last.hand)
    assert all(states[i] is SettleState.MOVING and hands[i] for i in (11, 12))  # nothing moves: the hand holds it
    assert states.count(SettleState.SETTLED) == 1  # fires once the patience for a resting hand is over
    assert states.index(SettleState.SETTLED) >= 13 + 3


def test_mark_captured_keeps_the_trigger_from_firing_on_a_scene_already_read() -> None:
    rng = np.random.default_rng(11)
    background = _table(FELT)
    landed = _scene(background, [(c, p, 0.0) for c, p in DICE])
    detector = SettleDetector()
    detector.update(_camera_noise(background, rng), 0.0)
    assert detector.update(_camera_noise(landed, rng), 0.25) is SettleState.MOVING
    assert detector.update(_camera_noise(landed, rng), 0.5) is SettleState.SETTLING
    detector.mark_captured(landed)  # read on request before the trigger fired
    later = [detector.update(_camera_noise(landed, rng), 0.75 + i * STEP) for i in range(8)]
    assert set(later) == {SettleState.IDLE}
