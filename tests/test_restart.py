"""A killed server resumes exactly: `python -m web` in a subprocess, three phones join, the game
starts, rolls and some bids go in, SIGKILL mid-round, start again on the same data directory:
every viewer's /api/state is identical (same version, same view) and the phones' tokens work."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int, data: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "web", "--host", "127.0.0.1", "--port", str(port), "--data", str(data), "--camera", "none"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def call(port: int, method: str, path: str, body=None, headers=None):
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_sigkill_mid_round_resumes_exactly(tmp_path):
    port = free_port()
    proc = start(port, tmp_path)
    try:
        tokens = [call(port, "POST", "/api/join", {"name": n})[1]["token"] for n in ("Ann", "Bob", "Cy")]
        host = call(port, "GET", "/api/host/claim")[1]["host_token"]
        assert call(port, "POST", "/api/host/start", {"mode": "tutorial"}, {"X-Host-Token": host})[0] == 200
        for i, token in enumerate(tokens):
            status, _ = call(port, "POST", "/api/roll-for-me", {"submit": True, "request_id": f"roll-{i}"}, {"X-Seat-Token": token})
            assert status == 200
        bids = {}
        for i, token in enumerate(tokens[:2]):
            view = call(port, "GET", "/api/state", headers={"X-Seat-Token": token})[1]
            symbol = next(s for faces in view["players"][i]["roll"].values() for s in faces)
            bids[i] = {"action": {"kind": "bid", "bids": [{"symbol": symbol, "favor": view["me"]["hand"][0]}]}, "version": view["version"], "request_id": f"bid-{i}"}
            assert call(port, "POST", "/api/action", bids[i], {"X-Seat-Token": token})[0] == 200
        call(port, "POST", "/api/host/pause", {"paused": True}, {"X-Host-Token": host})
        call(port, "POST", "/api/host/pause", {"paused": False}, {"X-Host-Token": host})
        viewers = [{"X-Seat-Token": t} for t in tokens] + [{}, {"X-Host-Token": host}]
        before = [call(port, "GET", "/api/state", headers=h)[1] for h in viewers]
        assert before[0]["version"] > 5 and before[2]["waiting_for"] == ["Cy"]
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)

    proc = start(port, tmp_path)
    try:
        after = [call(port, "GET", "/api/state", headers=h)[1] for h in viewers]
        assert after == before
        # Ann's retried bid (same request id) is recognised, not applied twice.
        status, answer = call(port, "POST", "/api/action", bids[0], {"X-Seat-Token": tokens[0]})
        assert status == 200 and answer["view"]["version"] == before[0]["version"]
        # Cy's phone still works: the last bid reveals the round.
        view = after[2]
        symbol = next(s for faces in view["players"][2]["roll"].values() for s in faces)
        body = {"action": {"kind": "bid", "bids": [{"symbol": symbol, "favor": view["me"]["hand"][0]}]}, "version": view["version"]}
        status, answer = call(port, "POST", "/api/action", body, {"X-Seat-Token": tokens[2]})
        assert status == 200, answer
        assert answer["view"]["reveal"] is not None or answer["view"]["rounds_played"] == 1
        assert call(port, "POST", "/api/host/pause", {"paused": True}, {"X-Host-Token": host})[0] == 200
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
