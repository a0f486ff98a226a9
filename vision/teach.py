"""Teaching: learn a profile (colors, die size, symbol templates, confidence calibration) from a
few labelled images of one box of dice on one table setup."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .blas import use_one_blas_thread
from .color import BACKGROUND, ColorModel
from .detect import Candidate, Evidence, detection_scale, die_masks, gather_evidence
from .die_finder import FinderModel, train_finder
from .exposure import exposure_gain, normalized
from .face_colors import TaughtChromas, body_chroma, paint_chroma
from .labels import ImageError, LabelledDie, parse_labels
from .plausibility import Plausibility
from .rim import RimColors, rim_chroma
from .profile import Calibration, Profile, ProfileError
from .symbol_discriminant import SymbolDiscriminant, fit_discriminant
from .symbols import (TILTED, face_angle, face_window, ink_key, ink_map, inner, mean_template, strong_ink_share, tilted_copy,
                      turned_copies)

if TYPE_CHECKING:
    from .reader import FaceReading

MIN_IMAGES = 4
MIN_EXAMPLES = 2  # every color and every symbol must show at least this often
# Blob (face plus visible sides) over face side, when labels give no size (or no die stands
# alone to measure it by): what teaching on labelled sizes learns (1.05-1.07 on rendered and
# photo-like boxes).
DEFAULT_BLOB_SIDE_RATIO = 1.07
SIZE_MEASURE_RANGE = (0.6, 1.6)  # lone-die blobs measured in this range of the spacing guess count
MAX_BACKGROUND_SAMPLES = 400_000
TEMPLATE_TURNS_DEG = (0.0,)  # (-6, 0, 6) made non-dice match better too, and cost 3x
PER_COLOR_TEMPLATES = True  # paint looks different on each die color: fewer wrong readings


@dataclass(frozen=True)
class _Scene:
    image: np.ndarray
    dice: tuple[LabelledDie, ...]


def teach(labelled_images: list[tuple[np.ndarray, dict]]) -> Profile:
    """Learn a profile from (BGR image, label dict) pairs; raise `ProfileError` if they cannot
    teach every color and symbol."""
    use_one_blas_thread()  # deterministic and much faster small products (see vision.blas)
    scenes = [_Scene(image, tuple(parse_labels(labels, f"image #{i + 1} labels")))
              for i, (image, labels) in enumerate(labelled_images)]
    _check_coverage(scenes)
    scenes = _sized(scenes)
    learnt = _learn(scenes)
    profile = dataclasses.replace(learnt, finder=_finder(scenes), discriminant=_discriminant(scenes, learnt))
    return dataclasses.replace(profile, calibration=_calibrate(scenes, profile),
                               info={"taught_images": len(scenes),
                                     "taught_dice": sum(len(s.dice) for s in scenes)})


def _finder(scenes: list[_Scene]) -> FinderModel:
    """The learnt die finder, taught on the scenes' dice at their sizes (measured by `_sized`
    where the labels gave none)."""
    return train_finder([(scene.image, {"dice": [{"center": list(die.center), "size": die.size} for die in scene.dice]})
                         for scene in scenes])


def _discriminant(scenes: list[_Scene], profile: Profile) -> SymbolDiscriminant | None:
    """The second opinion on doubtful faces (`vision.symbol_discriminant`), taught on the
    scenes' faces, each aligned to its symbol's template for every die color."""
    anchors: dict[str, np.ndarray] = {}
    for (name, template), color in zip(profile.templates, profile.template_colors):
        if color == "" and not name.endswith(TILTED):
            anchors.setdefault(name, template)  # the first is the template as learnt, unturned
    faces = [(scene.image, die.center, die.size, die.symbol) for scene in scenes for die in scene.dice
             if die.symbol is not None]
    return fit_discriminant(faces, anchors)


def _check_coverage(scenes: list[_Scene]) -> None:
    if len(scenes) < MIN_IMAGES:
        raise ProfileError(f"teaching needs at least {MIN_IMAGES} labelled images, got {len(scenes)}")
    colors: dict[str, int] = {}
    symbols: dict[str, int] = {}
    for scene in scenes:
        for die in scene.dice:
            colors[die.color] = colors.get(die.color, 0) + 1
            if die.symbol is not None:
                symbols[die.symbol] = symbols.get(die.symbol, 0) + 1
    scarce = [f"{name} ({count}x)" for name, count in {**colors, **symbols}.items() if count < MIN_EXAMPLES]
    if scarce:
        raise ProfileError(f"teaching needs every color and symbol at least {MIN_EXAMPLES} times; "
                           f"too few: {', '.join(sorted(scarce))}")
    if len(colors) < 1 or len(symbols) < 2:
        raise ProfileError("teaching needs labelled dice of at least one color and two symbols")


def _size_guess(scene: _Scene) -> float:
    """Face side of the scene's dice: the labels' sizes if given, otherwise a guess from how
    close labelled dice lie to each other (two dice cannot be closer than about one side)."""
    sizes = [d.size for d in scene.dice if d.size]
    if sizes:
        return float(np.median(sizes))
    centers = np.array([d.center for d in scene.dice])
    if len(centers) < 2:
        return 0.04 * max(scene.image.shape[:2])
    gaps = np.hypot(*(centers[:, None, :] - centers[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    return float(np.clip(np.percentile(gaps.min(axis=1), 10) * 0.9, 8, 0.2 * max(scene.image.shape[:2])))


def _color_samples(scenes: list[_Scene]) -> dict[str, np.ndarray]:
    """Pixels near each labelled die center, per color, and table pixels far from every die."""
    samples: dict[str, list[np.ndarray]] = {}
    background_step = 1
    for scene in scenes:
        image = normalized(scene.image)
        height, width = image.shape[:2]
        size = _size_guess(scene)
        step = max(1, int(size / 20))  # ~20 samples across a die is plenty
        ys, xs = np.mgrid[0:height:step, 0:width:step]
        far = np.ones(xs.shape, bool)
        for die in scene.dice:
            side = die.size or size
            r2 = (xs - die.center[0]) ** 2 + (ys - die.center[1]) ** 2
            far &= r2 > (1.0 * side) ** 2
            x, y, r = int(die.center[0]), int(die.center[1]), int(0.42 * side)
            patch = image[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
            py, px = np.mgrid[0:patch.shape[0], 0:patch.shape[1]]
            inside = (px + max(0, x - r) - die.center[0]) ** 2 + (py + max(0, y - r) - die.center[1]) ** 2 <= r * r
            samples.setdefault(die.color, []).append(_body_pixels(patch[inside]))
        samples.setdefault(BACKGROUND, []).append(image[ys[far], xs[far]])
    merged = {k: np.concatenate(v) for k, v in samples.items()}
    table = merged[BACKGROUND]
    if len(table) > MAX_BACKGROUND_SAMPLES:
        background_step = len(table) // MAX_BACKGROUND_SAMPLES + 1
        merged[BACKGROUND] = table[::background_step]
    return merged


def _body_pixels(pixels: np.ndarray, share: float = 0.6) -> np.ndarray:
    """The die's own plastic among its face pixels: the `share` nearest to their median color,
    leaving out the painted symbol (often another die color: white paint on red dice) and glare."""
    if len(pixels) < 5:
        return pixels
    distance = np.abs(pixels.astype(np.int16) - np.median(pixels, axis=0).astype(np.int16)).sum(axis=1)
    return pixels[distance <= np.quantile(distance, share)]


def _sized(scenes: list[_Scene]) -> list[_Scene]:
    """The scenes with a size for every die whose label gives none: the median side of the
    scene's lone-die blobs, measured as the detector measures them, over the usual blob-to-face
    ratio. The labels' spacing alone (see `_size_guess`) is only a first guess, good for the
    color model that finds the blobs: teaching at it (dice often lie far apart) spanned sizes
    from a fragment's to a heap's and read photo-like dice with four times the errors."""
    if all(die.size for scene in scenes for die in scene.dice):
        return scenes
    guesses = [_size_guess(scene) for scene in scenes]
    model, scale, evidences, contrast_range = _as_detected(scenes, min(guesses))
    low, high = SIZE_MEASURE_RANGE
    sized = []
    for scene, evidence, guess in zip(scenes, evidences, guesses):
        sides = [blob / DEFAULT_BLOB_SIDE_RATIO
                 for blob, _ in _blob_sides([scene], [evidence], scale, model, contrast_range)]
        sides = [side for side in sides if low * guess <= side <= high * guess]
        size = float(np.median(sides)) if len(sides) >= MIN_EXAMPLES else guess
        sized.append(_Scene(scene.image, tuple(die if die.size else dataclasses.replace(die, size=size)
                                               for die in scene.dice)))
    return sized


def _contrast_range(scenes: list[_Scene], evidences: list[Evidence], scale: float) -> tuple[float, float]:
    """Local-contrast ramp: from what the table's own texture stays below to what most die faces
    exceed. Cards, tokens and printed table art stand out too; size, shape and the symbol check
    reject those later."""
    on_dice, on_table = [], []
    for scene, evidence in zip(scenes, evidences):
        contrast = evidence.contrast
        ys, xs = np.mgrid[0:contrast.shape[0], 0:contrast.shape[1]]
        far = np.ones(contrast.shape, bool)
        guess = _size_guess(scene)
        for die in scene.dice:
            side = (die.size or guess) * scale
            r2 = (xs - die.center[0] * scale) ** 2 + (ys - die.center[1] * scale) ** 2
            on_dice.append(contrast[r2 <= (0.3 * side) ** 2])
            far &= r2 > (1.0 * side) ** 2
        on_table.append(contrast[far])
    table_level = float(np.percentile(np.concatenate(on_table), 90))
    die_level = float(np.percentile(np.concatenate(on_dice), 20))
    return table_level, max(die_level, table_level + 10.0)


def _blob_sides(scenes: list[_Scene], evidences: list[Evidence], scale: float,
                model: ColorModel, contrast_range: tuple[float, float]) -> list[tuple[float, float | None]]:
    """(blob side, labelled face side or None) for every labelled die that stands alone in its
    color's mask, measured the way the detector measures."""
    pairs = []
    for scene, evidence in zip(scenes, evidences):
        for k, mask in enumerate(die_masks(evidence, contrast_range), start=1):
            color = model.classes[k]
            count, labels = cv2.connectedComponents(mask, connectivity=4)
            owners: dict[int, list[LabelledDie]] = {}
            for die in scene.dice:
                if die.color != color:
                    continue
                x, y = int(die.center[0] * scale), int(die.center[1] * scale)
                if 0 <= y < labels.shape[0] and 0 <= x < labels.shape[1] and labels[y, x]:
                    owners.setdefault(int(labels[y, x]), []).append(die)
            areas = np.bincount(labels.ravel(), minlength=count)
            for label, dice in owners.items():
                if len(dice) == 1:
                    pairs.append((float(np.sqrt(areas[label])) / scale, dice[0].size))
    return pairs


