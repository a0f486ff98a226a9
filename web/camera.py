"""The camera's blueprint: the frames the table screen shows, "Read now", re-rolls, and the
calibration page (seat zones, teaching the table's own dice, a verdict on light and focus).

A thin shell around :class:`web.table_camera.TableCamera`; when the companion runs without a
camera (``--camera none``) every camera endpoint says so and players tap their dice.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
from flask import Blueprint, Response, current_app, jsonify, render_template

from companion.dice import COLORS, SYMBOLS
from companion.session import Refusal
from vision.labels import load_labelled
from vision.light_check import assess
from vision.reader import read_frame
from vision.seats import Zones
from vision.profile import ProfileError
from vision.teach import teach

from .api import _body, _caller, _error, get_session
from .table_camera import TableCamera

bp = Blueprint("camera", __name__)

CAMERA_KEY = "table_camera"
#: Labelled frames to collect before a table's own profile is taught (the spec's minimum).
TEACH_MIN_IMAGES = 4


def get_camera() -> TableCamera | None:
    return current_app.extensions.get(CAMERA_KEY)


def _need_camera() -> TableCamera:
    camera = get_camera()
    if camera is None:
        raise Refusal(404, "There is no camera at this table: tap your dice on your phone.")
    return camera


@bp.errorhandler(Refusal)
def _refused(refusal: Refusal):
    return _error(refusal.status, refusal.message)


def _jpeg_response(data: bytes | None) -> Response:
    if data is None:
        raise Refusal(404, "The camera has no picture yet.")
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/camera/frame.jpg")
def frame():
    """The last frame read, with each die's reading and the seat zones drawn on it."""
    camera = _need_camera()
    return _jpeg_response(camera.reading_jpeg() or camera.live_jpeg())


@bp.get("/camera/live.jpg")
def live():
    """The camera's newest frame, as it is now."""
    return _jpeg_response(_need_camera().live_jpeg())


#: How long one live view lasts before the page reconnects (one server thread per live view).
LIVE_SECONDS = 120.0


@bp.get("/camera/live.mjpg")
def live_stream():
    """The camera as a live motion-JPEG stream (calibration page): ends after LIVE_SECONDS or when
    the viewer leaves, so it never holds a server thread for long."""
    import time

    camera = _need_camera()
    boundary = "frame"

    def frames():
        deadline = time.monotonic() + LIVE_SECONDS
        last = 0
        while time.monotonic() < deadline:
            snapshot = camera.owner.wait_for_frame(last, timeout=5.0)
            if snapshot is None:
                return
            last = snapshot.number
            data = camera.live_jpeg()
            if data:
                yield (f"--{boundary}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data + b"\r\n"

    response = Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={boundary}")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/camera/read-now")
def read_now():
    """Read the dice now, without waiting for them to settle (the table screen and every phone)."""
    seat, host = _caller()
    if seat is None and not host:
        raise Refusal(403, "Only a player or the host can ask the camera to read.")
    camera = _need_camera()
    try:
        camera.read_now()
    except RuntimeError as error:
        raise Refusal(409, str(error).capitalize() + ".") from None
    return jsonify({"ok": True})


@bp.post("/api/camera/reroll")
def reroll():
    """A player re-rolls their dice; the camera reads them again once they settle."""
    seat, _ = _caller()
    if seat is None:
        raise Refusal(403, "Join the game to re-roll: this phone has no seat.")
    _need_camera().reroll(seat)
    return jsonify({"ok": True})


# Calibration --------------------------------------------------------------------------------------


def _require_host() -> None:
    if not _caller()[1]:
        raise Refusal(403, "Only the host can set up the camera.")


@bp.get("/calibrate")
def calibrate_page():
    """The calibration page: live view, seat zones, teaching, and the light verdict."""
    return render_template("calibrate.html")


@bp.get("/api/camera/zones")
def get_zones():
    camera = _need_camera()
    session = get_session()
    players = len(session.state.players) if session.state is not None else max(2, len(session.lobby.seats))
    zones = camera.zones_for(players)
    return jsonify(zones.to_json())


