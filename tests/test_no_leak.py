"""No leak: every byte sent to each phone during a real game, over a real waitress server with live
streams, holds nothing of another seat's hand or unrevealed bid, no token but its own, and never
the seed or the deck.

Every JSON view a phone received is exactly ``companion.views.view(state, its seat)`` for the
state at that view's version, plus the session's own fields (allow-listed); and that view is
checked to be blind to every other seat's secrets: changing another seat's hand, their sealed bid,
the deck order or the seed changes nothing in it. Each phone's received JSON is also walked: a hand appears only inside "me", and "me" is always the
phone's own; sealed bids appear only as "me".bids or in a revealed round; no "seed", "deck",
"hands" or token hash anywhere. The seed and every other token are also searched for as bytes.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import threading
import time
from urllib.parse import urlsplit

import pytest

from companion.engine import apply
from companion.state import Bid, Phase
from companion.views import view
from web import create_app
from web.serve import serve_in_thread

NAMES = ("Ann", "Bob", "Cy")


class Recorder:
    """One device: every response body it receives, and its live stream (reconnecting like EventSource)."""

    def __init__(self, base: str, *, token: str | None = None, host: str | None = None) -> None:
        self.base, self.token, self.host = base, token, host
        self.received: list[bytes] = []
        self.stream: list[bytes] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.addr = urlsplit(base).netloc

    def headers(self) -> dict[str, str]:
        out = {"Content-Type": "application/json"}
        if self.token:
            out["X-Seat-Token"] = self.token
        if self.host:
            out["X-Host-Token"] = self.host
        return out

    def request(self, method: str, path: str, body=None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(self.addr, timeout=10)
        conn.request(method, path, None if body is None else json.dumps(body), self.headers())
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        self.received.append(data)
        return resp.status, data

    def json(self, method: str, path: str, body=None):
        status, data = self.request(method, path, body)
        return status, json.loads(data)

    def open_stream(self) -> None:
        query = "&".join(f"{k}={v}" for k, v in (("token", self.token), ("host", self.host)) if v)
        path = "/api/stream" + ("?" + query if query else "")

        def run():
            while not self._stop.is_set():
                conn = http.client.HTTPConnection(self.addr, timeout=10)
                conn.request("GET", path)
                resp = conn.getresponse()
                while True:
                    chunk = resp.read1(65536)
                    if not chunk:
                        break
                    self.stream.append(chunk)
                conn.close()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def close_stream(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def documents(self) -> list:
        docs = []
        for body in self.received:
            if body.lstrip().startswith((b"{", b"[")):
                doc = json.loads(body)
                if isinstance(doc, dict) and "view" in doc:  # an action's answer carries the new view
                    docs.append(doc.pop("view"))
                docs.append(doc)
        text = b"".join(self.stream).decode("utf-8")
        for block in text.split("\n\n"):
            for line in block.split("\n"):
                if line.startswith("data: "):
                    docs.append(json.loads(line[6:]))
        return docs

    def all_bytes(self) -> bytes:
        return b"".join(self.received) + b"".join(self.stream)


def walk(node, path=()):
    """Every (path, key, value) in a JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path, key, value
            yield from walk(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, path + (i,))


@pytest.fixture()
def server(tmp_path):
    app = create_app(tmp_path, public_host="127.0.0.1", config={"STREAM_MAX_SECONDS": 1.5})
    base, srv = serve_in_thread(app)
    yield base, app.extensions["gangster_session"]
    srv.close()


def first_symbols(roll: dict, count: int) -> list[str]:
    out = []
    for faces in roll.values():
        for symbol in faces:
            if symbol not in out:
                out.append(symbol)
    return out[:count]


def test_nothing_secret_reaches_another_phone(server):
    base, session = server
    phones = [Recorder(base) for _ in NAMES]
    tokens = []
    for phone, name in zip(phones, NAMES):
        status, joined = phone.json("POST", "/api/join", {"name": name})
        assert status == 200
        phone.token = joined["token"]
        tokens.append(phone.token)
    table = Recorder(base, host=session.host_token)
    watcher = Recorder(base)
    devices = phones + [table, watcher]
    for device in devices:
        device.open_stream()
    time.sleep(0.2)
    status, _ = table.json("POST", "/api/host/start", {"mode": "characters", "hand_sizes": {"Ann": 2, "Bob": 5, "Cy": 4}})
    assert status == 200
    for phone in phones:
        assert phone.request("GET", f"/play?token={phone.token}")[0] == 200

    rounds = 0
    while rounds < 4 and not session.state.finished:
        for phone in phones:
            status, answer = phone.json("POST", "/api/roll-for-me", {"submit": True, "request_id": f"r{rounds}"})
            assert status == 200, answer
        for seat, phone in enumerate(phones):
            _, view = phone.json("GET", "/api/state")
            me = view["me"]
            symbols = first_symbols(view["players"][seat]["roll"], me["bids_required"])
            hand = list(me["hand"])
            bids = [{"symbol": s, "favor": hand.pop() if hand else None} for s in symbols]
            status, answer = phone.json("POST", "/api/action", {"action": {"kind": "bid", "bids": bids}, "version": view["version"]})
            assert status == 200, answer
        while True:
            _, view = table.json("GET", "/api/state")
            if view["decision"] is None:
                break
            seat = NAMES.index(view["decision"]["player"])
            _, mine = phones[seat].json("GET", "/api/state")
            d = mine["me"]["decision"]
            action = {
                "speakeasy": {"kind": "speakeasy", "give": [], "take": []},
                "streets": {"kind": "streets", "color": (d["options"] or [None])[0]},
                "investigator_color": {"kind": "investigator_color", "color": (d["options"] or ["red"])[0]},
                "investigator_take": {"kind": "investigator_take", "color": (d["options"] or [None])[0]},
            }[d["kind"]]
            status, answer = phones[seat].json("POST", "/api/action", {"action": action, "version": mine["version"]})
            assert status == 200, answer
        rounds += 1
    time.sleep(0.3)
    for device in devices:
        device.close_stream()
    assert rounds >= 2

    seed = str(session.state.seed).encode()
    hashes = [hashlib.sha256(t.encode()).hexdigest().encode() for t in tokens]
    secret_words = {"seed", "deck", "hands", "token_hash", "favor_deck", "played", "shuffles"}
    for seat, phone in enumerate(phones):
        everything = phone.all_bytes()
        assert len(phone.stream) > 3 and b"event: view" in everything
        assert seed not in everything
        assert session.host_token.encode() not in everything
        for other, token in enumerate(tokens):
            assert (token.encode() in everything) == (other == seat)
            assert hashes[other] not in everything
        docs = phone.documents()
        assert len(docs) > 20
        saw_own_hand = False
        for doc in docs:
            for path, key, value in walk(doc):
                assert key not in secret_words, (NAMES[seat], path, key)
                if key == "me":
                    assert value["name"] == NAMES[seat] and value["seat"] == seat
                if key == "hand":
                    assert path == ("me",), (NAMES[seat], path)
                    saw_own_hand = True
                if key == "bids" and path != ("me",):
                    assert path in (("reveal",), ("last_round",)), path
        assert saw_own_hand
    for device in (table, watcher):
        everything = device.all_bytes()
        assert seed not in everything
        for token in tokens:
            assert token.encode() not in everything
        for doc in device.documents():
            for path, key, value in walk(doc):
                assert key not in secret_words and key != "me" and key != "hand", (path, key)


