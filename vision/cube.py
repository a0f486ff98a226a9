"""A cocked die as a true cube under the scene's perspective camera.

The die is a cube of side s resting on one bottom edge and turned about it by the tilt t, so
its top face makes angle t with the table. Across the ridge (the die's local y, x along the
edge it rests on) its cross-section is a square whose corners are the pivot on the table, the
corner against the neighbour's wall or opposite it, the ridge and the top face's far edge;
seen from straight above it covers s by s (cos t + sin t), which is the cocked outline that
placement lays against a neighbour. The cube stands where that outline, taken at a standing
die's top height, lies under the lens, and its corners are projected with the scene's pinhole
camera (``View``: a point at table position p and height z lands on nadir + (p - nadir) H / (H - z)).

Each face turned toward the lens (back-face culling is enough for a convex body) is textured as
a standing die's top face (bevel, engraved and painted symbol, gloss; ``die_draw.face_texture``
lit in the face's own frame), shaded by its own Lambert term, darkened toward the table, and
warped into place with a perspective transform over a rounded silhouette of the body.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import cv2
import numpy as np

from vision.die_draw import Shading, composite, face_texture, lambert, motion_kernel
from vision.scene import View
from vision.symbol_art import symbol_mask

_PAD = 3  # texture border around a face (px), as _face_geometry pads it

# Corners: cross-section corner j (0 pivot, 1 low corner between bottom and the second face,
# 2 ridge, 3 top face's far edge) at the edge end e (0: -x, 1: +x) is index j + 4 e.
# Faces as corner cycles; their winding is fixed at projection time so texture x, y and the
# outward normal form a right-handed frame, as on a standing die's top (no mirrored symbols).
_FACES = {
    "top": (3, 7, 6, 2),
    "second": (2, 6, 5, 1),  # the side sharing the ridge with the top
    "bottom": (1, 5, 4, 0),
    "back": (0, 4, 7, 3),
    "end+": (4, 5, 6, 7),
    "end-": (0, 3, 2, 1),
}
_RIM = 0.13  # silhouette edge radius relative to the side: about a face texture's corner radius


@dataclass(frozen=True, eq=False)  # arrays: identity, not an element-wise truth value
class Cube:
    """A cocked die's corners in the scene: ``corners`` (8 x 3) are table-level image positions
    (px) and heights above the table, ``image`` (8 x 2) where the camera sees them."""

    corners: np.ndarray
    image: np.ndarray
    lens: tuple[float, float, float]  # nadir x, y and lens height

    @cached_property
    def normals(self) -> dict[str, np.ndarray]:
        """Each face's outward unit normal (x, y along the table, z up)."""
        centre = self.corners.mean(axis=0)
        out = {}
        for name, idx in _FACES.items():
            a, b, _, d = self.corners[list(idx)]
            n = _cross(b - a, d - a)
            n /= np.linalg.norm(n)
            out[name] = n if n @ (a - centre) > 0 else -n
        return out

    def face(self, name: str) -> list[int]:
        """The face's corner indices wound as texture x then y (x cross y along the outward
        normal, as on a standing die's top), so no symbol is drawn mirrored."""
        idx = list(_FACES[name])
        c = self.corners[idx]
        if _cross(c[1] - c[0], c[3] - c[0]) @ self.normals[name] < 0:
            idx = [idx[0], idx[3], idx[2], idx[1]]
        return idx

    def visible(self) -> list[str]:
        """Faces whose outward side looks toward the lens."""
        lens = np.asarray(self.lens)
        return [name for name in _FACES
                if self.normals[name] @ (lens - self.corners[list(_FACES[name])].mean(axis=0)) > 1e-6]

    def top_center(self) -> tuple[float, float]:
        """Where the camera sees the middle of the top face (the die's label centre)."""
        return _project(self.corners[list(_FACES["top"])].mean(axis=0), self.lens)

    def top_polygon(self) -> np.ndarray:
        """The top face as the camera sees it (4 x 2)."""
        return self.image[self.face("top")]

    def footprint(self) -> np.ndarray:
        """The cube seen from straight above, on the table (convex, N x 2)."""
        return cv2.convexHull(self.corners[:, :2].astype(np.float32)).reshape(-1, 2)

    def shadow(self, offset: Callable[[float], np.ndarray]) -> np.ndarray:
        """Convex hull (N x 2) of the cube's shadow on the table; ``offset(z)`` is how far a point
        z above the table throws its shadow (a convex body's shadow is its corners' shadows' hull)."""
        pts = np.stack([c[:2] + np.asarray(offset(float(c[2]))) for c in self.corners])
        return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b for 3-vectors (np.cross costs more than a face's drawing's arithmetic)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _project(point: np.ndarray, lens: tuple[float, float, float]) -> tuple[float, float]:
    """Where the camera (nadir x, y and lens height) sees a point at table position (x, y) and
    height z: farther from the nadir the higher it is."""
    nx, ny, h = lens
    k = h / (h - point[2])
    return float(nx + (point[0] - nx) * k), float(ny + (point[1] - ny) * k)


