"""Replay: a whole game as one JSON document in, the resulting state as JSON out.

The format is the contract in ``shared/spec/replay.md``. :func:`play` runs a parsed document
through the engine; :func:`state_json` writes a state in the contract's output shape; any problem
raises :class:`ReplayError` whose message is the one line the command prints (it names the round
and the player). :func:`export` turns a game's actions back into a replay document.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .actions import (
    Action,
    ChooseInvestigatorColor,
    ExchangeAtSpeakeasy,
    PlaceOnStreets,
    SubmitBids,
    SubmitRoll,
    TakeFromInvestigator,
)
from .characters import TUTORIAL_HAND_SIZE
from .dice import COLORS, SYMBOLS, TOKENS, Roll
from .engine import Decision, IllegalAction, apply, new_game, pending_decision
from .views import tokens_json
from .state import Bid, GameState, Phase

CHOICE_KEYS = ("investigator_color", "speakeasy", "streets", "lawyer_decline", "investigator_take")


class ReplayError(Exception):
    """A replay document that is invalid or plays an illegal action; the message is one line."""


def _fail(round_no: int | None, player: str | None, reason: str) -> ReplayError:
    parts = [f"round {round_no}" if round_no is not None else "round 0 (setup)"]
    if player is not None:
        parts.append(str(player))
    parts.append(reason)
    return ReplayError(": ".join(parts))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def setup(doc: Any) -> GameState:
    """The starting state a replay document describes."""
    if not isinstance(doc, Mapping):
        raise _fail(None, None, "the game file must hold one JSON object")
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise _fail(None, None, "players must be a list of non-empty names")
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise _fail(None, repeated[0], "two players have this name; names must be unique")
    if "seed" not in doc or not _is_int(doc["seed"]):
        raise _fail(None, None, "seed is required and must be an integer")
    hand_size = doc.get("hand_size", TUTORIAL_HAND_SIZE)
    if hand_size is None:
        hand_size = TUTORIAL_HAND_SIZE
    if not _is_int(hand_size) or hand_size < 0:
        raise _fail(None, None, "hand_size must be a whole number of cards")
    favor_deck = doc.get("favor_deck")
    if favor_deck is not None and (not isinstance(favor_deck, list) or not all(_is_int(v) for v in favor_deck)):
        raise _fail(None, None, "favor_deck must be a list of card values")
    rounds = doc.get("rounds", [])
    if not isinstance(rounds, list):
        raise _fail(None, None, "rounds must be a list")
    if favor_deck is not None and len(favor_deck) < hand_size * len(players):
        # Dealing goes one card at a time in seat order: name the first player left short.
        short = players[len(favor_deck) % len(players)] if players else None
        raise _fail(
            None, short, f"the favor deck of {len(favor_deck)} cards cannot deal {hand_size} cards to each player"
        )
    try:
        return new_game(players, doc["seed"], hand_sizes=hand_size, favor_deck=favor_deck)
    except ValueError as error:
        raise _fail(None, None, str(error)) from None


def _roll_of(state: GameState, round_no: int, player: str, faces: Any) -> Roll:
    if not isinstance(faces, Mapping):
        raise _fail(round_no, player, "the roll must map each color to the symbols of its dice")
    for color, symbols in faces.items():
        if color not in COLORS:
            raise _fail(round_no, player, f"{color!r} is not a dice color (white, red or blue)")
        if not isinstance(symbols, list):
            raise _fail(round_no, player, f"the {color} dice must be a list of symbols")
        for symbol in symbols:
            if symbol not in SYMBOLS:
                raise _fail(round_no, player, f"{symbol!r} is not a symbol on the dice")
    return Roll.from_dict(faces)


def _bids_of(round_no: int, player: str, bids: Any) -> tuple[Bid, ...]:
    if isinstance(bids, Mapping):  # a single bid given without its list
        bids = [bids]
    if not isinstance(bids, list):
        raise _fail(round_no, player, "bids must be a list of {symbol, favor}")
    out = []
    for bid in bids:
        if not isinstance(bid, Mapping) or "symbol" not in bid:
            raise _fail(round_no, player, "each bid needs a symbol and a favor")
        favor = bid.get("favor")
        if favor is not None and not _is_int(favor):
            raise _fail(round_no, player, f"a favor is a card value, not {favor!r}")
        out.append(Bid(bid["symbol"], favor))
    return tuple(out)


def play_round(state: GameState, round_doc: Any, round_no: int) -> GameState:
    """Play one round of a replay document from the start of its bidding to its end."""
    if state.phase is Phase.FINISHED:
        # The first player's roll is the first action the ended game refuses.
        won = ", ".join(state.players[s] for s in state.winners) or "nobody"
        raise _fail(round_no, state.players[0], f"the game has already ended (won by {won} in round {state.round})")
    if not isinstance(round_doc, Mapping):
        raise _fail(round_no, None, "a round must be an object with roll, bids and choices")
    rolls, bids = round_doc.get("roll"), round_doc.get("bids")
    choices = round_doc.get("choices") or {}
    if not isinstance(rolls, Mapping) or not isinstance(bids, Mapping) or not isinstance(choices, Mapping):
        raise _fail(round_no, None, "a round needs a roll and bids for every player, and choices as an object")
    for key in (*rolls, *bids):
        if key not in state.players:
            raise _fail(round_no, key, "is not a player in this game")
    for key in choices:
        if key not in CHOICE_KEYS:
            raise _fail(round_no, None, f"{key!r} is not a choice ({', '.join(CHOICE_KEYS)})")
    # null values, and a declined Lawyer set to false, count as absent
    choices = {k: v for k, v in choices.items() if v is not None and not (k == "lawyer_decline" and v is False)}
    exchange = choices.get("speakeasy")
    if isinstance(exchange, Mapping) and not (exchange.get("give") or exchange.get("take")):
        del choices["speakeasy"]  # both lists empty or missing: no exchange

    try:
        for player in state.players:
            if player not in rolls:
                raise _fail(round_no, player, "has no roll")
            state = apply(state, SubmitRoll(player, _roll_of(state, round_no, player, rolls[player])))
        for player in state.players:
            if player not in bids:
                raise _fail(round_no, player, "has no bid")
            state = apply(state, SubmitBids(player, _bids_of(round_no, player, bids[player])))
        used: set[str] = set()
        while state.phase is Phase.RESOLVING:
            decision = pending_decision(state)
            assert decision is not None
            player = state.players[decision.seat]
            state = apply(state, _decide(decision, player, choices, used, round_no))
    except IllegalAction as error:
        raise _fail(round_no, error.player, error.reason) from None
    for key in choices:
        if key == "investigator_take" and key not in used:
            _check_automatic_take(state, choices[key], round_no)
        elif key not in used:
            owner = _choice_owner(state, key)
            raise _fail(round_no, owner, f"the choice {key!r} has no occasion this round")
    return state


def _check_automatic_take(state: GameState, color: Any, round_no: int) -> None:
    """``investigator_take`` may name the only color on the Investigator, which the engine
    takes by itself; anything else has no occasion."""
    result = state.history[-1]
    taken = [e for e in result.effects if e.kind == "investigator_take"]
    holder = state.players[state.holder] if state.holder is not None else None
    if not taken:
        raise _fail(round_no, holder, "the choice 'investigator_take' has no occasion this round")
    if taken[0].color != color:
        raise _fail(round_no, holder, f"there is no {color} die on the Investigator (only {taken[0].color})")


def _choice_owner(state: GameState, key: str) -> str | None:
    """The player a choice would belong to in the round just played, for error messages."""
    result = state.history[-1]
    token = {"speakeasy": 1, "streets": 2, "investigator_color": 3}.get(key)
    seat = result.winners[token] if token is not None else state.holder
    return None if seat is None else state.players[seat]


def _decide(decision: Decision, player: str, choices: Mapping[str, Any], used: set[str], round_no: int) -> Action:
    """The action that a round's ``choices`` give for the decision at hand."""
    kind = decision.kind
    if kind == "speakeasy":
        exchange = choices.get("speakeasy")
        if exchange is None:
            return ExchangeAtSpeakeasy(player)
        used.add("speakeasy")
        if not isinstance(exchange, Mapping):
            raise _fail(round_no, player, 'speakeasy must be {"give": [colors], "take": [colors]}')
        give, take = exchange.get("give") or [], exchange.get("take") or []
        if not isinstance(give, list) or not isinstance(take, list):
            raise _fail(round_no, player, "the Speakeasy exchange gives and takes lists of colors")
        return ExchangeAtSpeakeasy(player, tuple(give), tuple(take))
    if kind == "streets":
        color = choices.get("streets")
        if color is not None:
            used.add("streets")
        return PlaceOnStreets(player, color)
    if kind == "investigator_color":
        if "investigator_color" not in choices:
            raise _fail(round_no, player, "investigator_color is required: name the color to put on the Investigator")
        used.add("investigator_color")
        return ChooseInvestigatorColor(player, choices["investigator_color"])
    if kind == "investigator_take":
        if choices.get("lawyer_decline") is True:
            used.add("lawyer_decline")
            return TakeFromInvestigator(player, None)
        if "lawyer_decline" in choices:
            raise _fail(round_no, player, "lawyer_decline must be true or false")
        color = choices.get("investigator_take")
        if color is None and len(decision.options) == 1:
            return TakeFromInvestigator(player, decision.options[0])  # the only color there is
        if color is None:
            raise _fail(round_no, player, "investigator_take is required: name the color to take off the Investigator")
        used.add("investigator_take")
        return TakeFromInvestigator(player, color)
    raise AssertionError(kind)


