"""How fast the scene renderer is: CPU milliseconds per 1640x1232 scene with 24 dice.

Single-threaded OpenCV, CPU time (not wall time) so a busy machine skews it less. "warm" renders
scenes whose table textures are already cached (the usual case in a long benchmark run, which
reuses a small pool of table textures); "cold" includes drawing each table texture.
Run: `python benchmarks/render_speed.py [--scenes 20]`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from vision.render import random_scene, render  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=900)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    scenes = [random_scene(args.seed + i, n_dice=24) for i in range(args.scenes)]
    render(scenes[0])  # noise bank and first-use costs
    start = time.process_time()
    for scene in scenes:
        render(scene)
    cold = (time.process_time() - start) / len(scenes)
    warm_set = scenes[:10]  # ten tables: all stay in the table cache
    start = time.process_time()
    for scene in warm_set:
        render(scene)
    warm = (time.process_time() - start) / len(warm_set)
    start = time.process_time()
    for scene in scenes:
        random_scene(scene.seed, n_dice=24)
    build = (time.process_time() - start) / len(scenes)
    print(f"render, tables cold: {cold * 1000:.0f} ms/scene")
    print(f"render, tables warm: {warm * 1000:.0f} ms/scene")
    print(f"random_scene: {build * 1000:.0f} ms/scene")


if __name__ == "__main__":
    main()
