"""Photo-like, labelled renders of Gangster Dice on a table, for fixtures, tests and benchmarks.

A ``Scene`` is a complete, immutable description of one frame (table, light, camera view, dice,
distractors, optional hand, camera imperfections, seed); ``render(scene)`` turns it into a BGR
image and the labels of the dice-images spec (``shared/spec/dice-images.md``), with each die's
``center`` the projected middle of its top face and ``size`` its top face side in pixels.

``random_scene(seed, ...)`` makes varied scenes reproducibly; ``place_dice`` lays given dice in
given zones (for a demo camera that must show known dice in known seats) and ``scene_for_dice``
puts them on a table; ``roll_sequence`` makes a short clip of dice tumbling in, a hand passing
and the table settling. The scene values live in ``vision.scene`` and placement in
``vision.placement``; both are re-exported here.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import cv2
import numpy as np

from vision.cube import Cube, cocked_cube, draw_cube
from vision.die_draw import Shading, draw_die, footprint, light_vector
from vision.distractors import Distractor, distractor_outline, draw_distractor, edge_side
from vision.hand import Hand, draw_hand, hand_mask
from vision.lighting import LIGHT_KINDS  # noqa: F401  (re-exported: the kinds a scene may use)
from vision.lighting import add_glare, apply_shadows, illumination, random_light, shadow_offset
from vision.optics import Optics, develop, random_optics
from vision.placement import as_blocker, clear_of, inflate, overlaps, place_dice  # noqa: F401
from vision.scene import (COLORS, FRAME_SIZES, MAX_TILT_DEG, STYLES,  # noqa: F401
                          SYMBOLS, DiceLook, DieSpec, Scene, View, die_faces, die_outline)
from vision.tables import TABLE_KINDS, TABLE_VARIANTS, make_table

# --- random scenes --------------------------------------------------------------------------

def random_look(rng: np.random.Generator, style: str) -> DiceLook:
    """A box of dice: ivory or white bodies, a red and a blue of varying hue, paint by style."""
    j = lambda c, a: tuple(float(np.clip(v * rng.uniform(1 - a, 1 + a), 0, 1)) for v in c)  # noqa: E731
    white = [(0.80, 0.90, 0.93), (0.88, 0.91, 0.92), (0.72, 0.86, 0.92)][rng.integers(3)]
    red = [(0.10, 0.09, 0.66), (0.14, 0.12, 0.74), (0.12, 0.18, 0.62)][rng.integers(3)]
    blue = [(0.74, 0.34, 0.08), (0.78, 0.40, 0.12), (0.62, 0.24, 0.08)][rng.integers(3)]
    on_white = {"classic": [(0.12, 0.12, 0.62), (0.10, 0.10, 0.10)],
                "line": [(0.10, 0.10, 0.10), (0.15, 0.10, 0.55)],
                "bold": [(0.10, 0.10, 0.10), (0.14, 0.14, 0.66)],
                "stencil": [(0.12, 0.12, 0.62), (0.10, 0.10, 0.10)]}[style]
    on_color = {"classic": [(0.90, 0.92, 0.93), (0.25, 0.65, 0.85)],
                "line": [(0.90, 0.92, 0.93), (0.30, 0.70, 0.88)],
                "bold": [(0.25, 0.65, 0.85), (0.90, 0.92, 0.93)],
                "stencil": [(0.90, 0.92, 0.93), (0.28, 0.66, 0.86)]}[style]
    return DiceLook(white=j(white, 0.03), red=j(red, 0.08), blue=j(blue, 0.08),
                    paint_on_white=on_white[rng.integers(2)], paint_on_color=on_color[rng.integers(2)],
                    gloss=float(rng.uniform(0.3, 0.9)), paint_alpha=float(rng.uniform(0.85, 1.0)),
                    wear=float(rng.choice([0.0, 0.15, 0.4])),
                    symbol_scale=float(rng.uniform(0.62, 0.8)))


def _random_die(rng: np.random.Generator) -> tuple[str, str]:
    color = COLORS[int(rng.integers(3))]
    return color, die_faces(color)[int(rng.integers(6))]


def random_scene(seed: int, style: str | None = None, n_dice: int | None = None,
                 width: int = 1640, height: int = 1232, *, table: str | None = None,
                 light: str | None = None, cocked_fraction: float | None = None,
                 touching: float | None = None, distractors: bool | None = None,
                 hand: bool | str | None = None, edge: bool | None = None, all_faces: bool = False,
                 die_size: float | None = None, glare: bool | None = None,
                 optics: Optics | None = None, cocked_3d: bool = False, walls: bool = False) -> Scene:
    """A random but reproducible scene: same arguments, same scene.

    Options force a ``table`` kind, a ``light`` kind, the share of cocked dice, the chance that a
    die touches a neighbour, whether cards/tokens/coins, a ``hand`` or the table ``edge`` appear,
    ``glare`` spots, the ``die_size`` (top face side, px) and camera ``optics``. ``all_faces``
    puts every color x symbol pair in the scene at least once (for teaching images). A hand is
    kept clear of the dice, unless ``hand="over"``: then it may cover dice, and those mostly
    hidden are left out of the labels. ``cocked_3d`` draws cocked dice as cubes leaning 20-45
    degrees under the perspective camera (``vision.cube``), as real photos show them; off, every
    scene is what it was before the option existed. ``walls`` draws the flat dice as standing
    cubes under that camera too, with the walls it sees (and implies ``cocked_3d``; the scene's
    dice, table and light are those drawn without it). Raises ValueError when the dice cannot
    fit the frame.
    """
    cocked_3d = cocked_3d or walls
    rng = np.random.default_rng(seed)
    style = style or STYLES[int(rng.integers(len(STYLES)))]
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; expected one of {STYLES}")
    table = table or TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
    if table not in TABLE_KINDS:
        raise ValueError(f"unknown table {table!r}; expected one of {TABLE_KINDS}")
    lit = random_light(rng, light)
    if glare is not None:
        lit = dataclasses.replace(lit, glare_spots=int(rng.integers(1, 4)) if glare else 0)
    n = int(n_dice if n_dice is not None else rng.integers(6, 25))
    if all_faces:
        n = max(n, 12)
    size = float(die_size if die_size is not None else rng.uniform(60, 120) * min(width, height) / 1232)
    if cocked_fraction is None:
        cocked_fraction = 0.0 if rng.random() < 0.4 else float(rng.uniform(0.04, 0.15))
    touching = float(rng.uniform(0.2, 0.6)) if touching is None else touching

    # Camera: the lens sits above a point in the frame (looking straight down), or beside it
    # (a camera on a stand, tilted: every die shows its sides). Higher lens, smaller lean.
    # (The tilted camera draws from its own stream, so adding it left every other draw as it was.)
    nadir = (float(width * rng.uniform(0.1, 0.9)), float(height * rng.uniform(0.1, 0.9)))
    view_rng = np.random.default_rng([seed, 7])
    if view_rng.random() < 0.5:
        a = view_rng.uniform(0, 2 * np.pi)
        far = view_rng.uniform(0.7, 1.3) * max(width, height)
        nadir = (float(width / 2 + far * np.cos(a)), float(height / 2 + far * np.sin(a)))
    corners = np.array([[0, 0], [width, 0], [0, height], [width, height]], np.float64)
    reach = float(np.max(np.linalg.norm(corners - np.asarray(nadir), axis=1)))
    view = View(nadir, float(reach / np.tan(np.radians(rng.uniform(8, MAX_TILT_DEG)))))

    # Table edge, cards, tokens, coins.
    items: list[Distractor] = []
    play = [0.0, 0.0, float(width), float(height)]
    if edge if edge is not None else rng.random() < 0.25:
        variant = int(rng.integers(0, 1000))
        band = float(rng.uniform(0.07, 0.14) * min(width, height))
        d = Distractor("edge", (0.0, 0.0), band, 0.0, variant)
        items.append(d)
        side = edge_side(d)
        if side == "bottom":
            play[3] -= band
        elif side == "top":
            play[1] += band
        elif side == "right":
            play[2] -= band
        else:
            play[0] += band
    margin = 0.15 * size
    play = [play[0] + margin, play[1] + margin, play[2] - margin, play[3] - margin]
    obstacles: list[np.ndarray] = []
    if distractors if distractors is not None else rng.random() < 0.7:
        for kind, count, scale in (("card", rng.integers(0, 3), (3.2, 4.2)),
                                   ("token", rng.integers(0, 5), (0.9, 1.5)),
                                   ("coin", rng.integers(0, 4), (0.5, 0.9))):
            for _ in range(int(count)):
                d = Distractor(kind, (float(rng.uniform(play[0], play[2])), float(rng.uniform(play[1], play[3]))),
                               float(size * rng.uniform(*scale)), float(rng.uniform(0, 180)),
                               int(rng.integers(0, 1000)))
                items.append(d)
                if kind != "card":  # dice may rest on a card, never on a coin or token
                    obstacles.append(distractor_outline(d).astype(np.float64))

    # Hand: reaches in from a frame side; dice are kept out of its way.
    the_hand = None
    if hand if hand is not None else rng.random() < 0.15:
        side = int(rng.integers(4))
        along = rng.uniform(0.25, 0.75)
        reach_in = rng.uniform(0.15, 0.3)
        pw = size * rng.uniform(3.8, 5.0)
        entry, palm = _hand_pose(side, along, reach_in, pw, width, height)
        the_hand = Hand(entry, palm, float(pw), int(rng.integers(0, 5)))
        if hand != "over":
            obstacles += _hand_hulls(the_hand, width, height)

    # Dice: in a few groups (players' rolls), some touching, a few cocked.
    pairs = [_random_die(rng) for _ in range(n)]
    keep = 0
    if all_faces:
        pairs[:12] = [(c, s) for c in COLORS for s in SYMBOLS]
        keep = 12  # these must stay readable
    n_cocked = min(int(round(cocked_fraction * n)), n - keep)
    if cocked_fraction > 0 and n_cocked == 0 and n > keep and rng.random() < cocked_fraction * n:
        n_cocked = 1
    for i in rng.choice(np.arange(keep, n), size=n_cocked, replace=False) if n_cocked else []:
        pairs[i] = (pairs[i][0], None)
    order = rng.permutation(n)
    pairs = [pairs[i] for i in order]
    dice: list[DieSpec] = []
    groups = max(1, int(np.ceil(n / rng.uniform(3, 7))))
    split = np.array_split(np.arange(n), groups)
    for gi, idx in enumerate(split):
        group = [pairs[i] for i in idx]
        half = size * (1.3 + 0.45 * len(group))
        for _ in range(40):
            cx = rng.uniform(play[0] + half * 0.5, play[2] - half * 0.5)
            cy = rng.uniform(play[1] + half * 0.5, play[3] - half * 0.5)
            zone = (max(play[0], cx - half), max(play[1], cy - half),
                    min(play[2], cx + half), min(play[3], cy + half))
            try:
                dice += place_dice(group, zone, rng, size=size, touching=touching, existing=dice,
                                   obstacles=obstacles, attempts=60, cocked_3d=cocked_3d)
                break
            except ValueError:
                continue
        else:
            # Crowded frame: fall back to the whole playable area.
            dice += place_dice(group, tuple(play), rng, size=size, touching=touching,
                               existing=dice, obstacles=obstacles, cocked_3d=cocked_3d)

    # Glare spots: some on dice tops (washing out part of a symbol), some on the table.
    spots = []
    for _ in range(lit.glare_spots):
        if dice and rng.random() < 0.5:
            d = dice[int(rng.integers(len(dice)))]
            off = rng.uniform(-0.25, 0.25, 2) * d.size
            spots.append((d.center[0] + off[0], d.center[1] + off[1], d.size * rng.uniform(0.12, 0.25),
                          float(rng.uniform(0.25, 0.6))))
        else:
            spots.append((float(rng.uniform(0, width)), float(rng.uniform(0, height)),
                          float(rng.uniform(0.4, 1.5) * size), float(rng.uniform(0.08, 0.25))))
    return Scene(width=width, height=height, style=style, table=table, light=lit,
                 dice=tuple(dice), seed=int(seed), distractors=tuple(items), hand=the_hand,
                 look=random_look(rng, style), view=view,
                 optics=optics or random_optics(rng, lit.gain), glare=tuple(spots),
                 cocked_3d=cocked_3d, walls=walls)


def scene_for_dice(dice: Sequence[DieSpec], seed: int, width: int = 1640, height: int = 1232, *,
                   style: str | None = None, table: str | None = None, light: str | None = None,
                   distractors: bool = False, hand: bool = False, glare: bool | None = None,
                   optics: Optics | None = None, cocked_3d: bool = False) -> Scene:
    """A scene showing exactly ``dice`` (e.g. from ``place_dice``) on a random table and light.

    For a demo camera: lay known dice in known seat zones with ``place_dice``, then render this.
    Cards, tokens and coins (``distractors``) and a ``hand`` are kept clear of the given dice;
    ``cocked_3d`` draws cocked ones as cubes (lay them with ``place_dice(..., cocked_3d=True)``).
    """
    dice = tuple(dice)
    size = float(np.mean([d.size for d in dice])) if dice else 80.0
    base = random_scene(seed, style=style, n_dice=0, width=width, height=height, table=table,
                        light=light, distractors=False, hand=False, edge=False, die_size=size,
                        glare=glare, optics=optics, cocked_3d=cocked_3d)
    rng = np.random.default_rng([seed, 1])
    keep_out = [as_blocker(inflate(die_outline(d).astype(np.float64), 0.4 * d.size)) for d in dice]
    items: list[Distractor] = []
    if distractors:
        for kind, count, scale in (("card", 2, (3.2, 4.2)), ("token", 3, (0.9, 1.5)), ("coin", 2, (0.5, 0.9))):
            for _ in range(count):
                for _ in range(30):
                    d = Distractor(kind, (float(rng.uniform(0, width)), float(rng.uniform(0, height))),
                                   float(size * rng.uniform(*scale)), float(rng.uniform(0, 180)),
                                   int(rng.integers(0, 1000)))
                    if clear_of(distractor_outline(d).astype(np.float64), keep_out):
                        items.append(d)
                        break
    the_hand = None
    if hand:
        for _ in range(30):
            side = int(rng.integers(4))
            along, reach_in, pw = rng.uniform(0.2, 0.8), rng.uniform(0.1, 0.25), size * rng.uniform(3.8, 5.0)
            entry, palm = _hand_pose(side, along, reach_in, pw, width, height)
            cand = Hand(entry, palm, float(pw), int(rng.integers(0, 5)))
            if all(clear_of(h, keep_out) for h in _hand_hulls(cand, width, height)):
                the_hand = cand
                break
    spots = tuple(g for g in base.glare if not any(
        np.hypot(g[0] - d.center[0], g[1] - d.center[1]) < 2 * d.size for d in dice) or rng.random() < 0.5)
    return dataclasses.replace(base, dice=dice, distractors=tuple(items), hand=the_hand, glare=spots)


def _hand_pose(side: int, along: float, reach_in: float, pw: float, width: int,
               height: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Entry point (outside the frame) and palm centre of a hand reaching in from ``side``."""
    if side == 0:
        return (width * along, height + pw), (width * along, height * (1 - reach_in))
    if side == 1:
        return (width + pw, height * along), (width * (1 - reach_in), height * along)
    if side == 2:
        return (width * along, -pw), (width * along, height * reach_in)
    return (-pw, height * along), (width * reach_in, height * along)


