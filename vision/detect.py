"""Finding dice: die-colored blobs of a die's size, split where dice touch.

Works on a downscaled frame (a die about `DETECT_SIDE_PX` wide) because finding is about
blobs, not detail; the symbol is read later on full-resolution crops. Every die color is found
separately, so touching dice of different colors come apart for free; touching dice of the same
color are split by area (how many dice fit in the blob) and k-means on the blob's pixels. A blob
too big for a heap of dice gives the dice in its bright cores, and those in the die-sized parts a
neck joins to the rest of a core; what stands out from the table far more than a die must, away
from every blob found, is a blob too (a die of a color the teach tables showed).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from .color import ColorModel
from .exposure import normalized
from .halving import halved

DETECT_SIDE_PX = 20.0  # die side at detection scale, for the smallest taught die
KMEANS_SAMPLE = 400  # about this many of a blob's pixels place the centers it is split around
# A bigger same-colored blob is no heap of dice: a card, a mat, or dice run together with their
# shadows or the table (a light cloth's grey shadows, dark wood under a warm lamp), whose bright
# cores alone can be dice.
MAX_DICE_PER_BLOB = 6
# A part of such a blob joined to the rest by a neck is a die when, cut where the blob lies NECK die
# sides deep at least, it leaves a core of NECK_CORE times a die's core's area (see `_necked_dice`).
# Renderer, 300 scenes per style: errors 230 -> 225 (missed 101 -> 95: scene 136's two white dice
# touching a white card, in three styles; a chip more taken for a die unread), flagged 1626 either
# way; with cocked dice drawn as cubes (`--cocked-3d`): 630 -> 626 (missed 161 -> 157); box C
# taught on its 8 and under other lamps and cameras, unchanged; its 70 four-image teachings: 314 ->
# 315 (a phantom more, not in a frame where such a part was split off while reading: teaching
# finds its blobs with the split too).
NECK, NECK_CORE = 0.3, (0.4, 2.5)
OPEN_SHARE = 0.35  # opening disc diameter, in die sides
MIN_BLOB_SHARE = 0.35  # blobs smaller than this share of a die are specks, ink, or noise
# On a plain table the contrast ramp starts at this many times the frame's median contrast
# (mostly the table's own), but not below the floor (shadows and felt fluff stay table).
PLAIN_TABLE_FACTOR, PLAIN_TABLE_FLOOR = 4.0, 40.0
# A pixel standing out from the table STANDOUT times the top of the ramp is a die's, whatever the
# color model says; within STANDOUT_OWN blob sides of a candidate it is that die's (its shadow,
# its sides), and a blob of them counts STANDOUT_APART blob sides from every candidate.
STANDOUT, STANDOUT_OWN, STANDOUT_APART = 2.0, 0.7, 1.3
MERGED_AREA, MERGED_ASPECT = 1.2, 1.45  # a blob this much bigger than a die and this long is two
# A blob of two of the frame's dice by area is one die when it is this square (long side over short,
# at most), this well filled (share of its rectangle, at least) and under this many dice of the
# taught size: two dice side by side make a long blob, and the frame's die area can come out
# small (blobs of washed-out faces alone are part of a die).
ONE_DIE_ASPECT, ONE_DIE_FILL, ONE_DIE_AREA = 1.25, 0.7, 1.75
# A blob carries paint when holes make this share of the area inside its outline; blobs that
# do are the frame's dice when they are this much bigger than the die-shaped blobs all told.
PAINT_HOLES, PAINTED_BIGGER = 0.01, 1.5
SINGLE_AREA = (0.4, 2.6)  # a one-die blob's area, relative to the taught median's and the biggest's
# A die of nearly the table's color (a white die on a white cloth, a red one on dim wood) makes
# no blob: the color model takes its face for table, and only its outline, shade and paint stand
# out much. It still stands out a little all over, as the table does not: the middles of the
# patches that stand out FAINT_CONTRAST times the frame's median contrast (at least FAINT_FLOOR)
# and are solid for FAINT_DEPTH blob sides around are faint candidates (see `find_faint`).
# Read where no die was (see `vision.reader`): renderer, 400 scenes, 322 -> 281 errors; box C's
# 70 four-image teachings 633 -> 581. A floor of 20: 289; 2.5 times: 275, but more of box C's
# mat print read (every 5th teaching: 115 against 111); solid for 0.3 blob sides 281, 0.42 290.
FAINT_CONTRAST, FAINT_FLOOR, FAINT_DEPTH = 3.0, 15.0, 0.36
FAINT_APART = 0.6  # faint middles closer than this many blob sides are one


@dataclass(frozen=True)
class Candidate:
    """A die-shaped blob: where it is (full-resolution pixels), how big, and its color."""

    color: str
    center: tuple[float, float]
    side: float  # sqrt of the blob area per die, full-resolution pixels (top face plus sides)
    color_confidence: float  # mean probability of `color` (given a die) over the blob
    fill: float  # blob area over its smallest enclosing rectangle's: ~0.9 for a die seen from above
    aspect: float  # long over short side of that rectangle
    # Found only by standing out far from the table, against the color model: it must read surely.
    standing_out: bool = False
    # Found with no blob of its own (standing out faintly, see `find_faint`, or by the learnt die
    # finder): its fill and aspect are made up, and its face must match a symbol closely.
    no_blob: bool = False
    # Found by the learnt die finder (`vision.die_finder`), which judged it a die already.
    learnt: bool = False
    # Found by the learnt die finder short of its bar (see `vision.reader.DOUBTFUL_LOGIT`): a die
    # only when its face reads surely, or one seen but not read by stricter bars.
    doubtful: bool = False


def detection_scale(min_die_size: float) -> float:
    """Downscale factor that makes the smallest taught die `DETECT_SIDE_PX` wide."""
    return min(1.0, DETECT_SIDE_PX / max(min_die_size, 1.0))


@dataclass(frozen=True)
class Evidence:
    """Per-pixel evidence at detection scale."""

    table: np.ndarray  # (H, W) posterior of the table class from the color model
    die_color: np.ndarray  # (K, H, W) which die color, for a pixel on a die: one plane per color
    contrast: np.ndarray  # (H, W) Lab distance from the local table color
    lightness: np.ndarray  # (H, W) uint8 gray level of the exposure-normalized frame


def local_contrast(small_bgr: np.ndarray) -> np.ndarray:
    """How much each pixel differs (summed opponent-color differences) from the table around it.

    The table color is a wide median (about 5 dice across), which dice, tokens and shadows are
    too small to move; this finds a red die on red felt or a die in a dark corner, where a
    global color model alone cannot.
    """
    tiny = cv2.resize(small_bgr, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    kernel = int(DETECT_SIDE_PX * 1.25) | 1
    table = cv2.resize(cv2.medianBlur(tiny, kernel), (small_bgr.shape[1], small_bgr.shape[0]),
                       interpolation=cv2.INTER_LINEAR)
    return cv2.blur(_opponent_distance(small_bgr, table), (3, 3))


#: BGR to opponent colors, for cv2.transform (also `vision.outline`'s steps).
OPPONENT = np.array([[1 / 3, 1 / 3, 1 / 3],  # B, G, R -> lightness
                     [0.0, -1.0, 1.0],  # red - green
                     [-1.0, 0.5, 0.5]], np.float32)  # yellow - blue
CHANNEL_SUM = np.ones((1, 3), np.float32)  # the three channels added into one (faster than numpy's sum)
# Pixels per run of `_opponent_distance` (a multiple of 64; see there), and how far each run's
# transform reaches past it.
OPPONENT_RUN, TRANSFORM_TAIL = 16384, 64


def _opponent_distance(bgr: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Per pixel, the L1 distance in opponent colors (lightness, red-green, yellow-blue) of two
    BGR images: a change of lightness and one of hue count alike, like Lab but linear and so
    much cheaper.

    Worked in runs of `OPPONENT_RUN` pixels: over the whole frame, each step's float32 result
    is a fresh 2.8 MB (detection frame 557x418) whose pages the kernel faults in anew every
    frame (2,000 faults), while a run's stays in cache: 4.8 -> 2.1 ms with the table median.
    cv2.transform works the last few pixels of a call on a scalar path that rounds differently
    from its SIMD body, so each run's transform reaches `TRANSFORM_TAIL` pixels past the run
    (the next run computes those again): every pixel but the frame's last few goes through the
    SIMD body as in one call over the (contiguous) frame, and those last few through the same
    scalar path, since runs start on multiples of 64 pixels.
    """
    pixels, tables = bgr.reshape(1, -1, 3), table.reshape(1, -1, 3)
    total = pixels.shape[1]
    distance = np.empty(total, np.float32)
    for start in range(0, total, OPPONENT_RUN):
        end = min(start + OPPONENT_RUN + TRANSFORM_TAIL, total)
        difference = cv2.subtract(pixels[:, start:end], tables[:, start:end], dtype=cv2.CV_32F)
        opponent = np.abs(cv2.transform(difference, OPPONENT), out=difference)
        distance[start:end] = cv2.transform(opponent, CHANNEL_SUM).reshape(-1)
    return distance.reshape(bgr.shape[:2])


