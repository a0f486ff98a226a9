"""Computer players: they see what a phone sees and answer with an action.

A bot never reads the game state. It is handed a :class:`SeatView`: the table as it lies face up
(stashes, tokens, the dice on them, rolls once rolled) plus the seat's own favor hand, roll and
decision, and nothing else: no other seat's hand, no sealed bid, no deck order, no seed. The view
is built either from the state (:func:`seat_view`, cheap, for simulations) or from exactly the
JSON a phone receives (:func:`seat_view_from_json`), and the two agree, so bots cannot cheat.

:class:`RandomBot` picks uniformly among the legal actions; :class:`GreedyBot` plays a simple,
sensible strategy (see its docstring).
"""

from __future__ import annotations

import random
from itertools import combinations
from math import floor
from typing import Any, Mapping, NamedTuple, Protocol

from .actions import (
    Action,
    ChooseInvestigatorColor,
    ExchangeAtSpeakeasy,
    PlaceOnStreets,
    SubmitBids,
    SubmitRoll,
    TakeFromInvestigator,
)
from .dice import COLORS, TOKEN_SYMBOL, Dice, Roll, roll_dice
from .engine import Decision, bids_required, givable, pending_decision
from .state import Bid, GameState, Phase

#: The most dice that may change hands at the Speakeasy.
MAX_EXCHANGE = 3

# Looked up once, not at every view or bid: the bidding phase (an Enum member costs a lookup
# each time it is read off its class) and the symbols the greedy bot weighs apart.
_BIDDING = Phase.BIDDING
_INVESTIGATOR_SYMBOL, _SPEAKEASY_SYMBOL, _STREETS_SYMBOL = (
    TOKEN_SYMBOL["investigator"],
    TOKEN_SYMBOL["speakeasy"],
    TOKEN_SYMBOL["streets"],
)
#: Named tuples (views) built straight from their values, skipping their constructors.
_new = tuple.__new__


class SeatView(NamedTuple):
    """What one seat knows: the public table and its own hand, roll and decision."""

    seat: int
    players: tuple[str, ...]
    #: "bidding", "resolving" or "finished" (a Phase, which compares equal to those strings).
    phase: str
    stashes: tuple[Dice, ...]
    #: Every seat's roll this round, or None before it is rolled (dice lie face up).
    rolls: tuple[Roll | None, ...]
    hand: tuple[int, ...]
    submitted: bool
    bids_required: int
    givable: Dice
    lawyer: int | None
    speakeasy: int | None
    streets: int | None
    holder: int | None
    speakeasy_dice: Dice
    streets_dice: Dice
    investigator_dice: Dice
    #: The decision this seat must make now, or None.
    decision: Decision | None

    @property
    def name(self) -> str:
        return self.players[self.seat]

    @property
    def roll(self) -> Roll | None:
        return self.rolls[self.seat]

    @property
    def stash(self) -> Dice:
        return self.stashes[self.seat]

    @property
    def two_player(self) -> bool:
        return len(self.players) == 2


def seat_view(state: GameState, seat: int) -> SeatView:
    """The seat's view of ``state``: the same facts as companion.views.view(state, seat).

    Built for speed, as bots ask for one before every action: while bidding nobody has received
    a die yet (so all of a stash may be given) and nobody has a decision to make.
    """
    if state.phase is _BIDDING:
        # No bid is required before the roll: no need to ask bids_required then.
        required = 0 if state.rolls[seat] is None else bids_required(state, seat)
        decision, may_give = None, state.stashes[seat]
    else:
        decision, may_give, required = pending_decision(state), givable(state, seat), 0
        if decision is not None and decision.seat != seat:
            decision = None
    # Built straight from its values (in field order), skipping the named tuple's constructor.
    return _new(
        SeatView,
        (
            seat,
            state.players,
            state.phase,
            state.stashes,
            state.rolls,
            state.hands[seat],
            state.bids[seat] is not None,
            required,
            may_give,
            state.lawyer,
            state.speakeasy,
            state.streets,
            state.holder,
            state.speakeasy_dice,
            state.streets_dice,
            state.investigator_dice,
            decision,
        ),
    )


def _dice(counts: Mapping[str, int]) -> Dice:
    return Dice(*(counts[c] for c in COLORS))


