"""A lamp of another color than teaching saw: found from the dice read surely, undone by gains.

A warmer or cooler lamp than any teach image's shifts every die's colors alike: white dice turn
cream or grey-blue, the color model no longer knows them and whole dice are lost (box C read
under a lamp 15-20% warmer or cooler than taught lost 15-23% of its dice). The dice still read
surely show the shift: their rims' chroma lies off their colors' taught chroma, all in one
direction. The blue and red gains that bring those rims back closest to what was taught are the
lamp's correction; the frame is read again through them.
"""

from __future__ import annotations

import math

import numpy as np

from .rim import RimColors, band_pixels, colorful_chromas

CAST_DOUBT = 1.5  # median Mahalanobis distance of the sure rims from their colors' that asks for a look
CAST_GAIN = 0.6  # a correction must bring that median down to this share of it
MIN_WITNESSES = 3  # sure dice needed to tell a lamp's color (a die or two may just be odd)
STEPS = (0.12, 0.06, 0.03)  # log-gain steps of the search, coarse to fine
LIMITS = (0.6, 1.6)  # gains beyond these are no lamp: something else is wrong with the frame
# Lamps run from warm to cool, raising red and lowering blue or the other way round: blue and red
# gains that rise or fall together (the product of the two at most e^0.3 off 1) tint the frame
# green or magenta, which no lamp needs. A search that drifted there, led by the red and blue
# dice's rims, turned a warm lamp's white dice red (renderer, 300 scenes per style: 514 -> 512
# errors, 5 fewer read wrong, one phantom more; 0.2: 520, 0.4: 515; box C's 70 four-image
# teachings and its warmer and cooler lamps: unchanged).
TINT_LIMIT = 0.3
# Moves of (blue, red) log-gains tried at each step: each alone, and the two opposite (a warmer
# lamp raises red and lowers blue at once).
MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def lamp_doubted(rims: list[tuple[str, np.ndarray]], rim_colors: RimColors) -> bool:
    """Whether the rims of the dice read surely, (color, rim chroma) as the reader measured
    them, lie off their colors' taught chroma as a lamp of another color would put them."""
    return len(rims) >= MIN_WITNESSES and _median_misfit(rims, rim_colors) >= CAST_DOUBT


def _median_misfit(rims: list[tuple[str, np.ndarray]], rim_colors: RimColors) -> float:
    return float(np.median([rim_colors.distances(chroma, color) for color, chroma in rims]))


def lamp_gains(frame_bgr: np.ndarray, witnesses: list[tuple[str, tuple[float, float], float]],
               rim_colors: RimColors, gain: float) -> tuple[float, float, float] | None:
    """Per-channel (B, G, R) gains that undo the lamp's color, or None when no gains bring the
    dice much closer to what was taught (or too few were read surely to say). `witnesses` are
    the sure dice as (color, face center, face side); `gain` is the frame's exposure gain.
    Costs a millisecond or two: ask `lamp_doubted` first."""
    colors, bands = [], []
    for color, center, size in witnesses:
        pixels = band_pixels(frame_bgr, center, size)
        if pixels is not None:
            colors.append(color)
            bands.append(pixels)
    if len(bands) < MIN_WITNESSES:
        return None
    pixels, ends = np.concatenate(bands), np.cumsum([len(band) for band in bands]).tolist()

    def misfit(blue: float, red: float) -> float:
        return _median_misfit(list(zip(colors, colorful_chromas(pixels, ends, (gain * blue, gain, gain * red)))),
                              rim_colors)

    start = misfit(1.0, 1.0)
    if start < CAST_DOUBT:
        return None
    best, best_misfit = (1.0, 1.0), start
    for step in STEPS:
        improved = True
        while improved:
            improved = False
            for move_blue, move_red in MOVES:
                blue, red = best[0] * math.exp(step * move_blue), best[1] * math.exp(step * move_red)
                if not (LIMITS[0] < blue < LIMITS[1] and LIMITS[0] < red < LIMITS[1]) or \
                        abs(math.log(blue) + math.log(red)) > TINT_LIMIT:
                    continue
                value = misfit(blue, red)
                if value < best_misfit - 1e-6:
                    best, best_misfit, improved = (blue, red), value, True
    if best_misfit > CAST_GAIN * start:
        return None
    return best[0], 1.0, best[1]
