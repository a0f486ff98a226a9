"""`python -m vision render`: write labelled, photo-like renders (image + same-name JSON).

Register with ``add_render_command(subparsers)`` in ``vision/__main__.py``; ``main_render(argv)``
runs the same command standalone. Image ``i`` uses seed ``--seed + i``, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import cv2

from vision.lighting import LIGHT_KINDS
from vision.render import FRAME_SIZES, STYLES, random_scene, render
from vision.tables import TABLE_KINDS


def _frame_size(text: str) -> tuple[int, int] | None:
    if text == "mixed":
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT or 'mixed', got {text!r}") from None
    if w < 200 or h < 200:
        raise argparse.ArgumentTypeError("frame must be at least 200x200")
    return w, h


def write_renders(out: Path, style: str | None, count: int, seed: int,
                  size: tuple[int, int] | None, *, table: str | None = None,
                  light: str | None = None, n_dice: int | None = None, all_faces: bool = False,
                  quality: int = 85, prefix: str = "scene", cycle: bool = False,
                  hand: bool | str | None = None, cocked_3d: bool = False, walls: bool = False) -> list[Path]:
    """Render ``count`` scenes into ``out`` as JPEG (quality ``quality``) + JSON labels.

    ``size`` None alternates the two camera frame sizes. ``cycle`` steps tables and lights
    through every kind (offset by the seed) instead of drawing them at random, so a small set
    still covers them all. ``hand``: None random, False never, True clear of the dice,
    "over" possibly covering dice (mostly hidden ones are left out of the labels).
    ``cocked_3d`` draws cocked dice as tilted cubes under the perspective camera; ``walls``
    flat ones as standing cubes under it, with the walls it sees (and implies ``cocked_3d``).
    """
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        s = seed + i
        w, h = size or FRAME_SIZES[i % len(FRAME_SIZES)]
        t = table or (TABLE_KINDS[(seed + 3 * i) % len(TABLE_KINDS)] if cycle else None)
        lt = light or (LIGHT_KINDS[(seed + i) % len(LIGHT_KINDS)] if cycle else None)
        scene = random_scene(s, style=style, n_dice=n_dice, width=w, height=h, table=t, light=lt,
                             all_faces=all_faces, hand=hand, cocked_3d=cocked_3d, walls=walls)
        # The written JPEG is the compression step: compressing twice only adds bytes.
        scene = dataclasses.replace(scene, optics=dataclasses.replace(scene.optics, jpeg_quality=None))
        image, labels = render(scene)
        path = out / f"{prefix}_{i + 1:04d}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
        path.with_suffix(".json").write_text(json.dumps(labels, indent=1) + "\n")
        written.append(path)
    return written


def _run(args: argparse.Namespace) -> int:
    paths = write_renders(Path(args.out), args.style, args.count, args.seed, args.size,
                          table=args.table, light=args.light, n_dice=args.dice,
                          all_faces=args.all_faces, quality=args.quality, prefix=args.prefix,
                          cycle=args.cycle, hand={"random": None, "no": False, "yes": True,
                                                  "over": "over"}[args.hand],
                          cocked_3d=args.cocked_3d, walls=args.walls)
    print(json.dumps({"out": args.out, "images": len(paths)}))
    return 0


def add_render_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``render`` subcommand to a ``python -m vision`` parser."""
    p = subparsers.add_parser("render", help="write labelled synthetic table images")
    p.add_argument("--style", choices=STYLES, default=None, help="symbol art style (default: random)")
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--size", type=_frame_size, default=(1640, 1232),
                   help="WIDTHxHEIGHT, or 'mixed' to alternate 1640x1232 and 2304x1296")
    p.add_argument("--table", choices=TABLE_KINDS, default=None)
    p.add_argument("--light", choices=LIGHT_KINDS, default=None)
    p.add_argument("--dice", type=int, default=None, help="dice per image (default: 6..24)")
    p.add_argument("--all-faces", action="store_true",
                   help="every color x symbol at least once per image (teaching sets)")
    p.add_argument("--cycle", action="store_true", help="step through all tables and lights")
    p.add_argument("--hand", choices=("random", "no", "yes", "over"), default="random",
                   help="a hand in view: clear of the dice ('yes') or over them ('over')")
    p.add_argument("--cocked-3d", action="store_true",
                   help="draw cocked dice as tilted 3D cubes (as photos show them), not as two flat faces")
    p.add_argument("--walls", action="store_true",
                   help="draw every die as a 3D cube, flat ones with the walls the camera sees (implies --cocked-3d)")
    p.add_argument("--quality", type=int, default=85, help="JPEG quality of the written files")
    p.add_argument("--prefix", default="scene")
    p.set_defaults(run=_run)
    return p


def main_render(argv: list[str] | None = None) -> int:
    """Run the render command on its own: ``main_render(["--count", "3", "--out", "x"])``."""
    parser = argparse.ArgumentParser(prog="python -m vision.render_cli")
    sub = parser.add_subparsers(dest="command", required=True)
    add_render_command(sub)
    args = parser.parse_args(["render", *(sys.argv[1:] if argv is None else argv)])
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main_render())
