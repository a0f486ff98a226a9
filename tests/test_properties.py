"""Properties that hold in every game: checked over thousands of random legal games.

Games are played by the bots (random and greedy, mixed), with random host adjustments thrown in,
and every property is checked after every action.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from typing import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.actions import (
    ChooseInvestigatorColor,
    ExchangeAtSpeakeasy,
    GiveFavor,
    MoveDie,
    PlaceOnStreets,
    SubmitBids,
    SubmitRoll,
    TakeFavor,
    TakeFromInvestigator,
    stash_place,
)
from companion.bots import GreedyBot, RandomBot, seat_view
from companion.dice import COLORS, SYMBOLS, Dice, Roll
from companion.engine import (
    IllegalAction,
    apply,
    awaiting,
    dice_in_play,
    favor_cards,
    givable,
    new_game,
    pending_decision,
)
from companion.favors import TOTAL_CARDS
from companion.log import EventLog, GameSetup
from companion.state import Bid, GameState, Phase
from companion.views import view

NAMES = ("Ann", "Bob", "Cat", "Dan")
ROUND_CAP = 60
FAST = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=2, max_value=4),
    st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
    st.floats(min_value=0.0, max_value=0.1),
)


def _host_adjustment(state: GameState, rng: random.Random):
    """A legal host adjustment, chosen at random (None when the one drawn is not possible)."""
    kind = rng.choice(["move", "give", "take"])
    if kind == "move" and state.phase is Phase.BIDDING:
        places = ["box", "speakeasy", "streets", "investigator"] + [stash_place(p) for p in state.players]
        source, target = rng.sample(places, 2)
        held = _place_dice(state, source)
        if held.total:
            return MoveDie(rng.choice(held.colors()), source, target)
    if kind == "give":
        player = rng.choice(state.players)
        if state.special and rng.random() < 0.5:
            return GiveFavor(player, "special")
        if state.deck or state.discard:
            return GiveFavor(player, "deck")
    if kind == "take":
        seat = rng.randrange(len(state.players))
        sealed = [b.favor for b in state.bids[seat] or ()]
        free = list(state.hands[seat])
        for value in sealed:
            if value in free:
                free.remove(value)
        if free:
            value = rng.choice(free)
            return TakeFavor(state.players[seat], value, "special" if value == 4 else "discard")
    return None


def _place_dice(state: GameState, place: str) -> Dice:
    if place.startswith("stash:"):
        return state.stashes[state.players.index(place[6:])]
    return state.box if place == "box" else state.token_dice(place)


def play(seed: int, players: int, kinds: list[str], host_rate: float) -> Iterator[tuple[GameState, object, GameState]]:
    """Yield (state before, action, state after) for every action of one bot game."""
    rng = random.Random(seed)
    bots = [RandomBot() if kind == "random" else GreedyBot() for kind in kinds[:players]]
    state = new_game(NAMES[:players], seed)
    while not state.finished and state.round < ROUND_CAP:
        action = _host_adjustment(state, rng) if rng.random() < host_rate else None
        if action is None:
            seats = awaiting(state)
            if state.phase is Phase.BIDDING and any(r is None for r in state.rolls):
                seats = tuple(s for s, r in enumerate(state.rolls) if r is None)  # all roll before bidding
            seat = seats[0]
            action = bots[seat].act(seat_view(state, seat), rng)
        after = apply(state, action)
        yield state, action, after
        state = after


# Accounting ------------------------------------------------------------------------------------


@settings(max_examples=1000, **FAST)
@given(games)
def test_all_27_dice_and_all_42_favor_cards_are_accounted_for_after_every_action(game):
    for _, _, state in play(*game):
        assert dice_in_play(state) == Dice(9, 9, 9)
        places = (*state.stashes, state.box, state.speakeasy_dice, state.streets_dice, state.investigator_dice)
        assert all(min(dice) >= 0 for dice in places)
        assert favor_cards(state) == TOTAL_CARDS
        assert 0 <= state.special <= 6


@settings(max_examples=200, **FAST)
@given(games)
def test_a_round_ends_with_everything_reset_and_winners_have_empty_stashes(game):
    state = None
    for before, _, state in play(*game):
        if state.round > before.round:
            assert state.rolls == (None,) * len(state.players) and state.bids == (None,) * len(state.players)
            assert state.played == ((),) * len(state.players) and state.reveal is None
            assert all(sum(d) == 0 for d in state.received)
            assert state.history[-1].round == state.round
        for seat in state.winners:
            assert state.stashes[seat].total == 0
        if state.phase is Phase.RESOLVING:
            assert pending_decision(state) is not None
    if state is not None and state.finished:
        assert state.winners == tuple(s for s, d in enumerate(state.stashes) if d.total == 0)


# Views -----------------------------------------------------------------------------------------


def _disguised(state: GameState, seat: int) -> GameState:
    """``state`` with everything ``seat`` must not see changed: other hands (same sizes), other
    sealed bids before the reveal, the deck's order and the seed."""
    hands = tuple(h if s == seat else tuple((v + 1) % 5 for v in h) for s, h in enumerate(state.hands))
    bids = state.bids
    if state.phase is Phase.BIDDING:
        bids = tuple(
            b if s == seat or b is None else tuple(Bid(SYMBOLS[(SYMBOLS.index(x.symbol) + 1) % 4], 9) for x in b)
            for s, b in enumerate(state.bids)
        )
    return state.evolve(hands=hands, bids=bids, deck=tuple(reversed(state.deck)), seed=state.seed + 1)


