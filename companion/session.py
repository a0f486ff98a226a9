"""The session: the one owner of a running table.

It holds the lobby, the current game's state, the state ``version`` (one more on every change),
the event log, the lock that serialises every change, the seat tokens and the host token, the
pause flag, the host's adjustments (with undo) and proposed rolls. Every change goes through it;
every view comes out of it. Nothing here knows about HTTP: refusals are :class:`Refusal` with a
status code a web layer may use, and a sentence a phone may show.

Durability: an accepted action is committed to SQLite (with the version it made, who sent it and
its request id, in the same row) before it is acknowledged; table-level data (lobby, pause,
proposed rolls, the host token) is one row rewritten in one commit with its version. Reopening the
database and replaying the log rebuilds the same state at the same version, and the tokens the
phones hold still work.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Callable

from .actions import (
    Action,
    ChooseInvestigatorColor,
    EndGame,
    ExchangeAtSpeakeasy,
    GiveFavor,
    MoveDie,
    PlaceOnStreets,
    SubmitBids,
    SubmitRoll,
    TakeFavor,
    TakeFromInvestigator,
)
from .characters import CHARACTER_BY_NAME, CHARACTERS, TUTORIAL_HAND_SIZE
from .codec import ActionFormatError, action_from_json
from .dice import Roll, roll_dice
from .engine import IllegalAction, apply, pending_decision
from .lobby import MODES, Lobby, LobbyError, new_token, token_hash
from .log import EventLog, GameSetup
from .state import GameState, Phase
from .views import SPECTATOR, TABLE, view

#: How many answers per seat are remembered for repeated request ids.
REMEMBERED_REQUESTS = 128
#: Largest hand size the host may set.
MAX_HAND_SIZE = 12

_DECISION_KINDS: dict[type, str] = {
    ExchangeAtSpeakeasy: "speakeasy",
    PlaceOnStreets: "streets",
    ChooseInvestigatorColor: "investigator_color",
    TakeFromInvestigator: "investigator_take",
}
_ADJUSTMENTS = (MoveDie, GiveFavor, TakeFavor)


class Refusal(Exception):
    """A request refused with nothing changed. ``status``: 400 malformed, 403 not allowed for this
    caller, 409 not now (turn, pause, stale version), 422 illegal by the rules."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def sentence(reason: str) -> str:
    """An engine reason as a sentence to show: capital first letter, final full stop."""
    reason = reason.strip()
    if not reason:
        return reason
    reason = reason[0].upper() + reason[1:]
    return reason if reason[-1] in ".!?" else reason + "."


@dataclass(frozen=True, slots=True)
class Joined:
    """The answer to a join: a seat and its token, or a spectator (after the start or when full)."""

    spectator: bool
    name: str | None = None
    seat: int | None = None
    color: str | None = None
    token: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.spectator:
            return {"spectator": True, "reason": self.reason}
        return {"token": self.token, "seat": self.seat, "name": self.name, "color": self.color}


@dataclass(frozen=True, slots=True)
class Proposal:
    """A roll proposed to a seat (by the camera, or virtual dice) that the phone shows and confirms."""

    roll: Roll  # from the camera, a die it could not read is None: the phone asks for it
    source: str
    round: int
    #: What does not add up in the camera's reading of this seat ("Bob: expected 3 blue dice, saw 2").
    problems: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"roll": self.roll.as_dict(), "source": self.source, "round": self.round, "problems": list(self.problems)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Proposal":
        return cls(Roll.from_dict(data["roll"]), data["source"], int(data["round"]), tuple(data.get("problems") or ()))


@dataclass(frozen=True, slots=True)
class HostEntry:
    """One host adjustment (or the undo of one) as the host log shows it."""

    seq: int
    version: int
    action: Action
    text: str
    undo_of: int | None = None
    #: Whether applying the inverse restores the state exactly (False: e.g. a reshuffle happened).
    exact: bool = True
    #: The favor card the adjustment moved when the action does not name it (a draw from the deck).
    card: int | None = None

    def to_json(self, undone: bool) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "version": self.version,
            "text": self.text,
            "undo_of": self.undo_of,
            "undone": undone,
            "exact": self.exact,
        }


@dataclass(frozen=True, slots=True)
class Answer:
    """What an accepted action answers: the new version (the caller builds the view)."""

    version: int
    seq: int


