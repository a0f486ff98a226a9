"""The ``gangster-dice`` command (also ``python -m companion``).

Subcommands live with what they run; this module only wires them up, importing the heavier parts
(vision, web) only when their subcommand is used.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence


def _replay(args: argparse.Namespace) -> int:
    from .replay import ReplayError, play, state_json

    try:
        with open(args.game, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as error:
        print(f"{args.game}: cannot read the file: {error.strerror or error}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        print(f"{args.game}: not valid JSON: {error}", file=sys.stderr)
        return 2
    try:
        state = play(doc)
    except ReplayError as error:
        print(str(error), file=sys.stderr)
        return 2
    json.dump(state_json(state), sys.stdout)
    sys.stdout.write("\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gangster-dice", description="Gangster Dice table companion")
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="play a whole game from a JSON file and print the state")
    replay.add_argument("game", help="the game as JSON (see shared/spec/replay.md)")
    replay.set_defaults(run=_replay)

    for register in _optional_commands():
        register(sub)
    return parser


def _optional_commands():
    """Subcommands of the other parts, registered when their modules exist."""
    from importlib import import_module

    for module, function in (
        ("companion.simulate", "add_command"),
        ("web.serve", "add_command"),
        ("vision.camera_cli", "add_camera_command"),
    ):
        try:
            yield getattr(import_module(module), function)
        except (ImportError, AttributeError):
            continue


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)
