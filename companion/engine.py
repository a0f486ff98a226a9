"""The rules of Gangster Dice as pure functions: a state and an action in, a new state out.

Nothing here reads a clock, touches a file or draws randomness it was not handed: the favor deck's
shuffles are seeded from the game's seed, and dice come in as rolls. An illegal action raises
:class:`IllegalAction`, which names the player and says in a sentence what was wrong; the state
it was offered is a value and so is unchanged.

The sealed bids of a round are applied in one step when the last one arrives, so the order in
which phones submit never matters. After the reveal the round is settled effect by effect (Lawyer,
Speakeasy, Streets, Investigator, then the end-of-round steps), stopping at each decision that the
rules leave to a player; :func:`pending_decision` says which one.
"""

from __future__ import annotations

import random
from typing import Iterable, Mapping, NamedTuple

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
from .characters import TUTORIAL_HAND_SIZE
from .dice import COLORS, NO_DICE, SYMBOLS, TOKEN_SYMBOL, TOKENS, Dice, Roll
from .favors import DECK_COMPOSITION, FULL_DECK, SPECIAL_COUNT, SPECIAL_VALUE
from .state import Bid, Effect, GameState, Phase, RoundResult, Step

MIN_PLAYERS = 2
MAX_PLAYERS = 4
HOST = "host"

STARTING_STASH = Dice(2, 2, 2)
STARTING_SPEAKEASY = Dice(1, 1, 1)
DICE_PER_COLOR = 9

# The phases looked up once: reading a member off its Enum class costs a lookup every time, and
# the engine checks the phase on every action.
_BIDDING, _RESOLVING, _FINISHED = Phase.BIDDING, Phase.RESOLVING, Phase.FINISHED
_STEP_SPEAKEASY, _STEP_STREETS, _STEP_INVESTIGATOR, _STEP_TAKE = Step.SPEAKEASY, Step.STREETS, Step.INVESTIGATOR, Step.TAKE
#: Named tuples (dice, decisions) built straight from their values, skipping their constructors.
_new = tuple.__new__


class IllegalAction(Exception):
    """An action the rules refuse. ``player`` is who tried it; ``reason`` a sentence for them."""

    def __init__(self, player: str, reason: str) -> None:
        super().__init__(f"{player}: {reason}")
        self.player = player
        self.reason = reason


# Setup ------------------------------------------------------------------------------------------


