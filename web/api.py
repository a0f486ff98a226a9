"""The JSON API and the live stream: what the table screen and the phones speak.

Auth: a phone's seat token in ``X-Seat-Token`` (or ``?token=``, for EventSource, which cannot set
headers); the host token in ``X-Host-Token`` (or ``?host=``). No token: the spectator's view.

The host token: kept in the database, printed by ``gangster-dice serve`` as the table-screen
address (``/?host=TOKEN``), handed by ``GET /api/host/claim`` to a browser on the server machine
itself (loopback only: the Pi's own table screen), and shown to the host as a QR code
(``GET /host-qr.svg``) that a phone scans to become host (``/play?host=TOKEN``).

Every answer that shows the game is built by :meth:`companion.session.Session.view_for`, which
builds on :func:`companion.views.view`, the one place that decides who sees what.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from companion.session import Refusal, Session
from companion.views import SPECTATOR, TABLE

from .network import base_url, qr_svg

bp = Blueprint("api", __name__)

SESSION_KEY = "gangster_session"
LOOPBACK = ("127.0.0.1", "::1", "::ffff:127.0.0.1")


def get_session() -> Session:
    """The table's session (one per application)."""
    return current_app.extensions[SESSION_KEY]


def _seat_token() -> str | None:
    return request.headers.get("X-Seat-Token") or request.args.get("token") or None


def _host_token() -> str | None:
    return request.headers.get("X-Host-Token") or request.args.get("host") or None


def _caller() -> tuple[int | None, bool]:
    """The caller's seat (None: no valid seat token) and whether they hold the host token."""
    session = get_session()
    return session.seat_for_token(_seat_token()), session.is_host(_host_token())


def is_loopback() -> bool:
    """Whether the request comes from the server machine itself."""
    addr = request.remote_addr or ""
    return addr in LOOPBACK or addr.startswith("127.")


def loopback_host_token() -> str | None:
    """The host token for a page requested from the server machine itself, else None."""
    return get_session().host_token if is_loopback() else None


def public_base() -> str:
    """``http://<LAN address>:<port>``: the address phones use."""
    port = current_app.config.get("PORT")
    if port is None:
        host = request.host
        port = int(host.rsplit(":", 1)[1]) if ":" in host and not host.endswith("]") else 80
    return base_url(current_app.config["PUBLIC_HOST"], int(port))


def join_url() -> str:
    return public_base() + "/play"


def _error(status: int, message: str) -> tuple[Response, int]:
    return jsonify({"error": message}), status


@bp.errorhandler(Refusal)
def _refused(refusal: Refusal):
    return _error(refusal.status, refusal.message)


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise Refusal(400, "Send a JSON object.")
    return data


def _view(seat: int | None, host: bool) -> dict[str, Any]:
    viewer = TABLE if host or request.args.get("viewer") == TABLE else SPECTATOR
    out = dict(get_session().view_for(seat, host=host, viewer=viewer))
    out["join_url"] = join_url()
    if host:
        out["host_url"] = public_base() + "/play?host=" + get_session().host_token
    return out


# Reading ----------------------------------------------------------------------------------------


@bp.get("/api/health")
def health():
    session = get_session()
    return jsonify({"ok": True, "version": session.version, "started": session.started})


@bp.get("/api/state")
def state():
    seat, host = _caller()
    return jsonify(_view(seat, host))


@bp.get("/api/stream")
def stream():
    """Server-Sent Events: the full view now, then after every change; ``event: ping`` every 15 s.

    The stream ends after ``STREAM_MAX_SECONDS`` (the browser reconnects by itself) and as soon as
    a write fails, so a phone that went away holds a server thread for at most one heartbeat.
    """
    session = get_session()
    seat, host = _caller()
    viewer = TABLE if host or request.args.get("viewer") == TABLE else SPECTATOR
    heartbeat = float(current_app.config["STREAM_HEARTBEAT_SECONDS"])
    lifetime = float(current_app.config["STREAM_MAX_SECONDS"])
    extra = {"join_url": join_url()}
    if host:
        extra["host_url"] = public_base() + "/play?host=" + session.host_token

    def frame() -> tuple[tuple[int, int], bytes]:
        tick, view = session.view_at(seat, host=host, viewer=viewer)
        body = {**view, **extra}
        return tick, f"event: view\ndata: {_dumps(body)}\n\n".encode("utf-8")

    def events() -> Iterator[bytes]:
        session.connect(seat)
        try:
            end = time.monotonic() + lifetime
            tick, data = frame()
            yield b"retry: 1000\n\n" + data
            last_write = time.monotonic()
            while True:
                now = time.monotonic()
                if now >= end:
                    return
                wait = min(heartbeat - (now - last_write), end - now)
                session.wait_for_change(tick, max(wait, 0.0))
                if session.tick != tick:
                    tick, data = frame()
                    yield data
                    last_write = time.monotonic()
                elif time.monotonic() - last_write >= heartbeat:
                    # A named event, not a comment: the page's watchdog sees it, so an idle but
                    # live stream is never reopened for nothing.
                    yield b"event: ping\ndata: {}\n\n"
                    last_write = time.monotonic()
        finally:
            session.disconnect(seat)

    response = Response(events(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))


