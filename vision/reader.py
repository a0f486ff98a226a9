"""Reading a frame: every die's color, top symbol, center, size and a calibrated confidence."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .blas import use_one_blas_thread
from .detect import Candidate, find_candidates
from .plausibility import features
from .profile import Calibration, Profile
from .symbols import FACE_PX, TILTED, Match, face_angle, face_window, ink_map, match

NULL_SYMBOL_CONFIDENCE = 0.3  # a die we see but cannot read: always asked of the player
SIZE_SLACK = (0.6, 1.5)  # face sizes read, relative to the smallest and largest taught
SAME_PLACE = 0.6  # readings closer than this many die sides are one die
MAX_ATTEMPTS = 3  # face windows tried per die, each recentred on the best match of the last
# A cocked die: its blob is oblong and a face squashed as on a 45-degree slope fits nearly as
# well as an upright one (upright faces fit squashed templates far worse, about -0.2).
COCKED_TILT_GAIN, COCKED_ASPECT = -0.08, 1.08


@dataclass(frozen=True)
class Die:
    """One die as read: `symbol` is None when the top face cannot be read (cocked, covered)."""

    color: str
    symbol: str | None
    center: tuple[float, float]
    size: float
    confidence: float

    def to_json(self) -> dict:
        return {"color": self.color, "symbol": self.symbol,
                "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
                "size": round(float(self.size), 1), "confidence": round(float(self.confidence), 3)}


@dataclass(frozen=True)
class FaceReading:
    """Raw symbol evidence for one candidate, before calibration."""

    center: tuple[float, float]
    size: float
    best_symbol: str
    best_score: float
    margin: float  # best score minus the best score of any other symbol
    tilt_gain: float  # how much better a cocked die's squashed face fits than an upright one


def read_face(frame_bgr: np.ndarray, candidate: Candidate, profile: Profile) -> FaceReading:
    """Match the candidate's top face against the profile's templates, refining its center."""
    size = candidate.side / profile.blob_side_ratio
    center, _, found = _refine(frame_bgr, candidate.center, size, profile.templates_for(candidate.color))
    upright = {s: v for s, v in found.scores.items() if not s.endswith(TILTED)}
    tilted = max((v for s, v in found.scores.items() if s.endswith(TILTED)), default=-1.0)
    scores = sorted(upright.values(), reverse=True)
    second = scores[1] if len(scores) > 1 else -1.0
    best_symbol = max(upright, key=upright.get)
    return FaceReading(center, size, best_symbol, scores[0], scores[0] - second, tilted - scores[0])


def _refine(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
            templates: list[tuple[str, np.ndarray]]) -> tuple[tuple[float, float], float, Match]:
    """Match the face window at `center`, recentring on the best match up to MAX_ATTEMPTS
    times; returns the face center, its best score and the match. The die's edge angle is
    measured once: recentring moves the window a few pixels, which hardly changes it."""
    best_score, best_found, reading_center = -2.0, None, center
    angle = face_angle(frame_bgr, center, size)
    for attempt in range(MAX_ATTEMPTS):
        window = ink_map(face_window(frame_bgr, center, size, angle))
        found = match(window, templates)
        if attempt > 0 and max(found.scores.values()) <= best_score:
            break  # moving made it worse: keep the previous reading
        reading_center, best_score, best_found = center, max(found.scores.values()), found
        # the best shift, from face pixels in the rotated window back to image pixels
        rotation = cv2.getRotationMatrix2D((0.0, 0.0), angle, FACE_PX / size)
        offset = np.linalg.solve(rotation[:, :2], np.array(found.shift))
        center = (center[0] + float(offset[0]), center[1] + float(offset[1]))
        reading_center = center
        if math.hypot(*found.shift) < 2.5:
            break  # the window was centered on the face already
    return reading_center, best_score, best_found


def symbol_confidence(reading: FaceReading, calibration: Calibration) -> float | None:
    """Confidence that the best symbol is right, or None when the face is not readable."""
    if reading.best_score < calibration.min_score:
        return None  # no face to read
    return min(_ramp(reading.margin, calibration.margin_low, calibration.margin_high),
               _ramp(reading.best_score, calibration.score_low, calibration.score_high))


def symbol_reading(reading: FaceReading, calibration: Calibration, aspect: float) -> tuple[str | None, float]:
    """The symbol to report (None: not readable, e.g. a cocked die) and its confidence."""
    confidence = symbol_confidence(reading, calibration)
    if reading.tilt_gain > COCKED_TILT_GAIN and aspect > COCKED_ASPECT:
        confidence = None
    if confidence is None:
        return None, NULL_SYMBOL_CONFIDENCE
    return reading.best_symbol, confidence


def _ramp(value: float, low: float, high: float) -> float:
    """Logistic step: 0.5 at `low`, 0.95 at `high`."""
    steepness = math.log(19.0) / max(high - low, 1e-3)
    return 1.0 / (1.0 + math.exp(-float(np.clip(steepness * (value - low), -30.0, 30.0))))


def candidate_features(candidate: Candidate, reading: FaceReading, profile: Profile) -> np.ndarray:
    """What the die-or-not model looks at (see `vision.plausibility`)."""
    return features(reading.best_score, reading.margin, candidate.fill, candidate.aspect,
                    candidate.color_confidence, reading.size / profile.die_sizes[1])


def could_be_die(candidate: Candidate, profile: Profile) -> bool:
    """Whether some symbol match could make the die-or-not model accept this blob (the model is
    monotone in each feature, so trying the extreme match scores and margins is enough)."""
    face = candidate.side / profile.blob_side_ratio
    if not SIZE_SLACK[0] * profile.die_sizes[0] <= face <= SIZE_SLACK[1] * profile.die_sizes[2]:
        return False
    size_ratio = face / profile.die_sizes[1]
    model = profile.calibration.plausibility
    return any(model.probability(features(score, margin, candidate.fill, candidate.aspect,
                                          candidate.color_confidence, size_ratio)) >= 0.5
               for score in (0.0, 1.0) for margin in (0.0, 1.0))


def color_confidence(candidate: Candidate, calibration: Calibration) -> float:
    """0.5 at the taught doubt level, rising to about 0.95 halfway to a blob all of one color."""
    floor = min(calibration.min_color_confidence, 0.98)
    return _ramp(candidate.color_confidence, floor, (floor + 1.0) / 2.0)


def read_frame(frame_bgr: np.ndarray, profile: Profile) -> list[Die]:
    """All dice in a BGR frame, as the profile's teaching lets us read them."""
    use_one_blas_thread()
    candidates = find_candidates(frame_bgr, profile.color_model, profile.die_sizes, profile.blob_side_ratio,
                                 profile.contrast_range)
    found = []  # (best symbol score, die)
    for candidate in candidates:
        if not could_be_die(candidate, profile):
            continue  # reading the face is the costly part: skip blobs no face could redeem
        reading = read_face(frame_bgr, candidate, profile)
        plausible = profile.calibration.plausibility.probability(candidate_features(candidate, reading, profile))
        if plausible < 0.5:
            continue
        symbol, confidence = symbol_reading(reading, profile.calibration, candidate.aspect)
        confidence = min(confidence, color_confidence(candidate, profile.calibration))
        center = (float(reading.center[0]), float(reading.center[1]))
        found.append((reading.best_score, Die(candidate.color, symbol, center, float(reading.size), float(confidence))))
    return _one_per_place(found)


def _one_per_place(found: list[tuple[float, Die]]) -> list[Die]:
    """Two blobs of one die (a die and its shadow, a die split in two) both recentre onto its
    face: keep the reading whose face matched best, drop the others that sit on it."""
    kept: list[Die] = []
    for _, die in sorted(found, key=lambda item: -item[0]):
        if all(math.hypot(die.center[0] - k.center[0], die.center[1] - k.center[1])
               > SAME_PLACE * min(die.size, k.size) for k in kept):
            kept.append(die)
    return kept
