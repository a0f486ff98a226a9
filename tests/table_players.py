"""Players at a real table, for end-to-end tests and the table benchmark.

A :class:`Phone` talks to a running server exactly as a player's phone does (seat token, JSON API);
its decisions come from :class:`companion.bots.GreedyBot` fed with the JSON view the phone
received, so it never knows more than the phone shows. What a player sees with their own eyes (the
dice in front of them) comes from the demo camera's ground truth.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from typing import Any

from companion.bots import GreedyBot, seat_view_from_json
from companion.codec import action_to_json
from companion.dice import COLORS


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status


def call(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise Refused(error.code, json.loads(error.read()).get("error", "")) from None


class Phone:
    """One player's phone."""

    def __init__(self, base: str, name: str, seed: int) -> None:
        self.base, self.name = base, name
        self.token = call(base, "POST", "/api/join", {"name": name})["token"]
        self.bot = GreedyBot()
        self.rng = random.Random(seed)

    def post(self, path: str, body: Any = None) -> Any:
        return call(self.base, "POST", path, body if body is not None else {}, {"X-Seat-Token": self.token})

    def view(self) -> dict[str, Any]:
        return call(self.base, "GET", "/api/state", headers={"X-Seat-Token": self.token})

    def send(self, action: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
        return self.post("/api/action", {"action": action, "version": view["version"], "request_id": str(uuid.uuid4())})

    def play_turn(self, view: dict[str, Any]) -> bool:
        """Bid or decide with the greedy strategy when the game asks this phone; True if it acted."""
        me = view.get("me") or {}
        may_bid = view["phase"] == "bidding" and not me.get("bids") and view["players"][me["seat"]]["rolled"]
        may_decide = view["phase"] == "resolving" and me.get("decision")
        if not (may_bid or may_decide):
            return False
        action = self.bot.act(seat_view_from_json(view), self.rng)
        if action is None:
            return False
        self.send(action_to_json(action), view)
        return True


def truth_by_seat(demo_truth) -> dict[int, dict[str, list[str | None]]]:
    """The dice each seat really rolled (the demo camera's scene), per colour."""
    out: dict[int, dict[str, list[str | None]]] = {}
    for die in demo_truth:
        out.setdefault(die.seat, {c: [] for c in COLORS})[die.color].append(die.symbol)
    return out


def corrected(truth: dict[str, list[str | None]], rng: random.Random) -> dict[str, list[str]]:
    """What a player taps in: their real dice. A cocked die (no face on top) is laid flat on a
    face of the player's choice; the roll sent is always complete."""
    out = {}
    for color in COLORS:
        real = [s if s is not None else rng.choice(["finger", "gun", "cocktail", "gavel"]) for s in truth.get(color, [])]
        out[color] = real
    return out


def matches(slots: dict[str, list[str | None]], truth: dict[str, list[str | None]]) -> int:
    """How many dice of a proposed roll are right (same symbols per colour, order aside)."""
    right = 0
    for color in COLORS:
        want = Counter(s for s in truth.get(color, []) if s is not None)
        got = Counter(s for s in slots.get(color, []) if s is not None)
        right += sum((want & got).values())
    return right


def wait_until(predicate, timeout: float, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError("the table did not get there in time")
