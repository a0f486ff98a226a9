"""Dice reader benchmark: accuracy per the spec's scoring, speed on one core, decode time, memory.

    python benchmarks/vision_bench.py                       # photoreal C + every renderer style
    python benchmarks/vision_bench.py --scenes 30 --styles classic
    python benchmarks/vision_bench.py --no-photoreal
    python benchmarks/vision_bench.py --subsets 4 --styles         # box C taught on every 4 of its 8
    python benchmarks/vision_bench.py --no-photoreal --cocked-3d   # cocked dice drawn as 3D cubes
    python benchmarks/vision_bench.py --no-photoreal --walls       # ... and flat ones with their walls

Photoreal C: teach on C/teach, read C/test. Renderer styles: teach from `--teach` generated images
of the style (every color x symbol present), read `--scenes` other freshly generated scenes.
With `--cocked-3d` the scenes draw cocked dice as cubes leaning 20-45 degrees under the
perspective camera (`vision.cube`), as box C's photos show them, instead of two flat faces.
With `--walls` the flat dice are drawn as standing cubes under that camera too, showing the walls
that face the point under its lens, as box C's photos show them.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, as on the Pi; before numpy loads

import argparse
import glob
import itertools
import resource
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.error_causes import causes_line, error_causes, flag_causes  # noqa: E402
from vision.labels import load_labelled, read_image  # noqa: E402
from vision.reader import read_frame, read_under_lamp  # noqa: E402
from vision.scoring import Score, score_image  # noqa: E402
from vision.teach import teach  # noqa: E402

# The photo-like sets live beside the repository (shared/photoreal), or where PHOTOREAL says.
PHOTOREAL = Path(os.environ.get("PHOTOREAL", Path(__file__).resolve().parents[2] / "shared" / "photoreal")) / "C"
TEACH_SEED_BASE = 10_000  # teaching scenes never share a seed with reading scenes


def _report(name: str, score: Score, times_ms: list[float]) -> None:
    dice = max(score.dice, 1)
    errors_pct = 100.0 * score.errors / dice
    print(f"{name}: dice {score.dice}, read {score.read}, wrong {score.wrong}, missed {score.missed}, "
          f"phantoms {score.phantoms}, flagged {score.flagged} ({100.0 * score.flagged / dice:.1f}%), "
          f"errors {score.errors} ({errors_pct:.2f}%), cocked {score.cocked} of which null/flagged "
          f"{score.cocked_ok}; read ms median {statistics.median(times_ms):.1f} max {max(times_ms):.1f} (CPU)")


def _timed_read(profile, image) -> tuple[list[dict], float]:
    """The dice read in `image` (as the spec's JSON) and the CPU milliseconds it took."""
    started = time.process_time()  # CPU time: fair on a busy machine, one thread
    dice = read_frame(image, profile)
    return [d.to_json() for d in dice], (time.process_time() - started) * 1000.0


def _read_all(profile, labelled) -> tuple[Score, list[float]]:
    total, times = Score(), []
    for image, labels in labelled:
        read, ms = _timed_read(profile, image)
        times.append(ms)
        total = total + score_image(read, labels["dice"])
    return total, times


def bench_photoreal(root: Path) -> None:
    teach_paths = sorted(glob.glob(str(root / "teach" / "*.jpg")))
    test_paths = sorted(glob.glob(str(root / "test" / "*.jpg")))
    if not teach_paths or not test_paths:
        print(f"photoreal: no images under {root}, skipped")
        return
    started = time.perf_counter()
    profile = teach([load_labelled(p) for p in teach_paths])
    print(f"photoreal C: taught from {len(teach_paths)} images in {time.perf_counter() - started:.1f} s")
    tests = [load_labelled(p) for p in test_paths]
    score, times = _read_all(profile, tests)
    _report(f"photoreal C ({len(test_paths)} images)", score, times)
    # The spec's labels need no size: taught from centers alone, the dice are measured.
    unsized = [(image, {"dice": [{k: v for k, v in die.items() if k != "size"} for die in labels["dice"]]})
               for image, labels in (load_labelled(p) for p in teach_paths)]
    score, times = _read_all(teach(unsized), tests)
    _report(f"photoreal C, taught without sizes ({len(test_paths)} images)", score, times)
    for name, change in CHANGES.items():
        score, times = _read_all(profile, [change(image, labels) for image, labels in tests])
        _report(f"photoreal C, {name}", score, times)
    # A table's camera reads roll after roll under one lamp: each frame starts from the lamp's
    # correction the last one needed, as the table camera does.
    warmer = CHANGES["warmer lamp (blue -20%, red +15%)"]
    lamp, total, times = None, Score(), []
    for image, labels in (warmer(image, labels) for image, labels in tests):
        started = time.process_time()
        dice, lamp = read_under_lamp(image, profile, lamp)
        times.append((time.process_time() - started) * 1000.0)
        total = total + score_image([d.to_json() for d in dice], labels["dice"])
    _report("photoreal C, warmer lamp, read in turn carrying the lamp's correction", total, times)


def bench_photoreal_subsets(root: Path, size: int) -> None:
    """Box C taught on each `size` of its teach images (the spec's fewest is 4): how the reader
    does when a table's teaching saw only some of its tables and lamps."""
    teach_set = [load_labelled(p) for p in sorted(glob.glob(str(root / "teach" / "*.jpg")))]
    tests = [load_labelled(p) for p in sorted(glob.glob(str(root / "test" / "*.jpg")))]
    if len(teach_set) < size or not tests:
        print(f"photoreal: fewer than {size} teach images or no test images under {root}, subsets skipped")
        return
    total, times, worst = Score(), [], (-1, ())
    subsets = list(itertools.combinations(range(len(teach_set)), size))
    for subset in subsets:
        score, subset_times = _read_all(teach([teach_set[i] for i in subset]), tests)
        total, times = total + score, times + subset_times
        worst = max(worst, (score.errors, subset))
    _report(f"photoreal C taught on each {size} of its {len(teach_set)} teach images ({len(subsets)} teachings, "
            f"the worst {worst[1]} with {worst[0]} errors)", total, times)


def _scaled(factor: float):
    def change(image, labels):
        resized = cv2.resize(image, None, fx=factor, fy=factor,
                             interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)
        dice = [dict(d, center=[c * factor for c in d["center"]], size=d["size"] * factor) for d in labels["dice"]]
        return resized, {"dice": dice}
    return change


def _turned(image, labels):
    height = image.shape[0]
    dice = [dict(d, center=[height - 1 - d["center"][1], d["center"][0]]) for d in labels["dice"]]
    return np.ascontiguousarray(np.rot90(image, -1)), {"dice": dice}


def _pixels(change):
    return lambda image, labels: (np.clip(change(image.astype(np.float32)), 0, 255).astype(np.uint8), labels)


# How the reader holds up when the test images differ from the teach images in ways a table's
# camera and lamps can (box C's 24 test images changed, read with the profile taught on its 8).
CHANGES = {
    "lamp 40% dimmer": _pixels(lambda f: f * 0.6),
    "lamp 30% brighter (clipping)": _pixels(lambda f: f * 1.3),
    "warmer lamp (blue -20%, red +15%)": _pixels(lambda f: f * np.float32([0.8, 1.0, 1.15])),
    "cooler lamp (blue +15%, red -15%)": _pixels(lambda f: f * np.float32([1.15, 1.0, 0.85])),
    "sensor noise (sigma 8)": _pixels(lambda f: f + np.random.default_rng(0).normal(0, 8, f.shape).astype(np.float32)),
    "out of focus (Gaussian sigma 1.5)": _pixels(lambda f: cv2.GaussianBlur(f, (0, 0), 1.5)),
    "JPEG quality 40": lambda image, labels: (cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 40])[1],
                                                          cv2.IMREAD_COLOR), labels),
    "camera 15% farther (dice smaller)": _scaled(0.85),
    "camera 20% nearer (dice bigger)": _scaled(1.2),
    # Farther and nearer than any teach image showed: dice of 39-65 px and of 76-126 px.
    "camera much farther (dice 0.7 times as wide)": _scaled(0.7),
    "camera much nearer (dice 1.35 times as wide)": _scaled(1.35),
    "camera turned a quarter": _turned,
}


