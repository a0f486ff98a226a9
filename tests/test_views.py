"""What each viewer sees: a seat its own hand and bid, nobody the deck, the seed or a sealed bid."""

from __future__ import annotations

import json

import pytest

from companion.actions import SubmitBids, SubmitRoll
from companion.dice import Roll
from companion.engine import apply, new_game
from companion.state import Bid
from companion.views import SPECTATOR, TABLE, view

PLAYERS = ("Ann", "Bob", "Cat")
GUNS = Roll(("finger", "gavel"), ("gun", "gun"), ("cocktail", "finger"))
FINGERS = Roll(("finger", "finger"), ("finger", "gun"), ("cocktail", "gavel"))
COCKTAILS = Roll(("gavel", "gavel"), ("cocktail", "cocktail"), ("cocktail", "gun"))


def _game():
    state = new_game(PLAYERS, 3).evolve(hands=((0, 1, 3), (1, 2, 2), (0, 0, 3)))
    for name, roll in zip(PLAYERS, (GUNS, FINGERS, COCKTAILS)):
        state = apply(state, SubmitRoll(name, roll))
    return state


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    seen = view(_game(), 1)
    assert seen["me"]["hand"] == [1, 2, 2]
    assert [p["hand_size"] for p in seen["players"]] == [3, 3, 3]
    assert all("hand" not in p for p in seen["players"])


def test_another_seats_sealed_bid_shows_only_as_submitted_until_the_reveal():
    state = apply(_game(), SubmitBids("Ann", (Bid("gun", 3),)))
    bob = view(state, 1)
    assert bob["players"][0]["submitted"] is True and bob["me"]["bids"] is None
    assert '"gun", "favor": 3' not in json.dumps(bob) and bob["reveal"] is None
    assert view(state, 0)["me"]["bids"] == [{"symbol": "gun", "favor": 3}]
    state = apply(state, SubmitBids("Bob", (Bid("finger", 2),)))
    state = apply(state, SubmitBids("Cat", (Bid("cocktail", 0),)))
    revealed = view(state, 1)["last_round"] or view(state, 1)["reveal"]
    assert revealed["bids"]["Ann"] == [{"symbol": "gun", "favor": 3}]


@pytest.mark.parametrize("viewer", [TABLE, SPECTATOR])
def test_the_table_and_spectators_see_no_hand_at_all(viewer):
    seen = view(_game(), viewer)
    assert "me" not in seen
    assert all("hand" not in p for p in seen["players"])


@pytest.mark.parametrize("viewer", [0, 1, 2, TABLE])
def test_nobody_sees_the_deck_order_or_the_seed(viewer):
    state = _game()
    seen = view(state, viewer)
    assert "seed" not in json.dumps(seen) and "deck" not in {k for k in seen}
    assert seen["favor_deck_size"] == len(state.deck)


def test_rolled_dice_lie_face_up_for_everyone():
    assert view(_game(), TABLE)["players"][0]["roll"] == GUNS.as_dict()


def test_an_unknown_viewer_is_refused():
    with pytest.raises(ValueError):
        view(_game(), "Ann")
