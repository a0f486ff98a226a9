"""The `python -m vision` command line, run as a user would run it."""

from __future__ import annotations

import glob
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PHOTOREAL = ROOT / "fixtures" / "images" / "photoreal-c"
TEACH = sorted(glob.glob(str(PHOTOREAL / "teach" / "*.jpg")))
TEST = sorted(glob.glob(str(PHOTOREAL / "test" / "*.jpg")))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture(scope="module")
def profile_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("profile") / "box.json"
    result = run("teach", *TEACH, "--out", str(path))
    assert result.returncode == 0, result.stderr
    return path


def assert_refused(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0]


def test_read_prints_the_contract_json(profile_path: Path) -> None:
    result = run("read", TEST[0], "--profile", str(profile_path))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert set(output) == {"dice", "ms"}
    assert isinstance(output["ms"], float) and output["ms"] > 0
    assert output["dice"]
    for die in output["dice"]:
        assert set(die) == {"color", "symbol", "center", "size", "confidence"}
        assert die["color"] in {"white", "red", "blue"}
        assert die["symbol"] in {"finger", "gun", "cocktail", "gavel", None}
        assert len(die["center"]) == 2 and die["size"] > 0 and 0 <= die["confidence"] <= 1


def test_read_refuses_an_unreadable_image(profile_path: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg at all")
    assert_refused(run("read", str(broken), "--profile", str(profile_path)), "broken.jpg")


def test_read_refuses_a_missing_image(profile_path: Path, tmp_path: Path) -> None:
    assert_refused(run("read", str(tmp_path / "nowhere.png"), "--profile", str(profile_path)), "nowhere.png")


def test_read_refuses_a_bad_profile(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert_refused(run("read", TEST[0], "--profile", str(bad)), "bad.json", "profile")


def test_read_refuses_a_profile_of_another_kind(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"dice": []}))
    assert_refused(run("read", TEST[0], "--profile", str(other)), "other.json")


def test_read_refuses_a_missing_profile(tmp_path: Path) -> None:
    assert_refused(run("read", TEST[0], "--profile", str(tmp_path / "none.json")), "none.json")


def test_teach_refuses_an_image_without_labels(tmp_path: Path) -> None:
    lonely = tmp_path / "lonely.jpg"
    lonely.write_bytes(Path(TEST[0]).read_bytes())
    assert_refused(run("teach", *TEACH[:3], str(lonely), "--out", str(tmp_path / "p.json")), "lonely")
    assert not (tmp_path / "p.json").exists()


def test_teach_refuses_too_few_images(tmp_path: Path) -> None:
    assert_refused(run("teach", *TEACH[:2], "--out", str(tmp_path / "p.json")), "at least 4")


def test_read_into_a_closed_pipe_ends_quietly(profile_path: Path) -> None:
    # `python -m vision read ... | head -c 0`: the reader of our output is gone before we write.
    process = subprocess.Popen([sys.executable, "-m", "vision", "read", "--profile", str(profile_path), TEST[0]],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert stderr == ""
