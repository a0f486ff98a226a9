"""Drawing one die seen from above: a rounded plastic cube under a directional light.

The top face is rendered in the die's own axis-aligned frame (rounded square, bevelled edge,
engraved and paint-filled symbol, glossy highlight) and then warped into place, which keeps the
per-die cost to a small patch. The camera is slightly off vertical, so the top face is displaced
from the die's footprint by ``lean`` and the side faces that look toward the camera show as
shaded quads between the footprint and the top face. A cocked die (leaning on an edge) shows two
faces meeting at a ridge instead of one top face (``vision.cube`` draws it as a tilted cube
under the perspective camera instead, reusing this module's face texture).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.symbol_art import symbol_mask

_AMBIENT = 0.42
_DIFFUSE = 0.58
SYMBOL_FRACTION = 0.74  # symbol side relative to the die side


@dataclass(frozen=True)
class Shading:
    """How a die is lit: light direction (unit 3-vector, z up), gloss and paint look."""

    light: tuple[float, float, float]
    gloss: float
    paint_alpha: float


def light_vector(azimuth_deg: float, elevation_deg: float) -> np.ndarray:
    """Unit vector pointing toward the light; azimuth in image coordinates (x right, y down)."""
    az, el = np.radians(azimuth_deg), np.radians(elevation_deg)
    return np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)], np.float32)


def lambert(normal: np.ndarray, light: np.ndarray) -> float:
    """Diffuse level of a face with unit ``normal`` under ``light``, relative to a flat top."""
    top = _AMBIENT + _DIFFUSE * max(0.0, float(light[2]))
    return (_AMBIENT + _DIFFUSE * max(0.0, float(normal @ light))) / top


@dataclass(frozen=True)
class _FaceGeometry:
    """Per-pixel geometry of a k x k rounded square (padded), cached per integer size."""

    alpha: np.ndarray
    inside: np.ndarray  # distance to the outline, px, >= 0 inside
    nx: np.ndarray  # outward normal of the nearest outline point
    ny: np.ndarray
    x: np.ndarray  # pixel centre coordinates relative to the face centre
    y: np.ndarray


@lru_cache(maxsize=512)
def _face_geometry(k: int, pad: int = 3) -> _FaceGeometry:
    n = k + 2 * pad
    coords = np.arange(n, dtype=np.float32) + 0.5 - n / 2
    x, y = np.meshgrid(coords, coords)
    radius = 0.14 * k
    half = k / 2 - radius
    qx, qy = np.abs(x) - half, np.abs(y) - half
    outer = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    signed = outer + np.minimum(np.maximum(qx, qy), 0) - radius
    alpha = np.clip(0.5 - signed, 0, 1).astype(np.float32)
    corner = (qx > 0) & (qy > 0)
    safe = np.maximum(outer, 1e-6)
    nx = np.where(corner, np.maximum(qx, 0) / safe, (qx >= qy).astype(np.float32)) * np.sign(x)
    ny = np.where(corner, np.maximum(qy, 0) / safe, (qy > qx).astype(np.float32)) * np.sign(y)
    return _FaceGeometry(alpha, np.maximum(-signed, 0).astype(np.float32),
                         nx.astype(np.float32), ny.astype(np.float32), x, y)


def _rotate2(v: np.ndarray, angle_rad: float) -> np.ndarray:
    c, s = np.cos(angle_rad), np.sin(angle_rad)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]], np.float32)


def face_texture(k: int, color: np.ndarray, paint: np.ndarray, mask: np.ndarray | None,
                 light_local: np.ndarray, shading: Shading, glare: float, wear: float = 0.0,
                 wear_rng: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Premultiplied BGR and alpha of the top face in the die's frame (symbol upright).

    Any face of a cube can be drawn so: ``light_local`` is the light in the face's own frame
    (x, y along it, z its normal), and the face comes out as bright as a top face would."""
    g = _face_geometry(k)
    bevel_w = max(2.0, 0.11 * k)
    slope = np.clip(1.0 - g.inside / bevel_w, 0, 1) ** 1.5 * 0.85
    nz = np.sqrt(1.0 - slope ** 2)
    ndotl = g.nx * slope * light_local[0] + g.ny * slope * light_local[1] + nz * light_local[2]
    top = _AMBIENT + _DIFFUSE * max(0.0, float(light_local[2]))
    shade = (_AMBIENT + _DIFFUSE * np.maximum(ndotl, 0)) / top
    # Glossy plastic: the bevel facing the light catches a bright rim.
    half_vec = light_local + np.array([0, 0, 1], np.float32)
    half_vec = half_vec / np.linalg.norm(half_vec)
    ndoth = g.nx * slope * half_vec[0] + g.ny * slope * half_vec[1] + nz * half_vec[2]
    rim = np.where(slope > 0.05, np.maximum(ndoth, 0) ** 40, 0) * shading.gloss
    img = shade[:, :, None] * color
    if mask is not None:
        m = np.zeros_like(g.alpha)
        side = mask.shape[0]
        o = (m.shape[0] - side) // 2
        m[o:o + side, o:o + side] = mask
        # Engraving: the recess wall away from the light casts a thin shadow inside the cut.
        shift = max(1.0, k / 70)
        warp = np.float32([[1, 0, light_local[0] * shift], [0, 1, light_local[1] * shift]])
        lip = np.clip(m - cv2.warpAffine(m, warp, (m.shape[1], m.shape[0])), 0, 1)
        if wear > 0:  # rubbed-off paint in blotches, as on much-played dice
            blotch = cv2.resize(wear_rng.random((6, 6), dtype=np.float32), m.shape[::-1],
                                interpolation=cv2.INTER_CUBIC)
            m = m * np.clip(1.0 - wear * np.clip((blotch - 0.55) * 4, 0, 1), 0, 1)
        a = (m * shading.paint_alpha)[:, :, None]
        img = img * (1 - a) + paint * (0.8 + 0.2 * shade)[:, :, None] * a
        # The cut's rim: a thin dark edge all round the paint, where the wall turns away.
        rim_edge = np.clip(cv2.GaussianBlur(m, (0, 0), max(0.6, k / 110)) - m, 0, 1)
        img = img * (1 - 0.45 * lip[:, :, None] - 0.5 * rim_edge[:, :, None])
    # Broad soft reflection of the light source, displaced toward it.
    hx, hy = light_local[0] * 0.22 * k, light_local[1] * 0.22 * k
    blob = np.exp(-((g.x - hx) ** 2 + (g.y - hy) ** 2) / (2 * (0.22 * k) ** 2))
    spec = 0.10 * shading.gloss * blob + rim * 0.5
    if glare > 0:  # a hard glare spot from a lamp, can wash out part of the symbol
        gx, gy = hx * 1.4, hy * 1.4
        spec = spec + glare * np.exp(-((g.x - gx) ** 2 + (g.y - gy) ** 2) / (2 * (0.12 * k) ** 2))
    img = img + spec[:, :, None]
    return img * g.alpha[:, :, None], g.alpha


