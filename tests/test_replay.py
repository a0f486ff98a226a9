"""The replay contract (shared/spec/replay.md), tested through the real command.

Every document is run as ``python -m companion replay FILE`` in a subprocess; the subprocesses of
this module are started together (the command's start-up dominates) and their results checked
one test at a time.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.bots import GreedyBot, RandomBot
from companion.replay import export, state_json
from companion.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent

EXAMPLE: dict[str, Any] = {
    "players": ["Ann", "Bob", "Cat"],
    "seed": 7,
    "favor_deck": [2, 1, 0, 3, 1, 2, 1, 1, 0, 2, 3, 1],
    "hand_size": 3,
    "rounds": [
        {
            "roll": {
                "Ann": {"white": ["finger", "gavel"], "red": ["gun", "gun"], "blue": ["cocktail", "finger"]},
                "Bob": {"white": ["gun", "gavel"], "red": ["finger", "gun"], "blue": ["finger", "gavel"]},
                "Cat": {"white": ["finger", "finger"], "red": ["cocktail", "gun"], "blue": ["gun", "cocktail"]},
            },
            "bids": {
                "Ann": [{"symbol": "gun", "favor": 2}],
                "Bob": [{"symbol": "finger", "favor": 1}],
                "Cat": [{"symbol": "cocktail", "favor": 0}],
            },
            "choices": {},
        }
    ],
}

EXAMPLE_OUTPUT = {
    "round": 1,
    "finished": False,
    "winners": [],
    "players": {
        "Ann": {"stash": {"white": 2, "red": 2, "blue": 2}, "hand": [1, 2, 3]},
        "Bob": {"stash": {"white": 2, "red": 2, "blue": 2}, "hand": [1, 1, 3]},
        "Cat": {"stash": {"white": 2, "red": 2, "blue": 2}, "hand": [0, 1, 2]},
    },
    "tokens": {
        "lawyer": {"controller": None},
        "speakeasy": {"controller": "Cat", "dice": {"white": 1, "red": 1, "blue": 1}},
        "streets": {"controller": "Ann", "dice": {"white": 0, "red": 0, "blue": 0}},
        "investigator": {"holder": "Cat", "dice": {"white": 0, "red": 0, "blue": 0}},
    },
    "favor_deck_size": 0,
    "favor_discard_size": 3,
    "special_stack_size": 6,
    "history": [
        {
            "round": 1,
            "scores": {"lawyer": {}, "speakeasy": {"Cat": 2}, "streets": {"Ann": 4}, "investigator": {"Bob": 3}},
            "winners": {"lawyer": None, "speakeasy": "Cat", "streets": "Ann", "investigator": "Bob"},
        }
    ],
}


def _bot_game(seed: int, players: int = 3, kinds: str = "rg") -> tuple[dict[str, Any], Any]:
    """A finished bot game as a replay document, and its final state."""
    bots = [RandomBot() if kinds[i % len(kinds)] == "r" else GreedyBot() for i in range(players)]
    outcome = play_game(bots, seed)
    return export(outcome.state.players, outcome.state.seed, outcome.actions), outcome.state


def _find(predicate, players: int = 3) -> tuple[dict[str, Any], int, Any]:
    """The first bot game with a round matching ``predicate``: (document, round index, state)."""
    for seed in range(500):
        doc, state = _bot_game(seed, players)
        for index, round_doc in enumerate(doc["rounds"]):
            if predicate(round_doc):
                return doc, index, state
    raise AssertionError("no bot game has such a round")


def _cases() -> dict[str, dict[str, Any]]:
    cases: dict[str, Any] = {"example": EXAMPLE}

    doc = copy.deepcopy(EXAMPLE)
    doc["rounds"][0]["bids"]["Ann"] = [{"symbol": "cocktail", "favor": 2}]
    doc["rounds"][0]["roll"]["Ann"]["blue"] = ["finger", "finger"]
    cases["bid_not_rolled"] = doc

    doc = copy.deepcopy(EXAMPLE)
    doc["rounds"][0]["bids"]["Bob"] = [{"symbol": "finger", "favor": 2}]
    cases["favor_not_in_hand"] = doc

    doc = copy.deepcopy(EXAMPLE)
    doc["rounds"][0]["roll"]["Cat"]["red"] = ["gun"]
    cases["roll_wrong_count"] = doc

    doc = copy.deepcopy(EXAMPLE)
    doc["rounds"][0]["choices"] = {"streets": "red"}
    cases["choice_without_occasion"] = doc

    doc = copy.deepcopy(EXAMPLE)
    doc["favor_deck"] = doc["favor_deck"][:8]  # Ann, Bob, Cat, Ann, Bob, Cat, Ann, Bob: Cat is short
    cases["deck_too_small"] = doc

    doc = copy.deepcopy(EXAMPLE)
    doc["rounds"][0]["choices"] = {"streets": None, "speakeasy": None, "lawyer_decline": False}
    cases["null_choices_are_absent"] = doc

    doc, index, _ = _find(lambda r: "investigator_color" in r["choices"])
    del doc["rounds"][index]["choices"]["investigator_color"]
    doc["rounds"] = doc["rounds"][: index + 1]
    cases["missing_investigator_color"] = doc
    cases["missing_investigator_color_round"] = index + 1  # type: ignore[assignment]

    doc, state = _bot_game(3)
    assert state.finished
    cases["full_game"] = doc
    ended = copy.deepcopy(doc)
    ended["rounds"].append(ended["rounds"][-1])
    cases["round_after_end"] = ended

    doc, state = _bot_game(4, players=2)
    cases["two_players"] = doc
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, subprocess.CompletedProcess]:
    """Run every case's document through the command, all at once."""
    folder = tmp_path_factory.mktemp("replay")
    started = {}
    for name, doc in CASES.items():
        if not isinstance(doc, dict):
            continue
        path = folder / f"{name}.json"
        path.write_text(json.dumps(doc))
        started[name] = subprocess.Popen(
            [sys.executable, "-m", "companion", "replay", str(path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    results = {}
    for name, process in started.items():
        out, err = process.communicate(timeout=120)
        results[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return results


def _error_line(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


def test_the_spec_example_gives_exactly_the_spec_output(runs):
    run = runs["example"]
    assert run.returncode == 0 and run.stderr == ""
    assert json.loads(run.stdout) == EXAMPLE_OUTPUT


def test_the_output_is_one_json_object_on_one_line(runs):
    assert runs["example"].stdout.count("\n") == 1


def test_null_choices_and_a_false_lawyer_decline_count_as_absent(runs):
    assert runs["null_choices_are_absent"].returncode == 0
    assert json.loads(runs["null_choices_are_absent"].stdout) == EXAMPLE_OUTPUT


@pytest.mark.parametrize(
    "case,round_no,player,words",
    [
        ("bid_not_rolled", 1, "Ann", "cocktail"),
        ("favor_not_in_hand", 1, "Bob", "favor"),
        ("roll_wrong_count", 1, "Cat", "red"),
        ("choice_without_occasion", 1, "Ann", "streets"),
        ("deck_too_small", 0, "Cat", "favor deck"),
    ],
)
def test_an_error_exits_2_with_one_stderr_line_naming_round_player_and_what(runs, case, round_no, player, words):
    line = _error_line(runs[case])
    assert f"round {round_no}" in line and player in line and words in line


def test_a_missing_investigator_color_is_an_error(runs):
    line = _error_line(runs["missing_investigator_color"])
    round_no = CASES["missing_investigator_color_round"]
    assert f"round {round_no}:" in line and "investigator_color" in line
    assert any(name in line for name in CASES["missing_investigator_color"]["players"])


def test_a_round_after_the_game_has_ended_is_an_error(runs):
    line = _error_line(runs["round_after_end"])
    rounds = len(CASES["round_after_end"]["rounds"])
    assert f"round {rounds}:" in line and "ended" in line
    assert any(name in line for name in CASES["round_after_end"]["players"])


def test_a_full_game_plays_to_its_end(runs):
    run = runs["full_game"]
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    _, state = _bot_game(3)
    assert out == state_json(state)
    assert out["finished"] is True and out["winners"]
    assert out["round"] == len(CASES["full_game"]["rounds"]) == len(out["history"])
    for name in out["winners"]:
        assert out["players"][name]["stash"] == {"white": 0, "red": 0, "blue": 0}
    seats = CASES["full_game"]["players"]
    assert out["winners"] == sorted(out["winners"], key=seats.index)


def test_every_token_and_every_dice_map_is_always_complete(runs):
    for name in ("example", "full_game", "two_players"):
        out = json.loads(runs[name].stdout)
        assert list(out["tokens"]) == ["lawyer", "speakeasy", "streets", "investigator"]
        maps = [p["stash"] for p in out["players"].values()]
        maps += [t["dice"] for k, t in out["tokens"].items() if k != "lawyer"]
        assert all(list(m) == ["white", "red", "blue"] for m in maps)
        for entry in out["history"]:
            assert list(entry["scores"]) == list(entry["winners"]) == ["lawyer", "speakeasy", "streets", "investigator"]
        for player in out["players"].values():
            assert player["hand"] == sorted(player["hand"])


def test_two_player_scores_hold_each_player_once_per_token(runs):
    out = json.loads(runs["two_players"].stdout)
    doc = CASES["two_players"]
    for entry, round_doc in zip(out["history"], doc["rounds"]):
        for name in doc["players"]:
            showing = {symbol for faces in round_doc["roll"][name].values() for symbol in faces}
            bids_on = [token for token in entry["scores"] if name in entry["scores"][token]]
            # two bids on two symbols, one when the dice show a single symbol; each token once
            assert len(bids_on) == min(2, len(showing)), (entry["round"], name, bids_on)


# The same contract, in-process, for the cases that need no new process ---------------------------


def _replay_error(doc: dict[str, Any]) -> str:
    from companion.replay import ReplayError, play

    with pytest.raises(ReplayError) as info:
        play(doc)
    assert "\n" not in str(info.value)
    return str(info.value)


def test_a_short_favor_deck_is_reshuffled_with_the_seed_when_it_runs_out():
    from companion.replay import play

    def outcome(seed: int) -> dict[str, Any]:
        doc = dict(copy.deepcopy(EXAMPLE), seed=seed, favor_deck=[2, 1, 0, 3, 1, 2, 1, 1, 0, 2])
        return state_json(play(doc))

    out = outcome(7)
    # 9 cards dealt, one left: Ann draws it (a 2); Bob's draw finds the deck empty and the
    # discard pile (the three played cards 2, 1, 0) becomes the new deck.
    assert out["players"]["Ann"]["hand"] == [1, 2, 3]
    assert out["favor_deck_size"] == 1 and out["favor_discard_size"] == 0
    drawn = sorted(out["players"]["Bob"]["hand"][:] + out["players"]["Cat"]["hand"])
    for card in (1, 1, 0, 2):  # what Bob and Cat kept
        drawn.remove(card)
    assert len(drawn) == 2 and set(drawn) <= {0, 1, 2}
    assert outcome(7) == out  # same file, same output
    assert len({json.dumps(outcome(seed)) for seed in range(10)}) > 1  # the seed orders the reshuffle


def test_investigator_take_may_name_the_only_color_and_no_other():
    from companion.replay import play

    doc, index, _ = _find(
        lambda r: "investigator_color" in r["choices"] and "investigator_take" not in r["choices"] and "lawyer_decline" not in r["choices"]
    )
    doc["rounds"] = doc["rounds"][: index + 1]
    expected = state_json(play(doc))
    color = doc["rounds"][index]["choices"]["investigator_color"]
    named = copy.deepcopy(doc)
    named["rounds"][index]["choices"]["investigator_take"] = color
    # One color only on the Investigator (else the bots' game would have named it): taken by itself.
    assert state_json(play(named)) == expected
    wrong = copy.deepcopy(doc)
    wrong["rounds"][index]["choices"]["investigator_take"] = "green"
    assert f"round {index + 1}" in _replay_error(wrong)


def test_an_unknown_choice_key_is_an_error():
    doc = copy.deepcopy(EXAMPLE)
    doc["rounds"][0]["choices"] = {"bribe": "red"}
    assert "round 1" in _replay_error(doc) and "bribe" in _replay_error(doc)


def test_a_speakeasy_exchange_of_four_is_an_error():
    doc, index, _ = _find(lambda r: "speakeasy" in r["choices"])
    doc["rounds"] = doc["rounds"][: index + 1]
    doc["rounds"][index]["choices"]["speakeasy"] = {"give": ["white"] * 4, "take": ["red"] * 4}
    line = _replay_error(doc)
    assert f"round {index + 1}" in line and "3" in line


def test_an_exchange_with_a_missing_list_counts_it_as_empty():
    doc, index, _ = _find(lambda r: "speakeasy" in r["choices"])
    doc["rounds"] = doc["rounds"][: index + 1]
    del doc["rounds"][index]["choices"]["speakeasy"]["take"]
    assert "take 0" in _replay_error(doc)


def test_a_missing_seed_or_a_bad_player_list_is_an_error():
    assert "seed" in _replay_error({k: v for k, v in EXAMPLE.items() if k != "seed"})
    assert "players" in _replay_error(dict(EXAMPLE, players="Ann"))
    assert "Ann" in _replay_error(dict(EXAMPLE, players=["Ann", "Ann", "Cat"]))


def test_investigator_take_is_required_only_when_several_colors_are_on_the_investigator():
    from companion.replay import ReplayError, play

    required = 0
    for seed in range(200):
        doc, _ = _bot_game(seed)
        for index, round_doc in enumerate(doc["rounds"]):
            if "investigator_take" not in round_doc["choices"]:
                continue
            doc["rounds"] = doc["rounds"][: index + 1]
            expected = state_json(play(doc))
            taken = round_doc["choices"].pop("investigator_take")
            try:
                out = state_json(play(doc))
            except ReplayError as error:
                assert f"round {index + 1}" in str(error) and "investigator_take is required" in str(error)
                required += 1
            else:  # one color only (the holder could have declined with the Lawyer): taken by itself
                assert out == expected and taken
            break
        if required >= 3:
            break
    assert required >= 3


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    # `python -m companion replay GAME.json | head -c 0`: the reader of our output is gone.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE))
    process = subprocess.Popen([sys.executable, "-m", "companion", "replay", str(path)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert stderr == ""
