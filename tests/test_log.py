"""The SQLite event log: durable settings, reopen and rebuild, list, resume, export, and host
adjustments logged and replayed like any other action."""

from __future__ import annotations

import sqlite3

import pytest

from companion.actions import EndGame, GiveFavor, MoveDie, TakeFavor, stash_place
from companion.bots import GreedyBot, RandomBot
from companion.engine import IllegalAction, apply, dice_in_play, new_game
from companion.log import EventLog, GameSetup
from companion.replay import play
from companion.simulate import play_game

PLAYERS = ("Ann", "Bob", "Cat")


@pytest.fixture
def path(tmp_path):
    return tmp_path / "games.sqlite"


def _record(log: EventLog, seed: int, players=PLAYERS, actions=None):
    """Log a game and return (game id, final state): the given actions from a game set up with
    ``seed``, or else a whole bot game (whose favor deck is shuffled from a seed it draws)."""
    if actions is None:
        bots = [RandomBot(), GreedyBot(), RandomBot(), GreedyBot()][: len(players)]
        outcome = play_game(bots, seed, names=players)
        actions, seed = outcome.actions, outcome.state.seed
    setup = GameSetup(tuple(players), seed, (3,) * len(players))
    game_id = log.create_game(setup)
    state = setup.start()
    for seq, action in enumerate(actions, start=1):
        state = apply(state, action)
        log.append(game_id, seq, action)
    return game_id, state


def test_the_log_uses_a_wal_journal_and_full_synchronous_commits(path):
    log = EventLog(path)
    assert log._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2
    log.close()
    # The journal mode is kept in the file itself.
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_reopening_the_database_rebuilds_the_identical_state(path):
    log = EventLog(path)
    game_id, state = _record(log, 5)
    log.close()
    rebuilt, count = EventLog(path).rebuild(game_id)
    assert rebuilt == state and count > 0


def test_the_games_are_listed_newest_first_with_their_events_and_result(path):
    log = EventLog(path)
    first, finished = _record(log, 1)
    second = log.create_game(GameSetup(("Ann", "Bob"), 9, (3, 3)))
    records = log.games()
    assert [r.id for r in records][:2] == [second, first]
    assert records[0].events == 0 and not records[0].finished
    by_id = {r.id: r for r in records}
    assert by_id[first].finished == finished.finished
    assert by_id[first].winners == tuple(finished.players[s] for s in finished.winners)
    assert by_id[first].setup.players == PLAYERS


def test_a_game_is_resumed_where_it_stopped(path):
    log = EventLog(path)
    outcome = play_game([RandomBot(), RandomBot(), RandomBot()], 12, names=PLAYERS)
    half = len(outcome.actions) // 2
    game_id, _ = _record(log, outcome.state.seed, actions=outcome.actions[:half])
    log.close()
    log = EventLog(path)
    state, seq = log.rebuild(game_id)
    for number, action in enumerate(outcome.actions[half:], start=seq + 1):
        state = apply(state, action)
        log.append(game_id, number, action)
    assert state == outcome.state
    assert EventLog(path).rebuild(game_id)[0] == outcome.state


def test_the_replay_of_an_export_gives_the_same_state(path):
    log = EventLog(path)
    for seed in range(4):
        game_id, state = _record(log, seed, players=PLAYERS[: 2 + seed % 2])
        replayed = play(log.export(game_id))
        assert replayed.stashes == state.stashes and replayed.hands == state.hands
        assert replayed.history == state.history and replayed.winners == state.winners
        assert replayed == state


def test_an_event_number_cannot_be_written_twice(path):
    log = EventLog(path)
    game_id, _ = _record(log, 3)
    with pytest.raises(sqlite3.IntegrityError):
        log.append(game_id, 1, EndGame())


def test_host_adjustments_are_logged_and_replayed(path):
    log = EventLog(path)
    game_id = log.create_game(GameSetup(PLAYERS, 4, (3, 3, 3)))
    state = new_game(PLAYERS, 4)
    adjustments = [
        MoveDie("red", "box", stash_place("Ann")),
        MoveDie("white", stash_place("Bob"), "streets"),
        MoveDie("blue", "speakeasy", "investigator"),
        MoveDie("white", "streets", stash_place("Cat")),
        GiveFavor("Ann", "special"),
        GiveFavor("Bob", "deck"),
        TakeFavor("Ann", 4, "special"),
        TakeFavor("Cat", state.hands[2][0]),
        GiveFavor("Cat", "discard", state.hands[2][0]),
        EndGame(),
    ]
    for seq, action in enumerate(adjustments, start=1):
        state = apply(state, action)
        log.append(game_id, seq, action)
    log.close()
    rebuilt, count = EventLog(path).rebuild(game_id)
    assert count == len(adjustments) and rebuilt == state
    assert rebuilt.finished and rebuilt.ended_by_host and rebuilt.winners == ()
    assert dice_in_play(rebuilt) == (9, 9, 9)
    assert rebuilt.stashes[0].red == 3 and rebuilt.stashes[1].white == 1 and rebuilt.stashes[2].white == 3
    assert rebuilt.investigator_dice.blue == 1
    with pytest.raises(IllegalAction):
        apply(rebuilt, MoveDie("red", "box", "streets"))
