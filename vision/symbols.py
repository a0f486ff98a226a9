"""Reading the symbol on a die's top face by template matching on aligned, normalized crops.

A face crop is rotated so the die's edges are axis-aligned (the die's own 4-fold orientation is
found from its edge directions), scaled so the face is `FACE_PX` wide, and turned into an ink map
(each pixel's color distance from the face's body color), so paint of any color on a die of any
color looks alike. A symbol template is the mean of many such crops of one symbol (aligned to
each other by quarter turn and shift), so it is what this box's paint looks like, learnt, never
drawn in code. Matching is normalized cross-correlation over the 4 quarter turns and a few pixels
of shift, which also refines the center; squashed copies of the templates tell a cocked die.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .halving import halved, known_half
from .medians import column_medians, percentile

FACE_PX = 32  # face side in a normalized crop
TEMPLATE_PX = 26  # inner part of the face that is compared (edges and rounded corners left out)
WINDOW_PX = 34  # crop searched for the template: +-4 px of shift
_MARGIN = (WINDOW_PX - TEMPLATE_PX) // 2  # where a window's centered TEMPLATE_PX part starts
ORIENT_PX = 48  # crop size for the orientation estimate
WINDOW_REACH = 0.75  # how far a window's corners reach from its center, in face sides


def face_angle(frame_bgr: np.ndarray, center: tuple[float, float], size: float) -> float:
    """Orientation of the die's edges in degrees, modulo 90.

    Gradient directions are folded four times (a square looks the same every quarter turn) and
    averaged, weighted by squared magnitude, over a ring where the face edges and the cube's
    outline are, leaving out most of the symbol inside.
    """
    span = int(1.5 * size) + 1
    x0, y0 = int(round(center[0] - span / 2.0)), int(round(center[1] - span / 2.0))
    height, width = frame_bgr.shape[:2]
    if 0 <= x0 and 0 <= y0 and x0 + span <= width and y0 + span <= height:
        crop = frame_bgr[y0:y0 + span, x0:x0 + span]  # a whole-pixel crop is plenty for an angle
    else:
        crop = cv2.getRectSubPix(frame_bgr, (span, span), center)  # off the frame's edge: replicate
    # Gray first, then shrunk: a third of the work of shrinking three channels. In floats, so
    # no level is rounded away between the two.
    gray = cv2.cvtColor(np.float32(crop), cv2.COLOR_BGR2GRAY)
    crop = cv2.resize(gray, (ORIENT_PX, ORIENT_PX), interpolation=cv2.INTER_AREA)
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    # Each gradient z = gx + i gy as |z|^2 e^(4i theta) = z^4 / |z|^2: four times its angle,
    # weighted by squared magnitude, without trigonometry.
    # Each square taken once and the arrays reused in place: 16 numpy calls, not 21, each
    # product and sum as before (20 -> 16 us a face).
    xx, yy = gx * gx, gy * gy
    real2 = xx - yy  # z^2 = real2 + i imag2
    imag2 = 2.0 * gx
    imag2 *= gy
    magnitude = np.add(xx, yy, out=xx)
    scale = np.divide(_ring_mask(), np.maximum(magnitude, 1e-12, out=magnitude), out=magnitude)
    real4 = real2 * real2  # z^4 = real4 + i imag4, then over |z|^2 on the ring
    real4 -= np.multiply(imag2, imag2, out=yy)
    real4 *= scale
    imag4 = np.multiply(real2, 2.0, out=real2)
    imag4 *= imag2
    imag4 *= scale
    total = complex(float(real4.sum()), float(imag4.sum()))
    return float(np.degrees(np.angle(total)) / 4.0)


@lru_cache(maxsize=1)
def _ring_mask() -> np.ndarray:
    c = (ORIENT_PX - 1) / 2.0
    yy, xx = np.mgrid[0:ORIENT_PX, 0:ORIENT_PX]
    r = np.hypot(xx - c, yy - c) / ORIENT_PX * 1.5  # radius in die sides
    return ((r > 0.3) & (r < 0.75)).astype(np.float32)


def ink_map(window_bgr: np.ndarray) -> np.ndarray:
    """How far each pixel's color is from the face's body color: the paint, whatever its color
    and whatever the die's color (dark ink on red, red ink on white...)."""
    return _paint(window_bgr, inner(window_bgr))