def _cocked_texture(k: int, tilt_deg: float, color: np.ndarray, paint: np.ndarray,
                    masks: tuple[np.ndarray, np.ndarray], light_local: np.ndarray,
                    shading: Shading) -> tuple[np.ndarray, np.ndarray]:
    """Two faces meeting at a ridge along local x, as seen from above (premultiplied, alpha)."""
    t = np.radians(tilt_deg)
    ha, hb = max(2, int(round(k * np.cos(t)))), max(2, int(round(k * np.sin(t))))
    pad = 2
    h, w = ha + hb + 2 * pad, k + 2 * pad
    img = np.zeros((h, w, 3), np.float32)
    alpha = np.zeros((h, w), np.float32)
    faces = ((pad, ha, np.array([0, -np.sin(t), np.cos(t)], np.float32), masks[0]),
             (pad + ha, hb, np.array([0, np.cos(t), np.sin(t)], np.float32), masks[1]))
    for y0, fh, normal, mask in faces:
        shade = lambert(normal, light_local)
        face = np.empty((fh, k, 3), np.float32)
        face[:] = color * shade
        # Darken toward the face borders: rounded cube edges turn away from the light.
        ramp_y = np.minimum(np.arange(fh) + 0.5, fh - np.arange(fh) - 0.5)
        ramp_x = np.minimum(np.arange(k) + 0.5, k - np.arange(k) - 0.5)
        edge = np.clip(np.minimum(ramp_y[:, None], ramp_x[None, :]) / max(2.0, 0.1 * k), 0, 1)
        face *= (0.7 + 0.3 * edge)[:, :, None]
        side = mask.shape[1]
        squashed = cv2.resize(np.ascontiguousarray(mask), (side, max(1, int(side * fh / k))),
                              interpolation=cv2.INTER_AREA)
        oy, ox = (fh - squashed.shape[0]) // 2, (k - side) // 2
        m = np.zeros((fh, k), np.float32)
        m[oy:oy + squashed.shape[0], ox:ox + side] = squashed
        a = (m * shading.paint_alpha)[:, :, None]
        face = face * (1 - a) + paint * shade * a
        img[y0:y0 + fh, pad:pad + k] = face
        alpha[y0:y0 + fh, pad:pad + k] = 1.0
    # The ridge catches light as a thin highlight.
    img[pad + ha - 1:pad + ha + 1, pad:pad + k] += 0.25 * shading.gloss
    alpha = cv2.GaussianBlur(alpha, (3, 3), 0.7)
    img = cv2.GaussianBlur(img, (3, 3), 0.6)
    return img * alpha[:, :, None], alpha