def downscaled(frame_bgr: np.ndarray, scale: float, half_frame: np.ndarray | None = None) -> np.ndarray:
    """The frame at `scale`, averaging pixels (`half_frame`: the frame `halved` already, if known)."""
    height, width = frame_bgr.shape[:2]
    size = (max(1, int(round(width * scale))), max(1, int(round(height * scale))))
    # Halve with a 2x2 mean until within a factor of 2 (cheap and alias-free), then bilinear.
    if half_frame is not None and width >= 2 * size[0] and height >= 2 * size[1]:
        frame_bgr = half_frame
    while frame_bgr.shape[1] >= 2 * size[0] and frame_bgr.shape[0] >= 2 * size[1]:
        frame_bgr = halved(frame_bgr)
    return cv2.resize(frame_bgr, size, interpolation=cv2.INTER_LINEAR)


def gather_evidence(frame_bgr: np.ndarray, model: ColorModel, scale: float,
                    half_frame: np.ndarray | None = None) -> Evidence:
    """Color posteriors and local contrast of the downscaled, exposure-normalized frame, lightly
    smoothed so single noisy pixels do not make or break a die (`half_frame`: see `downscaled`)."""
    small = normalized(downscaled(frame_bgr, scale, half_frame))
    table, die_color = model.classify(small)
    for plane in die_color:
        cv2.blur(plane, (5, 5), dst=plane)
    cv2.blur(table, (3, 3), dst=table)  # in place: one frame-sized array fewer (0.3 ms in the reader)
    return Evidence(table, die_color, local_contrast(small), cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))


