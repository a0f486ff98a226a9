"""Reading a frame: every die's color, top symbol, center, size and a calibrated confidence."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .detect import Candidate, find_candidates
from .plausibility import features
from .profile import Calibration, Profile
from .symbols import FACE_PX, face_angle, face_window, gray_of, ink_map, match

NULL_SYMBOL_CONFIDENCE = 0.3  # a die we see but cannot read: always asked of the player


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


def read_face(frame_bgr: np.ndarray, gray: np.ndarray, candidate: Candidate, profile: Profile) -> FaceReading:
    """Match the candidate's top face against the profile's templates, refining its center."""
    size = candidate.side / profile.blob_side_ratio
    center = candidate.center
    for attempt in range(2):
        angle = face_angle(gray, center, size)
        window = ink_map(face_window(frame_bgr, center, size, angle))
        found = match(window, list(profile.templates))
        # the best shift, from face pixels in the rotated window back to image pixels
        rotation = cv2.getRotationMatrix2D((0.0, 0.0), angle, FACE_PX / size)
        offset = np.linalg.solve(rotation[:, :2], np.array(found.shift))
        center = (center[0] + float(offset[0]), center[1] + float(offset[1]))
        if attempt == 0 and math.hypot(*found.shift) < 2.0:
            break  # the window was already centered: no need to look again
    scores = sorted(found.scores.values(), reverse=True)
    second = scores[1] if len(scores) > 1 else -1.0
    return FaceReading(center, size, found.best_symbol, scores[0], scores[0] - second)


def symbol_confidence(reading: FaceReading, calibration: Calibration) -> float | None:
    """Confidence that the best symbol is right, or None when the face is not readable."""
    if reading.best_score < calibration.min_score:
        return None
    spread = max(calibration.margin_high - calibration.margin_low, 1e-3)
    steepness = math.log(19.0) / spread  # margin_high maps to 0.95
    return 1.0 / (1.0 + math.exp(-steepness * (reading.margin - calibration.margin_low)))


def candidate_features(candidate: Candidate, reading: FaceReading, profile: Profile) -> np.ndarray:
    """What the die-or-not model looks at (see `vision.plausibility`)."""
    return features(reading.best_score, reading.margin, candidate.fill, candidate.aspect,
                    candidate.color_confidence, reading.size / profile.die_sizes[1])


def color_confidence(candidate: Candidate, calibration: Calibration) -> float:
    """0.5 at the taught doubt level, rising to 1 for a blob that is all one die color."""
    floor = min(calibration.min_color_confidence, 0.99)
    return float(np.clip(0.5 + 0.5 * (candidate.color_confidence - floor) / (1.0 - floor), 0.0, 1.0))


def read_frame(frame_bgr: np.ndarray, profile: Profile) -> list[Die]:
    """All dice in a BGR frame, as the profile's teaching lets us read them."""
    candidates = find_candidates(frame_bgr, profile.color_model, profile.die_sizes, profile.blob_side_ratio,
                                 profile.contrast_range)
    gray = gray_of(frame_bgr)
    dice = []
    for candidate in candidates:
        reading = read_face(frame_bgr, gray, candidate, profile)
        plausible = profile.calibration.plausibility.probability(candidate_features(candidate, reading, profile))
        if plausible < 0.5:
            continue
        confidence = symbol_confidence(reading, profile.calibration)
        symbol = None if confidence is None else reading.best_symbol
        confidence = NULL_SYMBOL_CONFIDENCE if confidence is None else confidence
        confidence = min(confidence, color_confidence(candidate, profile.calibration))
        center = (float(reading.center[0]), float(reading.center[1]))
        dice.append(Die(candidate.color, symbol, center, float(reading.size), float(confidence)))
    return dice
