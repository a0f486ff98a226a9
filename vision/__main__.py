"""Command line: `python -m vision teach IMAGE... --out PROFILE.json` and
`python -m vision read IMAGE [--profile PROFILE.json]` (see shared/spec/dice-images.md).

Each subcommand is one `add_parser` call plus a function taking the parsed arguments, so other
parts of the package can add theirs in a few lines. Bad input ends with exit status 2 and one
line on stderr that names the file and says why.
"""

from __future__ import annotations

import os

# Reading does many small matrix products; BLAS threads only fight over them (and over the
# cores the camera and web threads need). Must be set before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from companion.pipes import output_abandoned  # noqa: E402

from .labels import ImageError  # noqa: E402

EXIT_BAD_INPUT = 2


def _teach(args: argparse.Namespace) -> int:
    from .labels import load_labelled
    from .teach import teach

    profile = teach([load_labelled(path) for path in args.images])
    profile.save(args.out)
    print(json.dumps({"profile": args.out, "colors": list(profile.colors), "symbols": list(profile.symbols),
                      "images": len(args.images)}))
    return 0


def _read(args: argparse.Namespace) -> int:
    from .labels import read_image
    from .profile import Profile, default_profile
    from .reader import prepare, read_frame

    profile = Profile.load(args.profile) if args.profile else default_profile()
    frame = read_image(args.image)
    prepare()
    started = time.perf_counter()
    dice = read_frame(frame, profile)
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    print(json.dumps({"dice": [die.to_json() for die in dice], "ms": round(elapsed_ms, 1)}), flush=True)
    return 0


Command = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    """The `python -m vision` parser; add a subcommand with `subcommands.add_parser(...)` and
    `set_defaults(run=function)`."""
    parser = argparse.ArgumentParser(prog="python -m vision", description="Read Gangster Dice from table images.")
    subcommands = parser.add_subparsers(dest="command", required=True)

    teach = subcommands.add_parser("teach", help="learn a profile from labelled images (JSON beside each)")
    teach.add_argument("images", nargs="+", metavar="IMAGE")
    teach.add_argument("--out", required=True, metavar="PROFILE.json")
    teach.set_defaults(run=_teach)

    read = subcommands.add_parser("read", help="read the dice in one image; prints JSON")
    read.add_argument("image", metavar="IMAGE")
    read.add_argument("--profile", metavar="PROFILE.json", help="taught profile (default: the shipped one)")
    read.set_defaults(run=_read)
    from .render_cli import add_render_command
    add_render_command(subcommands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .profile import ProfileError

    try:
        return args.run(args)
    except (ImageError, ProfileError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return output_abandoned()  # whoever read our output stopped early: not our error
    except OSError as error:  # e.g. --out in a missing directory
        print(f"error: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