def die_masks(evidence: Evidence, contrast_range: tuple[float, float]) -> list[np.ndarray]:
    """One cleaned binary mask per die color (class 1..K).

    A pixel is a die pixel when the color model says so, or when it stands out from the table
    around it (contrast above the taught range) and is not surely table; its color is then the
    most likely die color.
    """
    return _color_masks(evidence, _die_pixels(evidence, _frame_contrast_range(evidence.contrast, contrast_range)))


def _color_masks(evidence: Evidence, is_die: np.ndarray) -> list[np.ndarray]:
    # A pixel's die-color shares sum to 1, so a share over a half is also the largest: no argmax.
    return [_cleaned((is_die & (plane > 0.5)).view(np.uint8)) for plane in evidence.die_color]


def _die_pixels(evidence: Evidence, frame_range: tuple[float, float]) -> np.ndarray:
    """The die pixels, given the frame's contrast ramp (see `_frame_contrast_range`)."""
    # Worked in place, three frame-sized buffers in all: each step into a fresh one made eight,
    # whose pages the kernel faulted in anew (900 faults a frame; 1.8 -> 0.7 ms). The steps are
    # those of the plain expressions, so every value is the same.
    table, contrast = evidence.table, evidence.contrast
    low, high = frame_range
    # standing_out = clip((contrast - low) / (high - low), 0, 1), where table < 0.995
    standing_out = np.subtract(contrast, low)
    np.divide(standing_out, max(high - low, 1e-3), out=standing_out)
    np.clip(standing_out, 0.0, 1.0, out=standing_out)
    np.multiply(standing_out, table < 0.995, out=standing_out)
    # Whatever the color model says, a pixel that looks like the table around it is table:
    # this keeps an untaught tablecloth, or table art in a die color, from becoming dice.
    # unlike_table = clip(contrast / low * 2 - 1, 0, 1)
    unlike_table = np.divide(contrast, max(low, 1e-3))
    np.multiply(unlike_table, 2.0, out=unlike_table)
    np.subtract(unlike_table, 1.0, out=unlike_table)
    np.clip(unlike_table, 0.0, 1.0, out=unlike_table)
    # die_evidence = max(1 - table, standing_out) * unlike_table
    die_evidence = np.subtract(1.0, table)
    np.maximum(die_evidence, standing_out, out=die_evidence)
    np.multiply(die_evidence, unlike_table, out=die_evidence)
    return die_evidence > 0.5


