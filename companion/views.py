"""What each viewer may see of a game: the one place that strips secrets.

A seat sees its own favor hand and its own sealed bid; the table screen and spectators see only
what lies face up on the table. Nobody ever sees the order of the favor deck or the game's seed
(which would give the order of every reshuffle). Before the reveal, another seat's bid shows only
as "submitted"; from the reveal on it is public, as the cards are on the table.

Every page, API answer and event the web sends is built from :func:`view`, so this module is
where a leak would have to be, and where the tests look for one.
"""

from __future__ import annotations

from typing import Any

from .dice import COLORS, TOKENS
from .engine import awaiting, bids_required, givable, pending_decision
from .state import Effect, GameState, Phase, RoundResult

TABLE = "table"
SPECTATOR = "spectator"

Viewer = int | str  # a seat number, TABLE or SPECTATOR


def view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    """The part of ``state`` that ``viewer`` may see, as plain JSON-ready data."""
    seat = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
    if seat is None and viewer not in (TABLE, SPECTATOR):
        raise ValueError(f"unknown viewer {viewer!r}")
    names = state.players

    def name(s: int | None) -> str | None:
        return None if s is None else names[s]

    waiting = awaiting(state)
    players = []
    for s, player in enumerate(names):
        players.append(
            {
                "name": player,
                "seat": s,
                "character": state.characters[s],
                "stash": state.stashes[s].as_dict(),
                "dice": state.stashes[s].total,
                "hand_size": len(state.hands[s]),
                # A rolled die lies face up on the table for all to see.
                "roll": state.rolls[s].as_dict() if state.rolls[s] is not None else None,
                "rolled": state.rolls[s] is not None,
                "submitted": state.bids[s] is not None,
                "waiting": s in waiting,
            }
        )
    decision = pending_decision(state)
    out: dict[str, Any] = {
        "viewer": "seat" if seat is not None else viewer,
        "players": players,
        "round": state.round + (0 if state.finished else 1),
        "rounds_played": state.round,
        "phase": state.phase.value,
        "two_player": state.two_player,
        "tokens": tokens_json(state),
        "favor_deck_size": len(state.deck),
        "favor_discard_size": len(state.discard),
        "special_stack_size": state.special,
        "waiting_for": [names[s] for s in waiting],
        "decision": None
        if decision is None
        else {"kind": decision.kind, "player": names[decision.seat]},
        "reveal": round_json(state, state.reveal) if state.reveal is not None else None,
        "last_round": round_json(state, state.history[-1]) if state.history else None,
        "finished": state.finished,
        "ended_by_host": state.ended_by_host,
        "winners": [names[s] for s in state.winners],
    }
    if seat is not None:
        out["me"] = _own(state, seat, decision)
    return out


def tokens_json(state: GameState) -> dict[str, Any]:
    """The four tokens as they lie on the table: who controls (or holds) each, the dice on it."""

    def name(s: int | None) -> str | None:
        return None if s is None else state.players[s]

    return {
        "lawyer": {"controller": name(state.lawyer)},
        "speakeasy": {"controller": name(state.speakeasy), "dice": state.speakeasy_dice.as_dict()},
        "streets": {"controller": name(state.streets), "dice": state.streets_dice.as_dict()},
        "investigator": {"holder": name(state.holder), "dice": state.investigator_dice.as_dict()},
    }


def _own(state: GameState, seat: int, decision) -> dict[str, Any]:
    """What only ``seat`` may see: their hand, their sealed bid, and what they may do now."""
    bids = state.bids[seat]
    me: dict[str, Any] = {
        "name": state.players[seat],
        "seat": seat,
        "hand": list(state.hands[seat]),
        "bids": None if bids is None else [{"symbol": b.symbol, "favor": b.favor} for b in bids],
        "bids_required": bids_required(state, seat) if state.phase is Phase.BIDDING else 0,
        "givable": givable(state, seat).as_dict(),
        "decision": None,
    }
    if decision is not None and decision.seat == seat:
        me["decision"] = {
            "kind": decision.kind,
            "options": list(decision.options),
            "take_options": list(decision.take_options),
            "can_decline": decision.can_decline,
            "speakeasy": state.speakeasy_dice.as_dict(),
            "investigator": state.investigator_dice.as_dict(),
        }
    return me


def round_json(state: GameState, result: RoundResult) -> dict[str, Any]:
    """A revealed round: every bid and favor, the scores per token, ties and winners, effects."""
    names = state.players
    tokens = {}
    for i, token in enumerate(TOKENS):
        tokens[token] = {
            "scores": [{"player": names[s], "score": score} for s, score in result.scores[i]],
            "winner": None if result.winners[i] is None else names[result.winners[i]],
            "tied": [names[s] for s in result.ties[i]],
            "won_on_streets_tie_break": bool(result.ties[i]) and result.winners[i] is not None,
        }
    return {
        "round": result.round,
        "bids": {
            names[s]: [{"symbol": b.symbol, "favor": b.favor} for b in bids] for s, bids in enumerate(result.bids)
        },
        "rolls": {names[s]: roll.as_dict() for s, roll in enumerate(result.rolls)},
        "tokens": tokens,
        "streets_controller": None if result.streets_controller is None else names[result.streets_controller],
        "effects": [effect_json(state, e) for e in result.effects],
        "instructions": instructions(state, result),
    }


def effect_json(state: GameState, effect: Effect) -> dict[str, Any]:
    names = state.players
    return {
        "kind": effect.kind,
        "player": names[effect.seat],
        "token": effect.token,
        "color": effect.color,
        "count": effect.count,
        "target": None if effect.target is None else names[effect.target],
        "give": list(effect.give),
        "take": list(effect.take),
    }


_TOKEN_TITLE = {"lawyer": "Lawyer", "speakeasy": "Speakeasy", "streets": "Streets", "investigator": "Investigator"}


def _dice_words(count: int, color: str) -> str:
    return f"{count} {color} {'die' if count == 1 else 'dice'}"


def instructions(state: GameState, result: RoundResult) -> list[str]:
    """What the players must do on the physical table after this round, one sentence each."""
    names = state.players
    lines = []
    for e in result.effects:
        who = names[e.seat]
        if e.kind == "control":
            lines.append(f"{who}: take the {_TOKEN_TITLE[e.token]} token.")
        elif e.kind == "lawyer_favor":
            lines.append(f"{who}: take a +4 favor card from the special stack instead of one draw.")
        elif e.kind == "speakeasy_exchange" and e.count:
            gave = ", ".join(_dice_words(e.give.count(c), c) for c in COLORS if c in e.give)
            took = ", ".join(_dice_words(e.take.count(c), c) for c in COLORS if c in e.take)
            lines.append(f"{who}: put {gave} on the Speakeasy and take {took} from it.")
        elif e.kind == "speakeasy_exchange":
            lines.append(f"{who}: no exchange at the Speakeasy.")
        elif e.kind == "streets_place":
            lines.append(f"{who}: put 1 {e.color} die on the Streets.")
        elif e.kind == "investigator_pass":
            lines.append(f"{who}: pass the Investigator to {names[e.target]}.")
        elif e.kind == "investigator_place":
            lines.append(f"{who}: put your {_dice_words(e.count, e.color)} on the Investigator.")
        elif e.kind == "investigator_nothing":
            lines.append(f"{who}: you have no dice you may put on the Investigator.")
        elif e.kind == "investigator_take":
            lines.append(f"{who}: take 1 {e.color} die off the Investigator into your stash.")
        elif e.kind == "lawyer_decline":
            lines.append(f"{who}: the Lawyer keeps you from taking a die off the Investigator.")
    return lines
