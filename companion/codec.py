"""Actions as plain JSON and back: the form they take in the event log and on the wire."""

from __future__ import annotations

from typing import Any

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
from .dice import Roll
from .state import Bid

_KINDS: dict[str, type] = {
    "roll": SubmitRoll,
    "bid": SubmitBids,
    "speakeasy": ExchangeAtSpeakeasy,
    "streets": PlaceOnStreets,
    "investigator_color": ChooseInvestigatorColor,
    "investigator_take": TakeFromInvestigator,
    "move_die": MoveDie,
    "give_favor": GiveFavor,
    "take_favor": TakeFavor,
    "end_game": EndGame,
}
_NAMES = {cls: kind for kind, cls in _KINDS.items()}


class ActionFormatError(ValueError):
    """A JSON action that does not describe any action; the message says what is wrong."""


def action_to_json(action: Action) -> dict[str, Any]:
    kind = _NAMES[type(action)]
    if isinstance(action, SubmitRoll):
        return {"kind": kind, "player": action.player, "roll": action.roll.as_dict()}
    if isinstance(action, SubmitBids):
        return {"kind": kind, "player": action.player, "bids": [{"symbol": b.symbol, "favor": b.favor} for b in action.bids]}
    if isinstance(action, ExchangeAtSpeakeasy):
        return {"kind": kind, "player": action.player, "give": list(action.give), "take": list(action.take)}
    if isinstance(action, EndGame):
        return {"kind": kind}
    out = {"kind": kind}
    for field in action.__slots__:  # type: ignore[attr-defined]
        out[field] = getattr(action, field)
    return out


def action_from_json(data: Any) -> Action:
    """The action a JSON object describes (ActionFormatError when it describes none)."""
    if not isinstance(data, dict):
        raise ActionFormatError("an action is a JSON object with a kind")
    kind = data.get("kind")
    cls = _KINDS.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ActionFormatError(f"{kind!r} is not a kind of action ({', '.join(_KINDS)})")
    try:
        if cls is SubmitRoll:
            roll = data["roll"]
            if not isinstance(roll, dict) or not all(isinstance(v, list) for v in roll.values()):
                raise ActionFormatError("a roll maps each color to a list of symbols")
            return SubmitRoll(data["player"], Roll.from_dict(roll))
        if cls is SubmitBids:
            bids = data["bids"]
            if not isinstance(bids, list) or not all(isinstance(b, dict) for b in bids):
                raise ActionFormatError("bids is a list of {symbol, favor}")
            return SubmitBids(data["player"], tuple(Bid(b.get("symbol"), b.get("favor")) for b in bids))
        if cls is ExchangeAtSpeakeasy:
            give, take = data.get("give") or [], data.get("take") or []
            if not isinstance(give, list) or not isinstance(take, list):
                raise ActionFormatError("give and take are lists of colors")
            return ExchangeAtSpeakeasy(data["player"], tuple(give), tuple(take))
        fields = {k: v for k, v in data.items() if k != "kind"}
        return cls(**fields)
    except KeyError as missing:
        raise ActionFormatError(f"a {kind} action needs {missing.args[0]!r}") from None
    except TypeError as error:
        raise ActionFormatError(f"a {kind} action has the wrong fields: {error}") from None
