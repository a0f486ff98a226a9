"""Symbol stage in isolation: read the top face at every LABELLED center (oracle detection).

    python benchmarks/symbol_bench.py                    # photoreal C + every renderer style
    python benchmarks/symbol_bench.py --scenes 20 --styles classic

Per set: top-1 accuracy over dice showing a symbol, how many are flagged (confidence < 0.5),
how many are confidently wrong, and how many cocked dice come out null or flagged. Detection,
color and the die-or-not model are left out on purpose, so this measures only what the symbol
stage decides and how sure it says it is.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import glob
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.detect import Candidate  # noqa: E402
from vision.labels import load_labelled  # noqa: E402
from vision.profile import Profile  # noqa: E402
from vision.reader import read_face, symbol_reading  # noqa: E402
from vision.teach import teach  # noqa: E402

# The photo-like sets live beside the repository (shared/photoreal), or where PHOTOREAL says.
PHOTOREAL = Path(os.environ.get("PHOTOREAL", Path(__file__).resolve().parents[2] / "shared" / "photoreal")) / "C"
TEACH_SEED_BASE = 10_000


@dataclass(frozen=True)
class SymbolScore:
    """Counts over dice read at their labelled centers."""

    dice: int = 0
    right: int = 0  # top-1 symbol right (confidence ignored)
    flagged: int = 0  # confidence < 0.5 or null symbol
    wrong: int = 0  # confident and wrong
    cocked: int = 0
    cocked_ok: int = 0
    ms: float = 0.0

    def __add__(self, other: "SymbolScore") -> "SymbolScore":
        return SymbolScore(*(a + b for a, b in zip(vars(self).values(), vars(other).values())))


def score_image(image, labels: dict, profile: Profile) -> SymbolScore:
    total = SymbolScore()
    for die in labels["dice"]:
        size = float(die.get("size") or profile.die_sizes[1])
        candidate = Candidate(die["color"], (float(die["center"][0]), float(die["center"][1])),
                              size * profile.blob_side_ratio, 1.0, 0.9, 1.0)
        started = time.process_time()
        reading = read_face(image, candidate, profile)
        symbol, confidence = symbol_reading(reading, profile.calibration, candidate.aspect)
        ms = (time.process_time() - started) * 1000.0
        unsure = symbol is None or confidence < 0.5
        if die.get("symbol") is None:
            total = total + SymbolScore(cocked=1, cocked_ok=int(unsure), ms=ms)
            continue
        right = reading.best_symbol == die["symbol"]
        total = total + SymbolScore(dice=1, right=int(right), flagged=int(unsure),
                                    wrong=int(not unsure and symbol != die["symbol"]), ms=ms)
    return total


def report(name: str, s: SymbolScore) -> None:
    n = max(s.dice, 1)
    per_die = s.ms / max(s.dice + s.cocked, 1)
    print(f"{name:14s} dice {s.dice:4d}  accuracy {100.0 * s.right / n:5.1f}%  flagged {s.flagged:3d} "
          f"({100.0 * s.flagged / n:4.1f}%)  wrong {s.wrong:2d} ({100.0 * s.wrong / n:.2f}%)  "
          f"cocked {s.cocked} null/flagged {s.cocked_ok}  {per_die:.2f} ms/die", flush=True)


def bench_photoreal(root: Path) -> SymbolScore:
    profile = teach([load_labelled(p) for p in sorted(glob.glob(str(root / "teach" / "*.jpg")))])
    total = SymbolScore()
    for path in sorted(glob.glob(str(root / "test" / "*.jpg"))):
        image, labels = load_labelled(path)
        total = total + score_image(image, labels, profile)
    report("photoreal C", total)
    return total


def bench_style(style: str, n_teach: int, n_scenes: int) -> SymbolScore:
    from vision.render import random_scene, render

    profile = teach([render(random_scene(TEACH_SEED_BASE + i, style=style, all_faces=True)) for i in range(n_teach)])
    total = SymbolScore()
    for seed in range(n_scenes):
        image, labels = render(random_scene(seed, style=style))
        total = total + score_image(image, labels, profile)
    report(f"style {style}", total)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=20, help="generated scenes read per style")
    parser.add_argument("--teach", type=int, default=8, help="generated images taught per style")
    parser.add_argument("--styles", nargs="*", default=None)
    parser.add_argument("--no-photoreal", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if not args.no_photoreal:
        bench_photoreal(PHOTOREAL)
    from vision.render import STYLES

    for style in args.styles if args.styles is not None else STYLES:
        bench_style(style, args.teach, args.scenes)


if __name__ == "__main__":
    main()
