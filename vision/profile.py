"""The profile: everything the reader learnt by teaching, saved as one JSON file.

Arrays (the color look-up table, symbol templates) are stored base64-encoded so the file stays
small and exact; everything else is plain JSON so a person can see which colors, symbols and die
sizes a profile knows.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .color import LEVELS, ColorModel
from .die_finder import FinderModel
from .face_colors import TaughtChromas
from .plausibility import FEATURES, Plausibility
from .rim import RimColors
from .symbol_discriminant import SymbolDiscriminant
from .symbols import TILTED

FORMAT = "gangster-dice-profile/1"
DEFAULT_PATH = Path(__file__).with_name("profiles") / "default.json"


_CHOSEN: dict[tuple[int, str, bool], tuple] = {}  # (templates, chosen) by id(templates), color, upright


class ProfileError(Exception):
    """A profile cannot be made or used; the message says which file and why."""


@dataclass(frozen=True)
class Calibration:
    """Turns symbol match scores into a confidence; learnt from held-out teach images.

    `min_score`: below this best correlation the face is not read (cocked, covered, blurred).
    `margin_low`/`margin_high`: score margin (best minus second-best symbol) mapped to
    confidence 0.5 and about 0.95: a margin at or below `margin_low` is "not sure".
    `score_low`/`score_high`: the same for the best correlation itself.
    `min_color_confidence`: dice whose color is less sure than this are flagged.
    `plausibility`: the die-or-not model that drops blobs that are not dice.
    """

    min_score: float
    margin_low: float
    margin_high: float
    score_low: float = 0.0  # best correlation mapped to confidence 0.5 ...
    score_high: float = 0.05  # ... and to about 0.95 (a face must match well, not only best)
    min_color_confidence: float = 0.65  # blobs less surely die-colored than this are flagged
    plausibility: Plausibility = field(default_factory=Plausibility.permissive)


@dataclass(frozen=True, eq=False)
class Profile:
    """What the reader knows about one box of dice on one table setup."""

    colors: tuple[str, ...]
    symbols: tuple[str, ...]
    die_sizes: tuple[float, float, float]  # min, median, max taught top-face side in pixels
    blob_side_ratio: float  # detected blob side / labelled face side
    color_model: ColorModel
    templates: tuple[tuple[str, np.ndarray], ...]  # (symbol, standardized template)
    calibration: Calibration
    contrast_range: tuple[float, float] = (1e9, 2e9)  # local contrast ramp (see detect.die_masks)
    info: dict = field(default_factory=dict)
    # Die color each template was learnt from ("" = every color), parallel to `templates`; a
    # die is matched only against its own color's and the all-color templates (half the work).
    template_colors: tuple[str, ...] = ()
    rim_colors: RimColors | None = None  # die colors told from the face's rim (older profiles: none)
    # The most paint (`vision.symbols.strong_ink_share`) any taught face of each symbol carried,
    # and of each symbol on each die color that showed it often enough (keys from
    # `vision.symbols.ink_key`); older profiles: none, and no face is doubted for its paint.
    ink_limits: dict[str, float] = field(default_factory=dict)
    # The learnt die finder (`vision.die_finder`), which finds dice no blob holds: a white die on
    # a checked cloth, a blue one on blue felt (older profiles: none, and such dice are missed).
    finder: FinderModel | None = None
    # The second opinion on faces the templates read doubtfully (`vision.symbol_discriminant`;
    # older profiles: none, and such faces stay doubtful).
    discriminant: SymbolDiscriminant | None = None
    # The paint and the body of each die color's taught faces (`vision.face_colors`), which tell
    # print on the table read as a face (older profiles: none, and no face is doubted for them).
    paint_colors: TaughtChromas | None = None
    body_colors: TaughtChromas | None = None

    def templates_for(self, color: str, upright: bool = False) -> list[tuple[str, np.ndarray]]:
        """The templates a die of `color` is matched against (all of them for an old profile);
        `upright`: without the squashed copies of a cocked die's face. The same list each time
        (`vision.symbols.match` keeps its bank of templates by the list)."""
        key = (id(self.templates), color, upright)
        cached = _CHOSEN.get(key)
        if cached is None or cached[0] is not self.templates:  # ids are reused once freed
            if len(self.template_colors) != len(self.templates):
                chosen = list(self.templates)
            else:
                chosen = [t for t, c in zip(self.templates, self.template_colors) if c in ("", color)]
            if upright:
                chosen = [(name, template) for name, template in chosen if not name.endswith(TILTED)]
            if len(_CHOSEN) > 64:
                _CHOSEN.clear()
            cached = _CHOSEN[key] = (self.templates, chosen)
        return cached[1]

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "colors": list(self.colors),
            "symbols": list(self.symbols),
            "die_sizes": list(self.die_sizes),
            "blob_side_ratio": self.blob_side_ratio,
            "color_model": {"classes": list(self.color_model.classes),
                            "posterior_u8": _encode(np.round(self.color_model.posterior * 255).astype(np.uint8)),
                            "die_color_u8": _encode(np.round(self.color_model.die_color * 255).astype(np.uint8))},
            "templates": [{"symbol": s, "shape": list(t.shape), "data": _encode(t.astype(np.float16)),
                           **({"color": self.template_colors[i]} if len(self.template_colors) == len(self.templates) else {})}
                          for i, (s, t) in enumerate(self.templates)],
            "calibration": {**_fields(self.calibration), "plausibility": _fields(self.calibration.plausibility)},
            "contrast_range": list(self.contrast_range),
            "info": self.info,
            **({"rim_colors": self.rim_colors.to_json()} if self.rim_colors is not None else {}),
            **({"ink_limits": dict(self.ink_limits)} if self.ink_limits else {}),
            **({"finder": self.finder.to_json()} if self.finder is not None else {}),
            **({"discriminant": self.discriminant.to_json()} if self.discriminant is not None else {}),
            **({"paint_colors": self.paint_colors.to_json()} if self.paint_colors is not None else {}),
            **({"body_colors": self.body_colors.to_json()} if self.body_colors is not None else {}),
        }

    def save(self, path: str | Path) -> None:
        """Write the profile as JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @staticmethod
    def from_json(data: dict, source: str = "profile") -> "Profile":
        try:
            if data.get("format") != FORMAT:
                raise ProfileError(f"{source}: not a dice profile (format is {data.get('format')!r})")
            classes = tuple(data["color_model"]["classes"])
            posterior = _decode(data["color_model"]["posterior_u8"], np.uint8).astype(np.float32) / 255.0
            posterior = posterior.reshape(LEVELS ** 3, len(classes))
            die_color = _decode(data["color_model"]["die_color_u8"], np.uint8).astype(np.float32) / 255.0
            die_color = die_color.reshape(LEVELS ** 3, len(classes) - 1)
            templates = tuple((t["symbol"], _decode(t["data"], np.float16).astype(np.float32).reshape(t["shape"]))
                              for t in data["templates"])
            plausibility = Plausibility(**{k: (tuple(v) if isinstance(v, list) else v)
                                           for k, v in data["calibration"]["plausibility"].items()})
            if len(plausibility.weights) != len(FEATURES):
                raise ProfileError(f"{source}: taught by an older reader (its die-or-not model weighs "
                                   f"{len(plausibility.weights)} measures, this reader's {len(FEATURES)}): "
                                   "teach it again from the same images")
            return Profile(
                colors=tuple(data["colors"]), symbols=tuple(data["symbols"]),
                die_sizes=tuple(float(v) for v in data["die_sizes"]),
                blob_side_ratio=float(data["blob_side_ratio"]),
                color_model=ColorModel(classes, posterior, die_color), templates=templates,
                calibration=Calibration(**{**data["calibration"], "plausibility": plausibility}),
                contrast_range=tuple(float(v) for v in data["contrast_range"]),
                info=dict(data.get("info", {})),
                template_colors=(tuple(str(t["color"]) for t in data["templates"])
                                 if all("color" in t for t in data["templates"]) else ()),
                rim_colors=RimColors.from_json(data["rim_colors"]) if "rim_colors" in data else None,
                ink_limits={str(symbol): float(share) for symbol, share in data.get("ink_limits", {}).items()},
                finder=FinderModel.from_json(data["finder"]) if "finder" in data else None,
                discriminant=SymbolDiscriminant.from_json(data["discriminant"]) if "discriminant" in data else None,
                paint_colors=TaughtChromas.from_json(data["paint_colors"]) if "paint_colors" in data else None,
                body_colors=TaughtChromas.from_json(data["body_colors"]) if "body_colors" in data else None)
        except ProfileError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ProfileError(f"{source}: damaged profile ({type(error).__name__}: {error})") from None

    @staticmethod
    def load(path: str | Path) -> "Profile":
        """Read a profile file, or raise `ProfileError` naming the file and why not."""
        path = Path(path)
        if not path.is_file():
            raise ProfileError(f"{path}: no such profile file")
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise ProfileError(f"{path}: not a JSON profile ({error})") from None
        if not isinstance(data, dict):
            raise ProfileError(f"{path}: not a dice profile (JSON is not an object)")
        return Profile.from_json(data, str(path))


def default_profile() -> Profile:
    """The profile shipped with the package (vision/profiles/default.json)."""
    return Profile.load(DEFAULT_PATH)


def _fields(value: object) -> dict:
    """A dataclass's declared fields by name: not `vars`, which also holds whatever a
    cached_property has stored on the instance (the die-or-not model's arrays, once used)."""
    return {declared.name: getattr(value, declared.name) for declared in dataclasses.fields(value)}


def _encode(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")


def _decode(text: str, dtype: type) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text.encode("ascii"), validate=True), dtype=dtype)
