"""A die's outline steps on all four sides; a patch of table, a finger or a palm does not (see
`vision.outline`), and the reader's die-or-not model weighs it. A die read twice, on two
faces, is one die asked of the player (see `vision.reader._one_per_place`). A face's angle is its edges'."""

from __future__ import annotations

import dataclasses
import glob
import math

import cv2
import numpy as np

from vision.labels import load_labelled
from vision.outline import PAST_DIE, edges_past_face, side_steps
from vision.reader import NULL_SYMBOL_CONFIDENCE, TWO_FACES_SEEN, Die, _one_per_place, read_frame
from vision.render import random_scene, render
from vision.symbols import FACE_PX, WINDOW_PX, face_angle, face_window

from vision_support import FIXTURES, read_and_score, taught, taught_on_renders


def _bare_table_spots(labels: dict, width: int, height: int, count: int) -> list[tuple[float, float]]:
    rng = np.random.default_rng(0)
    spots: list[tuple[float, float]] = []
    while len(spots) < count:
        spot = (float(rng.uniform(100, width - 100)), float(rng.uniform(100, height - 100)))
        if all(math.dist(spot, d["center"]) > 2.0 * d["size"] for d in labels["dice"]):
            spots.append(spot)
    return spots


def test_photo_like_dice_step_on_every_side_and_the_bare_table_does_not() -> None:
    for path in sorted(glob.glob(str(FIXTURES / "photoreal-c" / "test" / "*.jpg"))):
        image, labels = load_labelled(path)
        flat = [d for d in labels["dice"] if d["symbol"] is not None]
        dice = [side_steps(image, d["center"], d["size"], face_angle(image, d["center"], d["size"])) for d in flat]
        size = float(np.median([d["size"] for d in flat]))
        table = [side_steps(image, spot, size, face_angle(image, spot, size))
                 for spot in _bare_table_spots(labels, image.shape[1], image.shape[0], 20)]
        assert all(len(steps) == 4 and np.all(np.diff(steps) >= 0) for steps in dice)  # weakest first
        # The second weakest side: a die touching another on one side still steps on three.
        weakest_die = min(float(steps[1]) for steps in dice)
        assert weakest_die > 100.0, (path, weakest_die)
        assert float(np.median([steps[1] for steps in table])) < 0.2 * weakest_die, path


def test_a_bar_steps_on_two_sides_only() -> None:
    # A finger, a printed line: a pale bar across grey cloth, along the face's x axis.
    frame = np.full((200, 200, 3), 90, np.uint8)
    frame[80:120, :] = 230
    steps = side_steps(frame, (100.0, 100.0), 40.0, 0.0)
    assert steps[1] < 10.0 < 100.0 < steps[2], steps  # the bar steps by 140 in lightness
    square = np.full((200, 200, 3), 90, np.uint8)
    square[80:120, 80:120] = 230
    assert side_steps(square, (100.0, 100.0), 40.0, 0.0)[0] > 100.0


def test_a_cocked_die_s_outline_runs_on_past_its_face_toward_its_second_face_only() -> None:
    # Seen from above, a die leaning on an edge: its nearer face (lit, 40 px square) and, below
    # it across the ridge, its second face (in shade, 30 px tall) on grey cloth; and a flat die.
    frame = np.full((300, 400, 3), 90, np.uint8)
    frame[80:120, 80:120] = 230
    frame[120:150, 80:120] = 170
    frame[80:120, 280:320] = 230
    cocked = {way: strength for way, strength in edges_past_face(frame, (100.0, 100.0), 40.0, 0.0)}
    assert cocked[(0.0, 1.0)] > 0.5, cocked  # down the frame, over the second face: 80 / 140
    assert all(strength < 0.1 for way, strength in cocked.items() if way != (0.0, 1.0)), cocked
    flat = edges_past_face(frame, (300.0, 100.0), 40.0, 0.0)
    assert all(strength < 0.1 for _, strength in flat), flat
    assert sorted(way for way, _ in flat) == [(-1.0, 0.0), (0.0, -1.0), (0.0, 1.0), (1.0, 0.0)]


