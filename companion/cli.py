"""The ``gangster-dice`` command (also ``python -m companion``).

Subcommands live with what they run; this module only wires them up, importing the heavier parts
(vision, web) only when their subcommand is used.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .pipes import output_abandoned


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
    sys.stdout.flush()  # here, where a closed pipe is caught, not at the interpreter's exit
    return 0


#: Subcommands of the other parts: (command, module, function that registers it). A module is
#: imported only when its command is asked for (or for --help), so ``replay`` starts without
#: loading the web server or OpenCV.
OPTIONAL_COMMANDS = (
    ("simulate", "companion.simulate", "add_command"),
    ("serve", "web.serve", "add_command"),
    ("camera", "vision.camera_cli", "add_camera_command"),
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``command``, only that subcommand's module is loaded."""
    parser = argparse.ArgumentParser(prog="gangster-dice", description="Gangster Dice table companion")
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="play a whole game from a JSON file and print the state")
    replay.add_argument("game", help="the game as JSON (see shared/spec/replay.md)")
    replay.set_defaults(run=_replay)

    from importlib import import_module

    for name, module, function in OPTIONAL_COMMANDS:
        if command is not None and command != name:
            continue
        getattr(import_module(module), function)(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    known = {"replay", *(name for name, _, _ in OPTIONAL_COMMANDS)}
    command = argv[0] if argv and argv[0] in known else None
    args = build_parser(command).parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:
        return output_abandoned()  # whoever read our output stopped early: not our error