def bench_style(style: str, n_teach: int, n_scenes: int, cocked_3d: bool = False, walls: bool = False) -> None:
    from vision.render import random_scene, render

    teach_set = [render(random_scene(TEACH_SEED_BASE + i, style=style, all_faces=True, cocked_3d=cocked_3d,
                                     walls=walls)) for i in range(n_teach)]
    started = time.perf_counter()
    profile = teach(teach_set)
    print(f"style {style}: taught from {n_teach} images in {time.perf_counter() - started:.1f} s")
    total, times, causes, flags = Score(), [], Counter(), Counter()
    for seed in range(n_scenes):
        scene = random_scene(seed, style=style, cocked_3d=cocked_3d, walls=walls)
        image, labels = render(scene)
        read, ms = _timed_read(profile, image)
        times.append(ms)
        total = total + score_image(read, labels["dice"])
        causes += error_causes(scene, labels["dice"], read)
        flags += flag_causes(scene, labels["dice"], read)
    drawn = ", every die a 3D cube, flat ones showing their walls" if walls else \
        ", cocked dice as 3D cubes" if cocked_3d else ""
    _report(f"style {style} ({n_scenes} scenes{drawn})", total, times)
    print(f"  errors by cause: {causes_line(causes)}")
    print(f"  flagged by cause: {causes_line(flags, 'none flagged')}")