def test_past_any_die_a_cocked_die_s_outline_has_ended_where_a_finger_s_runs_on() -> None:
    # A cocked die as above, its second face 24 px tall (reaching 1.1 sides from the middle of
    # the face read), and a finger (a light strip a face wide, 5 faces long) from its tip.
    frame = np.full((400, 500, 3), 90, np.uint8)
    frame[80:120, 80:120] = 230
    frame[120:144, 80:120] = 170
    frame[200:240, 280:480] = 230
    cocked = edges_past_face(frame, (100.0, 100.0), 40.0, 0.0, PAST_DIE)
    assert all(strength < 0.1 for _, strength in cocked), cocked
    finger = dict(edges_past_face(frame, (300.0, 220.0), 40.0, 0.0, PAST_DIE))
    # Its two sides run on to the right as strongly as along the tip; the other ways, nothing.
    assert finger[(1.0, 0.0)] > 0.9, finger
    assert all(strength < 0.1 for way, strength in finger.items() if way != (1.0, 0.0)), finger


def test_a_face_foreshortened_across_fills_a_window_read_across_as_a_square_one_does() -> None:
    # A 40 px face seen aslant, 24 px across (0.6 of a side), turned 90 degrees in the frame.
    frame = np.zeros((200, 200, 3), np.uint8)
    frame[88:112, 80:120] = 255
    square = np.zeros((200, 200, 3), np.uint8)
    square[80:120, 80:120] = 255
    upright = face_window(square, (100.0, 100.0), 40.0, 0.0)[..., 0] > 128
    across = face_window(frame, (100.0, 100.0), 40.0, 90.0, across=0.6)[..., 0] > 128
    assert upright.sum() == across.sum() and abs(int(upright.sum()) - FACE_PX ** 2) <= 2 * FACE_PX
    aslant = face_window(frame, (100.0, 100.0), 40.0, 90.0)[..., 0] > 128
    assert abs(int(aslant.sum()) - 0.6 * int(upright.sum())) <= 2 * FACE_PX
    assert aslant[:, WINDOW_PX // 2].sum() > aslant[WINDOW_PX // 2].sum()  # turned: narrow across


def test_a_pale_palm_is_not_a_white_die() -> None:
    # A hand reaches over dark blue felt: its palm is white-die colored, die-sized where the
    # fingers join it and fills a face window, but has no die's edge on all four sides.
    image, labels = load_labelled(str(FIXTURES / "line" / "test" / "line_test_0005.jpg"))
    score = read_and_score(taught("line"), [(image, labels)])
    assert score.phantoms == 0 and score.missed == 0, score


def _read_scene(style: str, seed: int) -> tuple[dict, list[Die]]:
    image, labels = render(random_scene(seed, style=style))
    return labels, read_frame(image, taught_on_renders(style))


def _die(x: float, symbol: str | None, confidence: float, size: float = 80.0) -> Die:
    return Die("red", symbol, (x, 100.0), size, confidence)


def test_a_die_read_on_two_faces_is_one_die_asked_of_the_player() -> None:
    face = _die(100.0, "gun", 0.9)
    second_face = _die(100.0 + 0.8 * 80.0, None, NULL_SYMBOL_CONFIDENCE)
    kept = _one_per_place([(0.9, face, face.center), (0.0, second_face, second_face.center)])
    # Either face may be the top one, which the die's label names: it is reported midway.
    assert kept == [Die("red", "gun", (132.0, 100.0), 80.0, NULL_SYMBOL_CONFIDENCE)]


def _read_around_cocked_cube(seed: int, near: tuple[float, float]) -> tuple[dict, list[Die], list[Die]]:
    """Classic scene `seed` with cocked dice drawn as cubes, read as the benchmark's `--cocked-3d`
    run reads it: the label nearest `near`, the dice read on it (within half its side, as the
    spec matches) and those read beside it (within a side, but not on it)."""
    image, labels = render(random_scene(seed, style="classic", cocked_3d=True))
    dice = read_frame(image, taught_on_renders("classic", cocked_3d=True))
    label = min(labels["dice"], key=lambda d: math.dist(d["center"], near))
    apart = [(math.dist(d.center, label["center"]), d) for d in dice]
    on = [d for distance, d in apart if distance <= label["size"] / 2]
    beside = [d for distance, d in apart if label["size"] / 2 < distance < label["size"]]
    return label, on, beside


def test_a_cocked_cube_read_on_its_other_face_is_reported_on_its_top_one() -> None:
    # Classic scene 45, cocked dice drawn as cubes: a red die leaning 45 degrees, whose side
    # face matched a finger best and whose top face was read too. Reported at the side face, it
    # lay 0.74 of a side from its label: missed, and a phantom beside it.
    label, on, beside = _read_around_cocked_cube(45, (1218.2, 888.7))
    assert label["symbol"] is None
    assert [(d.color, d.confidence < 0.5) for d in on] == [("red", True)]
    assert not beside


def test_a_cocked_cube_whose_one_face_was_matched_is_reported_between_its_faces() -> None:
    # Classic scene 138, cocked dice drawn as cubes: a red die leaning 39 degrees, seen but not
    # read on its side face. Reported halfway to its blob, which holds mostly that face, it lay
    # more than half a side from its label on the top face: missed, and a phantom beside it.
    # Its two faces seen, it is surely cocked: unread, but not doubtful (a die to roll again).
    label, on, beside = _read_around_cocked_cube(138, (507.2, 556.1))
    assert label["symbol"] is None
    assert [(d.color, d.symbol, d.confidence) for d in on] == [("red", None, TWO_FACES_SEEN)]
    assert not beside


def test_a_die_surely_cocked_is_a_second_face_only_where_it_is_reported() -> None:
    # Its face matched leans toward a flat die of its color (0.8 of a side off), but the cocked
    # die lies farther out, where it is reported: two dice, each as read.
    face = _die(100.0, "gun", 0.9)
    cocked = _die(100.0 + 0.8 * 80.0, None, 0.9)
    middle = (cocked.center[0] + 0.3 * 80.0, cocked.center[1])
    assert _one_per_place([(0.9, face, face.center), (0.7, cocked, middle)]) == [
        face, dataclasses.replace(cocked, center=middle)]
    # Reported there too, it is the flat die's second face: one die, asked of the player.
    between = Die("red", "gun", (132.0, 100.0), 80.0, NULL_SYMBOL_CONFIDENCE)
    assert _one_per_place([(0.9, face, face.center), (0.7, cocked, cocked.center)]) == [between]
    # A die merely unread is compared where its face was read, as before.
    unread = dataclasses.replace(cocked, confidence=NULL_SYMBOL_CONFIDENCE)
    assert _one_per_place([(0.9, face, face.center), (0.0, unread, middle)]) == [between]


def test_a_cocked_die_leaning_toward_a_die_of_its_color_is_read_on_a_frame() -> None:
    # Bold scene 180: a red die cocked beside a red gun, their middles 1.24 sides apart. The face
    # matched on the cocked die leans toward the gun's; taken for its second face, the cocked die
    # was missed and the gun asked about.
    labels, dice = _read_scene("bold", 180)
    for at, expected in (((1168.5, 946.7), ("red", None, True)), ((1199.9, 1026.5), ("red", "gun", True))):
        label = min(labels["dice"], key=lambda d: math.dist(d["center"], at))
        on = [(d.color, d.symbol, d.confidence >= 0.5) for d in dice
              if math.dist(d.center, label["center"]) <= label["size"] / 2]
        assert on == [expected]


def test_touching_dice_stay_two_dice() -> None:
    left, right = _die(100.0, "gun", 0.9), _die(100.0 + 1.0 * 80.0, "gavel", 0.45)
    assert _one_per_place([(0.9, left, left.center), (0.7, right, right.center)]) == [left, right]
    # Even when one of them cannot be read, a face of a die lies a whole side from the next one.
    unread = _die(100.0 + 1.0 * 80.0, None, NULL_SYMBOL_CONFIDENCE)
    assert _one_per_place([(0.9, left, left.center), (0.0, unread, unread.center)]) == [left, unread]
    # Places are compared where the faces were read, and a die is reported where it was asked
    # to be: an unread die's middle lies a little off the face matched, here toward its left.
    middle = (unread.center[0] - 0.3 * 80.0, unread.center[1])
    assert _one_per_place([(0.9, left, left.center), (0.0, unread, middle)]) == [
        left, dataclasses.replace(unread, center=middle)]
    # A die and its shadow's blob, both recentred on its face, are one reading, unchanged.
    again = _die(100.0 + 0.1 * 80.0, None, NULL_SYMBOL_CONFIDENCE)
    assert _one_per_place([(0.9, left, left.center), (0.0, again, again.center)]) == [left]


def test_faces_read_too_big_are_two_dice_when_the_frame_s_die_size_says_so() -> None:
    # Faces read on a blob of two touching dice come out too big (100 px, the frame's dice 80):
    # 0.94 of their side apart, they would pass for one cocked die's two faces. The frame's sure
    # dice tell its die size, and in it they lie more than a side apart: two dice.
    left = _die(100.0, "gun", 0.9, size=100.0)
    unread = _die(194.0, None, NULL_SYMBOL_CONFIDENCE, size=100.0)
    found = [(0.9, left, left.center), (0.0, unread, unread.center)]
    assert _one_per_place(found, usual=80.0) == [left, unread]
    assert _one_per_place(found) == [Die("red", "gun", (147.0, 100.0), 100.0, NULL_SYMBOL_CONFIDENCE)]
    # A cocked die's two faces lie well within the frame's die size of each other.
    second_face = _die(100.0 + 0.8 * 80.0, None, NULL_SYMBOL_CONFIDENCE)
    face = _die(100.0, "gun", 0.9)
    assert _one_per_place([(0.9, face, face.center), (0.0, second_face, second_face.center)], usual=80.0) == [
        Die("red", "gun", (132.0, 100.0), 80.0, NULL_SYMBOL_CONFIDENCE)]


def test_a_die_at_the_frame_s_edge_steps_the_same_every_time_and_the_edge_is_no_step() -> None:
    # Rays that run off the frame sample what lies at its edge, not uninitialized memory.
    frame = np.full((200, 300, 3), 120, np.uint8)
    cv2.rectangle(frame, (0, 70), (40, 130), (40, 40, 200), -1)  # a red die cut by the left edge
    steps = [side_steps(frame, (10.0, 100.0), 60.0, 0.0) for _ in range(20)]
    assert all(np.array_equal(s, steps[0]) for s in steps)
    assert steps[0][0] == 0.0  # the side beyond the edge: no step there
    assert steps[0][-1] > 100.0  # the die's own edges still step
    inside = side_steps(frame, (150.0, 100.0), 60.0, 0.0)
    assert np.all(inside == 0.0)  # plain table all round


def _quarter_turn_gap(a: float, b: float) -> float:
    """How far apart two angles of a square's edges are, modulo a quarter turn (degrees)."""
    return abs((a - b + 45.0) % 90.0 - 45.0)


def test_a_face_s_angle_is_that_of_its_edges() -> None:
    image, labels = render(random_scene(7, style="classic", n_dice=12, die_size=90.0, distractors=False, hand=False))
    flat = [d for d in labels["dice"] if d["symbol"] is not None]
    gaps = [_quarter_turn_gap(face_angle(image, d["center"], d["size"]), d["angle"]) for d in flat]
    assert float(np.median(gaps)) < 1.5 and max(gaps) < 7.0