def play(doc: Any) -> GameState:
    """Play a whole replay document; the state after its last round."""
    state = setup(doc)
    for number, round_doc in enumerate(doc.get("rounds", []), start=1):
        state = play_round(state, round_doc, number)
    return state


def state_json(state: GameState) -> dict[str, Any]:
    """The state in the replay contract's output shape."""
    names = state.players

    def name(seat: int | None) -> str | None:
        return None if seat is None else names[seat]

    return {
        "round": state.round,
        "finished": state.finished,
        "winners": [names[s] for s in state.winners],
        "players": {
            player: {"stash": state.stashes[seat].as_dict(), "hand": sorted(state.hands[seat])}
            for seat, player in enumerate(names)
        },
        "tokens": tokens_json(state),
        "favor_deck_size": len(state.deck),
        "favor_discard_size": len(state.discard),
        "special_stack_size": state.special,
        "history": [
            {
                "round": result.round,
                "scores": {token: {names[s]: score for s, score in result.scores[i]} for i, token in enumerate(TOKENS)},
                "winners": {token: name(result.winners[i]) for i, token in enumerate(TOKENS)},
            }
            for result in state.history
        ],
    }


def export(
    players: Iterable[str],
    seed: int,
    actions: Iterable[Action],
    *,
    hand_size: int = TUTORIAL_HAND_SIZE,
    favor_deck: list[int] | None = None,
) -> dict[str, Any]:
    """A replay document for a game played from these player actions (complete rounds only).

    Host adjustments have no place in the replay format; a game that used them exports the
    rounds the players played, which replay to the same state only if no adjustment mattered.
    """
    doc: dict[str, Any] = {"players": list(players), "seed": seed, "hand_size": hand_size, "rounds": []}
    if favor_deck is not None:
        doc["favor_deck"] = favor_deck
    current: dict[str, Any] = {"roll": {}, "bids": {}, "choices": {}}
    for action in actions:
        if isinstance(action, SubmitRoll):
            if current["bids"] and len(current["bids"]) == len(doc["players"]):
                doc["rounds"].append(current)
                current = {"roll": {}, "bids": {}, "choices": {}}
            current["roll"][action.player] = {c: list(f) for c, f in zip(COLORS, action.roll) if f}
        elif isinstance(action, SubmitBids):
            current["bids"][action.player] = [{"symbol": b.symbol, "favor": b.favor} for b in action.bids]
        elif isinstance(action, ExchangeAtSpeakeasy):
            if action.give:
                current["choices"]["speakeasy"] = {"give": list(action.give), "take": list(action.take)}
        elif isinstance(action, PlaceOnStreets):
            if action.color is not None:
                current["choices"]["streets"] = action.color
        elif isinstance(action, ChooseInvestigatorColor):
            current["choices"]["investigator_color"] = action.color
        elif isinstance(action, TakeFromInvestigator):
            if action.color is None:
                current["choices"]["lawyer_decline"] = True
            else:
                current["choices"]["investigator_take"] = action.color
    if current["bids"] and len(current["bids"]) == len(doc["players"]):
        doc["rounds"].append(current)
    return doc