def face_ink(face_bgr: np.ndarray) -> np.ndarray:
    """The ink map of a face patch (BGR, TEMPLATE_PX square) alone: what `ink_map` makes of a
    window centered on it, the inner part (`inner`) of which it is."""
    return _paint(face_bgr, face_bgr)


def _paint(pixels: np.ndarray, face: np.ndarray) -> np.ndarray:
    """How far each of `pixels` is from the body color of `face` (its median)."""
    body = column_medians(face.reshape(-1, 3))
    difference = pixels - body
    squared = difference * difference
    return np.sqrt(squared[..., 0] + squared[..., 1] + squared[..., 2]).astype(np.float32, copy=False)


INK_LEVEL = 40.0  # color distance (BGR) below which a window holds no paint at all
INK_SHARE_OF_PEAK = 0.25  # a pixel this far toward the window's strongest paint counts as paint


def ink_share(ink: np.ndarray, share_of_peak: float = INK_SHARE_OF_PEAK) -> float:
    """Share of an ink map's inner part (see `inner`) that is paint: near 0 for a plain patch
    (a card's back, a token), a few tenths for a face with a symbol, or two faces' halves.
    `share_of_peak`: how far toward the window's strongest paint a pixel must be to count."""
    return face_ink_share(inner(ink), share_of_peak)


def face_ink_share(middle: np.ndarray, share_of_peak: float = INK_SHARE_OF_PEAK) -> float:
    """`ink_share` of an ink map's inner part itself (see `face_ink`)."""
    peak = percentile(middle, 99)
    if peak < INK_LEVEL:
        return 0.0
    return float(np.count_nonzero(middle > share_of_peak * peak)) / middle.size


# Half way toward the strongest paint, a pixel is paint for sure: the gradient of a glare or a
# shade across a face is not, nor a face's worn edges (see `strong_ink_share`).
STRONG_INK_SHARE_OF_PEAK = 0.5


def strong_ink_share(ink: np.ndarray) -> float:
    """`ink_share` counting only pixels that are paint for sure: how much of a face its symbol
    covers, which a lamp's glare or shade hardly changes (box C's 70 four-image teachings: mat
    print taken for white dice told apart 11 times more than by `ink_share`; renderer: 4 dice
    with glare no longer taken for print; 0.6 measured about the same, 0.7 lost dice)."""
    return ink_share(ink, STRONG_INK_SHARE_OF_PEAK)


def strong_face_ink_share(face_bgr: np.ndarray) -> float:
    """`strong_ink_share` of a window centered on a face patch (BGR, TEMPLATE_PX square), from
    the patch alone (see `face_ink`)."""
    return face_ink_share(face_ink(face_bgr), STRONG_INK_SHARE_OF_PEAK)


def ink_key(symbol: str, color: str) -> str:
    """The key of a symbol's paint on one die color in a profile's `ink_limits`."""
    return f"{symbol}/{color}"