def composite(canvas: np.ndarray, x0: int, y0: int, premul: np.ndarray, alpha: np.ndarray) -> None:
    """Lay a premultiplied patch over ``canvas`` with its top-left at (x0, y0), clipped."""
    h, w = alpha.shape
    H, W = canvas.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    px0, py0 = cx0 - x0, cy0 - y0
    region = canvas[cy0:cy1, cx0:cx1]
    a = alpha[py0:py0 + cy1 - cy0, px0:px0 + cx1 - cx0, None]
    region *= 1 - a
    region += premul[py0:py0 + cy1 - cy0, px0:px0 + cx1 - cx0]


_SIGNS = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)


def outline(center: tuple[float, float], size: float, angle_deg: float,
            depth: float | None = None) -> np.ndarray:
    """Corners (4 x 2) of a die's top outline in the image; ``depth`` for cocked footprints."""
    depth = size if depth is None else depth
    a = np.radians(angle_deg)
    u = np.array([np.cos(a), np.sin(a)], np.float32)
    v = np.array([-np.sin(a), np.cos(a)], np.float32)
    c = np.asarray(center, np.float32)
    return c + _SIGNS[:, :1] * (size / 2) * u + _SIGNS[:, 1:] * (depth / 2) * v


def draw_die(canvas: np.ndarray, *, center: tuple[float, float], size: float, angle: float,
             color: tuple[float, float, float], paint: tuple[float, float, float],
             style: str, symbol: str | None, lean: tuple[float, float], shading: Shading,
             cocked_tilt: float = 0.0, cocked_symbols: tuple[str, str] = ("finger", "finger"),
             glare: float = 0.0, wear: float = 0.0, seed: int = 0,
             bounce: tuple[float, float, float] = (1.0, 1.0, 1.0),
             symbol_scale: float = SYMBOL_FRACTION, motion: tuple[float, float] = (0.0, 0.0)) -> None:
    """Draw one die onto ``canvas`` (float32 BGR, in place).

    ``center`` is where the middle of the top face (or of a cocked die's ridge outline) lands in
    the image; ``lean`` is how far the top is displaced from the footprint by perspective;
    ``wear`` (0..1) rubs paint off the symbol in blotches placed by ``seed``; ``bounce`` is
    the relative color of the table around the die, which tints the sides (reflected light);
    ``symbol_scale`` is the symbol's side relative to the die's (boxes differ); ``motion`` is
    how far (px) the die travels during the exposure, smearing it along that direction.
    """
    col = np.asarray(color, np.float32)
    pnt = np.asarray(paint, np.float32)
    light = np.asarray(shading.light, np.float32)
    rad = np.radians(angle)
    light_local = np.concatenate([_rotate2(light[:2], -rad), light[2:3]])
    k = max(6, int(round(size)))
    scale = size / k
    cocked = cocked_tilt > 0
    if cocked:
        t = np.radians(cocked_tilt)
        masks = tuple(symbol_mask(style, s, int(k * symbol_scale)) for s in cocked_symbols)
        premul, alpha = _cocked_texture(k, cocked_tilt, col, pnt, masks, light_local, shading)
        depth = size * (np.cos(t) + np.sin(t))
        height = size * np.cos(t - np.pi / 4) * np.sqrt(2)  # ridge height above the table
        # Texture centre = centre of the two faces; ridge sits ha px below its top edge.
    else:
        mask = None if symbol is None else symbol_mask(style, symbol, int(k * symbol_scale))
        premul, alpha = face_texture(k, col, pnt, mask, light_local, shading, glare, wear,
                                     np.random.default_rng(seed) if wear > 0 else None)
        depth = size
        height = size

    top = outline(center, size, angle, depth)
    lean_v = np.asarray(lean, np.float32) * (height / size)
    base = top - lean_v
    hull_pts = cv2.convexHull(np.concatenate([top, base]).astype(np.float32)).reshape(-1, 2)
    pad = 3 + int(np.ceil(np.hypot(*motion) / 2))  # room for the motion smear
    x0 = int(np.floor(hull_pts[:, 0].min())) - pad
    y0 = int(np.floor(hull_pts[:, 1].min())) - pad
    x1 = int(np.ceil(hull_pts[:, 0].max())) + pad
    y1 = int(np.ceil(hull_pts[:, 1].max())) + pad
    pw, ph = x1 - x0, y1 - y0
    off = np.array([x0, y0], np.float32)

    # Side faces. The body is swept from the footprint up to the top outline (rounded corners),
    # recording each pixel's height, so sides darken toward the table (occlusion) and brighten
    # where the rounded top edge catches the light; each face visible to the camera gets its
    # own Lambert shade from the quads between top and footprint edges.
    body = np.zeros((ph, pw), np.uint8)
    level = np.zeros((ph, pw), np.float32)
    rounded = _rounded_outline(center, size, angle, depth) - off
    steps = int(np.clip(np.hypot(*lean_v) / 1.5, 2, 10))
    for j in range(steps, -1, -1):
        poly = np.round((rounded - lean_v * (j / steps)) * 16).astype(np.int32)
        cv2.fillConvexPoly(body, poly, 255, cv2.LINE_AA, 4)
        cv2.fillConvexPoly(level, poly, 1.0 - j / steps, cv2.LINE_8, 4)
    sides = np.empty((ph, pw, 3), np.float32)
    sides[:] = col * 0.5
    for i in range(4):
        a_, b_ = top[i], top[(i + 1) % 4]
        edge = b_ - a_
        normal = np.array([edge[1], -edge[0]], np.float32)
        normal /= np.linalg.norm(normal) + 1e-9
        if normal @ lean_v >= 0:
            continue  # faces away from the camera
        shade = lambert(np.array([normal[0], normal[1], 0], np.float32), light)
        quad = np.stack([a_, b_, b_ - lean_v, a_ - lean_v]) - off
        cv2.fillConvexPoly(sides, np.round(quad * 16).astype(np.int32), (col * shade * 0.9).tolist(),
                           cv2.LINE_AA, 4)
    rim = np.exp(-((1.0 - level) / 0.18) ** 2) * (0.12 * shading.gloss)
    tint = 0.75 + 0.25 * np.asarray(bounce, np.float32)
    sides = sides * tint * (0.55 + 0.45 * level)[:, :, None] + rim[:, :, None]
    sides = cv2.GaussianBlur(sides, (3, 3), 0.8)
    body_a = body.astype(np.float32) / 255.0

    # Place the face texture: rotate by the die angle and scale to the float size.
    th, tw = alpha.shape
    c, s = np.cos(rad) * scale, np.sin(rad) * scale
    cx, cy = center[0] - x0, center[1] - y0
    m = np.float32([[c, -s, cx - c * tw / 2 + s * th / 2],
                    [s, c, cy - s * tw / 2 - c * th / 2]])
    rgba = np.dstack([premul, alpha])
    warped = cv2.warpAffine(rgba, m, (pw, ph), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    top_a = warped[:, :, 3:4]
    out = sides * body_a[:, :, None] * (1 - top_a) + warped[:, :, :3]
    out_a = body_a * (1 - top_a[:, :, 0]) + top_a[:, :, 0]
    if np.hypot(*motion) >= 1.0:
        # Moving during the exposure: smear colour and coverage alike along the motion (the
        # colour is premultiplied, so the smeared die fades correctly into the table).
        kernel = motion_kernel(float(motion[0]), float(motion[1]))
        out = cv2.filter2D(out.astype(np.float32), -1, kernel, borderType=cv2.BORDER_CONSTANT)
        out_a = cv2.filter2D(out_a.astype(np.float32), -1, kernel, borderType=cv2.BORDER_CONSTANT)
    composite(canvas, x0, y0, out, out_a)


def motion_kernel(dx: float, dy: float) -> np.ndarray:
    """A normalised line kernel for a displacement of (dx, dy) px during the exposure."""
    n = int(np.ceil(max(abs(dx), abs(dy)))) * 2 + 1
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    cv2.line(kernel, (int(round(c - dx / 2)), int(round(c - dy / 2))),
             (int(round(c + dx / 2)), int(round(c + dy / 2))), 1.0, 1, cv2.LINE_AA)
    return kernel / max(float(kernel.sum()), 1e-6)


def _rounded_outline(center: tuple[float, float], size: float, angle_deg: float,
                     depth: float) -> np.ndarray:
    """The top outline with rounded corners (N x 2), as the swept body's cross-section."""
    r = 0.14 * min(size, depth)
    hx, hy = size / 2 - r, depth / 2 - r
    pts = []
    for (sx, sy), a0 in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
        for a in np.radians(a0 + np.arange(0, 91, 22.5)):
            pts.append((sx * hx + r * np.cos(a), sy * hy + r * np.sin(a)))
    local = np.asarray(pts, np.float32)
    t = np.radians(angle_deg)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    return local @ rot.T + np.asarray(center, np.float32)


def footprint(center: tuple[float, float], size: float, angle: float, lean: tuple[float, float],
              cocked_tilt: float = 0.0) -> np.ndarray:
    """Corners (4 x 2) of where the die stands on the table, for shadows."""
    if cocked_tilt > 0:
        t = np.radians(cocked_tilt)
        depth = size * (np.cos(t) + np.sin(t))
        return outline(center, size, angle, depth) - np.asarray(lean, np.float32) * 0.5
    return outline(center, size, angle) - np.asarray(lean, np.float32)