#: What the session adds to a view; anything else a phone receives must come from views.view.
SESSION_FIELDS = {"version", "paused", "lobby", "you", "host_log", "can_undo", "proposed_roll", "join_url", "host_url", "camera"}
LOBBY_SEAT_KEYS = {"name", "seat", "color", "connected"}


def states_by_version(session):
    """The game state after every version the game went through: (version, state), in order."""
    state = session.log.setup(session.game_id).start()
    out = [(session.started_version, state)]
    for _, action, note in session.log.entries(session.game_id):
        state = apply(state, action)
        out.append((note["v"], state))
    return out


def state_at(states, version):
    found = None
    for v, state in states:
        if v <= version:
            found = state
    return found


def others_secrets_changed(state, seat):
    """``state`` with every other seat's hand and unrevealed bid changed, the deck and seed too."""
    hands = tuple(h if s == seat else tuple((v + 1) % 4 for v in h) for s, h in enumerate(state.hands))
    bids = state.bids
    if state.phase is Phase.BIDDING:
        bids = tuple(
            b if s == seat or b is None else tuple(Bid("gavel" if x.symbol != "gavel" else "gun", 9) for x in b)
            for s, b in enumerate(state.bids)
        )
    return state._replace(hands=hands, bids=bids, deck=state.deck[1:] + state.deck[:1], seed=state.seed + 1)


def test_views_are_exact_and_blind_to_other_seats(server):
    base, session = server
    phones = [Recorder(base) for _ in NAMES]
    for phone, name in zip(phones, NAMES):
        phone.token = phone.json("POST", "/api/join", {"name": name})[1]["token"]
        phone.open_stream()
    table = Recorder(base, host=session.host_token)
    table.json("POST", "/api/host/start", {"mode": "tutorial"})
    for round_no in range(3):
        for phone in phones:
            assert phone.json("POST", "/api/roll-for-me", {"submit": True})[0] == 200
        for seat, phone in enumerate(phones):
            _, v = phone.json("GET", "/api/state")
            symbols = first_symbols(v["players"][seat]["roll"], v["me"]["bids_required"])
            hand = list(v["me"]["hand"])
            bids = [{"symbol": s, "favor": hand.pop() if hand else None} for s in symbols]
            assert phone.json("POST", "/api/action", {"action": {"kind": "bid", "bids": bids}, "version": v["version"]})[0] == 200
        while True:
            _, v = table.json("GET", "/api/state")
            if v["decision"] is None or v["finished"]:
                break
            seat = NAMES.index(v["decision"]["player"])
            _, mine = phones[seat].json("GET", "/api/state")
            d = mine["me"]["decision"]
            action = {
                "speakeasy": {"kind": "speakeasy", "give": [], "take": []},
                "streets": {"kind": "streets", "color": None},
                "investigator_color": {"kind": "investigator_color", "color": (d["options"] or ["red"])[0]},
                "investigator_take": {"kind": "investigator_take", "color": (d["options"] or [None])[0]},
            }[d["kind"]]
            assert phones[seat].json("POST", "/api/action", {"action": action, "version": mine["version"]})[0] == 200
    time.sleep(0.3)
    for phone in phones:
        phone.close_stream()

    states = states_by_version(session)
    for seat, phone in enumerate(phones):
        checked = 0
        for doc in phone.documents():
            if "viewer" not in doc or doc.get("phase") == "lobby":
                continue
            state = state_at(states, doc["version"])
            expected = view(state, seat)
            assert set(doc) - set(expected) <= SESSION_FIELDS, set(doc) - set(expected)
            assert {k: doc[k] for k in expected} == expected
            for entry in doc["lobby"]["seats"]:
                assert set(entry) == LOBBY_SEAT_KEYS
            assert doc["proposed_roll"] is None or doc["proposed_roll"]["source"] == "virtual"
            checked += 1
        assert checked > 10
    for _, state in states:
        for seat in range(len(NAMES)):
            assert view(others_secrets_changed(state, seat), seat) == view(state, seat)