def seat_view_from_json(view: Mapping[str, Any]) -> SeatView:
    """The :class:`SeatView` in a phone's view (companion.views.view(state, seat))."""
    me = view["me"]
    names = tuple(p["name"] for p in view["players"])

    def seat_of(name: str | None) -> int | None:
        return None if name is None else names.index(name)

    tokens = view["tokens"]
    own = me["decision"]
    decision = None
    if own is not None:
        decision = Decision(
            own["kind"], me["seat"], tuple(own["options"]), tuple(own["take_options"]), own["can_decline"]
        )
    return SeatView(
        seat=me["seat"],
        players=names,
        phase=view["phase"],
        stashes=tuple(_dice(p["stash"]) for p in view["players"]),
        rolls=tuple(None if p["roll"] is None else Roll.from_dict(p["roll"]) for p in view["players"]),
        hand=tuple(me["hand"]),
        submitted=me["bids"] is not None,
        bids_required=me["bids_required"],
        givable=_dice(me["givable"]),
        lawyer=seat_of(tokens["lawyer"]["controller"]),
        speakeasy=seat_of(tokens["speakeasy"]["controller"]),
        streets=seat_of(tokens["streets"]["controller"]),
        holder=seat_of(tokens["investigator"]["holder"]),
        speakeasy_dice=_dice(tokens["speakeasy"]["dice"]),
        streets_dice=_dice(tokens["streets"]["dice"]),
        investigator_dice=_dice(tokens["investigator"]["dice"]),
        decision=decision,
    )


class Bot(Protocol):
    """A computer player: given its seat's view and a random source, the action it takes now."""

    name: str

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The seat's next action, or None when the game asks nothing of it."""
        ...


def _dice_list(dice: Dice) -> list[str]:
    """One color name per die, in color order."""
    return [color for color, n in zip(COLORS, dice) for _ in range(n)]