@bp.get("/qr.svg")
def join_qr():
    """The join address as a QR code, for the table screen."""
    response = Response(qr_svg(join_url()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/proposed-crop.jpg")
def proposed_crop():
    """The camera's crop of the caller's own zone behind their proposed roll (404 when none)."""
    seat, _ = _caller()
    crop = None if seat is None else get_session().crop(seat)
    if crop is None:
        return _error(404, "No picture of your roll.")
    response = Response(crop, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


# Phones -----------------------------------------------------------------------------------------


@bp.post("/api/join")
def join():
    joined = get_session().join(_body().get("name"))
    return jsonify(joined.to_json())


@bp.post("/api/action")
def action():
    data = _body()
    seat, host = _caller()
    status, body = get_session().act(
        seat, data.get("action"), version=data.get("version"), request_id=data.get("request_id")
    )
    if status != 200:
        return jsonify(body), status
    return jsonify({**body, "view": _view(seat, host)})


@bp.post("/api/roll-for-me")
def roll_for_me():
    """Virtual dice: roll the caller's stash and propose it; with ``"submit": true`` also submit it."""
    data = request.get_json(silent=True) or {}
    if not isinstance(data, dict):
        raise Refusal(400, "Send a JSON object.")
    seat, host = _caller()
    session = get_session()
    proposal = session.roll_for_me(seat)
    if not data.get("submit"):
        return jsonify({"ok": True, "proposed_roll": proposal.to_json(), "version": session.version})
    status, body = session.act(
        seat, {"kind": "roll", "roll": proposal.roll.as_dict()}, version=data.get("version"), request_id=data.get("request_id")
    )
    if status != 200:
        return jsonify(body), status
    return jsonify({**body, "roll": proposal.roll.as_dict(), "view": _view(seat, host)})


# Host -------------------------------------------------------------------------------------------


def _require_host() -> None:
    if not get_session().is_host(_host_token()):
        raise Refusal(403, "Only the host can do that.")


def _host_answer(version: int):
    seat, host = _caller()
    return jsonify({"ok": True, "version": version, "view": _view(seat, host)})


@bp.get("/api/host/claim")
def host_claim():
    """The host token, for a browser on the server machine itself (the Pi's own table screen)."""
    if not is_loopback():
        return _error(403, "The host token is given only to the screen of the server machine.")
    session = get_session()
    return jsonify({"host_token": session.host_token, "host_url": public_base() + "/play?host=" + session.host_token})


@bp.get("/host-qr.svg")
def host_qr():
    """A QR code a phone scans to become host (host only: it holds the host token)."""
    _require_host()
    response = Response(qr_svg(public_base() + "/play?host=" + get_session().host_token), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/host/start")
def host_start():
    _require_host()
    data = _body()
    version = get_session().start(data.get("mode", "tutorial"), data.get("characters"), data.get("hand_sizes"))
    return _host_answer(version)


@bp.post("/api/host/pause")
def host_pause():
    _require_host()
    paused = _body().get("paused")
    if not isinstance(paused, bool):
        raise Refusal(400, "paused is true or false.")
    return _host_answer(get_session().pause(paused))


@bp.post("/api/host/adjust")
def host_adjust():
    _require_host()
    return _host_answer(get_session().adjust(_body().get("action")))


@bp.post("/api/host/undo")
def host_undo():
    _require_host()
    return _host_answer(get_session().undo())


@bp.post("/api/host/end")
def host_end():
    _require_host()
    return _host_answer(get_session().end())


@bp.post("/api/host/new-lobby")
def host_new_lobby():
    """After a game ends: open the lobby again with the same seats (and tokens)."""
    _require_host()
    return _host_answer(get_session().new_lobby())


@bp.get("/api/host/export")
def host_export():
    _require_host()
    response = jsonify(get_session().export())
    response.headers["Content-Disposition"] = "attachment; filename=gangster-dice-game.json"
    return response
