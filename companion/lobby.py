"""The lobby: the players seated at the table before a game starts, as one immutable value.

Seats are given in join order, and with a seat its bid-card color (yellow, red, blue, green, the
colors of the four bid-card sets in the box). A phone proves its seat with a token that only it
was told; the lobby keeps a hash of it, so the database file alone cannot act for a phone.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from .engine import MAX_PLAYERS, MIN_PLAYERS

#: The bid-card colors, given to seats in join order.
SEAT_COLORS: tuple[str, ...] = ("yellow", "red", "blue", "green")
NAME_MAX = 20
MODES = ("tutorial", "characters")


class LobbyError(ValueError):
    """A join or a setup the lobby refuses; the message is a sentence for the phone or the host."""


def new_token() -> str:
    """A fresh secret token (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """How a seat token is kept: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(name: Any) -> str:
    """``name`` stripped and checked: 1 to 20 printable characters (LobbyError otherwise)."""
    if not isinstance(name, str):
        raise LobbyError("Type a name to join.")
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise LobbyError("Type a name to join.")
    if len(name) > NAME_MAX:
        raise LobbyError(f"A name has at most {NAME_MAX} characters.")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise LobbyError("A name cannot hold control characters.")
    return name


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """One seated player: name, seat number (join order), bid-card color, hash of their token."""

    name: str
    seat: int
    color: str
    token_hash: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seat": self.seat, "color": self.color, "token_hash": self.token_hash}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "SeatEntry":
        return cls(data["name"], int(data["seat"]), data["color"], data["token_hash"])


@dataclass(frozen=True, slots=True)
class Lobby:
    """The seats, and the mode chosen at the start (None while the lobby is open)."""

    seats: tuple[SeatEntry, ...] = ()
    mode: str | None = None
    #: Character per seat (same order as ``seats``) in "characters" mode.
    characters: tuple[str | None, ...] = ()
    hand_sizes: tuple[int, ...] = ()

    @property
    def full(self) -> bool:
        return len(self.seats) >= MAX_PLAYERS

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def seat_of_hash(self, hashed: str) -> int | None:
        for s in self.seats:
            if secrets.compare_digest(s.token_hash, hashed):
                return s.seat
        return None

    def join(self, name: Any) -> tuple["Lobby", SeatEntry, str]:
        """The lobby with ``name`` seated, the new seat, and the seat's token (told only once)."""
        name = clean_name(name)
        if self.full:
            raise LobbyError(f"The table is full: {MAX_PLAYERS} players.")
        if any(s.name.casefold() == name.casefold() for s in self.seats):
            raise LobbyError(f"{name} is already at the table; pick another name.")
        token = new_token()
        seat = len(self.seats)
        entry = SeatEntry(name, seat, SEAT_COLORS[seat], token_hash(token))
        return replace(self, seats=self.seats + (entry,)), entry, token

    def check_startable(self) -> None:
        if len(self.seats) < MIN_PLAYERS:
            raise LobbyError(f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players; {len(self.seats)} joined.")

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": [s.to_json() for s in self.seats],
            "mode": self.mode,
            "characters": list(self.characters),
            "hand_sizes": list(self.hand_sizes),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Lobby":
        return cls(
            seats=tuple(SeatEntry.from_json(s) for s in data.get("seats", ())),
            mode=data.get("mode"),
            characters=tuple(data.get("characters") or ()),
            hand_sizes=tuple(data.get("hand_sizes") or ()),
        )
