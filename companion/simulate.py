"""Bot games, many at once: win rates, game length and engine speed.

``gangster-dice simulate --games N --players K --seed S --bots random,greedy`` plays N games of
K bots through the real engine and prints win rates by seat and by bot, the mean number of
rounds, games per second, and how many games hit the round cap (a game that would never end is
stopped there and reported, never left to hang). The same seed gives the same games.

Bots sit in the order given, repeated to fill the seats and rotated by one seat each game, so
that every bot plays every seat and seat and bot effects can be told apart.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from typing import Sequence

from .bots import Bot, make_bot, seat_view
from .actions import Action
from .engine import apply, awaiting, new_game
from .state import GameState, Phase

DEFAULT_ROUND_CAP = 200

# The phases looked up once, not on every turn of a game's loop.
_BIDDING, _FINISHED = Phase.BIDDING, Phase.FINISHED


@dataclass(frozen=True)
class GameOutcome:
    """One bot game: its final state, who sat where, whether the round cap stopped it, and the
    actions played (to replay or log it)."""

    state: GameState
    bots: tuple[str, ...]
    capped: bool
    actions: tuple[Action, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        return self.state.winners


def play_game(
    bots: Sequence[Bot], seed: int, round_cap: int = DEFAULT_ROUND_CAP, names: Sequence[str] | None = None
) -> GameOutcome:
    """Play one game, bot ``i`` in seat ``i``, until someone wins or ``round_cap`` rounds pass.

    Players are called ``names`` (by default after their bots: random-1, greedy-2, ...).

    Each round every seat rolls, then every seat bids (rolls lie face up, so bids may use
    them), then the round's decisions are asked of whoever must make them. All randomness
    comes from ``seed``.
    """
    rng = random.Random(seed)
    played: list[Action] = []
    record = played.append
    acts = [bot.act for bot in bots]
    if names is None:
        names = [f"{bot.name}-{seat + 1}" for seat, bot in enumerate(bots)]
    state = new_game(names, rng.getrandbits(32))
    while state.phase is not _FINISHED and state.round < round_cap:
        if state.phase is _BIDDING:
            before = len(played)
            for _ in range(2):  # first all the rolls, then all the bids
                for seat, act in enumerate(acts):
                    action = act(seat_view(state, seat), rng)
                    if action is not None:
                        state = apply(state, action)
                        record(action)
            if len(played) == before:  # a bot that never bids would loop forever
                raise RuntimeError(f"round {state.round + 1}: no bot rolled or bid")
        else:
            (seat,) = awaiting(state)  # the one seat asked to decide
            action = acts[seat](seat_view(state, seat), rng)
            if action is None:
                raise RuntimeError(f"{state.players[seat]} has a decision to make but made none")
            state = apply(state, action)
            record(action)
    return GameOutcome(state, tuple(bot.name for bot in bots), state.phase is not _FINISHED, tuple(played))


@dataclass
class Tally:
    """Results of many games: wins by seat and by bot, rounds, capped games, time taken."""

    players: int
    games: int = 0
    rounds: int = 0
    capped: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    seat_wins: list[int] = field(default_factory=list)
    bot_wins: dict[str, int] = field(default_factory=dict)
    bot_seats: dict[str, int] = field(default_factory=dict)

    def add(self, outcome: GameOutcome) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players
        self.games += 1
        self.rounds += outcome.state.round
        self.capped += outcome.capped
        for name in outcome.bots:
            self.bot_seats[name] = self.bot_seats.get(name, 0) + 1
            self.bot_wins.setdefault(name, 0)
        for seat in outcome.winners:
            self.seat_wins[seat] += 1
            self.bot_wins[outcome.bots[seat]] += 1

    def report(self) -> str:
        games = max(self.games, 1)
        lines = [f"{self.games} games of {self.players} players"]
        lines.append("win rate by seat: " + ", ".join(f"seat {s + 1} {w / games:.1%}" for s, w in enumerate(self.seat_wins)))
        lines.append(
            "win rate by bot (per seat played): "
            + ", ".join(f"{name} {self.bot_wins[name] / self.bot_seats[name]:.1%}" for name in self.bot_seats)
        )
        lines.append(f"mean rounds: {self.rounds / games:.2f}")
        if self.seconds > 0 and self.cpu_seconds > 0:
            # CPU time too: on a busy machine the wall clock also counts other programs' turns.
            lines.append(
                f"games per second: {self.games / self.seconds:.0f} "
                f"({self.games / self.cpu_seconds:.0f} per second of this process's CPU time)"
            )
        else:
            lines.append("games per second: -")
        lines.append(f"games stopped at the round cap: {self.capped}")
        return "\n".join(lines)


def simulate(
    games: int, players: int, seed: int, bot_names: Sequence[str] = ("random",), round_cap: int = DEFAULT_ROUND_CAP
) -> Tally:
    """Play ``games`` bot games and tally them; deterministic for ``seed`` (but for the timing)."""
    if not 2 <= players <= 4:
        raise ValueError(f"a game needs 2 to 4 players, not {players}")
    if not bot_names:
        raise ValueError("name at least one bot")
    kinds = [make_bot(name) for name in bot_names]
    rng = random.Random(seed)
    tally = Tally(players)
    start, cpu_start = time.perf_counter(), time.process_time()
    for number in range(games):
        seats = [kinds[(number + seat) % len(kinds)] for seat in range(players)]
        tally.add(play_game(seats, rng.getrandbits(64), round_cap))
    tally.seconds = time.perf_counter() - start
    tally.cpu_seconds = time.process_time() - cpu_start
    return tally


def _run(args: argparse.Namespace) -> int:
    try:
        tally = simulate(args.games, args.players, args.seed, args.bots.split(","), args.round_cap)
    except ValueError as error:
        raise SystemExit(f"simulate: {error}")
    print(tally.report())
    return 0


def add_command(subparsers: argparse._SubParsersAction) -> None:
    """Register ``simulate`` on the command line's subcommands."""
    parser = subparsers.add_parser("simulate", help="play bot games and print win rates and speed")
    parser.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument("--players", type=int, default=4, help="players per game, 2 to 4 (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of all the games (default 0)")
    parser.add_argument("--bots", default="random", help="bot kinds in seat order, comma separated: random, greedy")
    parser.add_argument(
        "--round-cap", type=int, default=DEFAULT_ROUND_CAP, help=f"stop a game after this many rounds (default {DEFAULT_ROUND_CAP})"
    )
    parser.set_defaults(run=_run)