@settings(max_examples=60, **FAST)
@given(games)
def test_a_seats_view_never_holds_another_seats_hand_or_unrevealed_bid(game):
    for _, _, state in play(*game):
        for seat in range(len(state.players)):
            seen = json.dumps(view(state, seat), sort_keys=True)
            assert seen == json.dumps(view(_disguised(state, seat), seat), sort_keys=True)


@settings(max_examples=60, **FAST)
@given(games)
def test_a_bots_view_holds_the_same_facts_as_the_phones_view(game):
    from companion.bots import seat_view_from_json

    for _, _, state in play(*game):
        for seat in range(len(state.players)):
            assert seat_view(state, seat) == seat_view_from_json(json.loads(json.dumps(view(state, seat))))


# Replay from the log ---------------------------------------------------------------------------


@settings(max_examples=15, **FAST)
@given(games)
def test_replaying_the_event_log_gives_the_same_state(game):
    directory = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=directory) as folder:
        log = EventLog(os.path.join(folder, "games.sqlite"))
        seed, players = game[0], game[1]
        game_id = log.create_game(GameSetup(NAMES[:players], seed, (3,) * players))
        state = None
        for seq, (_, action, state) in enumerate(play(*game), start=1):
            log.append(game_id, seq, action)
        log.close()
        rebuilt, count = EventLog(os.path.join(folder, "games.sqlite")).rebuild(game_id)
        assert count == seq and rebuilt == state


# Refusals --------------------------------------------------------------------------------------


def illegal_actions(state: GameState, rng: random.Random) -> list:
    """Actions the rules refuse in ``state``: wrong player, wrong phase, bids on symbols not
    rolled, favors not in hand, rolls that do not match the stash, exchanges of 4, colors the
    player may not give, and players who are not in the game."""
    names = state.players
    asked = awaiting(state)
    idle = [s for s in range(len(names)) if s not in asked]
    out: list = [SubmitRoll("Zed", Roll()), PlaceOnStreets("Zed", None)]
    if state.phase is Phase.BIDDING:
        out += [PlaceOnStreets(names[0], None), ExchangeAtSpeakeasy(names[0]), TakeFromInvestigator(names[0], None)]
        for seat, name in enumerate(names):
            stash, roll = state.stashes[seat], state.rolls[seat]
            if state.bids[seat] is not None:
                out += [SubmitRoll(name, roll), SubmitBids(name, state.bids[seat])]
                continue
            color = rng.choice(COLORS)
            wrong = Roll(*(tuple(["finger"] * (n + (c == color))) for c, n in zip(COLORS, stash)))
            out.append(SubmitRoll(name, wrong))
            if roll is None:
                out.append(SubmitBids(name, (Bid("finger", 1),)))
                continue
            hand = state.hands[seat]
            showing = roll.symbols()
            missing = [s for s in SYMBOLS if s not in showing]
            if missing and hand:
                out.append(SubmitBids(name, (Bid(rng.choice(missing), hand[0]),) * 1))
            absent = [v for v in range(5) if v not in hand]
            if absent and showing:
                bids = [Bid(s, absent[0]) for s in sorted(showing)[: max(1, min(2 if len(names) == 2 else 1, len(showing)))]]
                out.append(SubmitBids(name, tuple(bids)))
            if showing:
                symbol = sorted(showing)[0]
                out.append(SubmitBids(name, (Bid(symbol, hand[0] if hand else None),) * 2))
    else:
        decision = pending_decision(state)
        out += [SubmitRoll(names[s], Roll()) for s in range(len(names))]
        out += [SubmitBids(names[0], ())]
        for seat in idle:
            out += [
                ExchangeAtSpeakeasy(names[seat]),
                PlaceOnStreets(names[seat], None),
                ChooseInvestigatorColor(names[seat], "red"),
                TakeFromInvestigator(names[seat], "red"),
            ]
        if decision is not None:
            name, may_give = names[decision.seat], givable(state, decision.seat)
            barred = [c for c in COLORS if may_give.of(c) == 0]
            if decision.kind == "speakeasy":
                out.append(ExchangeAtSpeakeasy(name, ("white",) * 4, ("red",) * 4))
                out.append(ExchangeAtSpeakeasy(name, ("white",), ()))
                over = [c for c in COLORS if state.speakeasy_dice.of(c) == 0]
                if over and may_give.total:
                    out.append(ExchangeAtSpeakeasy(name, (may_give.colors()[0],), (over[0],)))
                for color in barred:
                    if state.speakeasy_dice.total:
                        out.append(ExchangeAtSpeakeasy(name, (color,), (state.speakeasy_dice.colors()[0],)))
            elif decision.kind == "streets":
                out += [PlaceOnStreets(name, c) for c in barred] + [PlaceOnStreets(name, "green")]
            elif decision.kind == "investigator_color":
                out += [ChooseInvestigatorColor(name, c) for c in barred]
            else:
                out += [TakeFromInvestigator(name, c) for c in COLORS if state.investigator_dice.of(c) == 0]
                if not decision.can_decline:
                    out.append(TakeFromInvestigator(name, None))
            out.append(MoveDie("red", "box", "streets"))  # not while a round resolves
    return out