def cocked_cube(center: tuple[float, float], size: float, angle: float, tilt: float,
                view: View) -> Cube:
    """The cube of a die leaning ``tilt`` degrees whose outline at a standing die's top height
    is centred on ``center`` (``die_outline``), its edge on the table along ``angle``."""
    s, t = float(size), np.radians(tilt)
    nadir = np.asarray(view.nadir, np.float64)
    h = float(view.height)
    # The outline sits at top height s: the table point under it is nearer the nadir.
    base = nadir + (np.asarray(center, np.float64) - nadir) * (h - s) / h
    half = s / 2
    n_top, n_second = np.array([-np.sin(t), np.cos(t)]), np.array([np.cos(t), np.sin(t)])
    mid = np.array([0.0, half * (np.cos(t) + np.sin(t))])  # cross-section centre (y, z)
    section = [mid + half * (a * n_top + b * n_second)
               for a, b in ((-1, -1), (-1, 1), (1, 1), (1, -1))]
    a = np.radians(angle)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    corners = np.array([[*(base + x * u + y * v), z] for x in (-half, half) for y, z in section])
    image = np.array([_project(c, (nadir[0], nadir[1], h)) for c in corners])
    return Cube(corners, image, (float(nadir[0]), float(nadir[1]), h))


def draw_cube(canvas: np.ndarray, cube: Cube, *, color: tuple[float, float, float],
              paint: tuple[float, float, float], style: str, symbols: dict[str, str],
              shading: Shading, wear: float = 0.0, seed: int = 0,
              bounce: tuple[float, float, float] = (1.0, 1.0, 1.0), symbol_scale: float = 0.74,
              motion: tuple[float, float] = (0.0, 0.0)) -> None:
    """Draw ``cube`` onto ``canvas`` (float32 BGR, in place).

    ``symbols`` names the symbol on each face that may show ("top", "second", and others by
    face name; a face missing from it shows none). ``bounce``, ``wear``, ``seed``,
    ``symbol_scale`` and ``motion`` mean what they do for ``die_draw.draw_die``.
    """
    col = np.asarray(color, np.float32)
    pnt = np.asarray(paint, np.float32)
    light = np.asarray(shading.light, np.float64)
    s = float(np.linalg.norm(cube.corners[4] - cube.corners[0]))
    k = max(6, int(round(s)))
    pad = 3 + int(np.ceil(np.hypot(*motion) / 2))
    x0, y0 = np.floor(cube.image.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(cube.image.max(axis=0)).astype(int) + pad
    pw, ph = int(x1 - x0), int(y1 - y0)
    off = np.array([x0, y0], np.float64) + 0.5  # continuous image coordinates -> patch pixels

    # The body under the faces: the silhouette of a cube with rounded edges (its corners pulled
    # in, the hull widened back by the edge radius). Where faces' rounded corners leave it bare
    # it shows dark, as a rounded edge turning away from the light does.
    tint = 0.75 + 0.25 * np.asarray(bounce, np.float32)
    centre = cube.corners.mean(axis=0)
    r = _RIM * s
    inner = centre + (cube.corners - centre) * (s - 2 * r) / s
    inner_img = np.array([_project(c, cube.lens) for c in inner]) - off
    hull = cv2.convexHull(inner_img.astype(np.float32)).reshape(-1, 2)
    scale = float(np.linalg.norm(cube.image[4] - cube.image[0])) / s  # px per table px, roughly
    body = np.zeros((ph, pw), np.uint8)
    poly = np.round(hull * 16).astype(np.int32)
    cv2.fillConvexPoly(body, poly, 255, cv2.LINE_AA, 4)
    cv2.polylines(body, [poly], True, 255, max(1, int(round(2 * r * scale))), cv2.LINE_AA, 4)
    out_a = body.astype(np.float32) / 255.0
    out = out_a[:, :, None] * (col * 0.35 * tint).astype(np.float32)

    src = np.float32([[_PAD - 0.5, _PAD - 0.5], [_PAD + k - 0.5, _PAD - 0.5],
                      [_PAD + k - 0.5, _PAD + k - 0.5], [_PAD - 0.5, _PAD + k - 0.5]])
    n = k + 2 * _PAD
    grid = (np.arange(n, dtype=np.float32) - _PAD + 0.5) / k  # texture coordinate 0..1 on the face
    for index, name in enumerate(cube.visible()):
        normal = cube.normals[name]
        idx = cube.face(name)
        quad, corners3 = cube.image[idx] - off, cube.corners[idx]
        if _area(quad) < 0.01 * s * s:
            continue  # seen edge-on: the body's rounded edge stands for it
        ex, ey = corners3[1] - corners3[0], corners3[3] - corners3[0]
        ex_u, ey_u = ex / np.linalg.norm(ex), ey / np.linalg.norm(ey)
        light_local = np.array([light @ ex_u, light @ ey_u, light @ normal], np.float32)
        symbol = symbols.get(name)
        mask = None if symbol is None else symbol_mask(style, symbol, int(k * symbol_scale))
        premul, alpha = face_texture(k, col, pnt, mask, light_local, shading, 0.0, wear,
                                     np.random.default_rng([seed, index]) if wear > 0 else None)
        # face_texture lights a face as if it lay on top; this face's own Lambert term and its
        # height (darker toward the table, where less light reaches) set its level, and the
        # table's bounce light tints it the more the steeper it stands.
        z = corners3[0][2] + grid[None, :] * ex[2] + grid[:, None] * ey[2]
        level = np.clip(z / (0.6 * s), 0, 1).astype(np.float32)
        steep = 1.0 - abs(float(normal[2]))
        gain = (lambert(normal.astype(np.float32), light.astype(np.float32))
                * (1 + (tint - 1) * steep)).astype(np.float32)
        premul *= (0.6 + 0.4 * level)[:, :, None] * gain
        # Warp into the face's own box only: it is all the face can cover.
        bx0, by0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 1, 0)
        bx1, by1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, (pw, ph))
        m = cv2.getPerspectiveTransform(src, (quad - (bx0, by0)).astype(np.float32))
        rgba = cv2.warpPerspective(np.dstack([premul, alpha]), m, (int(bx1 - bx0), int(by1 - by0)),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=(0, 0, 0, 0))
        a = rgba[:, :, 3]
        region, region_a = out[by0:by1, bx0:bx1], out_a[by0:by1, bx0:bx1]
        region *= 1 - a[:, :, None]
        region += rgba[:, :, :3]
        region_a *= 1 - a
        region_a += a
    if np.hypot(*motion) >= 1.0:
        kernel = motion_kernel(float(motion[0]), float(motion[1]))
        out = cv2.filter2D(out.astype(np.float32), -1, kernel, borderType=cv2.BORDER_CONSTANT)
        out_a = cv2.filter2D(out_a.astype(np.float32), -1, kernel, borderType=cv2.BORDER_CONSTANT)
    composite(canvas, int(x0), int(y0), out, out_a)


def _area(quad: np.ndarray) -> float:
    """The area of a polygon (N x 2), by the shoelace formula."""
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))