def _as_detected(scenes: list[_Scene], min_size: float
                 ) -> tuple[ColorModel, float, list[Evidence], tuple[float, float]]:
    """The color model the scenes teach, the detection scale for dice of `min_size`, each
    scene's evidence at that scale, and the contrast ramp they teach: the scenes as the
    detector will see them."""
    model = ColorModel.from_samples(_color_samples(scenes))
    scale = detection_scale(min_size)
    evidences = [gather_evidence(scene.image, model, scale) for scene in scenes]
    return model, scale, evidences, _contrast_range(scenes, evidences, scale)


def _learn(scenes: list[_Scene]) -> Profile:
    """Everything but the confidence calibration (which `teach` adds); every die has a size
    (see `_sized`)."""
    sizes = [d.size for s in scenes for d in s.dice]
    model, scale, evidences, contrast_range = _as_detected(scenes, float(np.min(sizes)))
    pairs = _blob_sides(scenes, evidences, scale, model, contrast_range)
    ratios = [blob / face for blob, face in pairs]
    ratio = float(np.median(ratios)) if ratios else DEFAULT_BLOB_SIDE_RATIO
    die_sizes = (float(np.min(sizes)), float(np.median(sizes)), float(np.max(sizes)))
    faces = _labelled_faces(scenes)
    windows = _symbol_windows(faces)
    templates, template_colors = _templates([w for per_scene in windows for w in per_scene])
    colors = tuple(c for c in model.classes if c != BACKGROUND)
    paint_colors, body_colors = _face_colors(scenes, faces)
    return Profile(colors, tuple(sorted({s for s, _ in templates if not s.endswith(TILTED)})), die_sizes, ratio, model, templates,
                   Calibration(min_score=0.3, margin_low=0.05, margin_high=0.2), contrast_range,
                   {"windows": windows}, template_colors, _rim_colors(scenes),
                   _ink_limits([w for per_scene in windows for w in per_scene]),
                   paint_colors=paint_colors, body_colors=body_colors)