def _frame_contrast_range(contrast: np.ndarray, taught: tuple[float, float]) -> tuple[float, float]:
    """The taught contrast ramp, lowered on a plain table: where the table hardly varies (felt,
    laminate), a die of nearly the table's color still stands out from it more than the table
    does from itself."""
    low, high = taught
    plain = float(np.median(contrast[::4, ::4])) * PLAIN_TABLE_FACTOR
    frame_low = min(low, max(plain, PLAIN_TABLE_FLOOR))
    return frame_low, frame_low + (high - low) * frame_low / max(low, 1e-3)


def _cleaned(mask: np.ndarray) -> np.ndarray:
    # Opening with a disc a third of a die wide erases lines, letters' strokes and thin rims
    # that touch a die and would otherwise join it into one blob.
    side = OPEN_SHARE * DETECT_SIDE_PX
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(side) | 1, int(side) | 1))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)


def _frame_die_area(blobs: list[np.ndarray], expected_area: float, largest_area: float) -> float:
    """Typical single-die blob area in this frame, from blobs that look like one die (near
    square, well filled); the camera height changes it from frame to frame. `expected_area` is
    the taught median die's blob area, `largest_area` the biggest taught die's.

    A die's blob may be up to SINGLE_AREA times the bigger of the two: the median alone would cap
    the frame's dice near 1.6 median sides, below the biggest taught where a table's photos
    show dice at several camera heights, and a frame of dice past that cap is split into pieces
    (box C taught on its 8 and read 1.35 times magnified, dice of up to 124 px: 14 dice missed).

    A checked cloth or a printed mat can make die-colored, die-shaped blobs that outnumber the
    dice many times over, and their size would be taken for the dice's: a whole frame of dice
    is then split into quarters. A die carries paint, which leaves holes in its blob, and the
    table's checks or spots do not: when the blobs with holes are much bigger than the others,
    they are the dice.
    """
    singles, painted = [], []
    for points in blobs:
        area = len(points)
        if not SINGLE_AREA[0] * expected_area <= area <= SINGLE_AREA[1] * max(expected_area, largest_area):
            continue
        x0, y0, x1, y1 = _bounds(points)
        width, height = x1 - x0 + 1, y1 - y0 + 1
        aspect = max(width, height) / max(1, min(width, height))
        if aspect < 1.35 and area >= 0.55 * width * height:
            singles.append(area)
            if _hole_share(points, (x0, y0, x1, y1)) >= PAINT_HOLES:
                painted.append(area)
    if len(singles) < 2:
        return expected_area
    usual = float(np.median(singles))
    if len(painted) >= 2 and float(np.median(painted)) > PAINTED_BIGGER * usual:
        return float(np.median(painted))
    return usual


def _bounds(points: np.ndarray) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) around a blob's (x, y) rows in row-major order: a column's own min and
    max, which is many times faster than numpy's reduction along axis 0 of the pairs."""
    xs = points[:, 0]
    return int(xs.min()), int(points[0, 1]), int(xs.max()), int(points[-1, 1])


