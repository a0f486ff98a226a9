"""What a rendered frame shows, as small immutable values: dice, the box they come from, the
camera's view and the whole scene. ``vision.render`` turns a ``Scene`` into an image and labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.die_draw import outline
from vision.lighting import Light
from vision.optics import Optics
from vision.symbol_art import STYLES as _ART_STYLES
from vision.symbol_art import SYMBOLS

if TYPE_CHECKING:  # named in annotations only; the modules that draw them import this one
    from vision.distractors import Distractor
    from vision.hand import Hand

STYLES: tuple[str, ...] = _ART_STYLES
# What a die is (its colors and faces) is the game's own knowledge: one definition, in companion.dice.
from companion.dice import COLORS, FACES  # noqa: E402
FRAME_SIZES: tuple[tuple[int, int], ...] = ((1640, 1232), (2304, 1296))
MAX_TILT_DEG = 15.0


def die_faces(color: str) -> tuple[str, ...]:
    """The six faces of a die of ``color``: two fingers, two of its own symbol, one of each other."""
    return FACES[color]


@dataclass(frozen=True)
class DieSpec:
    """One die. ``center``: where the middle of its top face appears in the image (px);
    ``size``: top face side (px); ``angle``: in-plane rotation (degrees). A ``cocked`` die leans
    by ``tilt`` degrees on an edge (no face on top; ``symbol`` is None) and shows ``faces``; its
    ``center`` is the middle of its outline (``die_outline``) at the height of a standing die's
    top, which a cube drawn in 3D (``Scene.cocked_3d``) rests under."""

    color: str
    symbol: str | None
    center: tuple[float, float]
    size: float
    angle: float
    cocked: bool = False
    tilt: float = 0.0
    faces: tuple[str, str] = ("finger", "finger")
    seat: int | None = None
    motion: tuple[float, float] = (0.0, 0.0)  # travel during the exposure (px): motion blur

    def __post_init__(self) -> None:
        if self.color not in COLORS:
            raise ValueError(f"unknown color {self.color!r}; expected one of {COLORS}")
        if self.symbol is not None and self.symbol not in SYMBOLS:
            raise ValueError(f"unknown symbol {self.symbol!r}; expected one of {SYMBOLS}")
        if self.cocked and self.tilt <= 0:
            object.__setattr__(self, "tilt", 45.0)  # a cocked die leans; default halfway over


@dataclass(frozen=True)
class DiceLook:
    """A box of dice: body colors, paint on white dice and on colored dice (BGR 0..1), gloss,
    paint opacity, the share of dice whose paint is worn and the symbols' relative size."""

    white: tuple[float, float, float]
    red: tuple[float, float, float]
    blue: tuple[float, float, float]
    paint_on_white: tuple[float, float, float]
    paint_on_color: tuple[float, float, float]
    gloss: float
    paint_alpha: float = 0.95
    wear: float = 0.0  # share of dice with rubbed-off paint
    symbol_scale: float = 0.74  # symbol side relative to the die side


@dataclass(frozen=True)
class View:
    """Camera geometry: the image point straight below the lens (may lie outside the frame when
    the camera is tilted) and the lens height above the table, both in pixels at table level."""

    nadir: tuple[float, float]
    height: float

    def lean(self, point: tuple[float, float], size: float) -> tuple[float, float]:
        """Displacement of a die's top face from its footprint (px), at most 15 degrees' worth."""
        d = (np.asarray(point, np.float64) - np.asarray(self.nadir)) * size / self.height
        limit = np.tan(np.radians(MAX_TILT_DEG)) * size
        n = float(np.linalg.norm(d))
        if n > limit:
            d *= limit / n
        return float(d[0]), float(d[1])


DEFAULT_LOOK = DiceLook(white=(0.80, 0.90, 0.93), red=(0.10, 0.09, 0.66), blue=(0.74, 0.40, 0.10),
                        paint_on_white=(0.12, 0.12, 0.62), paint_on_color=(0.90, 0.92, 0.93),
                        gloss=0.6)


@dataclass(frozen=True)
class Scene:
    """Everything needed to render one frame; rendering the same scene gives the same image.
    ``cocked_3d``: cocked dice are drawn as tilted cubes under the perspective camera (and
    labelled at their top face's middle, with ``cocked_deg``) instead of as two flat faces.
    ``walls``: flat dice are drawn as standing cubes under that camera too, showing the walls
    that face the point under its lens, the more the farther out they lie, painted with the
    die's other faces as a real camera sees them (box C's photos); off, those sides are drawn
    plain, as shaded quads under the top face (``vision.die_draw``)."""

    width: int
    height: int
    style: str
    table: str
    light: Light
    dice: tuple[DieSpec, ...]
    seed: int
    distractors: tuple[Distractor, ...] = ()
    hand: Hand | None = None
    look: DiceLook = DEFAULT_LOOK
    view: View | None = None
    optics: Optics = Optics(blur=0.6, noise=2.5, jpeg_quality=88)
    glare: tuple[tuple[float, float, float, float], ...] = ()
    noise_seed: int | None = None
    cocked_3d: bool = False
    walls: bool = False

    def camera(self) -> View:
        return self.view or View((self.width / 2, self.height / 2), 4.0 * max(self.width, self.height))


def die_outline(die: DieSpec) -> np.ndarray:
    """The die's top-level outline (4 x 2): its top face, or for a cocked die both faces. A
    cube resting on an edge and turned by t covers s by s (cos t + sin t) seen from straight
    above, so the same outline is exactly a 3D cocked die's footprint (``vision.cube``)."""
    if die.cocked:
        t = np.radians(die.tilt)
        return outline(die.center, die.size, die.angle, die.size * (np.cos(t) + np.sin(t)))
    return outline(die.center, die.size, die.angle)