def _ink_limits(windows: list[tuple[str, str, np.ndarray]]) -> dict[str, float]:
    """The most paint (share of the face, see `strong_ink_share`) any taught face carried: per
    symbol, and per symbol on a die color ("gun/white") that showed it at least MIN_EXAMPLES
    times (a symbol's paint covers less of a white die's face than of a red or blue one's: box
    C's teach images, gun 0.13 on white dice, 0.18 on the others)."""
    per_symbol: dict[str, float] = {}
    per_color: dict[str, float] = {}
    counts: dict[str, int] = {}
    for symbol, color, window in windows:
        share = strong_ink_share(window)
        per_symbol[symbol] = max(per_symbol.get(symbol, 0.0), share)
        key = ink_key(symbol, color)
        per_color[key] = max(per_color.get(key, 0.0), share)
        counts[key] = counts.get(key, 0) + 1
    return per_symbol | {key: share for key, share in per_color.items() if counts[key] >= MIN_EXAMPLES}


def _rim_colors(scenes: list[_Scene]) -> RimColors | None:
    """Each die color's rim chroma (see `vision.rim`), from the labelled dice that show a face."""
    samples: dict[str, list[np.ndarray]] = {}
    for scene in scenes:
        gain, guess = exposure_gain(scene.image), _size_guess(scene)
        for die in scene.dice:
            if die.symbol is None:
                continue  # a cocked die has no top face to have a rim
            chroma = rim_chroma(scene.image, die.center, die.size or guess, gain)
            if chroma is not None:
                samples.setdefault(die.color, []).append(chroma)
    return RimColors.fit(samples)


