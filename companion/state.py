"""The state of a game of Gangster Dice: one immutable value, changed only by the engine.

Seats are numbered in seating order (0 is the first player); "the player to your left" is the
next seat. Everything is tuples and small named tuples so that a state can be shared between
threads, kept in an undo history or compared for equality at no risk.
"""

from __future__ import annotations

from enum import Enum
from typing import Mapping, NamedTuple

from .dice import Dice, Roll


class Phase(str, Enum):
    """Where a round stands."""

    BIDDING = "bidding"  # players roll (or confirm a camera reading) and seal their bids
    RESOLVING = "resolving"  # bids revealed; winners decide, then the end-of-round steps
    FINISHED = "finished"


class Step(int, Enum):
    """The next effect to settle while resolving, in the order the rules give."""

    SPEAKEASY = 1
    STREETS = 2
    INVESTIGATOR = 3
    TAKE = 4  # end of round: the Investigator's holder takes a die


class Bid(NamedTuple):
    """A sealed bid: a symbol and the favor card played with it (None only with an empty hand)."""

    symbol: str
    favor: int | None


class Effect(NamedTuple):
    """One thing that happened while a round was resolved, for the table's instructions.

    ``kind`` is one of: control (seat takes ``token``), lawyer_favor, speakeasy_exchange (``give``
    and ``take`` colors), streets_place (``color``), investigator_pass (to ``target``),
    investigator_place (``color`` × ``count``), investigator_nothing, investigator_take (``color``),
    lawyer_decline.
    """

    kind: str
    seat: int
    token: str | None = None
    color: str | None = None
    count: int = 0
    target: int | None = None
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()


class RoundResult(NamedTuple):
    """What the reveal of one round showed, and what followed from it.

    A named tuple, like :class:`GameState`, so that noting an effect is one cheap copy.
    """

    round: int
    rolls: tuple[Roll, ...]
    bids: tuple[tuple[Bid, ...], ...]
    #: For each token (in TOKENS order), the (seat, score) of every bid on its symbol, in seat order.
    scores: tuple[tuple[tuple[int, int], ...], ...]
    #: For each token, the seat that won it, or None.
    winners: tuple[int | None, ...]
    #: For each token, the seats tied at the top (empty when there was no tie).
    ties: tuple[tuple[int, ...], ...]
    #: The seat that controlled the Streets before the reveal, or None.
    streets_controller: int | None
    effects: tuple[Effect, ...] = ()

    def noting(self, *effects: Effect) -> "RoundResult":
        """This result with ``effects`` noted after those already noted."""
        # Built from the values straight away (effects is the last field): cheaper than _replace.
        return tuple.__new__(RoundResult, (*self[:-1], self[-1] + effects))


class GameState(NamedTuple):
    """Everything about a game at one moment.

    A named tuple rather than a dataclass: the engine derives a new state for every action, and
    :meth:`evolve` copies one in a fraction of the time a frozen dataclass takes to build, which
    is what lets bots play hundreds of games a second. Change it only through the engine.
    """

    players: tuple[str, ...]
    characters: tuple[str | None, ...]
    hand_sizes: tuple[int, ...]
    seed: int
    #: Rounds completed.
    round: int
    phase: Phase
    stashes: tuple[Dice, ...]
    box: Dice
    #: Controller seat of the lawyer, speakeasy and streets tokens (None: nobody).
    lawyer: int | None
    speakeasy: int | None
    streets: int | None
    #: Seat holding the Investigator (None: nobody yet).
    holder: int | None
    speakeasy_dice: Dice
    streets_dice: Dice
    investigator_dice: Dice
    #: Favor deck, top card first.
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    special: int
    #: Favor hands, sorted ascending.
    hands: tuple[tuple[int, ...], ...]
    #: Reshuffles of the discard pile so far (each one seeded from ``seed`` and this count).
    shuffles: int
    rolls: tuple[Roll | None, ...]
    bids: tuple[tuple[Bid, ...] | None, ...]
    #: Favor cards played this round, out of the hands until the end-of-round discard.
    played: tuple[tuple[int, ...], ...]
    #: Dice each player received this round (they may not leave that player this round).
    received: tuple[Dice, ...]
    #: The seat whose Lawyer effect replaces one draw this round.
    lawyer_bonus: int | None
    step: Step | None
    #: The round being resolved (None while bidding).
    reveal: RoundResult | None
    history: tuple[RoundResult, ...]
    winners: tuple[int, ...]
    ended_by_host: bool = False

    def evolve(self, **changes: object) -> "GameState":
        """This state with the named fields changed: the engine's way to derive a state (with
        :meth:`evolve_field` and :meth:`evolve_from`, cheaper forms of it for its hot paths).

        Like ``_replace``, but it touches only the fields that change instead of looking up
        every field, which matters at hundreds of games a second.
        """
        return self.evolve_from(changes)

    def evolve_field(self, name: str, value: object) -> "GameState":
        """Like :meth:`evolve`, for the one field called ``name``: the engine's most frequent copy
        (one per roll and per sealed bid), without the cost of passing a keyword."""
        values = list(self)
        values[_FIELD_INDEX[name]] = value
        return tuple.__new__(GameState, values)

    def evolve_from(self, changes: Mapping[str, object]) -> "GameState":
        """Like :meth:`evolve`, for changes gathered in a mapping of field names to values: passing
        a dozen of them on as keywords would cost more than the copy itself."""
        values = list(self)
        for name, value in changes.items():
            values[_FIELD_INDEX[name]] = value
        return tuple.__new__(GameState, values)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def two_player(self) -> bool:
        return len(self.players) == 2

    def seat(self, name: str) -> int:
        """The seat of the player called ``name`` (ValueError when there is none)."""
        return self.players.index(name)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % len(self.players)

    def controller(self, token: str) -> int | None:
        if token == "lawyer":
            return self.lawyer
        if token == "speakeasy":
            return self.speakeasy
        if token == "streets":
            return self.streets
        if token == "investigator":
            return self.holder
        raise ValueError(f"no token called {token!r}")

    def token_dice(self, token: str) -> Dice:
        if token == "speakeasy":
            return self.speakeasy_dice
        if token == "streets":
            return self.streets_dice
        if token == "investigator":
            return self.investigator_dice
        raise ValueError(f"the {token} holds no dice")


_FIELD_INDEX: dict[str, int] = {name: i for i, name in enumerate(GameState._fields)}
