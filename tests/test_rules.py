"""One example test per rule of shared/spec/rules.md, each named after the rule it checks.

States are set up with the engine's own new_game, then changed with GameState.evolve where a
test needs a position (who controls what, what is in whose hand) that would take many rounds to
reach through play.
"""

from __future__ import annotations

import pytest

from companion.actions import (
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
from companion.characters import CHARACTERS, character
from companion.dice import COLORS, FACES, Dice, Roll
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
from companion.favors import FULL_DECK, SPECIAL_COUNT, TOTAL_CARDS
from companion.state import Bid, GameState, Phase

P3 = ("Ann", "Bob", "Cat")
ANN, BOB, CAT = 0, 1, 2
LAWYER, SPEAKEASY, STREETS, INVESTIGATOR = 0, 1, 2, 3


def R(white: str = "", red: str = "", blue: str = "") -> Roll:
    """A roll written as the symbols on top of each color's dice: R("finger gun", "gun gun", ...)."""
    return Roll(tuple(white.split()), tuple(red.split()), tuple(blue.split()))


# Rolls of a 2-2-2 stash, each showing one symbol at least twice.
GUNS = R("finger gavel", "gun gun", "cocktail finger")  # gun 2, finger 2, gavel 1, cocktail 1
FINGERS = R("finger finger", "finger gun", "cocktail gavel")  # finger 3, gun 1, cocktail 1, gavel 1
COCKTAILS = R("gavel gavel", "cocktail cocktail", "cocktail gun")  # cocktail 3, gavel 2, gun 1
GAVELS = R("gavel gavel", "gun gavel", "cocktail cocktail")  # gavel 3, cocktail 2, gun 1


def start(players: tuple[str, ...] = P3, *, hands: tuple[int, ...] = (0, 1, 2, 3), **changes) -> GameState:
    """A new game with every hand set to ``hands`` and the given fields changed."""
    state = new_game(players, 11)
    return state.evolve(hands=(tuple(sorted(hands)),) * len(players), **changes)


def roll_all(state: GameState, rolls: dict[str, Roll]) -> GameState:
    for name in state.players:
        state = apply(state, SubmitRoll(name, rolls[name]))
    return state


def play_bids(state: GameState, rolls: dict[str, Roll], bids: dict[str, list[tuple[str, int | None]]]) -> GameState:
    """Roll for everyone, then seal everyone's bids (the last one reveals the round)."""
    state = roll_all(state, rolls)
    for name in state.players:
        state = apply(state, SubmitBids(name, tuple(Bid(s, f) for s, f in bids[name])))
    return state


def refused(state: GameState, action) -> IllegalAction:
    """Apply an action that must be refused; check the refusal changes nothing and return it."""
    before = state
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert state == before
    assert info.value.reason.strip() and "\n" not in info.value.reason
    return info.value


# Components and names ------------------------------------------------------------------------


def test_each_die_shows_two_fingers_two_of_its_own_symbol_and_one_of_each_other():
    assert sorted(FACES["red"]) == sorted(["finger", "finger", "gun", "gun", "cocktail", "gavel"])
    assert sorted(FACES["blue"]) == sorted(["finger", "finger", "cocktail", "cocktail", "gun", "gavel"])
    assert sorted(FACES["white"]) == sorted(["finger", "finger", "gavel", "gavel", "gun", "cocktail"])


def test_favor_deck_has_36_cards_and_a_separate_stack_of_six_plus_four_cards():
    assert sorted(FULL_DECK) == [0] * 6 + [1] * 12 + [2] * 12 + [3] * 6
    assert SPECIAL_COUNT == 6 and TOTAL_CARDS == 42
    assert new_game(P3, 1).special == 6


# Players and seating -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [("Ann",), ("A", "B", "C", "D", "E")])
def test_a_game_has_two_to_four_players(players):
    with pytest.raises(ValueError):
        new_game(players, 1)


def test_the_player_to_your_left_is_the_next_in_seating_order_wrapping_around():
    state = new_game(P3, 1)
    assert [state.left_of(s) for s in range(3)] == [1, 2, 0]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_gives_two_dice_of_each_color_and_the_speakeasy_one_of_each_the_rest_stay_in_the_box(n):
    state = new_game([f"P{i}" for i in range(n)], 1)
    assert state.stashes == (Dice(2, 2, 2),) * n
    assert state.speakeasy_dice == Dice(1, 1, 1)
    left = 9 - 2 * n - 1
    assert state.box == Dice(left, left, left)
    assert dice_in_play(state) == Dice(9, 9, 9)


def test_starting_hands_are_dealt_one_card_at_a_time_in_seat_order():
    deck = [0, 1, 2, 3, 0, 1, 2, 3, 0]
    state = new_game(P3, 1, favor_deck=deck)
    assert state.hands == ((0, 2, 3), (0, 1, 3), (0, 1, 2))  # Ann gets cards 1, 4 and 7


def test_tutorial_deals_three_cards_and_a_character_deals_its_hand_size():
    assert [len(h) for h in new_game(P3, 1).hands] == [3, 3, 3]
    state = new_game(P3, 1, hand_sizes=(3, 5, 4), characters=("Franky", "Silvio", None))
    assert [len(h) for h in state.hands] == [3, 5, 4]
    assert favor_cards(state) == TOTAL_CARDS


def test_nobody_controls_a_token_or_holds_the_investigator_at_the_start():
    state = new_game(P3, 1)
    assert (state.lawyer, state.speakeasy, state.streets, state.holder) == (None, None, None, None)


# A round: rolls and bids -----------------------------------------------------------------------


def test_every_player_rolls_all_the_dice_in_their_stash():
    state = start()
    error = refused(state, SubmitRoll("Ann", R("finger", "gun gun", "cocktail finger")))
    assert error.player == "Ann" and "white" in error.reason
    assert apply(state, SubmitRoll("Ann", GUNS)).rolls[ANN] == GUNS


def test_the_bid_symbol_must_show_on_the_players_own_dice():
    state = roll_all(start(), {"Ann": COCKTAILS, "Bob": GUNS, "Cat": GUNS})
    error = refused(state, SubmitBids("Ann", (Bid("finger", 1),)))
    assert error.player == "Ann" and "finger" in error.reason


def test_the_bid_is_played_with_a_favor_card_from_the_hand():
    state = roll_all(start(hands=(0, 1)), {"Ann": GUNS, "Bob": GUNS, "Cat": GUNS})
    assert "value 3" in refused(state, SubmitBids("Ann", (Bid("gun", 3),))).reason
    assert "favor card" in refused(state, SubmitBids("Ann", (Bid("gun", None),))).reason
    assert apply(state, SubmitBids("Ann", (Bid("gun", 1),))).bids[ANN] == (Bid("gun", 1),)


def test_two_player_game_makes_two_bids_on_different_symbols():
    state = roll_all(start(("Ann", "Bob")), {"Ann": GUNS, "Bob": FINGERS})
    refused(state, SubmitBids("Ann", (Bid("gun", 1),)))
    assert "twice" in refused(state, SubmitBids("Ann", (Bid("gun", 1), Bid("gun", 2)))).reason
    state = apply(state, SubmitBids("Ann", (Bid("gun", 1), Bid("finger", 2))))
    state = apply(state, SubmitBids("Bob", (Bid("finger", 3), Bid("gavel", 0))))
    result = state.history[-1] if state.phase is Phase.BIDDING else state.reveal
    assert result.scores[INVESTIGATOR] == ((ANN, 2 + 2), (BOB, 3 + 3))
    assert result.scores[STREETS] == ((ANN, 2 + 1),)
    assert result.scores[LAWYER] == ((BOB, 1 + 0),)


def test_two_player_bidder_whose_dice_show_a_single_symbol_makes_one_bid():
    state = start(("Ann", "Bob"), stashes=(Dice(0, 1, 0), Dice(2, 2, 2)))
    state = roll_all(state, {"Ann": R("", "gun"), "Bob": GUNS})
    refused(state, SubmitBids("Ann", (Bid("gun", 1), Bid("finger", 2))))
    assert apply(state, SubmitBids("Ann", (Bid("gun", 1),))).bids[ANN] == (Bid("gun", 1),)


def test_a_plus_four_card_in_hand_can_be_played():
    state = roll_all(start(hands=(1, 4)), {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS})
    state = apply(state, SubmitBids("Ann", (Bid("gun", 4),)))
    assert state.bids[ANN] == (Bid("gun", 4),)


# A round: the reveal ---------------------------------------------------------------------------


def test_a_bids_score_is_its_dice_showing_the_symbol_plus_the_favor():
    state = play_bids(
        start(),
        {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS},
        {"Ann": [("gun", 3)], "Bob": [("finger", 1)], "Cat": [("cocktail", 0)]},
    )
    result = state.history[-1]
    assert result.scores[STREETS] == ((ANN, 5),)
    assert result.scores[INVESTIGATOR] == ((BOB, 4),)
    assert result.scores[SPEAKEASY] == ((CAT, 3),)


def test_the_streets_controller_adds_the_dice_on_the_streets_to_every_bid():
    state = start(streets=ANN, streets_dice=Dice(1, 1, 0), box=Dice(2, 2, 4))
    state = play_bids(
        state,
        {"Ann": GUNS, "Bob": FINGERS, "Cat": GUNS},
        {"Ann": [("finger", 0)], "Bob": [("finger", 0)], "Cat": [("gun", 0)]},
    )
    result = state.history[-1]
    assert result.scores[INVESTIGATOR] == ((ANN, 2 + 0 + 2), (BOB, 3))
    assert result.scores[STREETS] == ((CAT, 2),)


def test_the_streets_bonus_counts_control_as_it_stood_before_the_reveal():
    # Bob wins the Streets this round; his bid still gets no bonus, Ann's (controller) does.
    state = start(streets=ANN, streets_dice=Dice(0, 0, 1), box=Dice(2, 2, 1))
    state = play_bids(
        state,
        {"Ann": FINGERS, "Bob": GUNS, "Cat": COCKTAILS},
        {"Ann": [("finger", 0)], "Bob": [("gun", 3)], "Cat": [("cocktail", 0)]},
    )
    result = state.reveal or state.history[-1]
    assert result.scores[STREETS] == ((BOB, 5),)
    assert result.scores[INVESTIGATOR] == ((ANN, 4),)
    assert result.streets_controller == ANN


def test_the_highest_score_wins_the_token():
    state = play_bids(
        start(),
        {"Ann": GUNS, "Bob": GUNS, "Cat": GUNS},
        {"Ann": [("gun", 1)], "Bob": [("gun", 3)], "Cat": [("gun", 2)]},
    )
    assert state.history[-1].winners[STREETS] == BOB
    assert state.streets == BOB


def test_tie_at_the_top_is_won_by_the_streets_controller():
    state = play_bids(
        start(streets=BOB),
        {"Ann": GUNS, "Bob": GUNS, "Cat": COCKTAILS},
        {"Ann": [("gun", 2)], "Bob": [("gun", 2)], "Cat": [("cocktail", 0)]},
    )
    assert state.reveal.winners[STREETS] == BOB
    assert state.reveal.ties[STREETS] == (ANN, BOB)
    assert pending_decision(state).kind == "streets"  # Bob already controls it: its effect


def test_tie_at_the_top_without_the_streets_controller_is_won_by_nobody():
    state = play_bids(
        start(streets=CAT),
        {"Ann": FINGERS, "Bob": FINGERS, "Cat": COCKTAILS},
        {"Ann": [("finger", 1)], "Bob": [("finger", 1)], "Cat": [("cocktail", 0)]},
    )
    result = state.history[-1]
    assert result.winners[INVESTIGATOR] is None and result.ties[INVESTIGATOR] == (ANN, BOB)
    assert state.holder is None


def test_a_token_with_no_bid_is_not_influenced():
    state = play_bids(
        start(lawyer=CAT),
        {"Ann": GUNS, "Bob": GUNS, "Cat": GUNS},
        {"Ann": [("gun", 1)], "Bob": [("gun", 3)], "Cat": [("gun", 2)]},
    )
    result = state.history[-1]
    assert result.scores[LAWYER] == () and result.winners[LAWYER] is None
    assert state.lawyer == CAT


# A round: effects ------------------------------------------------------------------------------


def test_effects_are_applied_in_the_order_lawyer_speakeasy_streets_investigator():
    state = play_bids(
        start(("Ann", "Bob", "Cat", "Dan")),
        {"Ann": FINGERS, "Bob": GUNS, "Cat": COCKTAILS, "Dan": GAVELS},
        {"Ann": [("finger", 0)], "Bob": [("gun", 0)], "Cat": [("cocktail", 0)], "Dan": [("gavel", 0)]},
    )
    effects = [(e.kind, e.token) for e in state.history[-1].effects]
    assert effects == [
        ("control", "lawyer"),
        ("control", "speakeasy"),
        ("control", "streets"),
        ("investigator_pass", "investigator"),
    ]


def test_a_winner_who_does_not_control_a_token_takes_control_with_no_effect():
    state = play_bids(
        start(speakeasy=ANN),
        {"Ann": FINGERS, "Bob": COCKTAILS, "Cat": GUNS},
        {"Ann": [("finger", 0)], "Bob": [("cocktail", 1)], "Cat": [("gun", 0)]},
    )
    assert state.speakeasy == BOB
    assert state.stashes[BOB] == Dice(2, 2, 2) and state.speakeasy_dice == Dice(1, 1, 1)


def test_lawyer_controller_who_wins_it_again_takes_a_plus_four_instead_of_a_draw():
    state = start(lawyer=ANN, deck=(0, 0, 0, 0, 0))
    state = play_bids(
        state,
        {"Ann": GAVELS, "Bob": GUNS, "Cat": COCKTAILS},
        {"Ann": [("gavel", 1)], "Bob": [("gun", 1)], "Cat": [("cocktail", 1)]},
    )
    assert state.hands[ANN] == (0, 2, 3, 4)
    assert state.hands[BOB] == (0, 0, 2, 3) and state.hands[CAT] == (0, 0, 2, 3)
    assert state.special == SPECIAL_COUNT - 1


def test_lawyer_effect_is_a_normal_draw_when_the_special_stack_is_empty():
    state = start(lawyer=ANN, special=0, deck=(3, 0, 0))
    state = play_bids(
        state,
        {"Ann": GAVELS, "Bob": GUNS, "Cat": COCKTAILS},
        {"Ann": [("gavel", 1)], "Bob": [("gun", 1)], "Cat": [("cocktail", 1)]},
    )
    assert state.hands[ANN] == (0, 2, 3, 3)
    assert state.special == 0


def _speakeasy_turn(**changes) -> GameState:
    """Ann controls the Speakeasy and wins it again: her exchange is pending."""
    return play_bids(
        start(speakeasy=ANN, **changes),
        {"Ann": COCKTAILS, "Bob": GUNS, "Cat": FINGERS},
        {"Ann": [("cocktail", 1)], "Bob": [("gun", 1)], "Cat": [("finger", 1)]},
    )


def test_speakeasy_controller_may_exchange_up_to_three_dice_of_their_choice():
    state = _speakeasy_turn(speakeasy_dice=Dice(0, 3, 0), box=Dice(3, 0, 3))
    decision = pending_decision(state)
    assert (decision.kind, decision.seat) == ("speakeasy", ANN)
    state = apply(state, ExchangeAtSpeakeasy("Ann", ("white", "white", "blue"), ("red", "red", "red")))
    assert state.stashes[ANN] == Dice(0, 5, 1)
    assert state.speakeasy_dice == Dice(2, 0, 1)


def test_speakeasy_exchange_of_no_dice_is_allowed():
    state = apply(_speakeasy_turn(), ExchangeAtSpeakeasy("Ann"))
    assert state.stashes[ANN] == Dice(2, 2, 2) and state.speakeasy_dice == Dice(1, 1, 1)


def test_speakeasy_exchange_of_more_than_three_dice_is_refused():
    state = _speakeasy_turn(speakeasy_dice=Dice(2, 2, 0), box=Dice(1, 1, 2))
    error = refused(state, ExchangeAtSpeakeasy("Ann", ("white",) * 2 + ("blue",) * 2, ("red",) * 2 + ("white",) * 2))
    assert "at most 3" in error.reason


def test_speakeasy_exchange_of_dice_not_present_is_refused():
    state = _speakeasy_turn()
    assert "holds 1 red" in refused(state, ExchangeAtSpeakeasy("Ann", ("white", "white"), ("red", "red"))).reason
    state = _speakeasy_turn().evolve(stashes=(Dice(0, 3, 3), Dice(2, 2, 2), Dice(2, 2, 2)))
    assert "white" in refused(state, ExchangeAtSpeakeasy("Ann", ("white",), ("red",))).reason
    refused(state, ExchangeAtSpeakeasy("Ann", ("red", "red"), ("blue",)))


def test_dice_taken_at_the_speakeasy_must_be_there_before_the_exchange():
    state = _speakeasy_turn(speakeasy_dice=Dice(0, 1, 0), box=Dice(3, 2, 3))
    # Giving a white die does not let Ann take a white die back in the same exchange.
    refused(state, ExchangeAtSpeakeasy("Ann", ("white",), ("white",)))
    assert apply(state, ExchangeAtSpeakeasy("Ann", ("white",), ("red",))).speakeasy_dice == Dice(1, 0, 0)


def _streets_turn(**changes) -> GameState:
    """Ann controls the Streets and wins it again: her placement is pending."""
    return play_bids(
        start(streets=ANN, **changes),
        {"Ann": GUNS, "Bob": COCKTAILS, "Cat": FINGERS},
        {"Ann": [("gun", 1)], "Bob": [("cocktail", 1)], "Cat": [("finger", 1)]},
    )


def test_streets_controller_may_place_one_die_of_their_choice_or_none():
    state = _streets_turn()
    assert (pending_decision(state).kind, pending_decision(state).seat) == ("streets", ANN)
    placed = apply(state, PlaceOnStreets("Ann", "blue"))
    assert placed.stashes[ANN] == Dice(2, 2, 1) and placed.streets_dice == Dice(0, 0, 1)
    kept = apply(state, PlaceOnStreets("Ann", None))
    assert kept.stashes[ANN] == Dice(2, 2, 2) and kept.streets_dice == Dice(0, 0, 0)


def test_streets_placement_of_a_color_the_player_has_none_of_is_refused():
    state = _streets_turn().evolve(stashes=(Dice(0, 3, 3), Dice(2, 2, 2), Dice(2, 2, 2)))
    assert "white" in refused(state, PlaceOnStreets("Ann", "white")).reason


def test_investigator_nobody_holds_is_passed_to_the_winners_left_with_no_dice_placed():
    state = play_bids(
        start(),
        {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS},
        {"Ann": [("gun", 1)], "Bob": [("finger", 1)], "Cat": [("cocktail", 1)]},
    )
    assert state.holder == CAT
    assert state.stashes[BOB] == Dice(2, 2, 2) and state.investigator_dice == Dice(0, 0, 0)


def test_investigator_winner_who_holds_it_passes_it_left_and_its_dice_travel_with_it():
    state = start(("Ann", "Bob", "Cat", "Dan"), holder=CAT, investigator_dice=Dice(0, 0, 2), box=Dice(0, 0, 0))
    state = state.evolve(stashes=(Dice(2, 2, 2),) * 3 + (Dice(2, 2, 0),), box=Dice(0, 0, 0))
    state = play_bids(
        state,
        {"Ann": GUNS, "Bob": COCKTAILS, "Cat": FINGERS, "Dan": R("gavel gavel", "gun gavel")},
        {"Ann": [("gun", 1)], "Bob": [("cocktail", 1)], "Cat": [("finger", 1)], "Dan": [("gun", 0)]},
    )
    assert state.holder == 3
    # Dan, the new holder, takes one die off it at the end of the round.
    assert state.investigator_dice == Dice(0, 0, 1) and state.stashes[3] == Dice(2, 2, 1)


def test_investigator_winner_places_all_the_dice_they_may_give_of_the_color_they_name():
    state = play_bids(
        start(holder=CAT),
        {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS},
        {"Ann": [("gun", 1)], "Bob": [("finger", 1)], "Cat": [("cocktail", 1)]},
    )
    assert (pending_decision(state).kind, pending_decision(state).seat) == ("investigator_color", BOB)
    state = apply(state, ChooseInvestigatorColor("Bob", "red"))
    assert state.stashes[BOB] == Dice(2, 0, 2)
    assert state.holder == CAT
    # Only red on it: Cat takes one red die at the end of the round.
    assert state.investigator_dice == Dice(0, 1, 0) and state.stashes[CAT] == Dice(2, 3, 2)


def test_investigator_color_the_player_has_none_of_is_refused():
    state = play_bids(
        start(holder=CAT, stashes=(Dice(2, 2, 2), Dice(0, 3, 3), Dice(2, 2, 2)), box=Dice(5, 1, 1)),
        {"Ann": GUNS, "Bob": R("", "finger finger gun", "finger cocktail gavel"), "Cat": COCKTAILS},
        {"Ann": [("gun", 1)], "Bob": [("finger", 1)], "Cat": [("cocktail", 1)]},
    )
    error = refused(state, ChooseInvestigatorColor("Bob", "white"))
    assert error.player == "Bob" and "white" in error.reason


def test_investigator_winner_with_no_die_to_give_places_nothing():
    # Bob swaps his only dice at the Speakeasy, then wins the Investigator that Ann holds.
    state = start(("Ann", "Bob"), speakeasy=BOB, holder=ANN)
    state = state.evolve(stashes=(Dice(2, 2, 2), Dice(0, 0, 2)), box=Dice(4, 4, 2))
    state = play_bids(
        state,
        {"Ann": R("gavel gavel", "gun gun", "gavel gavel"), "Bob": R("", "", "cocktail finger")},
        {"Ann": [("gavel", 0), ("gun", 1)], "Bob": [("cocktail", 1), ("finger", 2)]},
    )
    state = apply(state, ExchangeAtSpeakeasy("Bob", ("blue", "blue"), ("white", "red")))
    assert state.phase is Phase.BIDDING  # nothing more to decide this round
    assert state.stashes[BOB] == Dice(1, 1, 0) and state.investigator_dice == Dice(0, 0, 0)
    assert state.history[-1].effects[-1].kind == "investigator_nothing"


def test_dice_received_this_round_cannot_be_given():
    # 2 players. Bob controls the Speakeasy and the Streets and wins both again.
    state = start(("Ann", "Bob"), speakeasy=BOB, streets=BOB)
    state = state.evolve(stashes=(Dice(2, 2, 2), Dice(0, 0, 3)), speakeasy_dice=Dice(3, 0, 0), box=Dice(4, 7, 4))
    state = play_bids(
        state,
        {"Ann": R("gavel gavel", "gavel finger", "gavel gavel"), "Bob": R("", "", "cocktail gun finger")},
        {"Ann": [("gavel", 1), ("finger", 0)], "Bob": [("cocktail", 3), ("gun", 2)]},
    )
    state = apply(state, ExchangeAtSpeakeasy("Bob", ("blue", "blue"), ("white", "white")))
    assert state.stashes[BOB] == Dice(2, 0, 1) and givable(state, BOB) == Dice(0, 0, 1)
    assert pending_decision(state).options == ("blue",)
    assert "white" in refused(state, PlaceOnStreets("Bob", "white")).reason

    # Bob controls the Speakeasy, wins it, and wins the Investigator that Ann holds.
    state = start(("Ann", "Bob"), speakeasy=BOB, holder=ANN)
    state = state.evolve(stashes=(Dice(2, 2, 2), Dice(0, 0, 3)), speakeasy_dice=Dice(3, 0, 0), box=Dice(4, 7, 4))
    state = play_bids(
        state,
        {"Ann": R("gavel gavel", "gavel gun", "gavel gavel"), "Bob": R("", "", "cocktail finger finger")},
        {"Ann": [("gavel", 1), ("gun", 0)], "Bob": [("cocktail", 3), ("finger", 2)]},
    )
    state = apply(state, ExchangeAtSpeakeasy("Bob", ("blue", "blue"), ("white", "white")))
    assert pending_decision(state).kind == "investigator_color" and pending_decision(state).options == ("blue",)
    assert "white" in refused(state, ChooseInvestigatorColor("Bob", "white")).reason
    state = apply(state, ChooseInvestigatorColor("Bob", "blue"))
    assert state.stashes[BOB] == Dice(2, 0, 0)


# End of round ----------------------------------------------------------------------------------


def _holder_round(lawyer: int | None = None, on_it: Dice = Dice(1, 1, 0)) -> GameState:
    """Cat holds the Investigator with ``on_it`` on it; a quiet round is bid and revealed."""
    box = Dice(*(2 - n for n in on_it))
    state = start(holder=CAT, lawyer=lawyer, investigator_dice=on_it, box=box)
    return play_bids(
        state,
        {"Ann": GUNS, "Bob": COCKTAILS, "Cat": GUNS},
        {"Ann": [("gun", 2)], "Bob": [("cocktail", 1)], "Cat": [("gun", 0)]},
    )


def test_holder_takes_one_die_off_the_investigator_at_the_end_of_the_round():
    state = _holder_round(on_it=Dice(0, 2, 0))
    assert state.phase is Phase.BIDDING
    assert state.investigator_dice == Dice(0, 1, 0) and state.stashes[CAT] == Dice(2, 3, 2)


def test_holder_chooses_the_color_of_the_die_taken_when_several_are_on_the_investigator():
    state = _holder_round()
    decision = pending_decision(state)
    assert (decision.kind, decision.seat, decision.options, decision.can_decline) == (
        "investigator_take",
        CAT,
        ("white", "red"),
        False,
    )
    refused(state, TakeFromInvestigator("Cat", "blue"))
    state = apply(state, TakeFromInvestigator("Cat", "white"))
    assert state.stashes[CAT] == Dice(3, 2, 2) and state.investigator_dice == Dice(0, 1, 0)


def test_lawyer_controller_may_decline_the_investigator_die():
    state = _holder_round(lawyer=CAT, on_it=Dice(0, 1, 0))
    assert pending_decision(state).can_decline
    declined = apply(state, TakeFromInvestigator("Cat", None))
    assert declined.stashes[CAT] == Dice(2, 2, 2) and declined.investigator_dice == Dice(0, 1, 0)
    taken = apply(state, TakeFromInvestigator("Cat", "red"))
    assert taken.stashes[CAT] == Dice(2, 3, 2)


def test_only_the_lawyer_controller_may_decline_the_investigator_die():
    state = _holder_round(lawyer=ANN)
    error = refused(state, TakeFromInvestigator("Cat", None))
    assert error.player == "Cat" and "Lawyer" in error.reason


def test_lawyer_control_won_this_round_counts_for_declining():
    state = start(holder=CAT, investigator_dice=Dice(0, 1, 0), box=Dice(2, 1, 2))
    state = play_bids(
        state,
        {"Ann": GUNS, "Bob": COCKTAILS, "Cat": GAVELS},
        {"Ann": [("gun", 2)], "Bob": [("cocktail", 1)], "Cat": [("gavel", 0)]},
    )
    assert state.lawyer == CAT and pending_decision(state).can_decline


def test_played_favors_are_discarded_and_each_player_draws_as_many_as_they_played():
    state = play_bids(
        start(deck=(3, 0, 2, 1)),
        {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS},
        {"Ann": [("gun", 1)], "Bob": [("finger", 2)], "Cat": [("cocktail", 3)]},
    )
    assert state.hands == ((0, 2, 3, 3), (0, 0, 1, 3), (0, 1, 2, 2))
    assert sorted(state.discard) == [1, 2, 3] and state.deck == (1,)


def test_played_special_card_returns_to_the_special_stack():
    state = play_bids(
        start(hands=(1, 4), special=SPECIAL_COUNT - 3, deck=(0, 0, 0)),
        {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS},
        {"Ann": [("gun", 4)], "Bob": [("finger", 1)], "Cat": [("cocktail", 4)]},
    )
    assert state.special == SPECIAL_COUNT - 1
    assert state.discard == (1,)
    assert state.hands == ((0, 1), (0, 4), (0, 1))


def test_players_draw_in_seat_order_each_drawing_all_their_cards_before_the_next():
    state = play_bids(
        start(("Ann", "Bob"), hands=(1, 2), deck=(0, 3, 0, 3)),
        {"Ann": GUNS, "Bob": FINGERS},
        {"Ann": [("gun", 1), ("finger", 2)], "Bob": [("finger", 1), ("gun", 2)]},
    )
    assert state.hands == ((0, 3), (0, 3))
    state = play_bids(
        start(("Ann", "Bob"), hands=(1, 2), deck=(0, 0, 3, 3)),
        {"Ann": GUNS, "Bob": FINGERS},
        {"Ann": [("gun", 1), ("finger", 2)], "Bob": [("finger", 1), ("gun", 2)]},
    )
    assert state.hands == ((0, 0), (3, 3))


def test_reshuffle_only_when_deck_is_empty_and_a_card_must_be_drawn():
    bids = {"Ann": [("gun", 1)], "Bob": [("finger", 1)], "Cat": [("cocktail", 1)]}
    rolls = {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS}
    # Exactly enough cards: the deck empties, the discard pile stays a discard pile.
    state = play_bids(start(hands=(1, 2), deck=(0, 0, 0), discard=(3, 3)), rolls, bids)
    assert state.deck == () and sorted(state.discard) == [1, 1, 1, 3, 3] and state.shuffles == 0
    # One card short: Cat's draw reshuffles the discard pile, this round's cards included.
    state = play_bids(start(hands=(1, 2), deck=(0, 0), discard=(3, 3)), rolls, bids)
    assert state.shuffles == 1 and state.discard == ()
    assert len(state.deck) == 4 and sorted(state.deck + (state.hands[CAT][0],)) == [1, 1, 1, 3, 3]


def test_reshuffles_are_seeded_from_the_game_seed():
    def reshuffled(seed: int) -> tuple[int, ...]:
        state = new_game(P3, seed).evolve(
            hands=((0, 1, 2, 3),) * 3, deck=(), discard=(0, 1, 2, 3, 0, 1, 2, 3, 3, 3, 2, 2)
        )
        return play_bids(
            state,
            {"Ann": GUNS, "Bob": FINGERS, "Cat": COCKTAILS},
            {"Ann": [("gun", 1)], "Bob": [("finger", 1)], "Cat": [("cocktail", 1)]},
        ).deck

    assert reshuffled(5) == reshuffled(5)
    assert len({reshuffled(seed) for seed in range(8)}) > 1


def test_a_player_with_no_dice_left_wins_and_the_game_ends():
    # Bob wins the Investigator that Cat holds and puts his last color on it.
    state = start(holder=CAT, stashes=(Dice(2, 2, 2), Dice(0, 2, 0), Dice(2, 2, 2)), box=Dice(5, 3, 5))
    state = play_bids(
        state,
        {"Ann": GUNS, "Bob": R("", "finger finger"), "Cat": COCKTAILS},
        {"Ann": [("gun", 0)], "Bob": [("finger", 3)], "Cat": [("cocktail", 0)]},
    )
    state = apply(state, ChooseInvestigatorColor("Bob", "red"))
    assert state.finished and state.winners == (BOB,)
    assert awaiting(state) == ()


def test_several_players_can_win_at_once_listed_in_seat_order():
    # Cat passes Ann's Investigator on (nobody: she holds none); Ann puts her last die on the
    # Streets she controls; Cat puts hers on the Investigator Bob holds.
    state = start(streets=ANN, holder=BOB, stashes=(Dice(0, 1, 0), Dice(2, 2, 2), Dice(1, 0, 0)), box=Dice(5, 5, 6))
    state = play_bids(
        state,
        {"Ann": R("", "gun"), "Bob": COCKTAILS, "Cat": R("finger")},
        {"Ann": [("gun", 0)], "Bob": [("cocktail", 0)], "Cat": [("finger", 0)]},
    )
    state = apply(state, PlaceOnStreets("Ann", "red"))
    state = apply(state, ChooseInvestigatorColor("Cat", "white"))
    assert state.finished and state.winners == (ANN, CAT)


# What the engine refuses -------------------------------------------------------------------------


def test_refuses_an_action_by_a_player_who_is_not_asked_for_one():
    state = _streets_turn()
    error = refused(state, PlaceOnStreets("Bob", "red"))
    assert error.player == "Bob" and "Ann" in error.reason
    refused(state, SubmitRoll("Cat", GUNS))
    refused(state, ExchangeAtSpeakeasy("Ann"))
    refused(state, TakeFromInvestigator("Ann", "red"))
    refused(state, SubmitRoll("Zed", GUNS))
    bidding = roll_all(start(), {"Ann": GUNS, "Bob": GUNS, "Cat": GUNS})
    refused(bidding, PlaceOnStreets("Ann", None))
    sealed = apply(bidding, SubmitBids("Ann", (Bid("gun", 1),)))
    refused(sealed, SubmitBids("Ann", (Bid("gun", 2),)))
    refused(sealed, SubmitRoll("Ann", GUNS))


def test_refuses_a_bid_before_the_roll():
    assert "roll" in refused(start(), SubmitBids("Ann", (Bid("gun", 1),))).reason


def test_refuses_two_bids_on_one_symbol():
    state = roll_all(start(("Ann", "Bob")), {"Ann": GUNS, "Bob": GUNS})
    error = refused(state, SubmitBids("Ann", (Bid("gun", 1), Bid("gun", 2))))
    assert error.player == "Ann"


def test_refuses_a_favor_not_in_hand():
    state = roll_all(start(hands=(1, 1)), {"Ann": GUNS, "Bob": GUNS, "Cat": GUNS})
    error = refused(state, SubmitBids("Ann", (Bid("gun", 2),)))
    assert error.player == "Ann" and "2" in error.reason
    refused(state, SubmitBids("Ann", (Bid("gun", True),)))


def test_refuses_a_roll_that_does_not_match_the_stash():
    state = start()
    refused(state, SubmitRoll("Ann", R("finger gun gun", "gun", "cocktail finger")))
    refused(state, SubmitRoll("Ann", R("finger gun", "gun gun", "cocktail smile")))


def test_refuses_any_action_after_the_game_has_ended():
    state = apply(start(), EndGame())
    assert state.finished and state.ended_by_host and state.winners == ()
    for action in (SubmitRoll("Ann", GUNS), MoveDie("red", "box", "streets"), GiveFavor("Ann", "special"), EndGame()):
        assert "ended" in refused(state, action).reason


# Character cards and host adjustments ----------------------------------------------------------


def test_the_characters_are_known_by_name_with_their_hand_size():
    assert len(CHARACTERS) == 9
    assert character("Franky").hand_size == 3 and character("Franky", 5).hand_size == 5
    with pytest.raises(ValueError):
        character("Nobody")


@pytest.mark.parametrize(
    "source,target",
    [("box", "stash:Ann"), ("stash:Ann", "streets"), ("speakeasy", "investigator"), ("stash:Bob", "stash:Cat")],
)
def test_host_can_move_a_die_between_any_two_places(source, target):
    state = start()
    seat = P3.index(source[6:]) if source.startswith("stash:") else None
    held = state.stashes[seat] if seat is not None else state.box if source == "box" else state.token_dice(source)
    color = held.colors()[0]
    moved = apply(state, MoveDie(color, source, target))
    assert dice_in_play(moved) == dice_in_play(state) == Dice(9, 9, 9)
    assert moved != state
    refused(state, MoveDie(color, source, source))


def test_host_cannot_move_a_die_that_is_not_there():
    state = start()
    assert "no red die" in refused(state, MoveDie("red", "streets", "box")).reason


def test_host_can_give_and_take_favor_cards():
    state = new_game(P3, 3)
    state = apply(state, GiveFavor("Ann", "special"))
    assert 4 in state.hands[ANN] and state.special == SPECIAL_COUNT - 1
    state = apply(state, GiveFavor("Bob", "deck"))
    assert len(state.hands[BOB]) == 4
    card = state.hands[CAT][0]
    state = apply(state, TakeFavor("Cat", card))
    assert state.discard == (card,) and len(state.hands[CAT]) == 2
    state = apply(state, GiveFavor("Cat", "discard", card))
    assert state.discard == () and card in state.hands[CAT]
    state = apply(state, TakeFavor("Ann", 4, "special"))
    assert state.special == SPECIAL_COUNT and favor_cards(state) == TOTAL_CARDS
    refused(state, TakeFavor("Ann", 4))
    refused(state, GiveFavor("Ann", "discard", 2))


def test_the_round_waits_for_every_seat_to_roll_and_bid():
    state = start()
    assert awaiting(state) == (ANN, BOB, CAT)
    state = roll_all(state, {"Ann": GUNS, "Bob": GUNS, "Cat": GUNS})
    state = apply(state, SubmitBids("Bob", (Bid("gun", 1),)))
    assert awaiting(state) == (ANN, CAT)


def test_colors_are_white_red_blue():
    assert COLORS == ("white", "red", "blue")