def face_window(image: np.ndarray, center: tuple[float, float], size: float, angle: float,
                across: float = 1.0) -> np.ndarray:
    """WINDOW_PX square crop around `center`, rotated by `angle` and scaled so the face is
    FACE_PX wide (float32, same channels as `image`). With `across` under 1 the window's width
    takes in only that share of a face side (its height a whole side): a face foreshortened
    across, as a cocked die's is, fills the window as an upright one does.

    The image is shrunk a lot, so it is smoothed first, that each sampled pixel averages the
    stretch between it and the next: by a box as wide as that stretch, or for a face HALVE_FROM
    pixels wide or more by halving it (each pixel the mean of 2 x 2, as `vision.halving` does),
    and then as much more smoothing as the box's width would have given (`_halved_smoothing`).
    Halving is a quarter of the box's time (2 x 2 boxes take OpenCV three times as long as 3 x 3
    ones), and a frame cuts a hundred windows."""
    full_box = int(round(size / FACE_PX))  # the smoothing box at full size: the sampling step
    halve = size >= HALVE_FROM
    if halve:  # the halved image's pixel (i, j) is the mean of pixels 2i and 2i + 1, 2j and 2j + 1
        center, size = ((center[0] - 0.5) / 2.0, (center[1] - 0.5) / 2.0), size / 2.0
    zoom = FACE_PX / size
    half = (WINDOW_PX - 1) / 2.0
    rotation = cv2.getRotationMatrix2D(center, angle, zoom)
    if across != 1.0:
        rotation[0, :2] /= across
        rotation[0, 2] = center[0] - rotation[0, :2] @ np.asarray(center, np.float64)
    rotation[:, 2] += (half - center[0], half - center[1])
    box = int(round(1.0 / zoom))
    # Only the part of the image the window samples is smoothed: its corner pixels lie
    # (WINDOW_PX - 1) / 2 * sqrt(2) / FACE_PX = 0.73 sides from the center, and each sampled
    # pixel needs its neighbor and its smoothing.
    reach = WINDOW_REACH * size + box + 2
    x0, y0 = int(center[0] - reach), int(center[1] - reach)
    x1, y1 = int(center[0] + reach) + 2, int(center[1] + reach) + 2
    x0c, y0c = max(0, x0), max(0, y0)
    if halve:
        x1, y1 = min(image.shape[1] // 2, x1), min(image.shape[0] // 2, y1)
        whole = known_half(image)
        if whole is not None:  # the reader's (see `vision.halving`): the same pixels, made once
            region = whole[y0c:max(y0c, y1), x0c:max(x0c, x1)]
        else:
            full = image[2 * y0c:2 * max(y0c, y1), 2 * x0c:2 * max(x0c, x1)]  # even-sized: 2 x 2 means
            region = halved(full) if full.size else full
    else:
        region = image[y0c:max(y0c, min(image.shape[0], y1)), x0c:max(x0c, min(image.shape[1], x1))]
    if region.size == 0:
        return np.zeros((WINDOW_PX, WINDOW_PX) + image.shape[2:], np.float32)
    if halve:
        kernel = _halved_smoothing(full_box)
        if kernel is not None:
            region = cv2.sepFilter2D(region, -1, kernel, kernel)
    elif box > 1:
        region = cv2.blur(region, (box, box))
    rotation[:, 2] += rotation[:, :2] @ np.array([x0c, y0c], dtype=np.float64)
    return cv2.warpAffine(region, rotation, (WINDOW_PX, WINDOW_PX), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


HALVE_FROM = 2 * FACE_PX  # face sides (pixels) from which a window is cut from the halved image


@lru_cache(maxsize=8)
def _halved_smoothing(full_box: int) -> np.ndarray | None:
    """The 3-tap kernel [a, 1 - 2a, a] that, after a halving's 2 x 2 mean, smooths a halved image
    as much as a `full_box` wide box would the image itself (None when the halving does already):
    a box w wide spreads a pixel over a variance of (w^2 - 1) / 12 pixels squared, the halving
    over 2^2's, so a is what is left, in halved pixels squared, over 2. The kernel spreads at
    most a third each way (a box up to 6 pixels wide)."""
    share = min((full_box * full_box - 4) / 96.0, 1.0 / 3.0)
    return np.array([share, 1.0 - 2.0 * share, share], np.float32) if share > 0 else None


def inner(window: np.ndarray) -> np.ndarray:
    """The centered TEMPLATE_PX part of a window."""
    return window[_MARGIN:_MARGIN + TEMPLATE_PX, _MARGIN:_MARGIN + TEMPLATE_PX]


def matched_part(window: np.ndarray, found: Match) -> np.ndarray:
    """The TEMPLATE_PX part of a window (of any channels) where `match` found its best patch in
    that window's ink map (`found.shift` off its middle)."""
    x, y = _MARGIN + int(found.shift[0]), _MARGIN + int(found.shift[1])
    return window[y:y + TEMPLATE_PX, x:x + TEMPLATE_PX]


def standardized(patch: np.ndarray) -> np.ndarray:
    """Zero mean, unit norm: what NCC compares."""
    p = patch.astype(np.float32) - float(patch.mean())
    return p / max(float(np.linalg.norm(p)), 1e-6)


@dataclass(frozen=True)
class Match:
    """Best correlation per symbol, and where the best one sat (shift in window pixels)."""

    scores: dict[str, float]
    best_symbol: str
    shift: tuple[float, float]  # (dx, dy) of the face center from the window center, in face px
    best_patch: np.ndarray  # the window part that matched best, as it lies in the window
    turn: int  # quarter turns of the template that matched best

    @property
    def patch(self) -> np.ndarray:
        """The window part that matched best, turned like the template it matched (what
        teaching averages; reading never needs it, so it is turned only when asked)."""
        return np.ascontiguousarray(np.rot90(self.best_patch, self.turn))


def _bank(templates: list[tuple[str, np.ndarray]]
          ) -> tuple[np.ndarray, list[str], list[int], tuple[list[str], np.ndarray, np.ndarray]]:
    """All templates at the 4 quarter turns as matrix columns, with each column's symbol and
    turn, and the symbols with their columns (names, column order, group starts). Turning the
    few templates is cheaper than turning every window."""
    # Keyed by the list itself (a profile hands out the same list for a color every time); the
    # cache holds the list, so its id cannot be reused while cached.
    cached = _BANKS.get(id(templates))
    if cached is None:
        columns, symbols, turns = [], [], []
        for turn in range(4):
            for symbol, template in templates:
                columns.append(np.rot90(template, -turn).ravel())
                symbols.append(symbol)
                turns.append(turn)
        names = list(dict.fromkeys(symbols))
        # Each symbol's columns side by side (`order`), each group starting at `starts`: one
        # maximum.reduceat then gives every symbol's best.
        members = [[i for i, s in enumerate(symbols) if s == name] for name in names]
        order = np.array([i for group in members for i in group])
        starts = np.cumsum([0] + [len(group) for group in members[:-1]])
        cached = (np.stack(columns, axis=1).astype(np.float32), symbols, turns, templates, (names, order, starts))
        if len(_BANKS) > 32:
            _BANKS.clear()
        _BANKS[id(templates)] = cached
    return cached[0], cached[1], cached[2], cached[4]


_BANKS: dict[int, tuple] = {}
SHIFTS = WINDOW_PX - TEMPLATE_PX + 1  # template positions along each axis of a window


def match(window: np.ndarray, templates: list[tuple[str, np.ndarray]]) -> Match:
    """Correlate `window` with every template at 4 quarter turns and every shift (see
    `_correlations`)."""
    patches, correlation, symbols, turns, groups = _correlations(window, templates)
    best_per_column = correlation.max(axis=0)
    names, order, starts = groups
    scores = dict(zip(names, np.maximum.reduceat(best_per_column[order], starts).tolist()))
    winner = int(best_per_column.argmax())
    position = int(correlation[:, winner].argmax())
    ly, lx = divmod(position, SHIFTS)
    o = (WINDOW_PX - TEMPLATE_PX) / 2.0
    return Match(scores, symbols[winner], (float(lx - o), float(ly - o)),
                 patches[position].reshape(TEMPLATE_PX, TEMPLATE_PX).copy(), turns[winner])


def aligned_patches(window: np.ndarray, templates: list[tuple[str, np.ndarray]]) -> list[np.ndarray]:
    """For each of `templates`, in order, the TEMPLATE_PX part of `window` it matches best (of
    every shift and quarter turn), turned like it: what `match(window, [template]).patch`
    gives for each one alone, in one product."""
    patches, correlation, _, turns, _ = _correlations(window, templates)
    count = len(templates)
    aligned = []
    for k in range(count):
        columns = correlation[:, k::count]  # template k at each quarter turn (see `_bank`)
        position, turn = divmod(int(columns.argmax()), 4)
        aligned.append(np.rot90(patches[position].reshape(TEMPLATE_PX, TEMPLATE_PX), turns[k + turn * count]))
    return aligned


def _correlations(window: np.ndarray, templates: list[tuple[str, np.ndarray]]
                  ) -> tuple[np.ndarray, np.ndarray, list[str], list[int], tuple]:
    """Every TEMPLATE_PX patch of `window` (one per row) and its normalized correlation with
    every column of the templates' bank (see `_bank`), with the bank's symbols, turns and groups.
    One matrix product does it all: templates are zero-mean and unit-norm, so the normalized
    correlation of a patch is its dot product with the template over the patch's own spread."""
    window = np.ascontiguousarray(window, dtype=np.float32)
    rows, columns = window.strides
    # Every TEMPLATE_PX square of the window, one per row (numpy's sliding_window_view does the
    # same with many times the overhead, which counts: a frame matches dozens of windows).
    # The view is made by ndarray itself: as_strided's checks took 3 of its 3.5 us.
    patches = np.ndarray((SHIFTS, SHIFTS, TEMPLATE_PX, TEMPLATE_PX), np.float32, window, 0,
                         (rows, columns, rows, columns)).reshape(-1, TEMPLATE_PX * TEMPLATE_PX)
    # Each patch's sum and sum of squares from the window's integral images.
    sums, squares = cv2.integral2(window)
    n = TEMPLATE_PX
    sums = (sums[n:, n:] - sums[:-n, n:] - sums[n:, :-n] + sums[:-n, :-n]).ravel()
    squares = (squares[n:, n:] - squares[:-n, n:] - squares[n:, :-n] + squares[:-n, :-n]).ravel()
    spread = np.sqrt(np.maximum(squares - sums * sums / (n * n), 1e-6)).astype(np.float32)
    bank, symbols, turns, groups = _bank(templates)
    correlation = patches @ bank
    correlation /= spread[:, None]  # in place: the product is a fresh array
    return patches, correlation, symbols, turns, groups


def mean_template(windows: list[np.ndarray], rounds: int = 3) -> np.ndarray:
    """Mean face of one symbol from its windows, after aligning each (quarter turn and shift)
    to the running mean, so small center and angle errors in teaching do not blur it."""
    template = standardized(inner(windows[0]))
    for _ in range(rounds):
        # One list per round: `match` caches its template bank by the list it is handed.
        against = [("", template)]
        aligned = [standardized(match(window, against).patch) for window in windows]
        template = standardized(np.mean(aligned, axis=0))
    return template.astype(np.float32)


def turned_copies(template: np.ndarray, degrees: tuple[float, ...]) -> list[np.ndarray]:
    """The template turned by each angle (edges reflected), standardized again."""
    center = ((TEMPLATE_PX - 1) / 2.0, (TEMPLATE_PX - 1) / 2.0)
    copies = []
    for angle in degrees:
        if angle == 0:
            copies.append(template)
            continue
        rotation = cv2.getRotationMatrix2D(center, angle, 1.0)
        turned = cv2.warpAffine(template, rotation, (TEMPLATE_PX, TEMPLATE_PX), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
        copies.append(standardized(turned))
    return copies


TILTED = "/tilted"  # suffix of the symbol name of a template seen as on a cocked die
TILT_SQUASH = 0.7  # a face turned 45 degrees away from the camera looks this much narrower


def tilted_copy(template: np.ndarray) -> np.ndarray:
    """The template as it would look on a cocked die's 45-degree face: squashed across, the rest
    of the window left at the mean (it shows another face there)."""
    width = max(2, int(round(TEMPLATE_PX * TILT_SQUASH)))
    squashed = cv2.resize(template, (width, TEMPLATE_PX), interpolation=cv2.INTER_AREA)
    out = np.zeros_like(template)
    left = (TEMPLATE_PX - width) // 2
    out[:, left:left + width] = squashed
    return standardized(out)
