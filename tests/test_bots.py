"""Bots: honest views, legal and sensible play; the simulate command."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from companion.actions import ChooseInvestigatorColor, ExchangeAtSpeakeasy, PlaceOnStreets, SubmitBids, TakeFromInvestigator
from companion.bots import GreedyBot, RandomBot, SeatView, make_bot, seat_view
from companion.dice import Dice, Roll
from companion.engine import Decision, apply, new_game
from companion.simulate import play_game, simulate

ROOT = Path(__file__).resolve().parent.parent


def _view(**changes) -> SeatView:
    state = new_game(("Ann", "Bob", "Cat"), 1)
    return seat_view(state, 0)._replace(**changes)


def test_a_seat_view_holds_no_other_seats_hand_or_bid():
    fields = set(SeatView._fields)
    assert "hands" not in fields and "bids" not in fields and "deck" not in fields and "seed" not in fields
    state = new_game(("Ann", "Bob", "Cat"), 1)
    assert seat_view(state, 1).hand == state.hands[1]


def test_greedy_bot_consolidates_to_one_color_at_the_speakeasy():
    view = _view(
        stashes=(Dice(1, 4, 1), Dice(2, 2, 2), Dice(2, 2, 2)),
        givable=Dice(1, 4, 1),
        speakeasy_dice=Dice(1, 2, 0),
        phase="resolving",
        decision=Decision("speakeasy", 0, ("white", "red", "blue"), ("white", "red")),
    )
    action = GreedyBot().act(view, random.Random(0))
    assert isinstance(action, ExchangeAtSpeakeasy)
    assert sorted(action.give) == ["blue", "white"] and action.take == ("red", "red")


def test_greedy_bot_puts_its_most_numerous_givable_color_on_the_investigator():
    view = _view(
        stashes=(Dice(1, 4, 2), Dice(2, 2, 2), Dice(2, 2, 2)),
        givable=Dice(1, 1, 2),
        phase="resolving",
        decision=Decision("investigator_color", 0, ("white", "red", "blue")),
    )
    assert GreedyBot().act(view, random.Random(0)) == ChooseInvestigatorColor("Ann", "blue")


def test_greedy_bot_declines_with_the_lawyer_and_otherwise_takes_its_main_color():
    decline = _view(phase="resolving", decision=Decision("investigator_take", 0, ("white", "red"), can_decline=True))
    assert GreedyBot().act(decline, random.Random(0)) == TakeFromInvestigator("Ann", None)
    take = _view(
        stashes=(Dice(0, 3, 1), Dice(2, 2, 2), Dice(2, 2, 2)),
        phase="resolving",
        decision=Decision("investigator_take", 0, ("white", "red")),
    )
    assert GreedyBot().act(take, random.Random(0)) == TakeFromInvestigator("Ann", "red")


def test_greedy_bot_sheds_its_rarest_color_on_the_streets():
    view = _view(
        stashes=(Dice(3, 1, 2), Dice(2, 2, 2), Dice(2, 2, 2)),
        phase="resolving",
        decision=Decision("streets", 0, ("white", "red", "blue")),
    )
    assert GreedyBot().act(view, random.Random(0)) == PlaceOnStreets("Ann", "red")


def test_greedy_bot_bids_where_it_can_win_with_the_cheapest_card_that_wins():
    state = new_game(("Ann", "Bob", "Cat"), 1).evolve(hands=((0, 1, 3), (1, 1, 1), (1, 1, 1)), holder=1)
    rolls = (
        Roll(("finger", "finger"), ("finger", "gun"), ("gavel", "gavel")),
        Roll(("gun", "gun"), ("gun", "gun"), ("cocktail", "cocktail")),
        Roll(("gun", "gun"), ("gun", "cocktail"), ("cocktail", "cocktail")),
    )
    state = state.evolve(rolls=rolls)
    action = GreedyBot().act(seat_view(state, 0), random.Random(0))
    assert isinstance(action, SubmitBids)
    # 3 fingers: nobody else shows one, so a 0 wins the Investigator Bob holds.
    assert [(b.symbol, b.favor) for b in action.bids] == [("finger", 0)]


def test_bots_play_whole_games_of_legal_actions():
    for seed in range(20):
        bots = [RandomBot(), GreedyBot(), make_bot("greedy"), make_bot("random")][: 2 + seed % 3]
        outcome = play_game(bots, seed)
        state = new_game(outcome.state.players, outcome.state.seed)
        for action in outcome.actions:
            state = apply(state, action)
        assert state == outcome.state and (state.finished or outcome.capped)


def test_greedy_bots_beat_random_bots():
    tally = simulate(300, 4, 7, ("greedy", "random"))
    assert tally.bot_wins["greedy"] / tally.bot_seats["greedy"] > tally.bot_wins["random"] / tally.bot_seats["random"]


def test_simulation_is_deterministic_for_a_seed():
    first, second = simulate(40, 3, 5, ("random", "greedy")), simulate(40, 3, 5, ("random", "greedy"))
    assert (first.seat_wins, first.bot_wins, first.rounds) == (second.seat_wins, second.bot_wins, second.rounds)
    assert simulate(40, 3, 6, ("random", "greedy")).rounds != first.rounds


def test_games_that_hit_the_round_cap_are_stopped_and_reported():
    tally = simulate(10, 4, 1, ("random",), round_cap=2)
    assert tally.capped == 10 and tally.rounds == 20
    assert "round cap: 10" in tally.report()


def test_the_simulate_command_prints_win_rates_rounds_and_speed():
    run = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--games", "30", "--players", "3", "--seed", "2", "--bots", "random,greedy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    for words in ("win rate by seat", "win rate by bot", "greedy", "random", "mean rounds", "games per second", "round cap"):
        assert words in run.stdout


def test_simulations_play_the_same_games_as_ever():
    """Pinned results: making the engine or the bots faster must not change a single game."""
    pinned = {
        (2, ("random", "greedy")): (2234, [97, 103], {"random": 49, "greedy": 151}),
        (3, ("random",)): (3050, [60, 60, 80], {"random": 200}),
        (4, ("greedy",)): (2643, [59, 51, 44, 53], {"greedy": 207}),
        (4, ("random", "greedy")): (2191, [54, 44, 46, 56], {"random": 48, "greedy": 152}),
    }
    for (players, bots), results in pinned.items():
        tally = simulate(200, players, 2026, bots)
        assert (tally.rounds, tally.seat_wins, tally.bot_wins) == results