class RandomBot:
    """Uniform over the legal actions: random symbols, cards, exchanges and colors."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        seat = view.seat
        player = view.players[seat]
        if view.phase == "bidding":
            roll = view.rolls[seat]
            if roll is None:
                return SubmitRoll(player, roll_dice(view.stashes[seat], rng))
            if view.submitted:
                return None
            showing, hand = sorted(roll.symbols()), view.hand  # sorted: sets have no fixed order
            if view.bids_required == 1 and hand:  # the usual case, without the cost of sample()
                random_ = rng.random  # floor(random() * n): uniform over n, like choices(); cheaper than int()
                return SubmitBids(player, (Bid(showing[floor(random_() * len(showing))], hand[floor(random_() * len(hand))]),))
            symbols = rng.sample(showing, view.bids_required)
            cards: list[int | None] = rng.sample(hand, min(len(symbols), len(hand)))
            cards += [None] * (len(symbols) - len(cards))
            return SubmitBids(player, tuple(Bid(s, f) for s, f in zip(symbols, cards)))
        decision = view.decision
        if decision is None:
            return None
        if decision.kind == "speakeasy":
            may_give, on_it = _dice_list(view.givable), _dice_list(view.speakeasy_dice)
            k = rng.randint(0, min(MAX_EXCHANGE, len(may_give), len(on_it)))
            return ExchangeAtSpeakeasy(player, tuple(rng.sample(may_give, k)), tuple(rng.sample(on_it, k)))
        if decision.kind == "streets":
            return PlaceOnStreets(player, rng.choice(decision.options + (None,)))
        if decision.kind == "investigator_color":
            return ChooseInvestigatorColor(player, rng.choice(decision.options))
        options = decision.options + ((None,) if decision.can_decline else ())
        return TakeFromInvestigator(player, rng.choice(options))


class GreedyBot:
    """A sensible player, one round ahead at most.

    Bidding: for every symbol its dice show, it weighs what the token is worth to it (the
    Investigator most when it holds few colors, the Speakeasy while it still holds several, the
    Lawyer when the Investigator threatens it) by whether its score can beat the best score the
    others' visible dice allow with an average favor card; it plays the cheapest card that wins,
    and its lowest card where it cannot win. Decisions: it consolidates to one color at the
    Speakeasy, sheds its rarest color on the Streets, puts its most numerous givable color on the
    Investigator, declines with the Lawyer and otherwise takes the color it holds most of.
    """

    name = "greedy"

    #: The favor value it expects another player to add to a bid.
    EXPECTED_FAVOR = 2

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        seat = view.seat
        player = view.players[seat]
        if view.phase == "bidding":
            if view.rolls[seat] is None:
                return SubmitRoll(player, roll_dice(view.stashes[seat], rng))
            if view.submitted:
                return None
            return SubmitBids(player, self._bids(view))
        decision = view.decision
        if decision is None:
            return None
        stash = view.stashes[seat]
        main = _main_color(stash)
        if decision.kind == "speakeasy":
            give = [c for c in _dice_list(view.givable) if c != main]
            take = [main] * view.speakeasy_dice.of(main)
            k = min(MAX_EXCHANGE, len(give), len(take))
            # Shed the rarest colors first: they are the furthest from being one color.
            give.sort(key=lambda c: (stash.of(c), c))
            return ExchangeAtSpeakeasy(player, tuple(give[:k]), tuple(take[:k]))
        if decision.kind == "streets":
            if not decision.options:
                return PlaceOnStreets(player, None)
            return PlaceOnStreets(player, min(decision.options, key=lambda c: (stash.of(c), c)))
        if decision.kind == "investigator_color":
            return ChooseInvestigatorColor(player, max(decision.options, key=lambda c: (view.givable.of(c), c)))
        if decision.can_decline:
            return TakeFromInvestigator(player, None)
        return TakeFromInvestigator(player, max(decision.options, key=lambda c: (stash.of(c), c)))

    def _bids(self, view: SeatView) -> tuple[Bid, ...]:
        roll = view.roll
        assert roll is not None
        hand = sorted(view.hand)
        showing = sorted(roll.symbols())
        mine = view.streets == view.seat
        bonus = view.streets_dice.total if mine else 0
        faces = roll[0] + roll[1] + roll[2]
        # What each symbol is worth, and the rival score to beat on it: worked out once, not for
        # every pairing of symbols a 2-player bid weighs.
        worth = {symbol: self._worth(view, symbol) for symbol in showing}
        rivals = self._rival_scores(view, showing)
        best_value, best = 0.0, None  # the best bids so far, as (symbol, card) pairs
        for symbols in combinations(showing, view.bids_required):
            if len(symbols) > 1:
                symbols = sorted(symbols, key=lambda s: -worth[s])
            picks: list[tuple[str, int | None]] = []
            value, left = 0.0, list(hand)
            for symbol in symbols:
                base = faces.count(symbol) + bonus
                rival = rivals[symbol]
                # The cheapest card that beats the best rival; else the lowest card there is.
                card = left[0] if left else None
                for c in left:
                    if base + c > rival:
                        card = c
                        break
                if card is not None:
                    left.remove(card)
                wins = base + (card or 0) > rival or (base + (card or 0) == rival and mine)
                value += worth[symbol] * (1.0 if wins else 0.1) - 0.05 * (card or 0)
                picks.append((symbol, card))
            if best is None or value > best_value:
                best_value, best = value, picks
        assert best is not None
        return tuple([Bid(symbol, card) for symbol, card in best])

    def _rival_scores(self, view: SeatView, symbols: list[str]) -> dict[str, int]:
        """For each of ``symbols``, the best score another seat is likely to bid on it, from their
        visible dice."""
        best = dict.fromkeys(symbols, 0)
        for seat, roll in enumerate(view.rolls):
            if seat == view.seat or roll is None:
                continue
            faces = roll[0] + roll[1] + roll[2]
            offer = self.EXPECTED_FAVOR + (view.streets_dice.total if view.streets == seat else 0)
            for symbol in symbols:
                count = faces.count(symbol)
                if count and count + offer > best[symbol]:
                    best[symbol] = count + offer
        return best

    def _worth(self, view: SeatView, symbol: str) -> float:
        """How much winning the token of ``symbol`` would help this seat now."""
        if symbol == _INVESTIGATOR_SYMBOL:
            if view.holder is None or view.holder == view.seat:
                # Passing it on: worth it when dice on it would otherwise come to this seat.
                return 1.0 + (2.0 if view.holder == view.seat and view.investigator_dice.total else 0.0)
            return 1.0 + view.givable.of(_main_color(view.givable)) if view.givable.total else 0.2
        if symbol == _SPEAKEASY_SYMBOL:
            colors = len(view.stashes[view.seat].colors())
            return (1.5 if colors > 1 else 0.3) * (2.0 if view.speakeasy == view.seat else 1.0)
        if symbol == _STREETS_SYMBOL:
            return 1.2 if view.streets == view.seat else 1.0
        threatened = view.holder == view.seat and view.investigator_dice.total > 0
        return 2.0 if threatened else 0.8


def _main_color(dice: Dice) -> str:
    """The color a seat holds most of (the first such in color order on a tie)."""
    white, red, blue = dice
    if white >= red and white >= blue:
        return "white"
    return "red" if red >= blue else "blue"


BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str) -> Bot:
    """A new bot of the kind called ``name`` (ValueError for an unknown kind)."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"no bot called {name!r} (known: {', '.join(BOTS)})") from None