def _face_colors(scenes: list[_Scene], faces: list[list[tuple[LabelledDie, np.ndarray]]]
                 ) -> tuple[TaughtChromas | None, TaughtChromas | None]:
    """Each die color's paint and body (see `vision.face_colors`), from the labelled dice that
    show a symbol (`faces`, per scene, from `_labelled_faces`): the inner part of each one's face
    window, as a face read is matched on."""
    paints: dict[str, list[np.ndarray]] = {}
    bodies: dict[str, list[np.ndarray]] = {}
    for scene, scene_faces in zip(scenes, faces):
        gain = exposure_gain(scene.image)
        for die, window in scene_faces:
            face = inner(window)
            chroma = paint_chroma(face, gain)
            if chroma is not None:
                paints.setdefault(die.color, []).append(chroma)
            bodies.setdefault(die.color, []).append(body_chroma(face, gain))
    return TaughtChromas.fit(paints), TaughtChromas.fit(bodies)


def _labelled_faces(scenes: list[_Scene]) -> list[list[tuple[LabelledDie, np.ndarray]]]:
    """Per scene, every labelled die showing a symbol with its face window (BGR, turned square,
    at the die's size or the scene's guess): cut once for the templates and for the face colors."""
    per_scene = []
    for scene in scenes:
        guess = _size_guess(scene)
        faces = []
        for die in scene.dice:
            if die.symbol is None:
                continue
            size = die.size or guess
            faces.append((die, face_window(scene.image, die.center, size, face_angle(scene.image, die.center, size))))
        per_scene.append(faces)
    return per_scene


