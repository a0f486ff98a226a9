"""The camera set-up page's API, on a real server with the demo camera: seat zones, the light and
focus verdict, and teaching the table's own dice from frames whose readings the host confirms."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.light_check import assess
from vision.profile import Profile
from vision.reader import Die
from web import create_app
from web.camera import CAMERA_KEY
from web.serve import serve_in_thread

from table_players import Phone, Refused, call, wait_until


@pytest.fixture()
def table(tmp_path):
    app = create_app(tmp_path, camera="demo", public_host="127.0.0.1", config={"START_CAMERA": True})
    base, server = serve_in_thread(app)
    host = {"X-Host-Token": call(base, "GET", "/api/host/claim")["host_token"]}
    phones = [Phone(base, name, seed) for seed, name in enumerate(("Ann", "Bob", "Cat"))]
    call(base, "POST", "/api/host/start", {"mode": "tutorial"}, host)
    camera = app.extensions[CAMERA_KEY]
    wait_until(lambda: camera.last_reading() is not None, timeout=60)  # the dice have settled
    yield base, host, phones, camera, tmp_path
    camera.stop()
    server.close()


def test_only_the_host_saves_seat_zones_and_they_are_kept(table):
    base, host, phones, camera, data = table
    zones = call(base, "GET", "/api/camera/zones")
    assert len(zones["seats"]) == 3
    zones["seats"][0]["polygon"] = [[0, 0], [400, 0], [400, 300], [0, 300]]
    with pytest.raises(Refused) as refused:
        phones[0].post("/api/camera/zones", zones)
    assert refused.value.status == 403
    with pytest.raises(Refused) as refused:
        call(base, "POST", "/api/camera/zones", {"width": 10}, host)
    assert refused.value.status == 400
    call(base, "POST", "/api/camera/zones", zones, host)
    saved = json.loads((data / "zones.json").read_text())
    assert saved["seats"][0]["polygon"] == [[0, 0], [400, 0], [400, 300], [0, 300]]
    assert call(base, "GET", "/api/camera/zones")["seats"][0]["polygon"] == saved["seats"][0]["polygon"]


def test_the_light_check_reads_the_table_it_sees(table):
    base, host, phones, camera, data = table
    with pytest.raises(Refused) as refused:
        call(base, "GET", "/api/camera/check", headers={"X-Seat-Token": phones[0].token})
    assert refused.value.status == 403
    report = call(base, "GET", "/api/camera/check", headers=host)
    assert len(report["dice"]) >= 12  # three stashes of six dice lie on the demo table
    assert report["size"] == [1640, 1232]
    assert not any("too dark" in p or "too small" in p for p in report["problems"]), report["problems"]


def _die(x: float, y: float, size: float = 80.0) -> Die:
    return Die("red", "gun", (x, y), size, 0.9)


def test_a_dark_table_is_too_dark():
    frame = np.full((600, 800, 3), 20, np.uint8)
    assert any(p.startswith("too dark") for p in assess(frame, [_die(200, 200)]))


def test_glare_on_a_die_is_counted():
    frame = np.full((600, 800, 3), 120, np.uint8)
    cv2.circle(frame, (200, 200), 12, (255, 255, 255), -1)  # a lamp's reflection on one die
    problems = assess(frame, [_die(200, 200), _die(500, 300)])
    assert "glare on 1 die: move or diffuse the lamp" in problems


def test_small_dice_ask_to_lower_the_camera_and_large_ones_to_raise_it():
    frame = np.random.default_rng(1).integers(60, 200, (600, 800, 3), dtype=np.uint8)
    assert any("lower the camera" in p for p in assess(frame, [_die(100, 100, 30), _die(300, 300, 32)]))
    assert any("raise the camera" in p for p in assess(frame, [_die(200, 200, 180), _die(500, 300, 170)]))
    assert not any("camera" in p for p in assess(frame, [_die(200, 200, 80), _die(500, 300, 90)]))


def test_teaching_four_confirmed_frames_writes_the_tables_profile(table):
    base, host, phones, camera, data = table
    shipped = camera.profile
    answers = []
    for frame in range(4):
        if frame:
            before = camera.last_reading().frame_number
            for phone in phones:  # everyone rolls again: new faces to learn from
                phone.post("/api/camera/reroll")
            # the new dice have settled and been read
            wait_until(lambda: camera.last_reading().frame_number > before, timeout=60)
        report = call(base, "GET", "/api/camera/check", headers=host)
        truth = [
            {"color": d.color, "symbol": d.symbol, "center": list(d.center)}
            for d in camera.demo.truth
        ]
        with pytest.raises(Refused) as refused:
            call(base, "POST", "/api/camera/teach", {"frame": report["frame"] - 1, "dice": truth}, host)
        assert refused.value.status == 409  # labels must be for the frame that was read
        for bad, why in (({"color": "green"}, "color must be one of"), ({"symbol": "dagger"}, "symbol must be one of"),
                         ({"center": [5000, 10]}, "inside the 1640x1232 frame"), ({"center": "middle"}, "center must be")):
            with pytest.raises(Refused) as refused:
                call(base, "POST", "/api/camera/teach", {"frame": report["frame"], "dice": [truth[0], {**truth[1], **bad}]}, host)
            assert refused.value.status == 400 and "Die 2: " in str(refused.value) and why in str(refused.value)
        assert len(list((Path(data) / "teach").glob("*.jpg"))) == frame  # a refused frame is not kept
        answers.append(call(base, "POST", "/api/camera/teach", {"frame": report["frame"], "dice": truth}, host))
    assert [a["images"] for a in answers] == [1, 2, 3, 4]
    assert not any(a["taught"] for a in answers[:3])
    assert answers[3]["taught"], answers[3]
    Profile.load(Path(data) / "profile.json")  # a profile the reader can load
    assert camera.profile is not shipped  # the table now reads with its own dice's profile
    assert len(list((Path(data) / "teach").glob("*.jpg"))) == 4