def _context(state: GameState | None) -> tuple:
    """What a prompt depends on: the round, the phase, and the decision waited for."""
    if state is None:
        return ("lobby",)
    decision = pending_decision(state)
    return (state.round, state.phase.value, state.step, None if decision is None else (decision.kind, decision.seat))


class Session:
    """The running table. Thread-safe: one lock serialises every change and snapshot."""

    def __init__(self, log: EventLog, *, rng: random.Random | None = None, seed_source: Callable[[], int] | None = None) -> None:
        self.log = log
        self._rng = rng or random.Random(int.from_bytes(os.urandom(16), "big"))
        self._seed_source = seed_source or (lambda: int.from_bytes(os.urandom(8), "big") >> 1)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._crops: dict[int, bytes] = {}
        self._presence: dict[int, int] = {}
        self._presence_tick = 0
        self._requests: dict[int, OrderedDict[str, tuple[int, dict[str, Any]]]] = {}
        self._views: dict[tuple, dict[str, Any]] = {}
        #: What the table's camera last saw (public: dice lie face up), set by the camera loop.
        self.camera: dict[str, Any] | None = None
        self._load()

    # Loading and saving -------------------------------------------------------------------------

    def _load(self) -> None:
        data = self.log.load_table("table") or {}
        self.host_token: str = data.get("host_token") or new_token()
        self.lobby = Lobby.from_json(data.get("lobby") or {})
        self.game_id: int | None = data.get("game_id")
        self.paused: bool = bool(data.get("paused", False))
        self.version: int = int(data.get("version", 0))
        self.started_version: int = int(data.get("started_version", 0))
        self.proposals: dict[int, Proposal] = {
            int(seat): Proposal.from_json(p)
            for seat, p in (data.get("proposals") or {}).items()
        }
        self.state: GameState | None = None
        self.seq = 0
        self.host_log: list[HostEntry] = []
        self._undone: set[int] = set()
        self._prompt_since = self._round_since = self.started_version
        if self.game_id is not None:
            state = self.log.setup(self.game_id).start()
            context, round_key = _context(state), (state.round, state.phase)
            for seq, action, note in self.log.entries(self.game_id):
                before = state
                state = apply(state, action)
                self.seq = seq
                version = int(note.get("v", self.version))
                self.version = max(self.version, version)
                if _context(state) != context:
                    context, self._prompt_since = _context(state), version
                if (state.round, state.phase) != round_key:
                    round_key, self._round_since = (state.round, state.phase), version
                self._note_host(before, state, seq, version, action, note)
                if "request_id" in note and "seat" in note:
                    self._remember(int(note["seat"]), note["request_id"], 200, {"ok": True, "version": version})
            self.state = state
        if not data:
            self._save_table()

    def _save_table(self) -> None:
        self.log.save_table(
            "table",
            {
                "host_token": self.host_token,
                "lobby": self.lobby.to_json(),
                "game_id": self.game_id,
                "paused": self.paused,
                "version": self.version,
                "started_version": self.started_version,
                "proposals": {str(seat): p.to_json() for seat, p in self.proposals.items()},
            },
        )

    def _bump_table(self) -> None:
        """Commit a table-level change as a new version, then wake the live streams."""
        self.version += 1
        self._save_table()
        self._notify()

    def _notify(self) -> None:
        self._views.clear()
        self._changed.notify_all()

    # Tokens and who is who ----------------------------------------------------------------------

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a phone's token belongs to, or None."""
        if not token:
            return None
        with self._lock:
            return self.lobby.seat_of_hash(token_hash(token))

    def is_host(self, token: str | None) -> bool:
        import secrets

        return bool(token) and secrets.compare_digest(str(token), self.host_token)

    @property
    def started(self) -> bool:
        return self.state is not None

    # Lobby --------------------------------------------------------------------------------------

    def join(self, name: Any) -> Joined:
        """Seat a player (400-refusal on a bad name); after the start, or at a full table, a spectator."""
        with self._lock:
            if self.started:
                return Joined(True, reason="The game has started; you are watching.")
            if self.lobby.full:
                return Joined(True, reason="The table is full; you are watching.")
            try:
                lobby, entry, token = self.lobby.join(name)
            except LobbyError as error:
                raise Refusal(400, str(error)) from None
            self.lobby = lobby
            self._bump_table()
            return Joined(False, entry.name, entry.seat, entry.color, token)

    def start(
        self,
        mode: str = "tutorial",
        characters: dict[str, str] | None = None,
        hand_sizes: dict[str, int] | None = None,
        *,
        seed: int | None = None,
        favor_deck: tuple[int, ...] | None = None,
    ) -> int:
        """Start the game with the seated players; returns the new version."""
        with self._lock:
            if self.started and not self.state.finished:  # type: ignore[union-attr]
                raise Refusal(409, "A game is already running.")
            if self.started:
                raise Refusal(409, "Open a new lobby before starting another game.")
            if mode not in MODES:
                raise Refusal(400, f"The mode is tutorial or characters, not {mode!r}.")
            try:
                self.lobby.check_startable()
            except LobbyError as error:
                raise Refusal(409, str(error)) from None
            names = self.lobby.names
            chars: list[str | None] = [None] * len(names)
            sizes = [TUTORIAL_HAND_SIZE] * len(names)
            if characters is not None and not isinstance(characters, dict):
                raise Refusal(400, "characters maps player names to character names.")
            if hand_sizes is not None and not isinstance(hand_sizes, dict):
                raise Refusal(400, "hand_sizes maps player names to numbers of cards.")
            if mode == "characters":
                chosen = dict(characters or {})
                for player in chosen:
                    if player not in names:
                        raise Refusal(400, f"{player} is not seated at the table.")
                for player, char in chosen.items():
                    if char not in CHARACTER_BY_NAME:
                        raise Refusal(400, f"There is no character called {char}.")
                if len(set(chosen.values())) != len(chosen):
                    raise Refusal(400, "Two players cannot play the same character.")
                free = [c.name for c in CHARACTERS if c.name not in chosen.values()]
                self._rng.shuffle(free)
                for seat, player in enumerate(names):
                    chars[seat] = chosen.get(player) or free.pop()
                    sizes[seat] = CHARACTER_BY_NAME[chars[seat]].hand_size  # type: ignore[index]
            for player, size in (hand_sizes or {}).items():
                if player not in names:
                    raise Refusal(400, f"{player} is not seated at the table.")
                if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MAX_HAND_SIZE:
                    raise Refusal(400, f"A hand holds 0 to {MAX_HAND_SIZE} favor cards.")
                sizes[names.index(player)] = size
            setup = GameSetup(
                players=names,
                seed=self._seed_source() if seed is None else seed,
                hand_sizes=tuple(sizes),
                characters=tuple(chars) if mode == "characters" else (),
                favor_deck=favor_deck,
            )
            try:
                state = setup.start()
            except ValueError as error:
                raise Refusal(422, sentence(str(error))) from None
            self.game_id = self.log.create_game(setup)
            self.lobby = replace(self.lobby, mode=mode, characters=tuple(chars), hand_sizes=tuple(sizes))
            self.state, self.seq, self.host_log, self._undone = state, 0, [], set()
            self.paused, self.proposals = False, {}
            self.version += 1
            self.started_version = self._prompt_since = self._round_since = self.version
            self._save_table()
            self._notify()
            return self.version

    def new_lobby(self) -> int:
        """After a game has ended: open the lobby again, keeping the seated players and tokens."""
        with self._lock:
            if self.started and not self.state.finished:  # type: ignore[union-attr]
                raise Refusal(409, "End the running game first.")
            self.state, self.game_id, self.seq = None, None, 0
            self.lobby = replace(self.lobby, mode=None, characters=(), hand_sizes=())
            self.host_log, self._undone, self.proposals, self.paused = [], set(), {}, False
            self._bump_table()
            return self.version

    # Player actions -----------------------------------------------------------------------------

    def act(self, seat: int | None, data: Any, *, version: Any = None, request_id: Any = None) -> tuple[int, dict[str, Any]]:
        """Apply a phone's action for ``seat`` (a codec JSON action, "player" optional).

        Returns (200, {"ok": True, "version": N}) or (status, {"error": sentence}); the same
        ``request_id`` from the same seat returns the first answer again and never applies twice.
        """
        if seat is None:
            return 403, {"error": "Join the game to play: this phone has no seat."}
        if request_id is not None and (not isinstance(request_id, str) or not 0 < len(request_id) <= 100):
            return 400, {"error": "request_id is a short string."}
        with self._lock:
            if request_id is not None:
                seen = self._requests.get(seat, {}).get(request_id)
                if seen is not None:
                    return seen
            try:
                answer = self._act(seat, data, version, request_id)
                result: tuple[int, dict[str, Any]] = (200, {"ok": True, "version": answer.version})
            except Refusal as refusal:
                result = (refusal.status, {"error": refusal.message})
            if request_id is not None:
                self._remember(seat, request_id, *result)
            return result

    def _remember(self, seat: int, request_id: str, status: int, body: dict[str, Any]) -> None:
        seen = self._requests.setdefault(seat, OrderedDict())
        seen[request_id] = (status, body)
        while len(seen) > REMEMBERED_REQUESTS:
            seen.popitem(last=False)

    def _act(self, seat: int, data: Any, version: Any, request_id: str | None) -> Answer:
        state = self.state
        if state is None:
            raise Refusal(409, "The game has not started yet.")
        if seat >= len(state.players):
            raise Refusal(403, "This phone has no seat in the game.")
        me = state.players[seat]
        if not isinstance(data, dict):
            raise Refusal(400, "An action is a JSON object with a kind.")
        if data.get("kind") in ("move_die", "give_favor", "take_favor", "end_game"):
            raise Refusal(403, "Only the host adjusts the table.")
        data = dict(data)
        if data.get("player") is None:
            data["player"] = me
        elif data["player"] != me:
            raise Refusal(403, f"This phone plays for {me}, not {data['player']}.")
        try:
            action = action_from_json(data)
        except ActionFormatError as error:
            raise Refusal(400, sentence(str(error))) from None
        if isinstance(action, _ADJUSTMENTS + (EndGame,)):
            raise Refusal(403, "Only the host adjusts the table.")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise Refusal(400, "version is the number of the view the action was made on.")
        if state.finished:
            raise Refusal(409, "The game has ended.")
        if self.paused:
            raise Refusal(409, "The game is paused by the host.")
        if version is not None and version > self.version:
            raise Refusal(409, "That view is newer than the table's; reload.")
        if isinstance(action, (SubmitRoll, SubmitBids)):
            if state.phase is not Phase.BIDDING:
                raise Refusal(409, "Rolls and bids are made at the start of a round, not now.")
            if state.bids[seat] is not None:
                raise Refusal(409, "Your bid is sealed; wait for the others.")
            if version is not None and version < self._round_since:
                raise Refusal(409, "The round has moved on since you looked; check your screen again.")
        else:
            decision = pending_decision(state)
            kind = _DECISION_KINDS[type(action)]
            if decision is None or decision.seat != seat:
                who = "nobody" if decision is None else state.players[decision.seat]
                raise Refusal(409, f"It is not your turn to decide; the table waits for {who}.")
            if decision.kind != kind:
                raise Refusal(409, "That is not the question being asked now; check your screen again.")
            if version is not None and version < self._prompt_since:
                raise Refusal(409, "The question changed since you looked; check your screen again.")
        note: dict[str, Any] = {"seat": seat}
        if request_id is not None:
            note["request_id"] = request_id
        answer = self._commit(action, note)
        if isinstance(action, SubmitRoll):
            self.proposals.pop(seat, None)
            self._crops.pop(seat, None)
        return answer

    def _commit(self, action: Action, note: dict[str, Any]) -> Answer:
        """Apply, log (committed), then make it the state. Refusal 422 when the rules refuse."""
        before = self.state
        assert before is not None and self.game_id is not None
        try:
            after = apply(before, action)
        except IllegalAction as error:
            raise Refusal(422, sentence(error.reason)) from None
        version, seq = self.version + 1, self.seq + 1
        note = {**note, "v": version}
        if isinstance(action, GiveFavor) and action.source == "deck":
            note["card"] = _new_card(before, after, action.player)
            note["exact"] = before.shuffles == after.shuffles
        self.log.append(self.game_id, seq, action, note)
        self.state, self.version, self.seq = after, version, seq
        if _context(after) != _context(before):
            self._prompt_since = version
        if (after.round, after.phase) != (before.round, before.phase):
            self._round_since = version
            self.proposals = {s: p for s, p in self.proposals.items() if p.round == after.round}
        self._note_host(before, after, seq, version, action, note)
        self._notify()
        return Answer(version, seq)

    # Virtual dice and proposed rolls ------------------------------------------------------------

    def propose_roll(self, seat: int, roll: Roll, source: str = "camera", crop: bytes | None = None) -> int:
        """Offer ``roll`` to ``seat``'s phone to confirm (the phone sends it back as a roll action).

        The hook for the camera: a reading of the seat's zone, and optionally a JPEG crop of it
        (kept in memory only). Returns the version (unchanged when the same roll is offered again).
        """
        with self._lock:
            state = self.state
            if state is None or state.phase is not Phase.BIDDING:
                raise Refusal(409, "Rolls are proposed while the round's bids are made.")
            if not 0 <= seat < len(state.players):
                raise Refusal(400, f"There is no seat {seat}.")
            if state.bids[seat] is not None:
                raise Refusal(409, "That player's bid is already sealed.")
            if self._offer(seat, Proposal(roll, str(source), state.round), crop):
                self._bump_table()
            return self.version

    def _offer(self, seat: int, proposal: Proposal, crop: bytes | None) -> bool:
        """Keep ``proposal`` (and its picture) for ``seat``; whether it is new to the phone."""
        if crop is not None:
            self._crops[seat] = bytes(crop)
        if self.proposals.get(seat) == proposal:
            return False
        self.proposals[seat] = proposal
        return True

    def propose_reading(
        self,
        offers: list[tuple[int, dict[str, list[str | None]], tuple[str, ...], bytes | None]],
        camera: dict[str, Any] | None = None,
    ) -> int:
        """Offer each seat the camera's reading of their zone, all in one change: per seat, one
        slot per die of their stash (None where the camera could not read or did not see a die),
        what does not add up, and a JPEG of their dice; ``camera`` is what every viewer may know of
        the reading. A seat that has confirmed its roll, or sealed its bid, is left alone."""
        with self._lock:
            state = self.state
            if state is None or state.phase is not Phase.BIDDING:
                return self.version
            changed = camera != self.camera
            self.camera = camera
            for seat, slots, problems, crop in offers:
                if not 0 <= seat < len(state.players) or state.rolls[seat] is not None or state.bids[seat] is not None:
                    continue
                proposal = Proposal(Roll.from_dict(slots), "camera", state.round, tuple(problems))
                changed = self._offer(seat, proposal, crop) or changed
            if changed:
                self._bump_table()
            return self.version

    def withdraw_proposal(self, seat: int) -> int:
        """Take back what was offered to ``seat`` (they re-roll: a new reading is coming)."""
        with self._lock:
            if self.proposals.pop(seat, None) is not None:
                self._crops.pop(seat, None)
                self._bump_table()
            return self.version

    def set_camera(self, status: dict[str, Any] | None) -> int:
        """Publish what the camera last saw (source, frame, problems per seat) to every viewer."""
        with self._lock:
            if status == self.camera:
                return self.version
            self.camera = status
            self._bump_table()
            return self.version

    def roll_for_me(self, seat: int | None) -> Proposal:
        """Roll ``seat``'s stash with virtual dice and propose the result to their phone."""
        if seat is None:
            raise Refusal(403, "Join the game to roll: this phone has no seat.")
        with self._lock:
            state = self.state
            if state is None:
                raise Refusal(409, "The game has not started yet.")
            if self.paused:
                raise Refusal(409, "The game is paused by the host.")
            if seat >= len(state.players):
                raise Refusal(403, "This phone has no seat in the game.")
            roll = roll_dice(state.stashes[seat], self._rng)
            self._crops.pop(seat, None)
            self.propose_roll(seat, roll, source="virtual")
            return self.proposals[seat]

    def crop(self, seat: int) -> bytes | None:
        with self._lock:
            return self._crops.get(seat)

    # Host ---------------------------------------------------------------------------------------

    def pause(self, paused: bool) -> int:
        with self._lock:
            if bool(paused) != self.paused:
                self.paused = bool(paused)
                self._bump_table()
            return self.version

    def adjust(self, data: Any) -> int:
        """Apply a host adjustment (move_die, give_favor or take_favor JSON); returns the version."""
        try:
            action = action_from_json(data)
        except ActionFormatError as error:
            raise Refusal(400, sentence(str(error))) from None
        if not isinstance(action, _ADJUSTMENTS):
            raise Refusal(400, "An adjustment is move_die, give_favor or take_favor.")
        with self._lock:
            self._host_ready()
            return self._commit(action, {"host": True}).version

    def undo(self) -> int:
        """Undo the latest adjustment not undone yet, by logging its inverse as a new action."""
        with self._lock:
            self._host_ready()
            for entry in reversed(self.host_log):
                if entry.undo_of is None and entry.seq not in self._undone:
                    break
            else:
                raise Refusal(409, "There is no adjustment to undo.")
            inverse = _inverse(entry)
            return self._commit(inverse, {"host": True, "undo_of": entry.seq}).version

    def end(self) -> int:
        with self._lock:
            if self.state is None:
                raise Refusal(409, "The game has not started yet.")
            if self.state.finished:
                raise Refusal(409, "The game has already ended.")
            return self._commit(EndGame(), {"host": True, "end": True}).version

    def _host_ready(self) -> None:
        if self.state is None:
            raise Refusal(409, "The game has not started yet.")
        if self.state.finished:
            raise Refusal(409, "The game has ended.")

    def _note_host(self, before: GameState, after: GameState, seq: int, version: int, action: Action, note: dict[str, Any]) -> None:
        if not isinstance(action, _ADJUSTMENTS):
            return
        undo_of = note.get("undo_of")
        entry = HostEntry(
            seq,
            version,
            action,
            ("Undo: " if undo_of is not None else "") + _describe(action),
            undo_of,
            bool(note.get("exact", True)),
            note.get("card"),
        )
        self.host_log.append(entry)
        if undo_of is not None:
            self._undone.add(int(undo_of))

    def export(self) -> dict[str, Any]:
        """The current (or last) game as a replay document (contains the seed: host only)."""
        with self._lock:
            if self.game_id is None:
                raise Refusal(409, "No game has started yet.")
            return self.log.export(self.game_id)

    # Presence -----------------------------------------------------------------------------------

    def connect(self, seat: int | None) -> None:
        """A live stream opened for ``seat`` (None: table or spectator)."""
        if seat is None:
            return
        with self._lock:
            self._presence[seat] = self._presence.get(seat, 0) + 1
            if self._presence[seat] == 1:
                self._presence_tick += 1
                self._notify()

    def disconnect(self, seat: int | None) -> None:
        if seat is None:
            return
        with self._lock:
            self._presence[seat] = max(0, self._presence.get(seat, 0) - 1)
            if self._presence[seat] == 0:
                self._presence_tick += 1
                self._notify()

    @property
    def tick(self) -> tuple[int, int]:
        """What a live stream compares to know whether to send a new view."""
        return (self.version, self._presence_tick)

    def wait_for_change(self, after_version: int | tuple[int, int], timeout: float) -> int:
        """Block until the version passes ``after_version`` (or, given a :attr:`tick`, until the tick
        changes) or ``timeout`` seconds pass; returns the current version."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                if isinstance(after_version, tuple):
                    if self.tick != after_version:
                        return self.version
                elif self.version > after_version:
                    return self.version
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return self.version
                self._changed.wait(remaining)

    # Views --------------------------------------------------------------------------------------

    def view_for(self, seat: int | None, *, host: bool = False, viewer: str | None = None) -> dict[str, Any]:
        """Everything shown to one viewer: :func:`companion.views.view` plus the session fields.

        ``seat``: the phone's seat (its own hand, bids, decision and proposed roll); None for the
        table screen (``viewer`` TABLE) or a spectator. The result is shared between callers with
        the same key until the next change: do not modify it.
        """
        with self._lock:
            key = (self.tick, seat, bool(host), viewer)
            cached = self._views.get(key)
            if cached is not None:
                return cached
            state = self.state
            in_game = state is not None and seat is not None and seat < len(state.players)
            who = seat if in_game else (viewer if viewer in (TABLE, SPECTATOR) else SPECTATOR)
            seated = seat is not None and seat < len(self.lobby.seats)
            out = view(state, who) if state is not None else self._lobby_view(seat if seated else who)
            out["version"] = self.version
            out["paused"] = self.paused
            out["lobby"] = self._lobby_json()
            entry = self.lobby.seats[seat] if seat is not None and seat < len(self.lobby.seats) else None
            out["you"] = {
                "seat": None if entry is None else entry.seat,
                "name": None if entry is None else entry.name,
                "color": None if entry is None else entry.color,
                "host": bool(host),
            }
            out["host_log"] = [e.to_json(e.seq in self._undone) for e in self.host_log]
            out["can_undo"] = any(e.undo_of is None and e.seq not in self._undone for e in self.host_log)
            proposal = self.proposals.get(seat) if entry is not None else None
            if proposal is not None and (state is None or proposal.round != state.round or state.rolls[seat] is not None):
                proposal = None
            out["proposed_roll"] = None if proposal is None else {**proposal.to_json(), "has_crop": seat in self._crops}
            out["camera"] = self.camera
            self._views[key] = out
            return out

    def _lobby_json(self) -> dict[str, Any]:
        return {
            "open": self.state is None,
            "seats": [
                {"name": s.name, "seat": s.seat, "color": s.color, "connected": self._presence.get(s.seat, 0) > 0}
                for s in self.lobby.seats
            ],
            "mode": self.lobby.mode,
            "characters": {s.name: c for s, c in zip(self.lobby.seats, self.lobby.characters)},
            "hand_sizes": {s.name: h for s, h in zip(self.lobby.seats, self.lobby.hand_sizes)},
            "available_characters": [{"name": c.name, "hand_size": c.hand_size} for c in CHARACTERS],
            "min_players": 2,
            "max_players": 4,
        }

    def _lobby_view(self, who: Any) -> dict[str, Any]:
        """The view before a game starts: only the seated names (the lobby carries the rest)."""
        return {
            "viewer": "seat" if isinstance(who, int) else who,
            "players": [{"name": s.name, "seat": s.seat} for s in self.lobby.seats],
            "round": 0,
            "rounds_played": 0,
            "phase": "lobby",
            "finished": False,
            "waiting_for": [],
            "decision": None,
            "reveal": None,
            "last_round": None,
            "winners": [],
        }

    def view_at(self, seat: int | None, *, host: bool = False, viewer: str | None = None) -> tuple[tuple[int, int], dict[str, Any]]:
        """The :attr:`tick` and :meth:`view_for` taken together (for a live stream: no change can
        slip between the two)."""
        with self._lock:
            return self.tick, self.view_for(seat, host=host, viewer=viewer)

    def view_json(self, seat: int | None, *, host: bool = False, viewer: str | None = None) -> str:
        """:meth:`view_for` as JSON text (what the stream sends)."""
        return json.dumps(self.view_for(seat, host=host, viewer=viewer), separators=(",", ":"))


def _new_card(before: GameState, after: GameState, player: str) -> int | None:
    seat = before.players.index(player)
    got = list(after.hands[seat])
    for card in before.hands[seat]:
        got.remove(card)
    return got[0] if len(got) == 1 else None


def _describe(action: Action) -> str:
    """A host adjustment in words, naming no card that lies face down (deck or hand)."""
    if isinstance(action, MoveDie):
        return f"moved a {action.color} die from {_place(action.source)} to {_place(action.target)}"
    if isinstance(action, GiveFavor):
        if action.source == "deck":
            return f"gave {action.player} a favor card from the deck"
        if action.source == "special":
            return f"gave {action.player} a +4 favor card"
        return f"gave {action.player} the {action.value} from the discard pile"
    if isinstance(action, TakeFavor):
        if action.target == "deck":
            return f"put one of {action.player}'s favor cards back on the deck"
        where = "the special stack" if action.target == "special" else "the discard pile"
        return f"took a {action.value} from {action.player} to {where}"
    return type(action).__name__


def _place(place: str) -> str:
    if place.startswith("stash:"):
        return f"{place[6:]}'s stash"
    return "the box" if place == "box" else f"the {place.title()}"


def _inverse(entry: HostEntry) -> Action:
    """The adjustment that takes ``entry`` back: the die moved back, the card returned."""
    action = entry.action
    if isinstance(action, MoveDie):
        return MoveDie(action.color, action.target, action.source)
    if isinstance(action, GiveFavor):
        if action.source == "deck":
            if entry.card is None:
                raise Refusal(409, "That card cannot be told apart any more; adjust by hand.")
            return TakeFavor(action.player, entry.card, "deck")
        if action.source == "special":
            return TakeFavor(action.player, 4, "special")
        return TakeFavor(action.player, action.value, "discard")  # type: ignore[arg-type]
    if isinstance(action, TakeFavor):
        if action.target == "deck":
            return GiveFavor(action.player, "deck")
        if action.target == "special":
            return GiveFavor(action.player, "special")
        return GiveFavor(action.player, "discard", action.value)
    raise Refusal(409, "That adjustment cannot be undone.")
