"""Everything a player or the host can do, as small immutable values.

Players are named by name (as the table knows them). Host adjustments are actions too, so that
they are checked, logged and replayed like any other move.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Roll
from .state import Bid


@dataclass(frozen=True, slots=True)
class SubmitRoll:
    """The player's rolled dice (read by the camera and confirmed, tapped in, or rolled virtually)."""

    player: str
    roll: Roll


@dataclass(frozen=True, slots=True)
class SubmitBids:
    """The player's sealed bid(s): one, or two on different symbols in a 2-player game."""

    player: str
    bids: tuple[Bid, ...]


@dataclass(frozen=True, slots=True)
class ExchangeAtSpeakeasy:
    """The Speakeasy's controller swaps ``give`` dice of their stash for ``take`` dice on it (≤ 3)."""

    player: str
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlaceOnStreets:
    """The Streets' controller places one die of ``color`` on it, or none."""

    player: str
    color: str | None


@dataclass(frozen=True, slots=True)
class ChooseInvestigatorColor:
    """The Investigator's winner places all their dice of ``color`` on it."""

    player: str
    color: str


@dataclass(frozen=True, slots=True)
class TakeFromInvestigator:
    """End of round: the holder takes one die of ``color``; None declines (Lawyer's controller only)."""

    player: str
    color: str | None


# Host adjustments -------------------------------------------------------------------------------

#: Places a die can be moved between: "box", a token that holds dice, or "stash:<player>".
DICE_PLACES = ("box", "speakeasy", "streets", "investigator")


@dataclass(frozen=True, slots=True)
class MoveDie:
    """Host: move one die of ``color`` from ``source`` to ``target`` (for abilities and mistakes)."""

    color: str
    source: str
    target: str


@dataclass(frozen=True, slots=True)
class GiveFavor:
    """Host: give ``player`` a favor card: the deck's top card, a +4 from the special stack, or a
    card of ``value`` from the discard pile."""

    player: str
    source: str  # "deck", "special" or "discard"
    value: int | None = None


@dataclass(frozen=True, slots=True)
class TakeFavor:
    """Host: take a card of ``value`` from ``player``'s hand, to the discard pile, the special stack
    (+4 cards only) or back on top of the deck."""

    player: str
    value: int
    target: str = "discard"  # "discard", "special" or "deck"


@dataclass(frozen=True, slots=True)
class EndGame:
    """Host: end the game now, with no winner."""


PlayerAction = SubmitRoll | SubmitBids | ExchangeAtSpeakeasy | PlaceOnStreets | ChooseInvestigatorColor | TakeFromInvestigator
HostAction = MoveDie | GiveFavor | TakeFavor | EndGame
Action = PlayerAction | HostAction

HOST_ACTIONS = (MoveDie, GiveFavor, TakeFavor, EndGame)


def stash_place(player: str) -> str:
    """The place name of ``player``'s stash, for :class:`MoveDie`."""
    return f"stash:{player}"
