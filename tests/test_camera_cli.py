"""The `camera` command and the reading overlay it saves."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import FolderCamera
from vision.camera_cli import add_camera_command, describe_dice, main
from vision.overlay import die_label, draw_reading, draw_zones
from vision.seats import default_zones


@dataclass(frozen=True)
class Die:
    color: str
    symbol: str | None
    center: tuple[float, float]
    size: float
    confidence: float


def _folder(tmp_path: Path, count: int = 3) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    for index in range(count):
        image = np.full((120, 200, 3), (40, 100, 40), np.uint8)
        cv2.putText(image, str(index), (80, 70), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
        cv2.imwrite(str(folder / f"f{index}.png"), image)
    return folder


def test_camera_command_saves_a_frame_and_says_what_it_sees(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out" / "frame.jpg"
    status = main(["camera", "--source", str(_folder(tmp_path)), "--out", str(out), "--frames", "2", "--no-read", "--players", "2"])
    printed = capsys.readouterr().out
    assert status == 0
    saved = cv2.imread(str(out))
    assert saved is not None and saved.shape == (120, 200, 3)
    assert "source: folder" in printed and "frame: 200x120 (frame 2)" in printed
    assert "dice: 0" in printed and "seat 1: no dice" in printed and f"saved: {out}" in printed


def test_camera_command_with_settle_waits_for_a_settled_frame(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    status = main(["camera", "--source", str(_folder(tmp_path, 1)), "--out", str(tmp_path / "a.jpg"), "--frames", "3", "--settle", "--no-read"])
    assert status == 0
    assert "did not settle within 3 frames" in capsys.readouterr().out  # one unchanging image: nothing to fire on


def test_camera_command_reports_bad_sources_and_profiles(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["camera", "--source", "webcam"]) == 2
    assert "unknown camera source 'webcam'" in capsys.readouterr().err
    assert main(["camera", "--source", "none"]) == 2
    assert "no frames" in capsys.readouterr().err
    status = main(["camera", "--source", str(_folder(tmp_path)), "--out", str(tmp_path / "x.jpg"), "--profile", str(tmp_path / "none.json")])
    assert status == 2 and "no such file" in capsys.readouterr().err


def test_add_camera_command_plugs_in_a_demo_factory(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    folder = _folder(tmp_path)
    parser = argparse.ArgumentParser()
    add_camera_command(parser.add_subparsers(dest="command"), demo_factory=lambda: FolderCamera(folder))
    args = parser.parse_args(["camera", "--out", str(tmp_path / "demo.jpg"), "--no-read"])
    assert args.source == "demo"
    assert args.func(args) == 0
    assert f"source: folder {folder}" in capsys.readouterr().out


def test_describe_dice_counts_colours_symbols_and_flags() -> None:
    dice = [
        Die("red", "gun", (10, 10), 30, 0.97),
        Die("red", "gun", (50, 10), 30, 0.91),
        Die("blue", None, (90, 10), 30, 0.2),
    ]
    assert describe_dice(dice) == [
        "dice: 3 (blue 1, red 2)",
        "  blue: unread x1",
        "  red: gun x2",
        "  flagged (to ask the player): 1",
    ]
    assert describe_dice([]) == ["dice: 0"]


def test_draw_reading_boxes_each_die_and_leaves_the_frame_alone() -> None:
    frame = np.full((400, 600, 3), (40, 100, 40), np.uint8)
    red = Die("red", "gun", (200.0, 200.0), 60.0, 0.97)
    unread = Die("white", None, (450.0, 250.0), 60.0, 0.3)
    drawn = draw_reading(frame, [red, unread])
    assert (frame == (40, 100, 40)).all(), "the frame given is not drawn on"
    assert die_label(red) == "red gun 0.97" and die_label(unread) == "white ? 0.30"
    # The box edge of the red die is drawn in red, the flagged die's in amber.
    assert tuple(int(v) for v in drawn[230, 170]) == (40, 40, 230)
    assert tuple(int(v) for v in drawn[280, 420]) == (0, 215, 255)
    assert (drawn[200, 200] == frame[200, 200]).all(), "the die itself stays visible"
    zoned = draw_zones(frame, default_zones(2, 600, 400), ["Ann", "Bob"])
    assert (zoned[200, 300] != frame[200, 300]).any()  # the line between the halves


def test_gangster_dice_console_command_has_the_camera_command(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from companion.cli import main as gangster_dice

    out = tmp_path / "console.jpg"
    assert gangster_dice(["camera", "--source", str(_folder(tmp_path)), "--out", str(out), "--no-read"]) == 0
    assert out.is_file() and "frame: 200x120" in capsys.readouterr().out


def test_camera_command_reads_with_the_built_in_profile(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    cv2.imwrite(str(folder / "table.png"), np.full((300, 400, 3), (40, 100, 40), np.uint8))
    assert main(["camera", "--source", str(folder), "--out", str(tmp_path / "read.jpg"), "--frames", "1"]) == 0
    printed = capsys.readouterr().out
    assert "reading: built-in profile," in printed and "dice: 0" in printed  # an empty cloth: nothing to read