def _symbol_windows(faces: list[list[tuple[LabelledDie, np.ndarray]]]) -> list[list[tuple[str, str, np.ndarray]]]:
    """Per scene, (symbol, die color, ink window) of every labelled die showing a symbol (`faces`,
    from `_labelled_faces`)."""
    return [[(die.symbol, die.color, ink_map(window)) for die, window in scene_faces] for scene_faces in faces]


def _templates(windows: list[tuple[str, str, np.ndarray]]
               ) -> tuple[tuple[tuple[str, np.ndarray], ...], tuple[str, ...]]:
    """Symbol templates: one from every die of the symbol, one per die color that showed it at
    least `MIN_EXAMPLES` times (paint on a white die and on a red one differ), each also turned
    a few degrees both ways so a slightly wrong orientation estimate still matches well."""
    groups: dict[tuple[str, str], list[np.ndarray]] = {}
    for symbol, color, window in windows:
        groups.setdefault((symbol, ""), []).append(window)
        if PER_COLOR_TEMPLATES:
            groups.setdefault((symbol, color), []).append(window)
    templates, colors = [], []
    for (symbol, color), members in sorted(groups.items()):
        if color and len(members) < MIN_EXAMPLES:
            continue
        template = mean_template(members)
        turned = [(symbol, t) for t in turned_copies(template, TEMPLATE_TURNS_DEG)]
        templates.extend(turned + [(symbol + TILTED, tilted_copy(template))])
        colors.extend([color] * (len(turned) + 1))
    return tuple(templates), tuple(colors)


def _calibrate(scenes: list[_Scene], profile: Profile) -> Calibration:
    """Confidence calibration: read each teach image as the reader would (detected blobs, not
    labelled centers) with symbol templates taught without that image, and learn from how
    right and wrong readings, and dice and non-dice, looked."""
    from .detect import find_candidates
    from .reader import candidate_features, read_candidate, typical_face_size

    windows = profile.info["windows"]
    right_margins, wrong_margins, right_scores, wrong_score_list = [], [], [], []
    right_colors, wrong_colors = [], []
    xs, is_die = [], []
    for held_out, scene in enumerate(scenes):
        others = [w for i, per_scene in enumerate(windows) if i != held_out for w in per_scene]
        partial_templates, partial_colors = _templates(others)
        partial = dataclasses.replace(profile, templates=partial_templates, template_colors=partial_colors)
        known = set(partial.symbols)
        detected = []
        gain = exposure_gain(scene.image)
        candidates = find_candidates(scene.image, profile.color_model, profile.die_sizes,
                                     profile.blob_side_ratio, profile.contrast_range)
        typical = typical_face_size(candidates, profile)
        for candidate in candidates:
            look = read_candidate(scene.image, candidate, partial, gain, typical)
            candidate, reading, blob_color = look.candidate, look.reading, look.blob_color
            label = _nearest(scene.dice, reading.center, reading.size)
            detected.append((reading, label))
            xs.append(candidate_features(look, partial))
            is_die.append(label is not None)
            if label is None:
                continue
            if candidate.color == blob_color and _distance(label.center, reading.center) < 0.3 * reading.size:
                (right_colors if label.color == candidate.color else wrong_colors).append(candidate.color_confidence)
        # The symbol stage is judged where it reads this die, from its labelled center as well
        # as from the detected one; a blob centered on two dice is the detector's mistake, and
        # would set the symbol bar by what the neighbour's face looked like.
        for reading, label in _symbol_readings(scene, partial, detected):
            if label.symbol is not None and label.symbol not in known:
                continue
            # A cocked die read as a symbol is a wrong reading like any other: its margin and
            # score set the bars too, up to the cap.
            if reading.best_symbol == label.symbol:
                right_margins.append(reading.margin)
                right_scores.append(reading.best_score)
            else:
                wrong_margins.append(reading.margin)
                wrong_score_list.append(reading.best_score)
    if not right_margins:
        return Calibration(min_score=0.3, margin_low=0.1, margin_high=0.25)
    # A confident answer needs a margin and a score no wrong reading reached, with headroom
    # (more when teaching saw few readings). One odd wrong reading must not make the reader doubt
    # many dice, so the bar is capped at what the weakest few percent of right readings had; with
    # no wrong reading seen, the bar sits a little below the weakest right ones. (Percentiles of
    # the right readings alone as floors flagged that share of every table's dice by design.)
    headroom = 0.02 + 0.5 / len(right_margins)
    low = _bar(wrong_margins, headroom, right_margins)
    high = max(low + 0.05, float(np.percentile(right_margins, 50)))
    score_low = _bar(wrong_score_list, headroom, right_scores)
    score_high = max(score_low + 0.05, float(np.percentile(right_scores, 50)))
    min_score = float(np.percentile(right_scores, 1)) * 0.85
    # Colors: doubt below what any wrongly colored blob reached (capped), and below the weakest
    # right ones (color is the detector's call; its doubt is passed on, not second-guessed).
    min_color = (max(_bar(wrong_colors, 0.02, right_colors), float(np.percentile(right_colors, 1)))
                 if right_colors else 0.5)
    labels = np.array(is_die)
    plausibility = (Plausibility.fit(np.array(xs), labels) if labels.any() and not labels.all()
                    else Plausibility.permissive())
    return Calibration(min_score=min_score, margin_low=float(low), margin_high=float(high),
                       score_low=score_low, score_high=score_high,
                       min_color_confidence=float(min(min_color, 0.95)), plausibility=plausibility)


