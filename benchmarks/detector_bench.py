"""Detection benchmark: the learnt die finder (vision.die_finder) against the current reader's.

For photo-like box C (teach on C/teach, test on C/test), for every renderer style (teach on 12
all-faces scenes, seeds 1000+, test on other scenes, seeds 5000+) and for a few hard conditions,
prints dice, missed, phantoms, median center error (px) and median detection ms (one thread).
Any die the current reader returns counts as a detection of it, whatever its symbol.

    python -m benchmarks.detector_bench [--scenes 50] [--sets C,classic,...] [--no-current]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, as the reader runs; before numpy loads

import argparse
import glob
import math
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.die_finder import find_dice, train_finder
from vision.render import STYLES, random_scene, render

# The photo-like sets live beside the repository (shared/photoreal), or where PHOTOREAL says.
PHOTOREAL = Path(os.environ.get("PHOTOREAL", Path(__file__).resolve().parents[2] / "shared" / "photoreal"))
HARD = {"felt_darkblue": {"table": "felt_darkblue"}, "cloth_white": {"table": "cloth_white"},
        "laminate_light": {"table": "laminate_light"}, "dim": {"light": "dim"},
        "hard": {"light": "hard"}, "hand": {"hand": True}, "touching": {"touching": 0.8}}


@dataclass(frozen=True)
class Tally:
    """Detection counts over a set of frames."""

    dice: int
    missed: int
    phantoms: int
    errors_px: tuple[float, ...]
    ms: tuple[float, ...]

    def row(self, name: str, who: str) -> str:
        err = statistics.median(self.errors_px) if self.errors_px else float("nan")
        ms = statistics.median(self.ms) if self.ms else float("nan")
        rate = 100.0 * (self.missed + self.phantoms) / max(self.dice, 1)
        return (f"{name:<20} {who:<8} {self.dice:>6} {self.missed:>7} {self.phantoms:>8} {rate:>7.2f}% "
                f"{err:>7.1f} {ms:>8.1f}")


def match(found: list[tuple[float, float, float]], labels: list[dict]) -> tuple[int, int, list[float]]:
    """Greedy one-to-one matching within half the die side (label size, else found size);
    returns missed, phantoms and the matched center errors."""
    pairs = []
    for i, t in enumerate(labels):
        for j, (x, y, s) in enumerate(found):
            d = math.hypot(x - t["center"][0], y - t["center"][1])
            if d <= 0.5 * float(t.get("size") or s):
                pairs.append((d, i, j))
    pairs.sort()
    used_i, used_j, errs = set(), set(), []
    for d, i, j in pairs:
        if i in used_i or j in used_j:
            continue
        used_i.add(i)
        used_j.add(j)
        errs.append(d)
    return len(labels) - len(used_i), len(found) - len(used_j), errs


def photoreal(box: str) -> tuple[list, list]:
    from vision.labels import load_labelled
    teach = [load_labelled(p) for p in sorted(glob.glob(str(PHOTOREAL / box / "teach" / "*.jpg")))]
    test = [load_labelled(p) for p in sorted(glob.glob(str(PHOTOREAL / box / "test" / "*.jpg")))]
    return teach, test


def rendered(style: str, n_test: int, **kw) -> tuple[list, list]:
    teach = [render(random_scene(1000 + i, style=style, all_faces=True)) for i in range(12)]
    test = [render(random_scene(5000 + i, style=style, **kw)) for i in range(n_test)]
    return teach, test


def run(detect, test: list) -> Tally:
    dice = missed = phantoms = 0
    errs: list[float] = []
    ms: list[float] = []
    for frame, labels in test:
        t0 = time.perf_counter()
        found = detect(frame)
        ms.append(1000 * (time.perf_counter() - t0))
        m, p, e = match(found, labels["dice"])
        dice += len(labels["dice"])
        missed += m
        phantoms += p
        errs += e
    return Tally(dice, missed, phantoms, tuple(errs), tuple(ms))


def detectors(teach: list, current: bool, finder: bool = True) -> tuple[dict, float]:
    """The detectors to compare, taught on `teach`, and the finder's training seconds."""
    out, train_s = {}, 0.0
    if finder:
        t0 = time.perf_counter()
        model = train_finder(teach)
        train_s = time.perf_counter() - t0
        out["finder"] = lambda f: [(c.center[0], c.center[1], c.size) for c in find_dice(f, model)]
    if current:
        from vision.reader import read_frame
        from vision.teach import teach as teach_profile
        profile = teach_profile(teach)
        out["current"] = lambda f: [(d.center[0], d.center[1], d.size) for d in read_frame(f, profile)]
    return out, train_s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=50)
    ap.add_argument("--hard-scenes", type=int, default=10)
    ap.add_argument("--sets", default="C," + ",".join(STYLES) + ",hard")
    ap.add_argument("--no-current", action="store_true")
    ap.add_argument("--no-finder", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    print(f"{'set':<20} {'who':<8} {'dice':>6} {'missed':>7} {'phantoms':>8} {'m+p':>8} {'err px':>7} {'ms':>8}")
    for name in args.sets.split(","):
        if name == "hard":
            teach, _ = rendered("classic", 0)
            dets, secs = detectors(teach, not args.no_current, not args.no_finder)
            for hname, kw in HARD.items():
                _, test = rendered("classic", args.hard_scenes, **kw)
                for who, det in dets.items():
                    print(run(det, test).row("hard:" + hname, who), flush=True)
            continue
        teach, test = photoreal(name) if name in ("A", "B", "C") else rendered(name, args.scenes)
        dets, secs = detectors(teach, not args.no_current, not args.no_finder)
        for who, det in dets.items():
            note = f"   (finder trained in {secs:.1f} s)" if who == "finder" else ""
            print(run(det, test).row(name, who) + note, flush=True)


if __name__ == "__main__":
    main()
