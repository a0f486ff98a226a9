"""Laying dice on the table without interpenetration: inside zones, clear of obstacles, and
on request in contact with a neighbour (touching pairs and clusters, cocked dice leaning).

Dice are treated as their top outlines (convex quadrilaterals); overlap is decided with the
separating-axis test, and contact is made exact along an anchor die's face normal.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import cv2
import numpy as np

from vision.scene import COLORS, SYMBOLS, DieSpec, die_faces, die_outline

def _separated(a: np.ndarray, b: np.ndarray, gap: float = 0.0) -> bool:
    """Separating-axis test for convex polygons: True when they are at least ``gap`` apart."""
    edges = np.concatenate([np.roll(a, -1, axis=0) - a, np.roll(b, -1, axis=0) - b])
    axes = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
    norms = np.linalg.norm(axes, axis=1, keepdims=True)
    keep = norms[:, 0] > 1e-9  # a repeated vertex gives a zero edge, which separates nothing
    axes = axes[keep] / norms[keep]
    pa, pb = a @ axes.T, b @ axes.T
    return bool(np.any((pa.max(axis=0) + gap <= pb.min(axis=0)) | (pb.max(axis=0) + gap <= pa.min(axis=0))))


def clear_of(poly: np.ndarray, blockers: list[tuple[np.ndarray, np.ndarray, float]]) -> bool:
    """True when ``poly`` interpenetrates none of ``blockers`` (polygon, centre, radius);
    a bounding-circle check first skips the exact test for far-apart pairs."""
    c = poly.mean(axis=0)
    r = float(np.sqrt(((poly - c) ** 2).sum(axis=1).max()))
    for other, oc, orad in blockers:
        if (c[0] - oc[0]) ** 2 + (c[1] - oc[1]) ** 2 >= (r + orad) ** 2:
            continue
        if not _separated(poly, other):
            return False
    return True


def inflate(poly: np.ndarray, margin: float) -> np.ndarray:
    """``poly`` scaled about its centre so that it reaches ``margin`` further out."""
    c = poly.mean(axis=0)
    r = float(np.sqrt(((poly - c) ** 2).sum(axis=1).max())) or 1.0
    return c + (poly - c) * (r + margin) / r


def as_blocker(poly: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    poly = np.asarray(poly, np.float64)
    c = poly.mean(axis=0)
    return poly, c, float(np.sqrt(((poly - c) ** 2).sum(axis=1).max()))


def overlaps(a: DieSpec, b: DieSpec) -> bool:
    """True when two dice's outlines interpenetrate (touching is allowed)."""
    return not _separated(die_outline(a), die_outline(b), gap=-0.01)


def _zone_polygon(zone) -> np.ndarray:
    z = np.asarray(zone, np.float64)
    if z.shape == (4,):  # x0, y0, x1, y1
        x0, y0, x1, y1 = z
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    return z.reshape(-1, 2)


def _inside(poly: np.ndarray, zone: np.ndarray) -> bool:
    contour = zone.astype(np.float32).reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in poly)


def _touch_candidate(rng: np.random.Generator, anchor: DieSpec, die: DieSpec,
                     blockers: list[tuple[np.ndarray, np.ndarray, float]]) -> DieSpec | None:
    """``die`` moved to rest against ``anchor`` on a random side, or None if that spot is taken."""
    side = rng.integers(4)
    a = np.radians(anchor.angle + 90 * side)
    normal = np.array([np.cos(a), np.sin(a)])
    tangent = np.array([-normal[1], normal[0]])
    slide = rng.uniform(-0.45, 0.45) * anchor.size
    # Square outlines line up every 90 degrees; which way the symbol faces is free.
    turn = 90 * int(rng.integers(4))
    angle = anchor.angle + turn + (rng.uniform(-8, 8) if rng.random() < 0.6 else 0.0)
    if die.cocked:
        # Leaning toward the anchor: the ridge runs parallel to the anchor's touching face.
        angle = anchor.angle + 90 * side + 90 + 180 * int(rng.integers(2))
    # Both outlines' extents along the anchor's face normal give the exact contact distance
    # (the normal is a separating axis, so at that distance they touch without overlapping).
    c0 = np.asarray(anchor.center)
    reach_a = float(((die_outline(anchor) - c0) @ normal).max())
    probe = dataclasses.replace(die, center=(0.0, 0.0), angle=float(angle))
    reach_b = float((-(die_outline(probe) @ normal)).max())

    def at(dist: float) -> DieSpec:
        c = c0 + normal * dist + tangent * slide
        return dataclasses.replace(die, center=(float(c[0]), float(c[1])), angle=float(angle))

    far = reach_a + reach_b
    placed = at(far + rng.uniform(0.2, 1.0))
    return placed if clear_of(die_outline(placed), blockers) else None