def _margined_mask(points: np.ndarray, bounds: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A blob's (x, y) pixel rows, within their `_bounds`, as a 0/1 mask with one pixel of margin
    all round, and the frame position (x, y) of the mask's top-left pixel."""
    x0, y0, x1, y1 = bounds
    mask = np.zeros((y1 - y0 + 3, x1 - x0 + 3), np.uint8)
    mask[points[:, 1].astype(np.intp) - (y0 - 1), points[:, 0].astype(np.intp) - (x0 - 1)] = 1
    return mask, np.array([x0 - 1, y0 - 1], np.float32)


def _hole_share(points: np.ndarray, bounds: tuple[int, int, int, int]) -> float:
    """The share of the area inside a blob's outline that is not the blob (a die's painted
    symbol), given its (x, y) pixel rows and their `_bounds`."""
    # The margin all round: the flood from a corner reaches everything outside the blob.
    mask, _ = _margined_mask(points, bounds)
    cv2.floodFill(mask, None, (0, 0), 1)
    holes = mask.size - cv2.countNonZero(mask)
    return holes / (holes + len(points))


def find_candidates(frame_bgr: np.ndarray, model: ColorModel, die_sizes: tuple[float, float, float],
                    blob_side_ratio: float, contrast_range: tuple[float, float]) -> list[Candidate]:
    """All die-shaped blobs in the frame.

    `die_sizes` is (min, median, max) taught top-face side in pixels and `blob_side_ratio` the
    taught ratio of blob side (sqrt area) to top-face side, so the expected blob area is known
    before looking at the frame; `contrast_range` the taught local-contrast ramp (see
    `die_masks`).
    """
    return find_all_candidates(frame_bgr, model, die_sizes, blob_side_ratio, contrast_range)[0]


def find_all_candidates(frame_bgr: np.ndarray, model: ColorModel, die_sizes: tuple[float, float, float],
                        blob_side_ratio: float, contrast_range: tuple[float, float], faint: bool = True,
                        half_frame: np.ndarray | None = None) -> tuple[list[Candidate], list[Candidate]]:
    """`find_candidates`'s blobs, and (with `faint`) the frame's faint candidates
    (`find_faint`): those are worth reading only where no blob made a die, so they come apart.
    `half_frame`: the frame halved already (see `downscaled`)."""
    min_size, median_size, max_size = die_sizes
    scale = detection_scale(min_size)
    evidence = gather_evidence(frame_bgr, model, scale, half_frame)
    expected_area = (median_size * blob_side_ratio * scale) ** 2
    blobs = []  # (class index, pixels)
    frame_range = _frame_contrast_range(evidence.contrast, contrast_range)
    is_die = _die_pixels(evidence, frame_range)
    for k, mask in enumerate(_color_masks(evidence, is_die), start=1):
        for points in _components(mask)[1]:
            if len(points) < MIN_BLOB_SHARE * 0.4 * expected_area:
                continue
            blobs.append((k, points))
    die_area = _frame_die_area([points for _, points in blobs], expected_area,
                               (max_size * blob_side_ratio * scale) ** 2)
    candidates = []
    for k, points in blobs:
        candidates.extend(_blob_candidates(points, (die_area, expected_area), evidence, scale, model, k))
    # Dice that no color's mask holds whole (a washed-out face mixes colors, so no color's mask
    # alone may hold enough of it): blobs of the die pixels of every color together, cleaned
    # alike, where no candidate sits yet, colored by their pixels' most likely color.
    labels, union = _components(_cleaned(is_die.astype(np.uint8)))
    found = np.array([c.center for c in candidates], np.float32).reshape(-1, 2) * scale
    spots = np.clip(np.round(found).astype(np.intp), 0, np.array(labels.shape[::-1]) - 1)
    held = np.bincount(labels[spots[:, 1], spots[:, 0]], minlength=len(union) + 1)  # candidates per blob
    near = 0.5 * np.sqrt(die_area)
    for i, points in enumerate(union, start=1):
        if held[i] >= round(len(points) / die_area):
            continue  # the color masks found as many dice here as fit
        for candidate in _blob_candidates(points, (die_area, expected_area), evidence, scale, model):
            if _farther_than(near, candidate, found, scale):
                candidates.append(candidate)
    # Dice of a color the teach tables showed (cream lettering teaches that a white die's shades
    # are surely table): blobs of the pixels that stand out far more than a die must, whatever
    # the color model says, away from every candidate (a die's shadow or side stands out as much
    # beside it), colored by their pixels' most likely color.
    found = np.array([c.center for c in candidates], np.float32).reshape(-1, 2) * scale
    apart = STANDOUT_APART * np.sqrt(die_area)
    standing_out = (evidence.contrast > STANDOUT * frame_range[1]).astype(np.uint8)
    for spot in np.round(found).astype(int):
        cv2.circle(standing_out, (int(spot[0]), int(spot[1])), int(STANDOUT_OWN * np.sqrt(die_area)), 0, -1)
    for points in _components(_cleaned(standing_out))[1]:
        for candidate in _blob_candidates(points, (die_area, expected_area), evidence, scale, model, cores=False):
            if _farther_than(apart, candidate, found, scale):
                candidates.append(dataclasses.replace(candidate, standing_out=True))
    return candidates, find_faint(evidence, die_area, scale, model) if faint else []


def find_faint(evidence: Evidence, die_area: float, scale: float, model: ColorModel) -> list[Candidate]:
    """Faint candidates: the middles of solid patches standing out a little from the table
    (see `FAINT_CONTRAST`), found against the color model, so each must be read.

    Each is placed where the patch is deepest (farthest from its edge), one die of the frame's
    size (`die_area`, detection-scale pixels), colored by its middle's most likely die color.
    """
    contrast = evidence.contrast
    side = float(np.sqrt(die_area))
    level = max(FAINT_CONTRAST * float(np.median(contrast[::4, ::4])), FAINT_FLOOR)
    patches = cv2.morphologyEx((contrast > level).view(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    depth = cv2.distanceTransform(patches, cv2.DIST_L2, 3)
    reach = int(FAINT_APART * side) | 1
    deepest = (depth >= FAINT_DEPTH * side) & (depth >= cv2.dilate(depth, np.ones((reach, reach), np.uint8)))
    spots = cv2.findNonZero(deepest.view(np.uint8))
    if spots is None:
        return []
    # A plateau of equal depth holds many deepest pixels: the deepest first, one per place.
    spots = spots.reshape(-1, 2)
    spots = spots[np.argsort(-depth[spots[:, 1], spots[:, 0]], kind="stable")]
    # The deepest in each cell a third of the spacing wide first (a card's long ridge is
    # hundreds of pixels), then the deepest of those far enough apart.
    cells = spots // max(1, int(FAINT_APART * side / 3))
    _, first = np.unique(cells[:, 0] * 65536 + cells[:, 1], return_index=True)
    spots = spots[np.sort(first)].astype(np.float32)
    near = np.hypot(*(spots[:, None, :] - spots[None, :, :]).transpose(2, 0, 1)) < FAINT_APART * side
    kept: list[int] = []
    for i in range(len(spots)):
        if not near[i, kept].any():
            kept.append(i)
    half = max(1, int(0.3 * side))
    height, width = contrast.shape
    candidates = []
    for x, y in spots[kept]:
        col, row = int(round(x)), int(round(y))
        shares = evidence.die_color[:, max(0, row - half):min(height, row + half + 1),
                                    max(0, col - half):min(width, col + half + 1)].mean(axis=(1, 2))
        color = int(np.argmax(shares))
        candidates.append(Candidate(model.classes[color + 1], ((x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5),
                                    side / scale, float(shares[color]), 0.9, 1.0, standing_out=True, no_blob=True))
    return candidates


def _farther_than(distance: float, candidate: Candidate, found: np.ndarray, scale: float) -> bool:
    """Whether a candidate lies farther than `distance` from every (x, y) row of `found`
    (detection-scale pixels, as `distance` is)."""
    spot = np.array(candidate.center, np.float32) * scale
    return not len(found) or float(np.hypot(*(found - spot).T).min()) > distance


def _components(mask: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The 4-connected blobs of a 0/1 mask: the label image, and each blob's pixels as (x, y)
    rows (float32, in row-major order), blob i at index i - 1.

    Gathering a sparse mask's pixels by label is several times faster than OpenCV's own
    per-blob statistics, which visit every pixel of the frame again.
    """
    try:
        # 16-bit labels: a cleaned mask has far fewer than 65535 blobs, and numpy's stable sort
        # of 16-bit keys below is a radix sort.
        count, labels = cv2.connectedComponents(mask, connectivity=4, ltype=cv2.CV_16U)
    except cv2.error:  # more blobs than 16 bits can label
        count, labels = cv2.connectedComponents(mask, connectivity=4)
    if count <= 1:
        return labels, []
    # The mask's pixels in row-major order, as cv2.findNonZero gives them: numpy finds a bool
    # array's (the 0/1 mask seen as one) four times faster (0.27 -> 0.07 ms a detection frame).
    found = np.flatnonzero(mask.view(bool))
    which = labels.reshape(-1)[found]
    order = np.argsort(which, kind="stable")
    rows, cols = np.divmod(found[order], mask.shape[1])
    points = np.empty((len(found), 2), np.float32)
    points[:, 0], points[:, 1] = cols, rows
    ends = np.searchsorted(which[order], np.arange(1, count + 1))
    return labels, np.split(points, ends[1:-1])


def _blob_candidates(points: np.ndarray, die_areas: tuple[float, float], evidence: Evidence, scale: float,
                     model: ColorModel, k: int | None = None, cores: bool = True,
                     necks: bool = False) -> list[Candidate]:
    """The dice in one blob (its pixels' (x, y) rows): none for a speck, the dice in the bright
    cores of a blob too big to be a heap of dice (with `cores`), or with `necks` the dice it
    holds joined to the rest by a neck (`_necked_dice`), else one per die-sized share of its
    area. `die_areas` is a die's blob area in this frame and as taught, `k` the blob's color
    class, or None to take each die's most likely color."""
    die_area, taught_area = die_areas
    area = len(points)
    if area < MIN_BLOB_SHARE * die_area:
        return []
    count = int(round(area / die_area))
    if count > MAX_DICE_PER_BLOB:
        if cores:
            return _bright_cores(points, die_areas, evidence, scale, model, k)
        return _necked_dice(points, die_areas, evidence, scale, model, k) if necks else []
    sides = None  # the blob's `_rect_sides`, once known
    if count <= 1 and area > MERGED_AREA * die_area:
        # Two dice side by side can have the area of one big one; their blob is long.
        w, h = sides = _rect_sides(points)
        if max(w, h) > MERGED_ASPECT * max(min(w, h), 1.0):
            count = 2
    elif count == 2 and area < ONE_DIE_AREA * max(die_area, taught_area):
        w, h = sides = _rect_sides(points)
        if max(w, h) < ONE_DIE_ASPECT * max(min(w, h), 1.0) and area >= ONE_DIE_FILL * (w + 1) * (h + 1):
            count = 1
    candidates = []
    planes = evidence.die_color.reshape(len(evidence.die_color), -1)
    for group in _split(points, max(1, count)):
        # Every color's shares at the group's pixels, (colors, pixels), by their flat index.
        spots = group[:, 1].astype(np.intp) * evidence.die_color.shape[2] + group[:, 0].astype(np.intp)
        shares = _mean_in_order(np.take(planes, spots, axis=1), axis=1)
        color = int(np.argmax(shares)) if k is None else k - 1
        cx, cy = _mean_in_order(group, axis=0)
        w, h = sides if group is points and sides is not None else _rect_sides(group)
        candidates.append(Candidate(model.classes[color + 1], ((cx + 0.5) / scale - 0.5, (cy + 0.5) / scale - 0.5),
                                    float(np.sqrt(len(group)) / scale), float(shares[color]),
                                    float(len(group) / max((w + 1) * (h + 1), 1.0)),
                                    float((max(w, h) + 1) / (min(w, h) + 1))))
    return candidates


def _mean_in_order(values: np.ndarray, axis: int) -> np.ndarray:
    """The mean along `axis` of (2-D) values, the pixels' sums added one pixel after another:
    to the last bit what numpy's `mean` gives for a blob's (pixels, 2) points and for the
    (colors, pixels) shares `die_color[:, ys, xs]` (pixel-major in memory), whose reductions
    run their inner loop across the two or three values of one pixel, and much faster.

    Numpy's pairwise sum along a contiguous row of pixels rounds differently; the last entry of
    a cumulative sum is the in-order sum (blob candidates: 3.0 -> 2.6 ms per benchmark frame).
    """
    return np.cumsum(values, axis=axis).take(-1, axis=axis) / values.shape[axis]


def _bright_cores(points: np.ndarray, die_areas: tuple[float, float], evidence: Evidence, scale: float,
                  model: ColorModel, k: int | None) -> list[Candidate]:
    """The dice in the parts of an oversize blob brighter than the rest of it (Otsu's split of
    its gray levels), cleaned as a mask is. Under a hard lamp on a light cloth, white dice and
    the grey shadows of every die run together, as red dice do with dark wood under a warm lamp;
    the dice's lit tops are the bright cores."""
    xs, ys = points[:, 0].astype(np.intp), points[:, 1].astype(np.intp)
    levels = evidence.lightness[ys, xs]
    threshold, _ = cv2.threshold(levels.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = levels > threshold
    x0, y0 = int(xs.min()), int(ys.min())
    mask = np.zeros((int(ys.max()) - y0 + 1, int(xs.max()) - x0 + 1), np.uint8)
    mask[ys[bright] - y0, xs[bright] - x0] = 1
    offset = np.array([x0, y0], np.float32)
    return [candidate for core in _components(_cleaned(mask))[1]
            for candidate in _blob_candidates(core + offset, die_areas, evidence, scale, model, k, cores=False,
                                              necks=True)]


def _necked_dice(points: np.ndarray, die_areas: tuple[float, float], evidence: Evidence, scale: float,
                 model: ColorModel, k: int | None) -> list[Candidate]:
    """The dice in the die-sized parts of an oversize blob that a neck narrower than a die joins
    to the rest: a white die touching a white card at a corner makes one blob with it, as
    bright as the card all over. Where the blob (its paint's holes filled) is more than
    NECK die sides from its outline are its cores; a die's is a small square, a card's far
    bigger; a die-sized core grown back by as much is the die."""
    side = float(np.sqrt(die_areas[0]))
    # The margin keeps the outline's distance from the mask's own edge.
    mask, offset = _margined_mask(points, _bounds(points))
    filled = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    reach = NECK * side
    core = (cv2.distanceTransform(filled, cv2.DIST_L2, 3) > reach).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    die_core = max(1.0 - 2.0 * NECK, 0.1) ** 2 * die_areas[0]  # a die's core, its paint filled
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(reach) + 1, 2 * int(reach) + 1))
    candidates = []
    for i in range(1, count):
        if not NECK_CORE[0] * die_core <= stats[i, cv2.CC_STAT_AREA] <= NECK_CORE[1] * die_core:
            continue
        part = cv2.dilate((labels == i).astype(np.uint8), grow) & mask
        found = cv2.findNonZero(part)
        if found is None:
            continue
        candidates.extend(_blob_candidates(found.reshape(-1, 2).astype(np.float32) + offset, die_areas, evidence,
                                           scale, model, k, cores=False))
    return candidates


def _rect_sides(points: np.ndarray) -> tuple[float, float]:
    """The sides of the smallest rectangle, at any turn, around (x, y) rows of points."""
    # OpenCV takes the hull first anyway; handing it the hull halves the time for a solid blob,
    # and the hull of each row's two ends (blob pixels come row by row) is the blob's hull.
    (_, _), (width, height), _ = cv2.minAreaRect(cv2.convexHull(_row_ends(points)))
    return width, height


def _row_ends(points: np.ndarray) -> np.ndarray:
    """The first and last of each row's run of (x, y) rows of points in row-major order."""
    ys = points[:, 1]
    breaks = np.flatnonzero(ys[1:] != ys[:-1])
    return points[np.concatenate(([0], breaks, breaks + 1, [len(points) - 1]))]


def _split(points: np.ndarray, count: int) -> list[np.ndarray]:
    """Split a blob's pixels into `count` compact groups (k-means), one per die."""
    if count == 1:
        return [points]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    cv2.setRNGSeed(1)  # deterministic readings
    # A few hundred pixels place the centers as well as thousands, far faster; every pixel then
    # goes to its nearest center.
    step = max(1, len(points) // KMEANS_SAMPLE)
    _, _, centers = cv2.kmeans(points[::step], count, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    # Squared distances as dx * dx + dy * dy in place: the same sums as squaring the (pixels,
    # centers, 2) differences and summing their last axis, three times faster.
    dx, dy = points[:, 0:1] - centers[:, 0], points[:, 1:2] - centers[:, 1]
    distance = np.add(np.multiply(dx, dx, out=dx), np.multiply(dy, dy, out=dy), out=dx)
    assignment = distance.argmin(axis=1)
    return [points[assignment == j] for j in range(count) if np.any(assignment == j)]