def bench_speed(image_path: str, profile, repeats: int) -> None:
    """Median read time on one core for one frame, its JPEG decode time, and peak memory."""
    decode = []
    for _ in range(repeats):
        started = time.perf_counter()
        frame = read_image(image_path)
        decode.append((time.perf_counter() - started) * 1000.0)
    reads, walls = [], []
    for _ in range(repeats):
        started, wall = time.process_time(), time.perf_counter()
        dice = read_frame(frame, profile)
        reads.append((time.process_time() - started) * 1000.0)
        walls.append((time.perf_counter() - wall) * 1000.0)
    tracemalloc.start()  # separately: tracing slows reading down
    read_frame(frame, profile)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(f"speed ({Path(image_path).name}, {frame.shape[1]}x{frame.shape[0]}, {len(dice)} dice read): "
          f"read median {statistics.median(reads):.1f} ms CPU ({statistics.median(walls):.1f} ms wall), decode median {statistics.median(decode):.1f} ms, "
          f"peak traced memory while reading {peak / 1e6:.1f} MB, process max RSS {rss_mb:.0f} MB")


def bench_speed_rendered(repeats: int) -> None:
    """Speed on the target's frame: 1640x1232 with 24 dice (renderer, classic style, JPEG)."""
    import tempfile

    from vision.render import random_scene, render

    profile = teach([render(random_scene(TEACH_SEED_BASE + i, style="classic", all_faces=True)) for i in range(12)])
    scene = random_scene(SPEED_SEED, style="classic", n_dice=24, width=1640, height=1232, die_size=80.0,
                         distractors=False, hand=False)
    image, _ = render(scene)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "speed.jpg")
        cv2.imwrite(path, image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        bench_speed(path, profile, repeats)


SPEED_SEED = 7


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=300, help="generated scenes read per style")
    parser.add_argument("--teach", type=int, default=12, help="generated images taught per style")
    parser.add_argument("--styles", nargs="*", default=None, help="renderer styles (default: all)")
    parser.add_argument("--no-photoreal", action="store_true")
    parser.add_argument("--repeats", type=int, default=15, help="timing repeats")
    parser.add_argument("--subsets", type=int, default=0, metavar="K",
                        help="also teach box C on each K of its teach images (4: 70 teachings, 2 minutes)")
    parser.add_argument("--cocked-3d", action="store_true", help="renderer scenes draw cocked dice as 3D cubes")
    parser.add_argument("--walls", action="store_true",
                        help="renderer scenes draw every die as a 3D cube, flat ones showing their walls (implies --cocked-3d)")
    args = parser.parse_args()
    cv2.setNumThreads(1)  # the figure that matters is one core of a Pi-class CPU

    if not args.no_photoreal:
        bench_photoreal(PHOTOREAL)
        if args.subsets:
            bench_photoreal_subsets(PHOTOREAL, args.subsets)
        speed_image = PHOTOREAL / "test" / "c_test_022.jpg"  # 1640x1232, ~20 dice
        if speed_image.exists():
            profile = teach([load_labelled(p) for p in sorted(glob.glob(str(PHOTOREAL / "teach" / "*.jpg")))])
            bench_speed(str(speed_image), profile, args.repeats)
    bench_speed_rendered(args.repeats)
    try:
        from vision.render import STYLES
    except ImportError:
        print("renderer not available: styles skipped")
        return
    for style in args.styles if args.styles is not None else STYLES:
        bench_style(style, args.teach, args.scenes, args.cocked_3d, args.walls)


if __name__ == "__main__":
    main()
