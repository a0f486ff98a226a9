"""The event log: a game is the list of its accepted actions, kept in SQLite.

Every accepted action is appended and committed (WAL journal, synchronous FULL) before the
player is told it was accepted, so a crash or a power cut loses nothing that a phone saw
confirmed. Reopening the database and replaying the log rebuilds the identical state.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import Action
from .codec import action_from_json, action_to_json
from .engine import apply, new_game
from .state import GameState

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    note TEXT,
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS meta (
    game_id INTEGER NOT NULL REFERENCES games(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
CREATE TABLE IF NOT EXISTS tables (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class GameSetup:
    """Everything needed to set a game up again: the players, the seed and the hands."""

    players: tuple[str, ...]
    seed: int
    hand_sizes: tuple[int, ...]
    characters: tuple[str | None, ...] = ()
    favor_deck: tuple[int, ...] | None = None

    def start(self) -> GameState:
        return new_game(
            self.players,
            self.seed,
            hand_sizes=self.hand_sizes,
            characters=self.characters or None,
            favor_deck=self.favor_deck,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "seed": self.seed,
            "hand_sizes": list(self.hand_sizes),
            "characters": list(self.characters),
            "favor_deck": None if self.favor_deck is None else list(self.favor_deck),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GameSetup":
        deck = data.get("favor_deck")
        return cls(
            players=tuple(data["players"]),
            seed=data["seed"],
            hand_sizes=tuple(data["hand_sizes"]),
            characters=tuple(data.get("characters") or ()),
            favor_deck=None if deck is None else tuple(deck),
        )


@dataclass(frozen=True)
class GameRecord:
    """A game as listed: its id, when it started, its players, events so far and its state."""

    id: int
    created: str
    setup: GameSetup
    events: int
    finished: bool = False
    winners: tuple[str, ...] = field(default=())


class EventLog:
    """One SQLite database holding any number of games and their events.

    Safe to share between threads: one connection, one lock; every append is its own
    committed transaction.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(events)")}
        if "note" not in columns:  # a database written before events carried a note
            self._db.execute("ALTER TABLE events ADD COLUMN note TEXT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_game(self, setup: GameSetup) -> int:
        """Record a new game (checked by setting it up) and return its id."""
        setup.start()  # refuse a setup the rules do not allow before anything is written
        with self._lock:
            cur = self._db.execute("INSERT INTO games (setup) VALUES (?)", (json.dumps(setup.to_json()),))
            return int(cur.lastrowid)

    def append(self, game_id: int, seq: int, action: Action, note: dict[str, Any] | None = None) -> None:
        """Commit ``action`` as event number ``seq`` (1, 2, ...) of the game; durable on return.

        ``note`` is what the session keeps with the event in the same row (who sent it, its
        request id, the state version it made), so that one commit records both."""
        with self._lock:
            self._db.execute(
                "INSERT INTO events (game_id, seq, action, note) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(action_to_json(action)), None if note is None else json.dumps(note)),
            )

    def entries(self, game_id: int) -> list[tuple[int, Action, dict[str, Any]]]:
        """The game's events in order, each as (seq, action, note; {} when it has none)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, action, note FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [(seq, action_from_json(json.loads(a)), json.loads(n) if n else {}) for seq, a, n in rows]

    def save_table(self, key: str, value: Any) -> None:
        """Keep a piece of table-level data (the lobby, pause, the host token) in one commit."""
        with self._lock:
            self._db.execute(
                "INSERT INTO tables (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )

    def load_table(self, key: str) -> Any:
        """The value kept under ``key`` by :meth:`save_table`, or None."""
        with self._lock:
            row = self._db.execute("SELECT value FROM tables WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def setup(self, game_id: int) -> GameSetup:
        with self._lock:
            row = self._db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in {self.path}")
        return GameSetup.from_json(json.loads(row[0]))

    def actions(self, game_id: int) -> list[Action]:
        with self._lock:
            rows = self._db.execute("SELECT action FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        return [action_from_json(json.loads(r[0])) for r in rows]

    def rebuild(self, game_id: int) -> tuple[GameState, int]:
        """The game's state by replaying its log, and the number of events replayed."""
        state = self.setup(game_id).start()
        actions = self.actions(game_id)
        for action in actions:
            state = apply(state, action)
        return state, len(actions)

    def games(self) -> list[GameRecord]:
        """Every game in the database, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.setup, (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) "
                "FROM games g ORDER BY g.id DESC"
            ).fetchall()
        records = []
        for gid, created, setup, events in rows:
            state, _ = self.rebuild(gid)  # a record says whether the game has ended, and who won
            winners = tuple(state.players[seat] for seat in state.winners)
            records.append(GameRecord(gid, created, GameSetup.from_json(json.loads(setup)), events, state.finished, winners))
        return records

    def set_meta(self, game_id: int, key: str, value: Any) -> None:
        """Keep a small piece of session data with the game (seat tokens, zones, settings)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO meta (game_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                (game_id, key, json.dumps(value)),
            )

    def meta(self, game_id: int) -> dict[str, Any]:
        with self._lock:
            rows = self._db.execute("SELECT key, value FROM meta WHERE game_id = ?", (game_id,)).fetchall()
        return {k: json.loads(v) for k, v in rows}

    def export(self, game_id: int) -> dict[str, Any]:
        """The game as a replay document (see companion.replay.export)."""
        from .replay import export

        setup = self.setup(game_id)
        return export(
            setup.players,
            setup.seed,
            self.actions(game_id),
            hand_size=setup.hand_sizes[0] if setup.hand_sizes else 3,
            favor_deck=None if setup.favor_deck is None else list(setup.favor_deck),
        )

