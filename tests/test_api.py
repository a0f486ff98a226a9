"""The JSON API as the phones and the table screen use it: auth, refusals (that change nothing),
the host's endpoints, the QR code, and the first event of the live stream."""

from __future__ import annotations

import json

import pytest

from web import create_app


@pytest.fixture()
def app(tmp_path):
    return create_app(tmp_path, port=8000, public_host="192.168.1.20", config={"STREAM_MAX_SECONDS": 0.2})


@pytest.fixture()
def client(app):
    return app.test_client()


def host_headers(app) -> dict:
    return {"X-Host-Token": app.extensions["gangster_session"].host_token}


def join(client, name) -> str:
    answer = client.post("/api/join", json={"name": name})
    assert answer.status_code == 200, answer.json
    return answer.json["token"]


def started(app, client, names=("Ann", "Bob", "Cy")) -> list[str]:
    tokens = [join(client, n) for n in names]
    assert client.post("/api/host/start", json={"mode": "tutorial"}, headers=host_headers(app)).status_code == 200
    return tokens


def state(client, token=None) -> dict:
    return client.get("/api/state", headers={"X-Seat-Token": token} if token else {}).json


def test_join_and_state(client):
    answer = client.post("/api/join", json={"name": " Ann "})
    assert answer.json["name"] == "Ann" and answer.json["seat"] == 0 and answer.json["color"] == "yellow"
    token = answer.json["token"]
    mine = state(client, token)
    assert mine["you"] == {"seat": 0, "name": "Ann", "color": "yellow", "host": False}
    assert mine["lobby"]["open"] and mine["lobby"]["seats"][0]["name"] == "Ann"
    assert mine["join_url"] == "http://192.168.1.20:8000/play"
    assert state(client)["you"]["seat"] is None
    bad = client.post("/api/join", json={"name": "ann"})
    assert bad.status_code == 400 and "already" in bad.json["error"]
    assert client.post("/api/join", json={"name": ""}).status_code == 400
    assert client.post("/api/join", data="not json").status_code == 400


def test_host_endpoints_need_the_host_token(app, client):
    join(client, "Ann")
    join(client, "Bob")
    for path, body in [
        ("/api/host/start", {"mode": "tutorial"}),
        ("/api/host/pause", {"paused": True}),
        ("/api/host/adjust", {"action": {"kind": "move_die", "color": "red", "source": "box", "target": "streets"}}),
        ("/api/host/undo", {}),
        ("/api/host/end", {}),
        ("/api/host/new-lobby", {}),
    ]:
        for headers in ({}, {"X-Host-Token": "wrong"}):
            answer = client.post(path, json=body, headers=headers)
            assert answer.status_code == 403 and answer.json["error"], path
    assert client.get("/api/host/export").status_code == 403
    assert client.get("/host-qr.svg").status_code == 403
    assert state(client)["version"] == 2 and state(client)["lobby"]["open"]


def test_host_start_pause_adjust_undo_end_export(app, client):
    started(app, client)
    h = host_headers(app)
    table = client.get("/api/state", headers=h).json
    assert table["you"]["host"] and table["viewer"] == "table" and "me" not in table
    assert table["host_url"].startswith("http://192.168.1.20:8000/play?host=")
    assert client.post("/api/host/pause", json={"paused": True}, headers=h).json["view"]["paused"]
    assert client.post("/api/host/pause", json={"paused": "yes"}, headers=h).status_code == 400
    client.post("/api/host/pause", json={"paused": False}, headers=h)
    move = {"kind": "move_die", "color": "blue", "source": "box", "target": "streets"}
    answer = client.post("/api/host/adjust", json={"action": move}, headers=h)
    assert answer.status_code == 200 and answer.json["view"]["tokens"]["streets"]["dice"]["blue"] == 1
    bad = client.post("/api/host/adjust", json={"action": {"kind": "bid", "player": "Ann", "bids": []}}, headers=h)
    assert bad.status_code == 400
    assert client.post("/api/host/undo", json={}, headers=h).json["view"]["tokens"]["streets"]["dice"]["blue"] == 0
    assert client.post("/api/host/undo", json={}, headers=h).status_code == 409
    doc = client.get("/api/host/export", headers=h).json
    assert doc["players"] == ["Ann", "Bob", "Cy"] and isinstance(doc["seed"], int)
    assert client.post("/api/host/end", json={}, headers=h).json["view"]["ended_by_host"]
    assert client.get("/host-qr.svg", headers=h).data.startswith(b"<svg")


