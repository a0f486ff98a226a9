"""The scene renderer: determinism, label accuracy, placement and sequences."""

from __future__ import annotations

import dataclasses
import itertools

import cv2
import numpy as np
import pytest

from vision.render import (COLORS, STYLES, DieSpec, Scene, die_outline, overlaps, place_dice,
                           random_scene, render, roll_sequence, scene_for_dice)
from vision.cube import cocked_cube
from vision.hand import Hand
from vision.symbol_art import SYMBOLS, symbol_mask


def _color_family(pixels_bgr: np.ndarray) -> np.ndarray:
    """0 white, 1 red, 2 blue, -1 other, for an (N, 3) uint8 array."""
    hsv = cv2.cvtColor(pixels_bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(int)
    h, s, v = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    family = np.full(len(hsv), -1)
    family[(s < 80) & (v > 110)] = 0
    family[((h < 10) | (h > 168)) & (s > 110) & (v > 50)] = 1
    family[(h > 95) & (h < 130) & (s > 110) & (v > 50)] = 2
    return family


def _ring(center, radius, n=48):
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([center[0] + radius * np.cos(a), center[1] + radius * np.sin(a)], 1)


def test_render_is_deterministic_per_seed():
    small = dict(n_dice=10, width=900, height=640, die_size=60)
    a, b = random_scene(11, **small), random_scene(11, **small)
    assert a == b
    img_a, lab_a = render(a)
    img_b, lab_b = render(b)
    assert np.array_equal(img_a, img_b)
    assert lab_a == lab_b
    img_c, _ = render(random_scene(12, **small))
    assert not np.array_equal(img_a, img_c)


@pytest.mark.parametrize("size", [(1640, 1232), (2304, 1296)])
def test_image_size_and_label_format(size):
    img, labels = render(random_scene(3, width=size[0], height=size[1], n_dice=8))
    assert img.shape == (size[1], size[0], 3) and img.dtype == np.uint8
    assert len(labels["dice"]) == 8
    for die in labels["dice"]:
        assert die["color"] in COLORS
        assert die["symbol"] is None or die["symbol"] in SYMBOLS
        assert 0 <= die["center"][0] < size[0] and 0 <= die["center"][1] < size[1]
        assert 50 <= die["size"] <= 130


@pytest.mark.parametrize("seed,style", list(zip(range(4), STYLES)))
def test_label_centers_lie_on_the_die_top_face(seed, style):
    """Around each label centre, inside the top face but outside the symbol, the image has the
    die's own color; a centre off by a fraction of a die would sample the green felt."""
    scene = random_scene(40 + seed, style=style, n_dice=16, width=1200, height=900, die_size=70,
                         table="felt_green", light="neutral", glare=False, hand=False,
                         distractors=False, cocked_fraction=0.0)
    img, labels = render(scene)
    h, w = img.shape[:2]
    for die in labels["dice"]:
        pts = _ring(die["center"], 0.43 * die["size"]).round().astype(int)
        pts = pts[(pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)]
        fam = _color_family(img[pts[:, 1], pts[:, 0]])
        share = np.mean(fam == COLORS.index(die["color"]))
        assert share > 0.6, (die, share)
        # Just outside the die, half a side further out, the felt shows on most of the ring
        # unless neighbours touch; so check only that the die color does not fill it all.
        outer = _ring(die["center"], 0.95 * die["size"]).round().astype(int)
        outer = outer[(outer[:, 0] >= 0) & (outer[:, 0] < w) & (outer[:, 1] >= 0) & (outer[:, 1] < h)]
        assert np.mean(_color_family(img[outer[:, 1], outer[:, 0]]) == COLORS.index(die["color"])) < 0.9


def test_isolated_die_color_centroid_matches_label():
    scene = random_scene(5, style="classic", n_dice=8, width=1200, height=900, die_size=80,
                         table="felt_green", light="neutral",
                         glare=False, hand=False, distractors=False, touching=0.0, cocked_fraction=0.0)
    img, labels = render(scene)
    centers = np.array([d["center"] for d in labels["dice"]])
    checked = 0
    for die in labels["dice"]:
        c, s = np.array(die["center"]), die["size"]
        if np.sort(np.linalg.norm(centers - c, axis=1))[1] < 1.8 * s:
            continue
        x0, y0 = (c - 0.9 * s).astype(int)
        x1, y1 = (c + 0.9 * s).astype(int)
        if x0 < 0 or y0 < 0 or x1 > img.shape[1] or y1 > img.shape[0]:
            continue
        patch = img[y0:y1, x0:x1]
        fam = _color_family(patch.reshape(-1, 3)).reshape(patch.shape[:2])
        ys, xs = np.nonzero(fam == COLORS.index(die["color"]))
        centroid = np.array([xs.mean() + x0, ys.mean() + y0])
        assert np.linalg.norm(centroid - c) < 0.15 * s, (die, centroid)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("seed", range(8))
def test_dice_never_interpenetrate(seed):
    scene = random_scene(100 + seed, n_dice=24, touching=0.6, cocked_fraction=0.15)
    for a, b in itertools.combinations(scene.dice, 2):
        assert not overlaps(a, b), (a, b)


@pytest.mark.parametrize("seed", range(6))
def test_dice_keep_off_tokens_and_coins(seed):
    scene = random_scene(5109 + seed, n_dice=20, width=2304, height=1296, distractors=True)
    rounds = [d for d in scene.distractors if d.kind in ("token", "coin")]
    for t in rounds:
        for d in scene.dice:
            gap = np.linalg.norm(die_outline(d) - np.asarray(t.center), axis=1).min()
            assert np.hypot(*np.subtract(d.center, t.center)) > t.size / 2 and gap > t.size / 2 - 1, (t, d)


def test_touching_dice_are_in_contact():
    scene = random_scene(7, n_dice=20, touching=1.0, distractors=False)
    def gap(pa, pb):  # distance from the nearest corner of pa to polygon pb (< 0: inside)
        contour = pb.astype(np.float32).reshape(-1, 1, 2)
        return -max(cv2.pointPolygonTest(contour, tuple(map(float, p)), True) for p in pa)

    gaps = [min(gap(die_outline(a), die_outline(b)), gap(die_outline(b), die_outline(a)))
            for a, b in itertools.combinations(scene.dice, 2)]
    assert min(gaps) >= -0.01
    assert sum(g < 1.5 for g in gaps) >= 5


def test_cocked_dice_are_labelled_without_symbol():
    scene = random_scene(21, n_dice=20, width=1200, height=900, die_size=60, cocked_fraction=0.3,
                         hand=False)
    _, labels = render(scene)
    cocked = [d for d in scene.dice if d.cocked]
    assert len(cocked) >= 4
    assert sum(d["symbol"] is None for d in labels["dice"]) == len(cocked)
    assert all(d["symbol"] is not None for d in labels["dice"] if not d.get("cocked"))


def test_all_faces_covers_every_color_and_symbol():
    _, labels = render(random_scene(4, n_dice=14, width=1200, height=900, die_size=60,
                                    all_faces=True, hand=False))
    seen = {(d["color"], d["symbol"]) for d in labels["dice"]}
    assert {(c, s) for c in COLORS for s in SYMBOLS} <= seen


def test_place_dice_keeps_dice_inside_their_zones():
    rng = np.random.default_rng(0)
    triangle = np.array([[100, 100], [700, 150], [300, 600]], np.float32)
    dice = [("red", "gun"), ("blue", "finger"), ("white", None), ("white", "gavel"), ("red", "cocktail")]
    placed = place_dice(dice, triangle, rng, size=60, touching=0.5, seat=3)
    rect = place_dice(dice, (900, 100, 1300, 500), rng, size=70, existing=placed)
    for group, zone in ((placed, triangle.reshape(-1, 1, 2)),
                        (rect, np.array([[900, 100], [1300, 100], [1300, 500], [900, 500]], np.float32).reshape(-1, 1, 2))):
        assert [(d.color, d.symbol) for d in group] == dice
        for d in group:
            for x, y in die_outline(d):
                assert cv2.pointPolygonTest(zone, (float(x), float(y)), True) >= -0.01
    assert all(d.seat == 3 for d in placed)
    for a, b in itertools.combinations(placed + rect, 2):
        assert not overlaps(a, b)
    with pytest.raises(ValueError):
        place_dice(dice * 4, (0, 0, 150, 150), rng, size=60, attempts=50)


def test_hand_scene_keeps_labels_valid():
    scene = random_scene(9, n_dice=12, width=1200, height=900, die_size=60, hand=True)
    assert scene.hand is not None
    _, labels = render(scene)
    assert len(labels["dice"]) == len(scene.dice)


def test_dice_mostly_under_a_hand_are_left_out_of_the_labels():
    covered = DieSpec(color="red", symbol="gun", center=(300.0, 300.0), size=60.0, angle=0.0)
    free = DieSpec(color="white", symbol="finger", center=(900.0, 600.0), size=60.0, angle=10.0)
    base = random_scene(3, n_dice=0, width=1200, height=900, die_size=60)
    hand = Hand(entry=(-300.0, 300.0), palm=(280.0, 300.0), width=260.0, tone=1)
    img, labels = render(dataclasses.replace(base, dice=(covered, free), hand=hand))
    assert [d["color"] for d in labels["dice"]] == ["white"]
    skin = img[290:310, 270:290].reshape(-1, 3).mean(axis=0)
    # The hand, not the red die's top, is what the camera sees there: skin has plenty of green.
    assert skin[2] > skin[0] and skin[1] > 0.45 * skin[2], skin


def test_hand_over_the_dice_hides_some_labels_and_only_those():
    hidden_total = 0
    for seed in range(6):
        scene = random_scene(300 + seed, n_dice=24, width=1200, height=900, die_size=60, hand="over")
        _, labels = render(scene)
        assert len(labels["dice"]) <= len(scene.dice)
        hidden_total += len(scene.dice) - len(labels["dice"])
    assert hidden_total > 0


def test_roll_sequence_settles_to_the_final_scene():
    final = random_scene(2, n_dice=6, width=640, height=480, die_size=50, hand=False)
    frames = roll_sequence(final, 10, seed=5)
    assert len(frames) == 10 and all(f.shape == (480, 640, 3) for f in frames)
    still, _ = render(final)
    diff = lambda a, b: float(np.mean(np.abs(a.astype(int) - b.astype(int))))  # noqa: E731
    assert diff(frames[-1], frames[-2]) < 4.0
    assert diff(frames[-1], still) < 4.0
    assert not np.array_equal(frames[-1], frames[-2])  # fresh sensor noise every frame
    assert diff(frames[0], still) > diff(frames[-1], still) + 1.0


def test_styles_draw_different_symbols():
    assert len(STYLES) >= 3
    for symbol in SYMBOLS:
        for s1, s2 in itertools.combinations(STYLES, 2):
            a, b = symbol_mask(s1, symbol, 64), symbol_mask(s2, symbol, 64)
            # Stencil is the classic art cut into pieces: close to it, but still different.
            limit = 0.02 if {s1, s2} == {"classic", "stencil"} else 0.05
            assert np.mean(np.abs(a - b)) > limit, (symbol, s1, s2)
    for style in STYLES:
        masks = [symbol_mask(style, s, 64) for s in SYMBOLS]
        for a, b in itertools.combinations(masks, 2):
            assert np.mean(np.abs(a - b)) > 0.08


def test_hand_built_scene_renders():
    die = DieSpec(color="blue", symbol="cocktail", center=(200.0, 150.0), size=80.0, angle=20.0)
    base = random_scene(1, n_dice=1, width=400, height=300, die_size=80)
    scene = Scene(width=400, height=300, style="bold", table="felt_red", light=base.light,
                  dice=(die,), seed=3)
    img, labels = render(scene)
    assert labels["dice"] == [{"color": "blue", "symbol": "cocktail", "center": [200.0, 150.0],
                               "size": 80.0, "angle": 20.0}]
    assert _color_family(img[150:151, 170:171].reshape(-1, 3))[0] == 2


def test_scene_for_dice_shows_exactly_the_placed_dice():
    rng = np.random.default_rng(4)
    seats = [(100, 100, 600, 500), (1000, 600, 1500, 1100)]
    dice = []
    for seat, zone in enumerate(seats, start=1):
        dice += place_dice([("red", "gun"), ("white", "finger"), ("blue", "cocktail")], zone, rng,
                           size=80, seat=seat, existing=dice)
    scene = scene_for_dice(dice, seed=8, distractors=True, hand=True, table="felt_green",
                           light="neutral", glare=False)
    img, labels = render(scene)
    assert [(d["color"], d["symbol"], d["seat"]) for d in labels["dice"]] == \
        [(d.color, d.symbol, d.seat) for d in dice]
    for die in labels["dice"]:
        pts = _ring(die["center"], 0.43 * die["size"]).round().astype(int)
        assert np.mean(_color_family(img[pts[:, 1], pts[:, 0]]) == COLORS.index(die["color"])) > 0.6


def test_cocked_die_leans_on_a_standing_neighbour():
    def gap(pa, pb):
        contour = pb.astype(np.float32).reshape(-1, 1, 2)
        return -max(cv2.pointPolygonTest(contour, tuple(map(float, p)), True) for p in pa)

    for seed in range(5):
        rng = np.random.default_rng(seed)
        dice = place_dice([("white", None), ("red", "gun"), ("blue", "finger")], (0, 0, 900, 900), rng,
                          size=70, touching=0.0)
        assert [d.cocked for d in dice] == [True, False, False]
        cocked, standing = die_outline(dice[0]), [die_outline(d) for d in dice[1:]]
        assert min(min(gap(cocked, s), gap(s, cocked)) for s in standing) < 1.5


def test_render_command_writes_labelled_images(tmp_path):
    import json

    from vision.render_cli import main_render

    assert main_render(["--count", "2", "--seed", "3", "--out", str(tmp_path), "--size", "480x360",
                        "--dice", "4", "--style", "line"]) == 0
    images = sorted(tmp_path.glob("*.jpg"))
    assert [p.name for p in images] == ["scene_0001.jpg", "scene_0002.jpg"]
    for path in images:
        labels = json.loads(path.with_suffix(".json").read_text())
        assert len(labels["dice"]) == 4 and labels["style"] == "line"
        assert cv2.imread(str(path)).shape == (360, 480, 3)


@pytest.mark.parametrize("seed,style", list(zip(range(3), STYLES)))
def test_cocked_3d_dice_are_cubes_labelled_at_their_top_face(seed, style):
    """With the 3D option a cocked die is labelled where the camera sees its top face's middle,
    leans 20-45 degrees, and is drawn there: without the cocked dice those pixels change."""
    scene = random_scene(60 + seed, style=style, n_dice=16, width=1200, height=900, die_size=70,
                         cocked_fraction=0.3, cocked_3d=True, hand=False, glare=False)
    assert scene.cocked_3d
    img, labels = render(scene)
    bare, _ = render(dataclasses.replace(scene, dice=tuple(d for d in scene.dice if not d.cocked)))
    cocked = [d for d in scene.dice if d.cocked]
    labelled = [d for d in labels["dice"] if d.get("cocked")]
    assert len(cocked) >= 4 and len(labelled) == len(cocked)
    for d, lab in zip(cocked, labelled):
        assert lab["symbol"] is None and lab["size"] == round(d.size, 1)
        assert 20 <= d.tilt <= 45 and lab["cocked_deg"] == round(d.tilt, 1)
        top = cocked_cube(d.center, d.size, d.angle, d.tilt, scene.camera()).top_polygon()
        contour = top.astype(np.float32).reshape(-1, 1, 2)
        assert cv2.pointPolygonTest(contour, tuple(lab["center"]), True) > 0.2 * d.size, (lab, top)
        inside = np.zeros(img.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, np.round(top).astype(np.int32), 1)
        changed = np.abs(img.astype(int) - bare.astype(int)).sum(axis=2)[inside > 0]
        assert np.mean(changed > 30) > 0.8, (lab, np.mean(changed > 30))


@pytest.mark.parametrize("seed", range(4))
def test_cocked_3d_dice_never_interpenetrate(seed):
    scene = random_scene(100 + seed, n_dice=24, touching=0.6, cocked_fraction=0.15, cocked_3d=True)
    for a, b in itertools.combinations(scene.dice, 2):
        assert not overlaps(a, b), (a, b)


def test_cocked_3d_off_leaves_scenes_as_they_were():
    """Off (the default), the option changes no draw: same scene, image and labels as a scene
    built without it, and cocked dice keep the flat look's 35-55 degree tilts and labels."""
    kw = dict(n_dice=14, width=900, height=640, die_size=60, cocked_fraction=0.3)
    plain, off = random_scene(33, **kw), random_scene(33, cocked_3d=False, **kw)
    assert plain == off and not plain.cocked_3d
    (img_a, lab_a), (img_b, lab_b) = render(plain), render(off)
    assert np.array_equal(img_a, img_b) and lab_a == lab_b
    assert all(35 <= d.tilt <= 55 for d in plain.dice if d.cocked)
    assert not any("cocked_deg" in d for d in lab_a["dice"])
    on = random_scene(33, cocked_3d=True, **kw)
    assert [d.tilt for d in on.dice if d.cocked] != [d.tilt for d in plain.dice if d.cocked]


def test_render_command_passes_cocked_3d_through(tmp_path):
    import json

    from vision.render_cli import main_render

    for flag, folder in ((["--cocked-3d"], tmp_path / "cube"), ([], tmp_path / "flat")):
        assert main_render(["--count", "1", "--seed", "2", "--out", str(folder), "--size", "480x360",
                            "--dice", "8", *flag]) == 0
    cube, flat = (json.loads((tmp_path / f / "scene_0001.json").read_text())["dice"] for f in ("cube", "flat"))
    assert any("cocked_deg" in d for d in cube) and not any("cocked_deg" in d for d in flat)
    assert all(20 <= d["cocked_deg"] <= 45 for d in cube if d.get("cocked"))


def test_walls_draw_flat_dice_as_standing_cubes_where_they_were_labelled():
    """With walls every die is a cube under the scene's camera: a flat one stands (its walls
    between its top face and the point under the lens), labelled and laid as without walls."""
    kw = dict(n_dice=14, width=1200, height=900, die_size=70, cocked_fraction=0.2, hand=False, glare=False)
    cubes, walled = random_scene(64, cocked_3d=True, **kw), random_scene(64, walls=True, **kw)
    assert walled.walls and walled.cocked_3d and not cubes.walls
    assert walled.dice == cubes.dice
    (cubes_img, cubes_labels), (img, labels) = render(cubes), render(walled)
    assert labels == cubes_labels
    assert not np.array_equal(img, cubes_img)
    nadir = np.asarray(walled.camera().nadir)
    changed = np.abs(img.astype(int) - cubes_img.astype(int)).sum(axis=2) > 30
    flat = [d for d in walled.dice if not d.cocked]
    assert len(flat) >= 8
    for d in flat:
        cube = cocked_cube(d.center, d.size, d.angle, 0.0, walled.camera())
        top = cube.top_polygon().astype(np.float32).reshape(-1, 1, 2)
        assert cv2.pointPolygonTest(top, tuple(float(v) for v in d.center), True) > 0.4 * d.size
        base = cube.image[list(cube.face("bottom"))].mean(axis=0)
        # The table under a standing die lies nearer the point under the lens than its top.
        assert np.linalg.norm(base - nadir) < np.linalg.norm(np.asarray(cube.top_center()) - nadir)
    # Only the dice are drawn otherwise: pixels far from every die are as they were.
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    far = np.ones(img.shape[:2], bool)
    for d in walled.dice:
        far &= np.hypot(xx - d.center[0], yy - d.center[1]) > 3.0 * d.size
    assert far.mean() > 0.2 and not changed[far].any()


def test_render_command_passes_walls_through(tmp_path):
    import json

    from vision.render_cli import main_render

    for flag, folder in ((["--walls"], tmp_path / "walls"), (["--cocked-3d"], tmp_path / "cube")):
        assert main_render(["--count", "1", "--seed", "2", "--out", str(folder), "--size", "480x360",
                            "--dice", "8", *flag]) == 0
    walls, cube = (json.loads((tmp_path / f / "scene_0001.json").read_text())["dice"] for f in ("walls", "cube"))
    assert walls == cube
    assert not np.array_equal(cv2.imread(str(tmp_path / "walls" / "scene_0001.jpg")),
                              cv2.imread(str(tmp_path / "cube" / "scene_0001.jpg")))
