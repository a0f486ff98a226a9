"""How fast the table answers a roll: from the camera's frame to every phone showing its dice.

Plays whole games with the demo camera through a real server on loopback: three phones hold their
live streams open, the demo camera renders each round's dice from the game's stashes, the settle
trigger fires, the frame is read, and each phone's stream delivers that seat's reading. For every
round it times, per phone, frame captured → the phone's stream has the new reading. It also times
one whole demo game, start to winner.

    python benchmarks/table_bench.py [--games 1]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from table_players import Phone, Refused, call, corrected, truth_by_seat  # noqa: E402

from web import create_app  # noqa: E402
from web.camera import CAMERA_KEY  # noqa: E402
from web.serve import serve_in_thread  # noqa: E402


class Stream(threading.Thread):
    """A phone's live stream: records when each round's camera reading first arrives."""

    def __init__(self, base: str, token: str) -> None:
        super().__init__(daemon=True)
        self.host, self.port = base.replace("http://", "").split(":")
        self.token = token
        self.arrived: dict[int, float] = {}
        self.stop = False

    def run(self) -> None:
        conn = http.client.HTTPConnection(self.host, int(self.port), timeout=60)
        conn.request("GET", f"/api/stream?token={self.token}")
        response = conn.getresponse()
        event, data = None, []
        while not self.stop:
            line = response.readline()
            if not line:
                return
            line = line.decode().rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and data:
                if event == "view":
                    view = json.loads("".join(data))
                    proposal = view.get("proposed_roll")
                    if proposal and proposal["source"] == "camera" and view["round"] not in self.arrived:
                        self.arrived[view["round"]] = time.monotonic()
                event, data = None, []


def play_game(seed: int) -> tuple[list[float], float, int]:
    with tempfile.TemporaryDirectory() as data:
        app = create_app(data, camera="demo", public_host="127.0.0.1", config={"START_CAMERA": True})
        base, server = serve_in_thread(app)
        camera = app.extensions[CAMERA_KEY]
        host = call(base, "GET", "/api/host/claim")["host_token"]
        phones = [Phone(base, name, seed * 10 + i) for i, name in enumerate(("Ann", "Bob", "Cat"))]
        streams = [Stream(base, p.token) for p in phones]
        for s in streams:
            s.start()
        rng = random.Random(seed)
        started = time.monotonic()
        call(base, "POST", "/api/host/start", {"mode": "tutorial"}, {"X-Host-Token": host})
        captured: dict[int, float] = {}
        try:
            while True:
                views = [p.view() for p in phones]
                if views[0]["finished"]:
                    break
                acted = False
                for seat, (phone, view) in enumerate(zip(phones, views)):
                    if view["phase"] == "bidding" and not view["players"][seat]["rolled"]:
                        proposal = view.get("proposed_roll")
                        if not proposal or proposal["source"] != "camera":
                            continue
                        reading = camera.last_reading()
                        if reading is not None:
                            captured.setdefault(view["round"], reading.captured_at)
                        truth = truth_by_seat(camera.demo.truth).get(seat, {})
                        phone.send({"kind": "roll", "roll": corrected(truth, rng)}, view)
                        acted = True
                    else:
                        try:
                            acted = phone.play_turn(view) or acted
                        except Refused:
                            pass
                if not acted:
                    time.sleep(0.05)
            game_seconds = time.monotonic() - started
            rounds = views[0]["rounds_played"]
        finally:
            for s in streams:
                s.stop = True
            camera.stop()
            server.close()
        latencies = [
            s.arrived[r] - captured[r] for s in streams for r in captured if r in s.arrived and s.arrived[r] >= captured[r]
        ]
        return latencies, game_seconds, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    latencies: list[float] = []
    for game in range(args.games):
        lat, seconds, rounds = play_game(game)
        latencies += lat
        print(f"demo game {game + 1}: {rounds} rounds in {seconds:.1f} s ({seconds / max(rounds, 1):.1f} s a round)")
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] * 1000
    print(f"frame captured -> phone shows its dice: n={len(latencies)}  p50 {p50:.0f} ms  p95 {p95:.0f} ms  "
          f"max {latencies[-1] * 1000:.0f} ms  (target <= 500 ms)")


if __name__ == "__main__":
    main()