@settings(max_examples=200, **FAST)
@given(games)
def test_the_engine_refuses_every_illegal_action_and_its_state_does_not_change(game):
    rng = random.Random(game[0])
    for state, _, _ in play(*game):
        for action in illegal_actions(state, rng):
            try:
                apply(state, action)
            except IllegalAction as error:
                assert error.reason and "\n" not in error.reason
            else:
                raise AssertionError(f"the engine accepted {action!r}")


@settings(max_examples=30, **FAST)
@given(games)
def test_every_action_after_the_game_has_ended_is_refused(game):
    state = None
    for _, _, state in play(*game):
        pass
    if state is None or not state.finished:
        return
    rng = random.Random(1)
    for action in [SubmitRoll(state.players[0], Roll()), GiveFavor(state.players[0], "special")] + illegal_actions(
        state, rng
    ):
        try:
            apply(state, action)
        except IllegalAction as error:
            assert "ended" in error.reason
        else:
            raise AssertionError(f"the engine accepted {action!r} after the end")


@settings(max_examples=500, **FAST)
@given(
    st.integers(min_value=2, max_value=4),
    st.lists(st.sampled_from(SYMBOLS), min_size=6, max_size=6),
    st.lists(st.integers(min_value=0, max_value=4), max_size=3),
    st.lists(
        st.tuples(
            st.sampled_from(SYMBOLS + ("dagger",)),
            st.sampled_from([0, 1, 2, 3, 4, None, True, 2.0]),
        ),
        max_size=3,
    ),
)
def test_a_bid_is_accepted_exactly_when_the_rules_allow_it(players, faces, hand, bids):
    """The engine judges the usual bid at once and any other rule by rule: both must say what the
    rules say (a symbol the roll shows, on different symbols, a card in hand with each bid)."""
    names = NAMES[:players]
    state = new_game(names, 1).evolve(hands=(tuple(sorted(hand)),) * players)
    roll = Roll(tuple(faces[:2]), tuple(faces[2:4]), tuple(faces[4:]))
    state = apply(state, SubmitRoll(names[0], roll))
    symbols = [symbol for symbol, _ in bids]
    left, cards_ok = list(hand), True
    for _, favor in bids:
        if favor is None:
            continue
        if favor in left and not isinstance(favor, bool):
            left.remove(favor)
        else:
            cards_ok = False
    required = min(2 if players == 2 else 1, len(set(faces)))
    legal = (
        len(bids) == required
        and len(set(symbols)) == len(symbols)
        and all(symbol in faces for symbol in symbols)
        and cards_ok
        and sum(favor is None for _, favor in bids) <= max(0, len(bids) - len(hand))
    )
    action = SubmitBids(names[0], tuple(Bid(symbol, favor) for symbol, favor in bids))
    try:
        after = apply(state, action)
    except IllegalAction:
        assert not legal, action
    else:
        assert legal, action
        assert after.bids[0] == action.bids and after.hands == state.hands