def test_action_refusals_change_nothing(app, client):
    ann, bob, cy = started(app, client)
    roll = client.post("/api/roll-for-me", headers={"X-Seat-Token": ann}).json["proposed_roll"]["roll"]
    before = [state(client, t) for t in (ann, bob, cy)] + [state(client)]

    def post(body, token=None):
        return client.post("/api/action", json=body, headers={"X-Seat-Token": token} if token else {})

    v = before[0]["version"]
    cases = [
        (post({"action": {"kind": "roll", "roll": roll}, "version": v}), 403),  # no seat token
        (post({"action": {"kind": "roll", "player": "Bob", "roll": roll}, "version": v}, ann), 403),
        (post({"action": {"kind": "roll", "roll": roll}, "version": v}, "forged-token"), 403),
        (post({"action": {"kind": "streets", "color": "red"}, "version": v}, ann), 409),
        (post({"action": {"kind": "bogus"}, "version": v}, ann), 400),
        (post({"action": {"kind": "roll", "roll": roll}, "version": "seven"}, ann), 400),
        (client.post("/api/action", data="{", headers={"X-Seat-Token": ann}), 400),
        (post({"action": {"kind": "bid", "bids": [{"symbol": "gun", "favor": 0}]}, "version": v}, ann), 422),
        (post({"action": {"kind": "roll", "roll": {"red": ["gun"]}}, "version": v}, ann), 422),
    ]
    for answer, status in cases:
        assert answer.status_code == status, answer.json
        assert isinstance(answer.json["error"], str) and answer.json["error"]
    assert [state(client, t) for t in (ann, bob, cy)] + [state(client)] == before


def test_action_accepted_once_with_view(app, client):
    ann, bob, cy = started(app, client)
    roll = client.post("/api/roll-for-me", headers={"X-Seat-Token": ann}).json["proposed_roll"]["roll"]
    assert state(client, ann)["proposed_roll"]["roll"] == roll
    assert state(client, bob)["proposed_roll"] is None
    body = {"action": {"kind": "roll", "roll": roll}, "version": state(client, ann)["version"], "request_id": "abc"}
    first = client.post("/api/action", json=body, headers={"X-Seat-Token": ann})
    assert first.status_code == 200 and first.json["ok"] and first.json["view"]["me"]["name"] == "Ann"
    second = client.post("/api/action", json=body, headers={"X-Seat-Token": ann})
    assert second.status_code == 200 and second.json["version"] == first.json["version"]
    assert state(client)["version"] == first.json["version"]
    direct = client.post("/api/roll-for-me", json={"submit": True, "request_id": "b1"}, headers={"X-Seat-Token": bob})
    assert direct.status_code == 200 and direct.json["view"]["me"]["name"] == "Bob"
    assert state(client)["players"][1]["rolled"]


def test_qr_health_and_claim(app, client):
    svg = client.get("/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert client.get("/api/health").json["ok"]
    here = client.get("/api/host/claim")
    assert here.json["host_token"] == app.extensions["gangster_session"].host_token
    far = client.get("/api/host/claim", environ_base={"REMOTE_ADDR": "192.168.1.33"})
    assert far.status_code == 403 and "host_token" not in far.json


def test_stream_starts_with_the_viewers_full_view(app, client):
    ann, bob, _ = started(app, client)
    answer = client.get(f"/api/stream?token={ann}")
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-cache" and answer.headers["X-Accel-Buffering"] == "no"
    text = answer.get_data(as_text=True)  # the stream ends after STREAM_MAX_SECONDS
    events = [block for block in text.split("\n\n") if block.startswith("event: view")]
    assert events, text
    first = json.loads(events[0].split("data: ", 1)[1])
    assert first["lobby"]["seats"][0]["connected"]  # Ann's stream was open when it was sent
    now = state(client, ann)
    assert not now["lobby"]["seats"][0]["connected"]  # and closed since
    first["lobby"]["seats"][0]["connected"] = False
    assert first == now
    assert first["me"]["name"] == "Ann"


def test_stream_ends_when_the_phone_goes_away(tmp_path):
    """On a real waitress server: a stream whose client disconnected is closed at the next heartbeat
    (the seat shows as not connected again), so no server thread is held by a phone that left."""
    import socket
    import time

    from web.serve import serve_in_thread

    app = create_app(tmp_path, public_host="127.0.0.1", config={"STREAM_HEARTBEAT_SECONDS": 0.2})
    base, server = serve_in_thread(app)
    session = app.extensions["gangster_session"]
    try:
        token = session.join("Ann").token
        host, port = base.split("//", 1)[1].split(":")
        phone = socket.create_connection((host, int(port)), timeout=5)
        phone.sendall(f"GET /api/stream?token={token} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        received = b""
        while b"event: view" not in received:
            received += phone.recv(65536)
        assert session.view_for(0)["lobby"]["seats"][0]["connected"]
        phone.close()
        deadline = time.monotonic() + 5
        while session.view_for(0)["lobby"]["seats"][0]["connected"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not session.view_for(0)["lobby"]["seats"][0]["connected"]
    finally:
        server.close()
