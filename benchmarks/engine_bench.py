"""How fast the engine plays: bot games per second and replayed games per second.

Run on one core for figures that compare: ``taskset -c 0 python benchmarks/engine_bench.py``
(random and greedy bots, 3 and 4 players; then replays). Times are CPU time of this process
(time.process_time), so other work on the machine disturbs them less than wall-clock time would;
``--repeat N`` keeps the best of N runs of each figure, the one the machine disturbed least.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.replay import play, export  # noqa: E402
from companion.simulate import play_game  # noqa: E402
from companion.bots import make_bot  # noqa: E402
from companion.engine import apply, new_game  # noqa: E402


def bot_games_per_second(players: int, bot: str, games: int, seed: int = 1) -> float:
    """Whole games per second, every seat played by a bot of the kind called ``bot``."""
    bots = [make_bot(bot) for _ in range(players)]
    start = time.process_time()
    for number in range(games):
        play_game(bots, seed * 1_000_003 + number)
    return games / (time.process_time() - start)


def replay_games_per_second(players: int, games: int) -> tuple[float, float]:
    """Games per second through the replay format (parse and play a document), and through the
    bare engine (apply the recorded actions)."""
    bots = [make_bot("random") for _ in range(players)]
    recorded = [play_game(bots, number) for number in range(games)]
    documents = [export(game.state.players, game.state.seed, game.actions) for game in recorded]
    start = time.process_time()
    for game in recorded:
        state = new_game(game.state.players, game.state.seed)
        for action in game.actions:
            state = apply(state, action)
    bare = games / (time.process_time() - start)
    start = time.process_time()
    for doc in documents:
        play(doc)
    return games / (time.process_time() - start), bare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="bot games per figure (default 1000)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each figure, the best kept (default 1)")
    parser.add_argument("--no-replay", action="store_true", help="bot games only")
    args = parser.parse_args()
    runs = range(max(args.repeat, 1))
    for players in (3, 4):
        for bot in ("random", "greedy"):
            rate = max(bot_games_per_second(players, bot, args.games) for _ in runs)
            print(f"{players} players, {bot:6} bots: {rate:7.0f} games/s")
    if args.no_replay:
        return
    for players in (3, 4):
        best = [replay_games_per_second(players, max(args.games // 4, 1)) for _ in runs]
        documents, bare = max(d for d, _ in best), max(b for _, b in best)
        print(f"{players} players, replay: {documents:7.0f} games/s from documents, {bare:7.0f} games/s of bare actions")


if __name__ == "__main__":
    main()