RIGHT_SHARE_BELOW_BAR = 5.0  # percent of right teach readings a wrong reading may push below the bar
NO_WRONG_SLACK = 0.8  # with no wrong reading seen, the bar is this share of the weakest right ones


def _bar(wrong_values: list[float], headroom: float, right_values: list[float]) -> float:
    """Where confidence crosses 0.5 for one evidence value (margin, score or color share)."""
    cap = float(np.percentile(right_values, RIGHT_SHARE_BELOW_BAR))
    if not wrong_values:
        return NO_WRONG_SLACK * float(np.percentile(right_values, 1))
    return min(max(wrong_values) + headroom, cap)


SURELY_THIS_DIE = 0.25  # a reading this close (in die sides) to a labelled center reads that die


def _symbol_readings(scene: _Scene, profile: Profile, detected: list[tuple[FaceReading, LabelledDie | None]]
                     ) -> list[tuple[FaceReading, LabelledDie]]:
    """(reading, label) pairs for the symbol calibration: every labelled die read from its
    labelled center, and every detected reading that sits on one labelled die."""
    from .reader import read_face

    guess = _size_guess(scene)
    pairs = [(r, d) for r, d in detected if d is not None and _distance(d.center, r.center) < SURELY_THIS_DIE * r.size]
    for die in scene.dice:
        side = (die.size or guess) * profile.blob_side_ratio
        pairs.append((read_face(scene.image, Candidate(die.color, die.center, side, 1.0, 0.9, 1.0), profile), die))
    return pairs


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def _nearest(dice: tuple[LabelledDie, ...], center: tuple[float, float], size: float) -> LabelledDie | None:
    best, best_distance = None, 0.5 * size
    for die in dice:
        distance = float(np.hypot(die.center[0] - center[0], die.center[1] - center[1]))
        if distance <= (0.5 * (die.size or size)) and distance <= best_distance + 1e-9:
            best, best_distance = die, distance
    return best


def teach_files(paths: list[str]) -> Profile:
    """Teach from image files with their label JSON beside them."""
    from .labels import load_labelled

    return teach([load_labelled(p) for p in paths])


__all__ = ["teach", "teach_files", "ImageError", "ProfileError"]