def new_game(
    players: Iterable[str],
    seed: int,
    *,
    hand_sizes: Iterable[int] | int = TUTORIAL_HAND_SIZE,
    characters: Iterable[str | None] | None = None,
    favor_deck: Iterable[int] | None = None,
) -> GameState:
    """Set up a game: stashes of 2 dice per color, 1 die per color on the Speakeasy, favor cards
    dealt one at a time in seat order from a deck shuffled with ``seed`` (or ``favor_deck``, top
    card first, when given). Raises ValueError for a setup the rules do not allow."""
    players = tuple(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise ValueError("every player needs a non-empty name")
    if len(set(players)) != len(players):
        raise ValueError("two players have the same name")
    if isinstance(hand_sizes, int):
        hand_sizes = (hand_sizes,) * len(players)
    hand_sizes = tuple(hand_sizes)
    if len(hand_sizes) != len(players) or any(not isinstance(h, int) or h < 0 for h in hand_sizes):
        raise ValueError("every player needs a hand size of 0 or more cards")
    characters = tuple(characters) if characters is not None else (None,) * len(players)
    if len(characters) != len(players):
        raise ValueError("give one character (or none) per player")

    if favor_deck is None:
        deck = list(FULL_DECK)
        random.Random(seed).shuffle(deck)
    else:
        deck = list(favor_deck)
        for value in deck:
            if isinstance(value, bool) or value not in DECK_COMPOSITION:
                raise ValueError(f"the favor deck holds only cards of value 0 to 3, not {value!r}")
        for value, copies in DECK_COMPOSITION.items():
            if deck.count(value) > copies:
                raise ValueError(f"the favor deck has only {copies} cards of value {value}")
    if len(deck) < sum(hand_sizes):
        raise ValueError(f"a favor deck of {len(deck)} cards cannot deal the starting hands ({sum(hand_sizes)} cards)")

    hands: list[list[int]] = [[] for _ in players]
    for turn in range(max(hand_sizes, default=0)):
        for seat, size in enumerate(hand_sizes):
            if turn < size:
                hands[seat].append(deck.pop(0))

    n = len(players)
    in_play = STARTING_STASH.total * n + STARTING_SPEAKEASY.total
    box_per_color = DICE_PER_COLOR - STARTING_STASH.white * n - STARTING_SPEAKEASY.white
    assert box_per_color * 3 + in_play == DICE_PER_COLOR * 3
    return GameState(
        players=players,
        characters=characters,
        hand_sizes=hand_sizes,
        seed=seed,
        round=0,
        phase=Phase.BIDDING,
        stashes=(STARTING_STASH,) * n,
        box=Dice(box_per_color, box_per_color, box_per_color),
        lawyer=None,
        speakeasy=None,
        streets=None,
        holder=None,
        speakeasy_dice=STARTING_SPEAKEASY,
        streets_dice=NO_DICE,
        investigator_dice=NO_DICE,
        deck=tuple(deck),
        discard=(),
        special=SPECIAL_COUNT,
        hands=tuple(tuple(sorted(h)) for h in hands),
        shuffles=0,
        rolls=(None,) * n,
        bids=(None,) * n,
        played=((),) * n,
        received=(NO_DICE,) * n,
        lawyer_bonus=None,
        step=None,
        reveal=None,
        history=(),
        winners=(),
    )


# Who must act -----------------------------------------------------------------------------------


class Decision(NamedTuple):
    """A choice the rules leave to one player while a round resolves.

    ``kind``: "speakeasy" (exchange up to 3 dice), "streets" (place one die or none),
    "investigator_color" (the color to put on the Investigator), "investigator_take" (the die to
    take off it at the end of the round; ``can_decline`` when the holder controls the Lawyer).
    ``options``: the colors that may be chosen (for speakeasy, those that may be given);
    ``take_options``: the colors on the Speakeasy that may be taken.
    """

    kind: str
    seat: int
    options: tuple[str, ...]
    take_options: tuple[str, ...] = ()
    can_decline: bool = False


def givable(state: GameState, seat: int) -> Dice:
    """The dice ``seat`` may give away this round: their stash less what they received this round."""
    stash, got = state.stashes[seat], state.received[seat]
    return _new(Dice, (stash[0] - got[0], stash[1] - got[1], stash[2] - got[2]))


def pending_decision(state: GameState) -> Decision | None:
    """The decision the round waits for, or None (bidding, or the game is over)."""
    if state.phase is not _RESOLVING:
        return None
    step = state.step
    seat = _deciding_seat(state)
    # Decisions are built from their values (kind, seat, options, take_options, can_decline):
    # a bot asks for one at every decision it makes.
    if step is _STEP_SPEAKEASY:
        return _new(Decision, ("speakeasy", seat, givable(state, seat).colors(), state.speakeasy_dice.colors(), False))
    if step is _STEP_STREETS:
        return _new(Decision, ("streets", seat, givable(state, seat).colors(), (), False))
    if step is _STEP_INVESTIGATOR:
        return _new(Decision, ("investigator_color", seat, givable(state, seat).colors(), (), False))
    return _new(Decision, ("investigator_take", seat, state.investigator_dice.colors(), (), state.lawyer == seat))


def _deciding_seat(state: GameState) -> int:
    """The seat asked to decide while the round resolves: the winner of the token being settled,
    or the Investigator's holder for the last step. Cheaper than a whole :class:`Decision`."""
    step = state.step
    if step is _STEP_TAKE:
        return state.holder  # type: ignore[return-value]
    token = _STEP_TOKEN[step] if isinstance(step, Step) else None
    if token is None:
        raise AssertionError(f"no decision at step {step}")
    return state.reveal.winners[token]  # type: ignore[union-attr,return-value]


#: For each step (by its number), the index in TOKENS of the token whose winner decides at it.
#: A tuple rather than a dict keyed by Step, whose members hash slowly.
_STEP_TOKEN: tuple[int | None, ...] = (
    None,
    TOKENS.index("speakeasy"),  # Step.SPEAKEASY
    TOKENS.index("streets"),  # Step.STREETS
    TOKENS.index("investigator"),  # Step.INVESTIGATOR
    None,  # Step.TAKE: the Investigator's holder decides
)


def awaiting(state: GameState) -> tuple[int, ...]:
    """The seats the game is waiting for right now (to roll, to bid, or to decide)."""
    phase = state.phase
    if phase is _BIDDING:
        return tuple([seat for seat, bids in enumerate(state.bids) if bids is None])
    if phase is _RESOLVING:
        return (_deciding_seat(state),)
    return ()


def bids_required(state: GameState, seat: int) -> int:
    """How many bids ``seat`` must make on their roll: one (two, on different symbols, in a
    2-player game), never more than the symbols their dice show."""
    roll = state.rolls[seat]
    if roll is None:
        return 0
    if len(state.players) == 2:
        return min(2, len(roll.symbols()))
    # One bid, if any die shows a symbol at all: no need to gather the symbols showing.
    return 1 if roll[0] or roll[1] or roll[2] else 0


# Applying actions -------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`IllegalAction` (state unchanged) when refused."""
    if state.phase is _FINISHED:
        who = getattr(action, "player", HOST)
        raise IllegalAction(who, "the game has ended")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(HOST, f"{type(action).__name__} is not an action of this game")
    return handler(state, action)


def _seat_of(state: GameState, name: str) -> int:
    try:
        return state.players.index(name)
    except ValueError:
        raise IllegalAction(str(name), "is not a player in this game") from None


def _check_color(player: str, color: object) -> str:
    if color not in COLORS:
        raise IllegalAction(player, f"{color!r} is not a dice color (white, red or blue)")
    return color  # type: ignore[return-value]


def _set(values: tuple, index: int, value: object) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _submit_roll(state: GameState, action: SubmitRoll) -> GameState:
    player = action.player
    seat = _seat_of(state, player)
    if state.phase is not _BIDDING:
        raise IllegalAction(player, "dice are rolled at the start of a round, not now")
    if state.bids[seat] is not None:
        raise IllegalAction(player, "your bid is sealed; your roll can no longer change this round")
    roll = action.roll
    if not isinstance(roll, Roll) or len(roll) != 3:
        raise IllegalAction(player, "a roll gives the symbols of your dice grouped by color")
    white, red, blue = roll
    stash = state.stashes[seat]
    # One test for the usual, matching roll; a roll that fails it is looked at color by color
    # for the reason to give.
    if not (
        len(white) == stash[0]
        and len(red) == stash[1]
        and len(blue) == stash[2]
        and _SYMBOL_SET.issuperset(white)
        and _SYMBOL_SET.issuperset(red)
        and _SYMBOL_SET.issuperset(blue)
    ):
        for color, faces, have in zip(COLORS, roll, stash):
            if len(faces) != have:
                raise IllegalAction(
                    player, f"your stash has {have} {color} {'die' if have == 1 else 'dice'}, but the roll shows {len(faces)}"
                )
            if not _SYMBOL_SET.issuperset(faces):
                wrong = next(symbol for symbol in faces if symbol not in _SYMBOL_SET)
                raise IllegalAction(player, f"{wrong!r} is not a symbol on the dice")
    rolls = state.rolls
    return state.evolve_field("rolls", rolls[:seat] + (roll,) + rolls[seat + 1 :])


def _submit_bids(state: GameState, action: SubmitBids) -> GameState:
    player = action.player
    seat = _seat_of(state, player)
    if state.phase is not _BIDDING:
        raise IllegalAction(player, "bids are made at the start of a round, not now")
    if state.bids[seat] is not None:
        raise IllegalAction(player, "you have already sealed your bid this round")
    roll = state.rolls[seat]
    if roll is None:
        raise IllegalAction(player, "roll your dice before you bid")
    bids = tuple(action.bids)
    if not _is_plain_legal_bid(state, seat, roll, bids):
        _check_bids(state, seat, player, roll, bids)
    all_bids = state.bids
    all_bids = all_bids[:seat] + (bids,) + all_bids[seat + 1 :]
    if None in all_bids:
        return state.evolve_field("bids", all_bids)
    return _reveal(state, all_bids)  # the last sealed bid reveals the round


def _is_plain_legal_bid(state: GameState, seat: int, roll: Roll, bids: tuple) -> bool:
    """Whether ``bids`` is the one legal bid of a game of 3 or more: a symbol the roll shows and a
    card in hand (or none, with an empty hand). Most bids are; this answers for them without
    building the set of symbols showing, and :func:`_check_bids` judges the rest."""
    if len(bids) != 1 or len(state.players) == 2:
        return False
    bid = bids[0]
    if not isinstance(bid, Bid):
        return False
    symbol, favor = bid
    if symbol not in SYMBOLS or not (symbol in roll[0] or symbol in roll[1] or symbol in roll[2]):
        return False
    hand = state.hands[seat]
    if favor is None:
        return not hand
    return favor in hand and not isinstance(favor, bool)


def _check_bids(state: GameState, seat: int, player: str, roll: Roll, bids: tuple) -> None:
    """Every rule on a seat's sealed bids, in the order that picks the reason to give; raises
    :class:`IllegalAction` for the first one broken."""
    showing = roll.symbols()
    required = min(2 if state.two_player else 1, len(showing))
    if len(bids) != required:
        if state.two_player and required == 2:
            raise IllegalAction(player, f"in a 2-player game you make two bids, on two different symbols, not {len(bids)}")
        raise IllegalAction(player, f"make {required} bid{'s' if required != 1 else ''}, not {len(bids)}")
    hand = list(state.hands[seat])
    without_favor = 0
    seen: set[str] = set()
    for bid in bids:
        if not isinstance(bid, Bid) or bid.symbol not in SYMBOLS:
            raise IllegalAction(player, f"{getattr(bid, 'symbol', bid)!r} is not a symbol to bid on")
        if bid.symbol in seen:
            raise IllegalAction(player, f"you bid on {bid.symbol} twice; two bids must be on different symbols")
        seen.add(bid.symbol)
        if bid.symbol not in showing:
            raise IllegalAction(player, f"you cannot bid on {bid.symbol}: none of your dice shows it")
        if bid.favor is None:
            without_favor += 1
        elif bid.favor in hand and not isinstance(bid.favor, bool):
            hand.remove(bid.favor)
        else:
            raise IllegalAction(player, f"you have no favor card of value {bid.favor} in your hand")
    if without_favor > max(0, len(bids) - len(state.hands[seat])):
        raise IllegalAction(player, "play a favor card from your hand with each bid")


def _reveal(state: GameState, all_bids: tuple[tuple[Bid, ...], ...]) -> GameState:
    """All bids are in (``all_bids``, not yet in ``state``): score them, decide the winners, and
    start settling the effects."""
    streets, bonus = state.streets, sum(state.streets_dice)
    scores: tuple[list[tuple[int, int]], ...] = ([], [], [], [])
    # The favor cards played leave the hands now; they are discarded at the end of the round.
    played: list[tuple[int, ...]] = []
    hands = list(state.hands)
    for seat, (roll, bids) in enumerate(zip(state.rolls, all_bids)):
        faces = roll[0] + roll[1] + roll[2]
        extra = bonus if seat == streets else 0
        cards: tuple[int, ...] = ()
        for symbol, favor in bids:
            scores[_SYMBOL_INDEX[symbol]].append((seat, faces.count(symbol) + (favor or 0) + extra))
            if favor is not None:
                cards += (favor,)
        played.append(cards)
        if cards:
            hand = list(hands[seat])
            for value in cards:
                hand.remove(value)
            hands[seat] = tuple(hand)
    winners: list[int | None] = []
    ties: list[tuple[int, ...]] = []
    for token_scores in scores:
        if len(token_scores) < 2:  # no bid, or one: no contest
            winners.append(token_scores[0][0] if token_scores else None)
            ties.append(())
            continue
        top = max([score for _, score in token_scores])
        best = tuple([seat for seat, score in token_scores if score == top])
        if len(best) == 1:
            winners.append(best[0])
            ties.append(())
        else:
            winners.append(streets if streets in best else None)
            ties.append(best)
    # The Lawyer: take control, or (already controlling) earn a +4 at this round's draw.
    lawyer, lawyer_bonus, effects = state.lawyer, None, ()
    if winners[0] is not None:
        if lawyer == winners[0]:
            lawyer_bonus = lawyer
            effects = (Effect("lawyer_favor", lawyer, "lawyer"),)
        else:
            lawyer = winners[0]
            effects = (_CONTROL["lawyer"][lawyer],)
    reveal = RoundResult(
        state.round + 1,
        state.rolls,  # type: ignore[arg-type]
        all_bids,
        (tuple(scores[0]), tuple(scores[1]), tuple(scores[2]), tuple(scores[3])),
        tuple(winners),
        tuple(ties),
        streets,
        effects,
    )
    state = state.evolve(
        phase=_RESOLVING,
        bids=all_bids,
        reveal=reveal,
        hands=tuple(hands),
        played=tuple(played),
        lawyer=lawyer,
        lawyer_bonus=lawyer_bonus,
    )
    return _advance(state, _STEP_SPEAKEASY)


_SYMBOL_SET = frozenset(SYMBOLS)
#: Effects are values: those by which a seat takes control of a token are made once, not each round.
_CONTROL: dict[str, tuple[Effect, ...]] = {
    token: tuple(Effect("control", seat, token) for seat in range(MAX_PLAYERS)) for token in TOKENS
}
#: The steps at which a token's winner takes control of it, in order: (step, token, the token's
#: index in TOKENS, the step that follows).
_CONTROL_STEPS = (
    (_STEP_SPEAKEASY, "speakeasy", TOKENS.index("speakeasy"), _STEP_STREETS),
    (_STEP_STREETS, "streets", TOKENS.index("streets"), _STEP_INVESTIGATOR),
)
#: The index in TOKENS of the token each symbol influences.
_SYMBOL_INDEX = {symbol: TOKENS.index(token) for token, symbol in TOKEN_SYMBOL.items()}


def _note(state: GameState, effect: Effect, **changes: object) -> GameState:
    """The state with ``changes`` made and ``effect`` noted in the round's effects, in one copy."""
    assert state.reveal is not None
    return state.evolve(reveal=state.reveal.noting(effect), **changes)


def _advance(state: GameState, step: Step) -> GameState:
    """Settle the effects from ``step`` on until one needs a player's decision or the round ends.

    Taking control and passing the Investigator change no dice, so they are gathered and made
    in one copy of the state (with the end of the round, when nobody is left to decide), which
    keeps the engine fast.
    """
    reveal = state.reveal
    assert reveal is not None
    winners = reveal.winners
    changes: dict[str, object] = {}
    effects: list[Effect] = []  # noted after the round's effects so far
    paused: Step | None = None
    for at, token, index, following in _CONTROL_STEPS:
        if paused is None and step is at:
            seat = winners[index]
            if seat is not None and state.controller(token) == seat:
                paused = at  # won by the seat that controls it already: its effect waits on their decision
            else:
                if seat is not None:
                    changes[token] = seat
                    effects.append(_CONTROL[token][seat])
                step = following
    holder = state.holder
    if paused is None and step is _STEP_INVESTIGATOR:
        seat = winners[3]
        if seat is not None:
            if holder is None or holder == seat:
                holder = changes["holder"] = state.left_of(seat)
                effects.append(Effect("investigator_pass", seat, "investigator", target=holder))
            elif sum(givable(state, seat)) > 0:
                paused = _STEP_INVESTIGATOR
            else:
                effects.append(Effect("investigator_nothing", seat, "investigator"))
    # The end of the round: the holder takes a die off the Investigator, by choice when there is one.
    on_it = state.investigator_dice
    if paused is None and holder is not None and sum(on_it) > 0:
        colors = on_it.colors()
        if len(colors) > 1 or state.lawyer == holder:
            paused = _STEP_TAKE
        else:
            effects.append(Effect("investigator_take", holder, "investigator", color=colors[0], count=1))
            changes.update(_taking(state, holder, colors[0]))
    if effects:
        changes["reveal"] = reveal.noting(*effects)
    if paused is not None:
        changes["step"] = paused
        return state.evolve_from(changes)
    return _end_round(state, changes)


def _taking(state: GameState, seat: int, color: str) -> dict[str, object]:
    """The changes by which ``seat`` takes a die of ``color`` off the Investigator into their stash."""
    return {
        "investigator_dice": state.investigator_dice.plus(color, -1),
        "stashes": _set(state.stashes, seat, state.stashes[seat].plus(color)),
        "received": _set(state.received, seat, state.received[seat].plus(color)),
    }


def _draw(deck: list[int], discard: list[int], state: GameState, shuffles: int) -> tuple[int | None, int]:
    """Draw the deck's top card, reshuffling the discard pile into a new deck only when needed."""
    if not deck:
        if not discard:
            return None, shuffles
        deck.extend(discard)
        discard.clear()
        random.Random(f"{state.seed}/reshuffle/{shuffles}").shuffle(deck)
        shuffles += 1
    return deck.pop(0), shuffles


def _end_round(state: GameState, changes: Mapping[str, object]) -> GameState:
    """Discard the played favors, draw in seat order, and see whether anyone has won.

    ``changes``, the round's last effects not yet made (field names to values), are made in the
    same copy of the state; of them, only the round's result and the stashes matter here.
    """
    deck, special, shuffles = state.deck, state.special, state.shuffles
    played = state.played
    discarded: list[int] = []
    for cards in played:
        for value in cards:
            if value == SPECIAL_VALUE:
                special += 1
            else:
                discarded.append(value)
    discard = state.discard + tuple(discarded)
    hands = list(state.hands)
    lawyer_bonus = state.lawyer_bonus
    for seat, cards in enumerate(played):
        draws = len(cards)
        if not draws:
            continue
        hand = hands[seat]
        if seat == lawyer_bonus and special > 0:
            special -= 1
            hand += (SPECIAL_VALUE,)
            draws -= 1
        if draws <= len(deck):  # the usual case: the top cards, no reshuffle
            hand += deck[:draws]
            deck = deck[draws:]
        else:
            pile, discards = list(deck), list(discard)
            for _ in range(draws):
                card, shuffles = _draw(pile, discards, state, shuffles)
                if card is not None:
                    hand += (card,)
            deck, discard = tuple(pile), tuple(discards)
        hands[seat] = tuple(sorted(hand))
    reveal = changes.get("reveal", state.reveal)
    assert reveal is not None
    stashes: tuple[Dice, ...] = changes.get("stashes", state.stashes)  # type: ignore[assignment]
    winners: tuple[int, ...] = ()
    if 0 in map(sum, stashes):  # rarely: most rounds have no winner
        winners = tuple([seat for seat, stash in enumerate(stashes) if sum(stash) == 0])
    return state.evolve_from(
        {
            **changes,
            **_NEXT_ROUND[len(state.players)],
            "phase": _FINISHED if winners else _BIDDING,
            "winners": winners,
            "round": state.round + 1,
            "deck": deck,
            "discard": discard,
            "special": special,
            "shuffles": shuffles,
            "hands": tuple(hands),
            "history": state.history + (reveal,),
        }
    )


#: For each number of players, what every round starts with: nothing rolled, bid, played or
#: received, no Lawyer effect, nothing to settle.
_NEXT_ROUND: dict[int, dict[str, object]] = {
    n: {
        "rolls": (None,) * n,
        "bids": (None,) * n,
        "played": ((),) * n,
        "received": (NO_DICE,) * n,
        "lawyer_bonus": None,
        "step": None,
        "reveal": None,
    }
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


def _decider(state: GameState, player: str, step: Step, what: str) -> int:
    """The seat of ``player``, who must be the one asked to decide at ``step`` right now."""
    seat = _seat_of(state, player)
    if state.phase is not _RESOLVING or state.step is not step:
        raise IllegalAction(player, f"nobody is asked {what} now")
    expected = _deciding_seat(state)
    if expected != seat:
        raise IllegalAction(player, f"it is {state.players[expected]}, not you, who decides {what}")  # type: ignore[index]
    return seat


def _exchange(state: GameState, action: ExchangeAtSpeakeasy) -> GameState:
    player = action.player
    seat = _decider(state, player, Step.SPEAKEASY, "the Speakeasy exchange")
    give, take = tuple(action.give), tuple(action.take)
    for color in give + take:
        _check_color(player, color)
    if len(give) != len(take):
        raise IllegalAction(player, f"an exchange swaps as many dice as it takes: you give {len(give)} and take {len(take)}")
    if len(give) > 3:
        raise IllegalAction(player, f"you may exchange at most 3 dice at the Speakeasy, not {len(give)}")
    may_give, on_it = givable(state, seat), state.speakeasy_dice
    for color in COLORS:
        if give.count(color) > may_give.of(color):
            raise IllegalAction(player, f"you cannot give {give.count(color)} {color} dice: you may give {may_give.of(color)}")
        if take.count(color) > on_it.of(color):
            raise IllegalAction(player, f"the Speakeasy holds {on_it.of(color)} {color} dice, not {take.count(color)}")
    gave, took = Dice.from_colors(give), Dice.from_colors(take)
    stash = state.stashes[seat]
    new_stash = Dice(*(s - g + t for s, g, t in zip(stash, gave, took)))
    state = _note(
        state,
        Effect("speakeasy_exchange", seat, "speakeasy", give=give, take=take, count=len(give)),
        stashes=_set(state.stashes, seat, new_stash),
        speakeasy_dice=Dice(*(d + g - t for d, g, t in zip(on_it, gave, took))),
        received=_set(state.received, seat, state.received[seat].add(took)),
    )
    return _advance(state, Step.STREETS)


def _place_on_streets(state: GameState, action: PlaceOnStreets) -> GameState:
    player = action.player
    seat = _decider(state, player, Step.STREETS, "a die for the Streets")
    if action.color is not None:
        color = _check_color(player, action.color)
        if givable(state, seat).of(color) < 1:
            raise IllegalAction(player, f"you have no {color} die that you may place on the Streets")
        state = _note(
            state,
            Effect("streets_place", seat, "streets", color=color, count=1),
            stashes=_set(state.stashes, seat, state.stashes[seat].plus(color, -1)),
            streets_dice=state.streets_dice.plus(color),
        )
    return _advance(state, Step.INVESTIGATOR)


def _choose_investigator_color(state: GameState, action: ChooseInvestigatorColor) -> GameState:
    player = action.player
    seat = _decider(state, player, Step.INVESTIGATOR, "the color for the Investigator")
    color = _check_color(player, action.color)
    count = givable(state, seat).of(color)
    if count < 1:
        raise IllegalAction(player, f"you have no {color} dice that you may put on the Investigator")
    state = _note(
        state,
        Effect("investigator_place", seat, "investigator", color=color, count=count),
        stashes=_set(state.stashes, seat, state.stashes[seat].plus(color, -count)),
        investigator_dice=state.investigator_dice.plus(color, count),
    )
    return _advance(state, Step.TAKE)


def _take(state: GameState, action: TakeFromInvestigator) -> GameState:
    player = action.player
    seat = _decider(state, player, Step.TAKE, "which die to take off the Investigator")
    if action.color is None:
        if state.lawyer != seat:
            raise IllegalAction(player, "only the Lawyer's controller may decline to take a die off the Investigator")
        return _end_round(state, {"reveal": state.reveal.noting(Effect("lawyer_decline", seat, "investigator"))})  # type: ignore[union-attr]
    color = _check_color(player, action.color)
    if state.investigator_dice.of(color) < 1:
        raise IllegalAction(player, f"there is no {color} die on the Investigator")
    effect = Effect("investigator_take", seat, "investigator", color=color, count=1)
    return _end_round(state, {"reveal": state.reveal.noting(effect), **_taking(state, seat, color)})  # type: ignore[union-attr]


# Host adjustments -------------------------------------------------------------------------------


def _place_dice(state: GameState, place: str) -> tuple[str, int | None]:
    """Resolve a place name for MoveDie into (kind, seat)."""
    if place in ("box", "speakeasy", "streets", "investigator"):
        return place, None
    if isinstance(place, str) and place.startswith("stash:"):
        name = place[len("stash:") :]
        if name in state.players:
            return "stash", state.players.index(name)
        raise IllegalAction(HOST, f"there is no player called {name!r}")
    raise IllegalAction(HOST, f"{place!r} is not a place for dice (box, speakeasy, streets, investigator or stash:NAME)")


def _get_dice(state: GameState, kind: str, seat: int | None) -> Dice:
    if kind == "stash":
        return state.stashes[seat]  # type: ignore[index]
    if kind == "box":
        return state.box
    return state.token_dice(kind)


def _with_dice(state: GameState, kind: str, seat: int | None, dice: Dice) -> GameState:
    if kind == "stash":
        # A stash that changes under a roll invalidates that roll (and its sealed bid).
        state = state.evolve(stashes=_set(state.stashes, seat, dice))  # type: ignore[arg-type]
        if state.phase is Phase.BIDDING and state.rolls[seat] is not None:  # type: ignore[index]
            state = state.evolve(rolls=_set(state.rolls, seat, None), bids=_set(state.bids, seat, None))  # type: ignore[arg-type]
        return state
    field = {"box": "box", "speakeasy": "speakeasy_dice", "streets": "streets_dice", "investigator": "investigator_dice"}[kind]
    return state.evolve(**{field: dice})


def _move_die(state: GameState, action: MoveDie) -> GameState:
    color = _check_color(HOST, action.color)
    if state.phase is Phase.RESOLVING:
        raise IllegalAction(HOST, "dice can be adjusted between rounds or while bidding, not while a round resolves")
    src_kind, src_seat = _place_dice(state, action.source)
    dst_kind, dst_seat = _place_dice(state, action.target)
    if (src_kind, src_seat) == (dst_kind, dst_seat):
        raise IllegalAction(HOST, "a die must move to a different place")
    src = _get_dice(state, src_kind, src_seat)
    if src.of(color) < 1:
        raise IllegalAction(HOST, f"there is no {color} die in {action.source}")
    state = _with_dice(state, src_kind, src_seat, src.plus(color, -1))
    return _with_dice(state, dst_kind, dst_seat, _get_dice(state, dst_kind, dst_seat).plus(color))


def _give_favor(state: GameState, action: GiveFavor) -> GameState:
    seat = _seat_of(state, action.player)
    hand = list(state.hands[seat])
    if action.source == "deck":
        deck, discard = list(state.deck), list(state.discard)
        card, shuffles = _draw(deck, discard, state, state.shuffles)
        if card is None:
            raise IllegalAction(HOST, "the favor deck and the discard pile are both empty")
        hand.append(card)
        state = state.evolve(deck=tuple(deck), discard=tuple(discard), shuffles=shuffles)
    elif action.source == "special":
        if state.special < 1:
            raise IllegalAction(HOST, "the special stack of +4 cards is empty")
        hand.append(SPECIAL_VALUE)
        state = state.evolve(special=state.special - 1)
    elif action.source == "discard":
        discard = list(state.discard)
        if action.value not in discard:
            raise IllegalAction(HOST, f"there is no favor card of value {action.value} in the discard pile")
        discard.remove(action.value)
        hand.append(action.value)  # type: ignore[arg-type]
        state = state.evolve(discard=tuple(discard))
    else:
        raise IllegalAction(HOST, f"a favor card comes from the deck, the special stack or the discard pile, not {action.source!r}")
    return state.evolve(hands=_set(state.hands, seat, tuple(sorted(hand))))


def _take_favor(state: GameState, action: TakeFavor) -> GameState:
    seat = _seat_of(state, action.player)
    hand = list(state.hands[seat])
    if isinstance(action.value, bool) or action.value not in hand:
        raise IllegalAction(HOST, f"{action.player} has no favor card of value {action.value} in hand")
    bids = state.bids[seat]
    if bids is not None and hand.count(action.value) <= sum(1 for b in bids if b.favor == action.value):
        raise IllegalAction(HOST, f"{action.player}'s card of value {action.value} is played in a sealed bid")
    if action.target == "special":
        if action.value != SPECIAL_VALUE:
            raise IllegalAction(HOST, "only +4 cards go back to the special stack")
        state = state.evolve(special=state.special + 1)
    elif action.value == SPECIAL_VALUE:
        raise IllegalAction(HOST, "a +4 card goes back to the special stack")
    elif action.target == "discard":
        state = state.evolve(discard=state.discard + (action.value,))
    elif action.target == "deck":
        state = state.evolve(deck=(action.value,) + state.deck)
    else:
        raise IllegalAction(HOST, f"a favor card goes to the discard pile, the special stack or the deck, not {action.target!r}")
    hand.remove(action.value)
    return state.evolve(hands=_set(state.hands, seat, tuple(hand)))


def _end_game(state: GameState, action: EndGame) -> GameState:
    return state.evolve(phase=Phase.FINISHED, ended_by_host=True, step=None)


_HANDLERS = {
    SubmitRoll: _submit_roll,
    SubmitBids: _submit_bids,
    ExchangeAtSpeakeasy: _exchange,
    PlaceOnStreets: _place_on_streets,
    ChooseInvestigatorColor: _choose_investigator_color,
    TakeFromInvestigator: _take,
    MoveDie: _move_die,
    GiveFavor: _give_favor,
    TakeFavor: _take_favor,
    EndGame: _end_game,
}


# Accounting, for tests and the session's self-checks ---------------------------------------------


def dice_in_play(state: GameState) -> Dice:
    """All dice counted: stashes, tokens and the box (always 9 of each color)."""
    total = state.box.add(state.speakeasy_dice).add(state.streets_dice).add(state.investigator_dice)
    for stash in state.stashes:
        total = total.add(stash)
    return total


def favor_cards(state: GameState) -> int:
    """All favor cards counted: deck, discard, hands, played this round, special stack."""
    return len(state.deck) + len(state.discard) + sum(map(len, state.hands)) + sum(map(len, state.played)) + state.special