@bp.post("/api/camera/zones")
def set_zones():
    """Save the seat zones drawn on the calibration page (host only)."""
    _require_host()
    camera = _need_camera()
    try:
        zones = Zones.from_json(_body())
    except (KeyError, TypeError, ValueError) as error:
        raise Refusal(400, f"Those zones are not valid: {error}.") from None
    camera.set_zones(zones)
    return jsonify({"ok": True})


@bp.get("/api/camera/check")
def check():
    """Read the newest frame and say what is wrong with light, glare, focus and die size (host
    only: it is the set-up page's, and a read is too costly to leave to every visitor)."""
    _require_host()
    camera = _need_camera()
    snapshot = camera.owner.latest()
    if snapshot is None:
        raise Refusal(409, "The camera has not given a frame yet.")
    dice = read_frame(snapshot.frame, camera.profile)
    camera.checked = snapshot  # the frame that teaching will label
    return jsonify({
        "frame": snapshot.number,
        "size": [int(snapshot.frame.shape[1]), int(snapshot.frame.shape[0])],
        "problems": assess(snapshot.frame, dice),
        "dice": [
            {"color": d.color, "symbol": d.symbol, "center": list(d.center), "size": d.size, "confidence": d.confidence}
            for d in dice
        ],
    })


def _teach_dir() -> Path:
    return Path(current_app.config["DATA_DIR"]) / "teach"


def _confirmed_die(die: object, number: int, width: int, height: int) -> dict:
    """One die as the host confirmed it, as a label; a `Refusal` saying what is wrong with it
    otherwise (a bad label would teach the table's profile a wrong die)."""
    if not isinstance(die, dict):
        raise Refusal(400, f"Die {number}: send it as {{color, symbol, center}}.")
    color, symbol, center = die.get("color"), die.get("symbol"), die.get("center")
    if color not in COLORS:
        raise Refusal(400, f"Die {number}: its color must be one of {', '.join(COLORS)}.")
    if symbol is not None and symbol not in SYMBOLS:
        raise Refusal(400, f"Die {number}: its symbol must be one of {', '.join(SYMBOLS)}, or none for a cocked die.")
    if not (isinstance(center, list) and len(center) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in center)
            and 0 <= center[0] < width and 0 <= center[1] < height):
        raise Refusal(400, f"Die {number}: its center must be two numbers inside the {width}x{height} frame.")
    return {"color": color, "symbol": symbol, "center": [float(center[0]), float(center[1])]}


@bp.post("/api/camera/teach")
def teach_frame():
    """Keep the newest frame with the dice as the host confirmed them; with enough frames, teach
    the table's own profile (the same teaching as ``python -m vision teach``)."""
    _require_host()
    camera = _need_camera()
    body = _body()
    dice = body.get("dice")
    if not isinstance(dice, list) or not dice:
        raise Refusal(400, "Send the dice as confirmed: a list of {color, symbol, center}.")
    snapshot = camera.checked
    if snapshot is None or snapshot.number != body.get("frame"):
        raise Refusal(409, "Read the dice again: the frame they were read on has gone.")
    height, width = snapshot.frame.shape[:2]
    labels = {"dice": [_confirmed_die(die, number, width, height) for number, die in enumerate(dice, start=1)]}
    folder = _teach_dir()
    folder.mkdir(parents=True, exist_ok=True)
    number = len(list(folder.glob("*.jpg"))) + 1
    image_path = folder / f"teach_{number:03d}.jpg"
    cv2.imwrite(str(image_path), snapshot.frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    image_path.with_suffix(".json").write_text(json.dumps(labels), encoding="utf-8")
    images = sorted(folder.glob("*.jpg"))
    answer: dict[str, Any] = {"ok": True, "images": len(images), "taught": False}
    if len(images) >= TEACH_MIN_IMAGES:
        try:
            profile = teach([load_labelled(p) for p in images])
        except ProfileError as error:  # not enough of every color and symbol yet: say which
            answer["message"] = str(error)
            return jsonify(answer)
        profile.save(Path(current_app.config["DATA_DIR"]) / "profile.json")
        camera.profile = profile
        answer["taught"] = True
        answer["message"] = f"Taught this table's dice from {len(images)} frames."
    return jsonify(answer)