def cocked_tilt(draw: float, cocked_3d: bool) -> float:
    """A cocked die's tilt (degrees) from a draw in [35, 55]: the draw itself for the flat
    two-face look, mapped linearly onto [20, 45] for a 3D cube (box C's dice lean 29-39 degrees).
    One draw either way, so the option leaves every other random draw where it was."""
    return 20.0 + (draw - 35.0) * 1.25 if cocked_3d else draw


def place_dice(dice: Sequence[tuple[str, str | None]], zone, rng: np.random.Generator, *,
               size: float = 80.0, touching: float = 0.3, existing: Sequence[DieSpec] = (),
               obstacles: Sequence[np.ndarray] = (), seat: int | None = None,
               size_jitter: float = 0.02, attempts: int = 400,
               cocked_3d: bool = False) -> list[DieSpec]:
    """Lay ``dice`` ((color, symbol) pairs; symbol None means cocked) inside ``zone``.

    ``zone`` is a rectangle (x0, y0, x1, y1) or a polygon of (x, y) points; every die's outline
    ends up entirely inside it. Dice never interpenetrate each other, ``existing`` dice or the
    ``obstacles`` polygons; with probability ``touching`` a die is put in contact with one
    already placed (cocked dice are laid last and lean on a neighbour when there is one;
    ``cocked_3d`` gives them the tilts of a die drawn as a 3D cube, see ``cocked_tilt``).
    Raises ValueError when the zone is too small to hold them.
    """
    zone_poly = _zone_polygon(zone)
    x0, y0 = zone_poly.min(axis=0)
    x1, y1 = zone_poly.max(axis=0)
    placed: list[DieSpec] = []
    # Obstacles grow by the largest perspective lean: a die's footprint may stick out from
    # under its top face by that much, and must not rest on a token either.
    blockers = [as_blocker(die_outline(d)) for d in existing] + \
        [as_blocker(inflate(np.asarray(o, np.float64), 0.3 * size)) for o in obstacles]
    # Cocked dice are laid last, so that each has a standing neighbour to lean on; the result
    # keeps the order of ``dice``.
    order = [i for i, (_, sym) in enumerate(dice) if sym is not None] + \
        [i for i, (_, sym) in enumerate(dice) if sym is None]
    results: dict[int, DieSpec] = {}
    for index in order:
        color, symbol = dice[index]
        if color not in COLORS:
            raise ValueError(f"unknown color {color!r}")
        if symbol is not None and symbol not in SYMBOLS:
            raise ValueError(f"unknown symbol {symbol!r}")
        s = size * (1 + rng.uniform(-size_jitter, size_jitter))
        cocked = symbol is None
        faces = die_faces(color)
        template = DieSpec(color=color, symbol=symbol, center=(0.0, 0.0), size=float(s),
                           angle=float(rng.uniform(0, 360)), cocked=cocked,
                           tilt=cocked_tilt(float(rng.uniform(35, 55)), cocked_3d) if cocked else 0.0,
                           faces=(faces[rng.integers(6)], faces[rng.integers(6)]), seat=seat)
        result = None
        for attempt in range(attempts):
            want_touch = placed and (cocked or rng.random() < touching) and attempt < attempts // 2
            if want_touch:
                anchor = placed[int(rng.integers(len(placed)))]
                if anchor.cocked:
                    continue
                cand = _touch_candidate(rng, anchor, template, blockers)
                if cand is None:
                    continue
            else:
                c = (float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)))
                cand = dataclasses.replace(template, center=c)
            poly = die_outline(cand)
            if not _inside(poly, zone_poly):
                continue
            if not clear_of(poly, blockers):
                continue
            result = cand
            break
        if result is None:
            raise ValueError(f"could not place {len(dice)} dice of size {size:.0f} in zone")
        placed.append(result)
        results[index] = result
        blockers.append(as_blocker(die_outline(result)))
    return [results[i] for i in range(len(dice))]