def _hand_hulls(hand: Hand, width: int, height: int) -> list[np.ndarray]:
    """Convex pieces covering the hand (from a coarse mask), as placement obstacles."""
    q = 8
    m = hand_mask(hand, height, width, 1.0 / q)
    m = cv2.dilate((m > 0.1).astype(np.uint8), np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [cv2.convexHull(c).reshape(-1, 2).astype(np.float64) * q for c in contours]


# --- rendering --------------------------------------------------------------------------------

def _body_color(look: DiceLook, color: str) -> tuple[float, float, float]:
    return {"white": look.white, "red": look.red, "blue": look.blue}[color]


def _paint(look: DiceLook, color: str) -> tuple[float, float, float]:
    return look.paint_on_white if color == "white" else look.paint_on_color


def _die_height(d: DieSpec) -> float:
    if d.cocked:
        t = np.radians(d.tilt)
        return d.size * np.sqrt(2) * np.cos(t - np.pi / 4)
    return d.size


def _cube(scene: Scene, d: DieSpec) -> Cube | None:
    """The cube a die is drawn as: cocked, in a scene that draws cocked dice in 3D; flat, in one
    that draws walls (a cube leaning 0 degrees stands)."""
    if d.cocked:
        return cocked_cube(d.center, d.size, d.angle, d.tilt, scene.camera()) if scene.cocked_3d else None
    return cocked_cube(d.center, d.size, d.angle, 0.0, scene.camera()) if scene.walls else None


def _hidden_by_hand(scene: Scene) -> set[int]:
    """Indices of dice whose top face is mostly covered by the hand (left out of the labels)."""
    if scene.hand is None:
        return set()
    q = 4
    m = hand_mask(scene.hand, scene.height, scene.width, 1.0 / q)
    hidden = set()
    for i, d in enumerate(scene.dice):
        pts = [d.center] + [tuple(p) for p in (0.6 * die_outline(d) + 0.4 * np.asarray(d.center))]
        covered = 0
        for x, y in pts:
            xi, yi = int(x / q), int(y / q)
            if 0 <= yi < m.shape[0] and 0 <= xi < m.shape[1] and m[yi, xi] > 0.5:
                covered += 1
        if covered >= 3:
            hidden.add(i)
    return hidden


def labels(scene: Scene) -> dict:
    """The spec's label dict for ``scene`` (dice mostly hidden by a hand are left out)."""
    hidden = _hidden_by_hand(scene)
    out = []
    for i, d in enumerate(scene.dice):
        if i in hidden:
            continue
        cube = _cube(scene, d)
        # A cube's top face lies off its outline's middle: the label names where it is seen.
        center = d.center if cube is None else cube.top_center()
        item = {"color": d.color, "symbol": None if d.cocked else d.symbol,
                "center": [round(float(center[0]), 1), round(float(center[1]), 1)],
                "size": round(float(d.size), 1), "angle": round(float(d.angle) % 360, 1)}
        if d.cocked:
            item["cocked"] = True
        if cube is not None and d.cocked:
            item["cocked_deg"] = round(float(d.tilt), 1)
        if d.seat is not None:
            item["seat"] = d.seat
        out.append(item)
    return {"dice": out, "style": scene.style, "table": scene.table, "light": scene.light.kind,
            "hand": scene.hand is not None, "seed": scene.seed}


def _cube_symbols(d: DieSpec, seed: int) -> dict[str, str]:
    """What each face of a cube shows: a cocked die's top and second faces as the die says, a
    standing one's top its symbol, the other faces of the same die, drawn from its own seed."""
    faces = die_faces(d.color)
    rng = np.random.default_rng([seed, 1])
    others = ("end+", "end-", "back", "bottom")
    drawn = {name: faces[int(j)] for name, j in zip(others, rng.integers(6, size=len(others)))}
    if d.cocked:
        return {"top": d.faces[0], "second": d.faces[1], **drawn}
    return {"top": d.symbol, "second": faces[int(rng.integers(6))], **drawn}


def render(scene: Scene) -> tuple[np.ndarray, dict]:
    """Render ``scene``: a BGR uint8 image (height x width x 3) and its labels."""
    if scene.style not in STYLES:
        raise ValueError(f"unknown style {scene.style!r}")
    img = make_table(scene.table, scene.width, scene.height, scene.seed % TABLE_VARIANTS)
    for d in sorted(scene.distractors, key=lambda x: x.kind != "edge"):
        draw_distractor(img, d)

    view = scene.camera()
    light = scene.light
    lvec = light_vector(light.azimuth, light.elevation)
    shading = Shading(light=tuple(float(v) for v in lvec), gloss=scene.look.gloss,
                      paint_alpha=scene.look.paint_alpha)
    leans = [view.lean(d.center, d.size) for d in scene.dice]
    cubes = [_cube(scene, d) for d in scene.dice]

    # Cast and contact shadows of every die first, so no shadow falls on a die's top.
    casts, contacts, fills = [], [], []
    for d, lean, cube in zip(scene.dice, leans, cubes):
        if cube is not None:  # a convex body's shadow: the hull of its corners' shadows
            casts.append(cube.shadow(lambda z: shadow_offset(light, z)))
            contacts.append(cube.footprint())
            if light.fill_strength > 0:
                fills.append(cube.shadow(lambda z: shadow_offset(light, z, fill=True)))
            continue
        base = footprint(d.center, d.size, d.angle, lean, d.tilt if d.cocked else 0.0)
        off = shadow_offset(light, _die_height(d))
        casts.append(np.concatenate([base, base + off]))
        contacts.append(base)
        if light.fill_strength > 0:
            fills.append(np.concatenate([base, base + shadow_offset(light, _die_height(d), fill=True)]))
    casts = [cv2.convexHull(c.astype(np.float32)).reshape(-1, 2) for c in casts]
    fills = [cv2.convexHull(c.astype(np.float32)).reshape(-1, 2) for c in fills]
    for item in scene.distractors:
        if item.kind in ("token", "coin"):
            poly = distractor_outline(item)
            contacts.append(poly + shadow_offset(light, 0.08 * item.size))
    mean_size = float(np.mean([d.size for d in scene.dice])) if scene.dice else 80.0
    apply_shadows(img, casts, light, mean_size, contacts, fills)

    # Far-from-nadir dice first: their visible sides face the nadir, nearer dice may cover them.
    # Flat-drawn cocked dice stand taller than the rest, so they go last; a cube takes its place
    # in that order: a nearer neighbour hides its low side, its ridge hides a farther one's top.
    order = sorted(range(len(scene.dice)),
                   key=lambda i: (scene.dice[i].cocked and cubes[i] is None, -float(np.hypot(*leans[i]))))
    for i in order:
        d = scene.dice[i]
        # Each die differs a little from its box-mates: body tint, and on some, worn paint.
        die_rng = np.random.default_rng([scene.seed, i])
        body = np.clip(np.asarray(_body_color(scene.look, d.color)) * die_rng.uniform(0.96, 1.04, 3), 0, 1)
        wear = float(die_rng.uniform(0.3, 0.8)) if die_rng.random() < scene.look.wear else 0.0
        # Light bouncing off the table tints the die's sides with the table's color.
        x, y = int(np.clip(d.center[0], 0, scene.width - 1)), int(np.clip(d.center[1], 0, scene.height - 1))
        r = int(d.size)
        around = img[max(0, y - r):y + r:4, max(0, x - r):x + r:4].reshape(-1, 3).mean(axis=0)
        bounce = np.clip(around / max(float(around.mean()), 0.05), 0.6, 1.6)
        if cubes[i] is not None:
            die_seed = int(die_rng.integers(1 << 31))
            draw_cube(img, cubes[i], color=tuple(body), paint=_paint(scene.look, d.color),
                      style=scene.style, symbols=_cube_symbols(d, die_seed), shading=shading,
                      wear=wear, seed=die_seed, bounce=tuple(float(v) for v in bounce),
                      symbol_scale=scene.look.symbol_scale, motion=d.motion)
            continue
        draw_die(img, center=d.center, size=d.size, angle=d.angle, color=tuple(body),
                 paint=_paint(scene.look, d.color), style=scene.style,
                 symbol=None if d.cocked else d.symbol, lean=leans[i], shading=shading,
                 cocked_tilt=d.tilt if d.cocked else 0.0, cocked_symbols=d.faces, wear=wear,
                 seed=int(die_rng.integers(1 << 31)), bounce=tuple(float(v) for v in bounce),
                 symbol_scale=scene.look.symbol_scale, motion=d.motion)

    if scene.hand is not None:
        draw_hand(img, scene.hand, shadow_offset(light, scene.hand.width * 0.7), light.shadow_strength)

    img *= illumination(light, scene.height, scene.width, scene.seed)
    add_glare(img, list(scene.glare))
    seed = scene.seed if scene.noise_seed is None else scene.noise_seed
    frame = develop(img, scene.optics, seed)
    return frame, labels(scene)


# --- sequences --------------------------------------------------------------------------------

def roll_sequence(final_scene: Scene, n_frames: int, seed: int) -> list[np.ndarray]:
    """Frames of a roll: dice tumble in and slow down, a hand passes over the table, then the
    table is still (frames equal to ``render(final_scene)`` apart from sensor noise)."""
    rng = np.random.default_rng(seed)
    n_roll = max(1, int(round(n_frames * 0.4)))
    n_hand = max(0, int(round(n_frames * 0.3)))
    n_still = max(0, n_frames - n_roll - n_hand)
    w, h = final_scene.width, final_scene.height
    throws = []
    for d in final_scene.dice:
        a = rng.uniform(0, 2 * np.pi)
        throws.append((np.array([np.cos(a), np.sin(a)]) * d.size * rng.uniform(3, 7),
                       rng.uniform(-540, 540), rng.uniform(0, 2 * np.pi)))
    frames: list[np.ndarray] = []
    for f in range(n_roll):
        p = (f + 1) / (n_roll + 1)
        ease = 1 - (1 - p) ** 2
        dice = []
        for d, (throw, spin, phase) in zip(final_scene.dice, throws):
            c = np.asarray(d.center) + throw * (1 - ease)
            # Travel during half a frame interval: d(center)/dp = -2 throw (1 - p).
            motion = -2.0 * throw * (1 - p) / (n_roll + 1) * 0.5
            tumbling = p < 0.75
            tilt = 45 + 35 * np.sin(phase + 9 * p) if tumbling else 0.0
            faces = die_faces(d.color)
            dice.append(dataclasses.replace(
                d, center=(float(c[0]), float(c[1])), angle=float(d.angle + spin * (1 - ease)),
                cocked=tumbling or d.cocked, tilt=float(tilt) if tumbling else d.tilt,
                symbol=None if tumbling else d.symbol,
                faces=(faces[int(rng.integers(6))], faces[int(rng.integers(6))]) if tumbling else d.faces,
                motion=(float(motion[0]), float(motion[1]))))
        # Glare that sits on a die's top belongs to the settled die, not to the bare table.
        glare = tuple(g for g in final_scene.glare
                      if all(np.hypot(g[0] - d.center[0], g[1] - d.center[1]) > d.size for d in final_scene.dice))
        scene = dataclasses.replace(final_scene, dice=tuple(dice), hand=None, noise_seed=seed + f, glare=glare)
        frames.append(render(scene)[0])
    side = int(rng.integers(2))
    pw = float(np.mean([d.size for d in final_scene.dice]) * 4.5) if final_scene.dice else 350.0
    for f in range(n_hand):
        p = (f + 0.5) / max(1, n_hand)
        if side == 0:  # from the bottom edge, sweeping left to right
            palm = (w * (0.15 + 0.7 * p), h * (0.45 + 0.1 * np.sin(p * np.pi)))
            entry = (palm[0] - 0.1 * w, h + pw)
        else:  # from the right edge, sweeping top to bottom
            palm = (w * 0.5, h * (0.15 + 0.7 * p))
            entry = (w + pw, palm[1] + 0.1 * h)
        scene = dataclasses.replace(final_scene, hand=Hand(entry, palm, pw, int(rng.integers(5))),
                                    noise_seed=seed + n_roll + f)
        frames.append(render(scene)[0])
    for f in range(n_still):
        scene = dataclasses.replace(final_scene, noise_seed=seed + n_roll + n_hand + f)
        frames.append(render(scene)[0])
    return frames
