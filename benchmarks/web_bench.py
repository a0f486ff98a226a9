"""Phone submission → table screen: how long until the table's live stream shows an action.

A real waitress server on loopback (the one `gangster-dice serve` runs), 4 phones, the table and 10
spectators connected to /api/stream. Phones play whole games through POST /api/action (rolls,
sealed bids, decisions); for each submission the clock runs from just before the POST until the
table's stream delivers a view of that version or later. Prints p50, p95 and max.

    python benchmarks/web_bench.py [--submissions 240] [--spectators 10]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from web import create_app  # noqa: E402
from web.serve import serve_in_thread  # noqa: E402

NAMES = ("Ann", "Bob", "Cy", "Dee")


class StreamReader(threading.Thread):
    """Reads one /api/stream; remembers when each version arrived."""

    def __init__(self, addr: str, query: str) -> None:
        super().__init__(daemon=True)
        self.addr, self.query = addr, query
        self.latest = -1
        self.arrived = threading.Condition()
        self.events = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection(self.addr, timeout=60)
        conn.request("GET", "/api/stream" + self.query)
        resp = conn.getresponse()
        buffer = ""
        while True:
            chunk = resp.read1(65536)
            if not chunk:
                return
            buffer += chunk.decode("utf-8")
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                for line in block.split("\n"):
                    if line.startswith("data: "):
                        version = json.loads(line[6:])["version"]
                        with self.arrived:
                            self.latest = max(self.latest, version)
                            self.events += 1
                            self.arrived.notify_all()

    def wait_for(self, version: int, timeout: float = 5.0) -> float:
        """The perf_counter time at which ``version`` (or later) had arrived."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: self.latest >= version, timeout):
                raise TimeoutError(f"the table never showed version {version}")
            return time.perf_counter()


def call(addr: str, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(addr, timeout=10)
    conn.request(method, path, None if body is None else json.dumps(body), {"Content-Type": "application/json", **(headers or {})})
    resp = conn.getresponse()
    data = json.loads(resp.read())
    conn.close()
    return resp.status, data


def choose(view: dict, seat: int) -> dict:
    """A legal action for ``seat`` now: roll (virtual dice), bid, or the simplest decision."""
    me = view["me"]
    player = view["players"][seat]
    if view["phase"] == "bidding":
        if not player["rolled"]:
            return {"kind": "roll", "roll": view["proposed_roll"]["roll"]}
        symbols = []
        for faces in player["roll"].values():
            symbols += [s for s in faces if s not in symbols]
        hand = list(me["hand"])
        return {"kind": "bid", "bids": [{"symbol": s, "favor": hand.pop(0) if hand else None} for s in symbols[: me["bids_required"]]]}
    d = me["decision"]
    return {
        "speakeasy": {"kind": "speakeasy", "give": [], "take": []},
        "streets": {"kind": "streets", "color": None},
        "investigator_color": {"kind": "investigator_color", "color": (d["options"] or ["red"])[0]},
        "investigator_take": {"kind": "investigator_take", "color": (d["options"] or [None])[0]},
    }[d["kind"]]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=240)
    parser.add_argument("--spectators", type=int, default=10)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as data:
        app = create_app(data, public_host="127.0.0.1")
        session = app.extensions["gangster_session"]
        base, server = serve_in_thread(app)
        addr = base.split("//", 1)[1]
        host = {"X-Host-Token": session.host_token}
        tokens = [call(addr, "POST", "/api/join", {"name": n})[1]["token"] for n in NAMES]
        table = StreamReader(addr, f"?host={session.host_token}")
        readers = [table] + [StreamReader(addr, f"?token={t}") for t in tokens]
        readers += [StreamReader(addr, "") for _ in range(args.spectators)]
        for reader in readers:
            reader.start()
        call(addr, "POST", "/api/host/start", {"mode": "tutorial"}, host)
        time.sleep(0.3)

        latencies: list[float] = []
        games = 1
        while len(latencies) < args.submissions:
            _, view = call(addr, "GET", "/api/state", headers=host)
            if view["finished"]:
                call(addr, "POST", "/api/host/new-lobby", {}, host)
                call(addr, "POST", "/api/host/start", {"mode": "tutorial"}, host)
                games += 1
                continue
            seat = NAMES.index(view["waiting_for"][0])
            headers = {"X-Seat-Token": tokens[seat]}
            _, mine = call(addr, "GET", "/api/state", headers=headers)
            if mine["phase"] == "bidding" and not mine["players"][seat]["rolled"] and mine["proposed_roll"] is None:
                call(addr, "POST", "/api/roll-for-me", {}, headers)
                _, mine = call(addr, "GET", "/api/state", headers=headers)
            action = choose(mine, seat)
            body = {"action": action, "version": mine["version"], "request_id": f"bench-{len(latencies)}"}
            t0 = time.perf_counter()
            status, answer = call(addr, "POST", "/api/action", body, headers)
            if status != 200:
                raise SystemExit(f"refused: {answer}")
            latencies.append(table.wait_for(answer["version"]) - t0)
        server.close()

    ms = sorted(x * 1000 for x in latencies)
    p50 = statistics.median(ms)
    p95 = ms[max(0, int(round(0.95 * len(ms))) - 1)]
    print(f"streams open: {len(readers)} (table, {len(tokens)} phones, {args.spectators} spectators); games: {games}")
    print(f"submissions: {len(ms)}; submission -> table view: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")
    print(f"target p95 <= 100 ms: {'met' if p95 <= 100 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
