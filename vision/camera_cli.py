"""`gangster-dice camera`: check a camera before a game — open it, take a frame, show what it reads.

    gangster-dice camera --source pi --out table.jpg
    gangster-dice camera --source demo --settle --frames 60 --players 4

Opens the source, takes a frame (the N-th one, or the first settled one with --settle), reads the
dice when a profile is at hand, saves the frame as JPEG with the reading drawn on it, and prints
the source, the frame size and the dice per colour and symbol (and per seat with --players).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

import cv2
import numpy as np

from vision.camera import SOURCES_HELP, Camera, CameraError, EndOfFrames, open_camera
from vision.overlay import draw_reading, draw_zones
from vision.seats import assign, default_zones, is_flagged
from vision.settle import SettleDetector, SettleState


def add_camera_command(subparsers: Any, demo_factory: Callable[[], Camera] | None = None) -> argparse.ArgumentParser:
    """Add the `camera` sub-command to an argparse sub-parser set; it runs `run(args)`."""
    parser = subparsers.add_parser(
        "camera",
        help="open a camera, save a frame and print what it reads",
        description="Open a camera, take a frame (or wait for the dice to settle), save it as JPEG "
        "with the reading drawn on it, and print what it sees.",
    )
    parser.add_argument("--source", default="demo", help=f"where frames come from: {SOURCES_HELP} (default: demo)")
    parser.add_argument("--out", default="camera.jpg", help="JPEG file to save the frame to (default: camera.jpg)")
    parser.add_argument("--profile", help="profile JSON learnt by 'teach' (default: the built-in profile)")
    parser.add_argument("--frames", type=int, default=3, help="frames to take; the last is kept (default: 3)")
    parser.add_argument("--settle", action="store_true", help="keep the first settled frame within --frames instead")
    parser.add_argument("--players", type=int, default=0, help="also show dice per seat with default zones for N players")
    parser.add_argument("--size", help="frame size WxH asked of the camera, e.g. 2304x1296")
    parser.add_argument("--no-read", action="store_true", help="only save the frame, do not read the dice")
    # Both names: `gangster-dice` calls args.run(args), `python -m vision` calls args.func(args).
    parser.set_defaults(func=run, run=run, demo_factory=demo_factory)
    return parser


def run(args: argparse.Namespace) -> int:
    """Carry out `camera`; returns the exit status (0 ok, 2 when the camera or profile fails)."""
    try:
        size = _parse_size(args.size) if getattr(args, "size", None) else None
        camera = open_camera(args.source, size=size, demo_factory=getattr(args, "demo_factory", None))
    except (CameraError, ValueError) as error:
        print(f"camera: {error}", file=sys.stderr)
        return 2
    if camera is None:
        print("camera: source 'none' has no frames to show", file=sys.stderr)
        return 2
    with camera:
        try:
            frame, note = _take_frame(camera, max(1, args.frames), args.settle)
        except CameraError as error:
            print(f"camera: {error}", file=sys.stderr)
            return 2
        name = camera.name

    dice: list = []
    reading_note = "not read (--no-read)"
    if not args.no_read:
        try:
            dice, reading_note = _read(frame, args.profile)
        except (OSError, ValueError) as error:
            print(f"camera: profile {args.profile}: {error}", file=sys.stderr)
            return 2

    picture = draw_reading(frame, dice)
    if args.players:
        zones = default_zones(args.players, frame.shape[1], frame.shape[0])
        picture = draw_zones(picture, zones)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), picture, [cv2.IMWRITE_JPEG_QUALITY, 90]):
        print(f"camera: cannot write {out}", file=sys.stderr)
        return 2

    print(f"source: {name}")
    print(f"frame: {frame.shape[1]}x{frame.shape[0]} ({note})")
    print(f"reading: {reading_note}")
    for line in describe_dice(dice):
        print(line)
    if args.players:
        zones = default_zones(args.players, frame.shape[1], frame.shape[0])
        for seat, group in assign(dice, zones).items():
            where = "outside every zone" if seat is None else f"seat {seat + 1}"
            if seat is not None or group:
                print(f"{where}: {_color_counts(group) or 'no dice'}")
    print(f"saved: {out}")
    return 0


def describe_dice(dice: Sequence[Any]) -> list[str]:
    """Lines such as 'dice: 5 (red 2, white 2, blue 1)' and 'red: gun ×2' for a reading."""
    lines = [f"dice: {len(dice)}" + (f" ({_color_counts(dice)})" if dice else "")]
    for color in sorted({die.color for die in dice}):
        symbols = Counter(die.symbol or "unread" for die in dice if die.color == color)
        lines.append(f"  {color}: " + ", ".join(f"{symbol} x{n}" for symbol, n in sorted(symbols.items())))
    flagged = sum(1 for die in dice if is_flagged(die))
    if flagged:
        lines.append(f"  flagged (to ask the player): {flagged}")
    return lines


def _color_counts(dice: Sequence[Any]) -> str:
    counts = Counter(die.color for die in dice)
    return ", ".join(f"{color} {n}" for color, n in sorted(counts.items()))


def _take_frame(camera: Camera, frames: int, wait_for_settle: bool) -> tuple[np.ndarray, str]:
    """The last of `frames` frames, or the first settled one when asked (falling back to the last)."""
    detector = SettleDetector() if wait_for_settle else None
    frame: np.ndarray | None = None
    taken = 0
    for taken in range(1, frames + 1):
        try:
            frame = camera.frame()
        except EndOfFrames:
            break
        if detector is not None and detector.update(frame, time.monotonic()) is SettleState.SETTLED:
            return frame, f"settled at frame {taken}"
    if frame is None:
        raise CameraError(f"{camera.name} gave no frame")
    if detector is not None:
        return frame, f"did not settle within {taken} frames; last frame kept"
    return frame, f"frame {taken}"


def _read(frame: np.ndarray, profile_path: str | None) -> tuple[list, str]:
    """Read the dice with the reader, if the reader is installed; (dice, how it was read)."""
    try:
        from vision import profile as profiles
        from vision.reader import prepare, read_frame
    except ImportError as error:
        return [], f"reader not available ({error})"
    if profile_path:
        profile = _load_profile(profiles, Path(profile_path))
        source = f"profile {profile_path}"
    else:
        try:
            profile = profiles.default_profile()
        except Exception as error:  # no built-in profile yet: still save and show the frame
            return [], f"not read: no built-in profile ({error}); teach one and pass --profile"
        source = "built-in profile"
    prepare()  # what a process's first reading does once, before the clock: the time shown is the frame's
    started = time.perf_counter()
    dice = list(read_frame(frame, profile))
    return dice, f"{source}, {1000 * (time.perf_counter() - started):.0f} ms"


def _load_profile(profiles: Any, path: Path) -> Any:
    """`Profile.load`, with whatever it raises turned into a ValueError the command reports."""
    if not path.is_file():
        raise ValueError("no such file")
    try:
        return profiles.Profile.load(path)
    except Exception as error:  # the profile module has its own error type; the CLI only reports it
        raise ValueError(str(error)) from error


def _parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size {text!r} is not WIDTHxHEIGHT, e.g. 2304x1296") from None
    return width, height


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on its own (python -m vision.camera_cli camera ...)."""
    parser = argparse.ArgumentParser(prog="gangster-dice")
    add_camera_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
