"""The session: lobby, turns, refusals that change nothing, idempotency, versions, host log and
undo, proposed rolls, change notification, and resuming from the database."""

from __future__ import annotations

import random
import threading
import time

import pytest

from companion.dice import Roll
from companion.log import EventLog
from companion.session import Refusal, Session
from companion.views import SPECTATOR, TABLE


def fresh(tmp_path, names=("Ann", "Bob", "Cy"), seed=7) -> tuple[Session, list[str]]:
    session = Session(EventLog(tmp_path / "t.sqlite3"), rng=random.Random(1))
    tokens = [session.join(n).token for n in names]
    session.start("tutorial", seed=seed)
    return session, tokens


def legal_bids(me: dict, roll: dict, two_player: bool) -> list[dict]:
    """Bids the rules accept for this roll and hand: the first symbols showing, the first cards."""
    showing = []
    for faces in roll.values():
        for symbol in faces:
            if symbol not in showing:
                showing.append(symbol)
    hand = list(me["hand"])
    bids = []
    for symbol in showing[: me["bids_required"]]:
        bids.append({"symbol": symbol, "favor": hand.pop(0) if hand else None})
    return bids


def roll_and_bid(session: Session, seat: int) -> None:
    proposal = session.roll_for_me(seat)
    assert session.act(seat, {"kind": "roll", "roll": proposal.roll.as_dict()})[0] == 200
    me = session.view_for(seat)["me"]
    assert session.act(seat, {"kind": "bid", "bids": legal_bids(me, proposal.roll.as_dict(), False)})[0] == 200


def decide(session: Session) -> bool:
    """Answer the pending decision with the simplest legal choice; False when none is pending."""
    state = session.state
    view = session.view_for(None, viewer=TABLE)
    if view["decision"] is None:
        return False
    seat = state.players.index(view["decision"]["player"])
    d = session.view_for(seat)["me"]["decision"]
    kind = d["kind"]
    if kind == "speakeasy":
        action = {"kind": "speakeasy", "give": [], "take": []}
    elif kind == "streets":
        action = {"kind": "streets", "color": None}
    elif kind == "investigator_color":
        action = {"kind": "investigator_color", "color": d["options"][0]}
    else:
        action = {"kind": "investigator_take", "color": d["options"][0] if d["options"] else None}
    status, body = session.act(seat, action, version=session.version)
    assert status == 200, body
    return True


def play_round(session: Session) -> None:
    for seat in range(len(session.state.players)):
        roll_and_bid(session, seat)
    while decide(session):
        pass


def snapshot(session: Session) -> tuple:
    return session.version, session.state, session.seq, [session.view_for(s) for s in range(len(session.lobby.seats))]


def test_join_seats_in_order_with_colors_and_checks_names(tmp_path):
    session = Session(EventLog(tmp_path / "t.sqlite3"))
    a = session.join("  Ann  ")
    assert (a.name, a.seat, a.color) == ("Ann", 0, "yellow")
    assert session.join("Bob").color == "red"
    for bad in ("", "   ", "x" * 21, "ann", "A\x00n", None, 5):
        with pytest.raises(Refusal) as refused:
            session.join(bad)
        assert refused.value.status == 400 and refused.value.message
    assert session.join("x" * 20).color == "blue"
    assert session.join("Dee").color == "green"
    full = session.join("Eve")
    assert full.spectator and full.token is None
    assert session.seat_for_token(a.token) == 0
    assert session.seat_for_token("not-a-token") is None


def test_start_needs_two_players_and_late_joiners_watch(tmp_path):
    session = Session(EventLog(tmp_path / "t.sqlite3"))
    session.join("Ann")
    with pytest.raises(Refusal) as refused:
        session.start("tutorial")
    assert refused.value.status == 409
    session.join("Bob")
    session.start("tutorial")
    assert session.state.hand_sizes == (3, 3)
    late = session.join("Cy")
    assert late.spectator
    assert session.state.players == ("Ann", "Bob")


def test_characters_mode_assigns_characters_and_hand_sizes(tmp_path):
    session = Session(EventLog(tmp_path / "t.sqlite3"), rng=random.Random(3))
    for n in ("Ann", "Bob", "Cy"):
        session.join(n)
    with pytest.raises(Refusal):
        session.start("characters", {"Ann": "Nobody"})
    with pytest.raises(Refusal):
        session.start("characters", {"Ann": "Franky", "Bob": "Franky"})
    with pytest.raises(Refusal):
        session.start("characters", {"Ann": "Franky"}, {"Bob": -1})
    assert not session.started
    session.start("characters", {"Ann": "Franky"}, {"Bob": 5})
    assert session.state.characters[0] == "Franky"
    assert len(set(session.state.characters)) == 3 and None not in session.state.characters
    assert session.state.hand_sizes == (3, 5, 3)
    assert session.view_for(0)["lobby"]["characters"]["Ann"] == "Franky"


def test_refusals_change_nothing(tmp_path):
    session, _ = fresh(tmp_path)
    roll = session.roll_for_me(0).roll.as_dict()
    before = snapshot(session)
    cases = [
        (None, {"kind": "roll", "roll": roll}, 403),
        (0, {"kind": "roll", "player": "Bob", "roll": roll}, 403),
        (0, {"kind": "nonsense"}, 400),
        (0, ["not", "an", "object"], 400),
        (0, {"kind": "bid", "bids": [{"symbol": "gun", "favor": 1}]}, 422),  # roll first
        (0, {"kind": "roll", "roll": {"white": ["gun"]}}, 422),  # not the stash
        (0, {"kind": "streets", "color": "red"}, 409),  # nobody decides now
        (0, {"kind": "move_die", "color": "red", "source": "box", "target": "streets"}, 403),
    ]
    for seat, action, status in cases:
        got, body = session.act(seat, action, version=session.version)
        assert got == status, (action, body)
        assert len(body["error"]) > 5 and body["error"].endswith(".")
        assert snapshot(session) == before


def test_same_request_id_applies_once(tmp_path):
    session, _ = fresh(tmp_path)
    roll = session.roll_for_me(0).roll.as_dict()
    first = session.act(0, {"kind": "roll", "roll": roll}, request_id="r-1")
    version, seq = session.version, session.seq
    again = session.act(0, {"kind": "roll", "roll": roll}, request_id="r-1")
    assert first == again == (200, {"ok": True, "version": version})
    assert (session.version, session.seq) == (version, seq)
    assert len(session.log.actions(session.game_id)) == seq == 1


def test_bids_on_an_older_version_are_accepted_in_any_order(tmp_path):
    session, _ = fresh(tmp_path)
    rolls = {}
    for seat in range(3):
        rolls[seat] = session.roll_for_me(seat).roll.as_dict()
        session.act(seat, {"kind": "roll", "roll": rolls[seat]})
    seen = session.version  # every phone looked at this version, then all bid
    for seat in (2, 0, 1):
        me = session.view_for(seat)["me"]
        status, body = session.act(seat, {"kind": "bid", "bids": legal_bids(me, rolls[seat], False)}, version=seen)
        assert status == 200, body
    assert session.state.phase.value in ("resolving", "bidding")
    assert session.state.round == 1 or session.state.reveal is not None


def test_stale_version_refused_for_a_changed_prompt(tmp_path):
    session, _ = fresh(tmp_path)
    old = session.version
    for _ in range(6):
        for seat in range(3):
            roll_and_bid(session, seat)
        if session.view_for(None)["decision"] is not None:
            break
        assert session.view_for(0)["waiting_for"] == ["Ann", "Bob", "Cy"]
    decision = session.view_for(None)["decision"]
    assert decision is not None, "no decision came up in six rounds"
    seat = session.state.players.index(decision["player"])
    d = session.view_for(seat)["me"]["decision"]
    action = {
        "speakeasy": {"kind": "speakeasy", "give": [], "take": []},
        "streets": {"kind": "streets", "color": None},
        "investigator_color": {"kind": "investigator_color", "color": (d["options"] or ["red"])[0]},
        "investigator_take": {"kind": "investigator_take", "color": (d["options"] or [None])[0]},
    }[d["kind"]]
    before = snapshot(session)
    status, body = session.act(seat, action, version=old)
    assert status == 409 and "changed" in body["error"]
    assert snapshot(session) == before
    other = (seat + 1) % 3
    assert session.act(other, action, version=session.version)[0] == 409
    assert session.act(seat, action, version=session.version + 5)[0] == 409
    assert snapshot(session) == before
    status, body = session.act(seat, action, version=session.version)
    assert status == 200, body


def test_bid_from_a_previous_round_is_refused(tmp_path):
    session, _ = fresh(tmp_path)
    old = session.version
    play_round(session)
    roll = session.roll_for_me(0).roll.as_dict()
    before = snapshot(session)
    status, body = session.act(0, {"kind": "roll", "roll": roll}, version=old)
    assert status == 409 and "round" in body["error"]
    assert snapshot(session) == before


def test_pause_blocks_players(tmp_path):
    session, _ = fresh(tmp_path)
    roll = session.roll_for_me(0).roll.as_dict()
    session.pause(True)
    before = snapshot(session)
    status, body = session.act(0, {"kind": "roll", "roll": roll})
    assert status == 409 and "paused" in body["error"]
    assert snapshot(session) == before
    session.pause(False)
    assert session.act(0, {"kind": "roll", "roll": roll})[0] == 200


def test_adjust_and_undo_are_logged_and_restore_the_state(tmp_path):
    session, _ = fresh(tmp_path)
    start = session.state
    session.adjust({"kind": "move_die", "color": "red", "source": "box", "target": "stash:Ann"})
    assert session.state.stashes[0].red == 3
    session.adjust({"kind": "give_favor", "player": "Bob", "source": "deck"})
    assert len(session.state.hands[1]) == 4
    log = session.view_for(None)["host_log"]
    assert [e["text"] for e in log] == [
        "moved a red die from the box to Ann's stash",
        "gave Bob a favor card from the deck",
    ]
    session.undo()  # the card goes back on top of the deck
    session.undo()  # the die goes back to the box
    assert session.state == start
    assert [e["undone"] for e in session.view_for(None)["host_log"]][:2] == [True, True]
    with pytest.raises(Refusal) as refused:
        session.undo()
    assert refused.value.status == 409
    kinds = [type(a).__name__ for a in session.log.actions(session.game_id)]
    assert kinds == ["MoveDie", "GiveFavor", "TakeFavor", "MoveDie"]
    with pytest.raises(Refusal) as refused:
        session.adjust({"kind": "move_die", "color": "red", "source": "streets", "target": "box"})
    assert refused.value.status == 422


def test_take_favor_undo_and_end(tmp_path):
    session, _ = fresh(tmp_path)
    start = session.state
    card = session.state.hands[2][0]
    session.adjust({"kind": "take_favor", "player": "Cy", "value": card, "target": "discard"})
    session.undo()
    assert session.state == start
    session.end()
    assert session.state.finished and session.state.ended_by_host
    status, body = session.act(0, {"kind": "roll", "roll": {}})
    assert status == 409
    session.new_lobby()
    assert not session.started and session.lobby.names == ("Ann", "Bob", "Cy")


def test_proposed_roll_is_shown_to_its_seat_only_and_cleared_by_the_roll(tmp_path):
    session, _ = fresh(tmp_path)
    roll = Roll(("gavel", "finger"), ("gun", "gun"), ("cocktail", "finger"))
    session.propose_roll(1, roll, source="camera", crop=b"\xff\xd8jpeg")
    assert session.view_for(1)["proposed_roll"]["roll"] == roll.as_dict()
    assert session.view_for(1)["proposed_roll"]["has_crop"]
    assert session.view_for(0)["proposed_roll"] is None
    assert session.view_for(None, viewer=TABLE)["proposed_roll"] is None
    assert session.crop(1) == b"\xff\xd8jpeg"
    assert session.act(1, {"kind": "roll", "roll": roll.as_dict()})[0] == 200
    assert session.view_for(1)["proposed_roll"] is None and session.crop(1) is None
    virtual = session.roll_for_me(0)
    assert virtual.source == "virtual" and virtual.roll.dice() == session.state.stashes[0]


def test_wait_for_change_wakes_on_a_change(tmp_path):
    session, _ = fresh(tmp_path)
    v = session.version
    woke = []

    def waiter():
        woke.append(session.wait_for_change(v, timeout=5))

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.05)
    t0 = time.monotonic()
    session.pause(True)
    thread.join(2)
    assert woke == [v + 1] and time.monotonic() - t0 < 1
    assert session.wait_for_change(session.version, timeout=0.05) == session.version


def test_reopening_the_database_resumes_exactly(tmp_path):
    session, tokens = fresh(tmp_path, names=("Ann", "Bob", "Cy", "Dee"))
    play_round(session)
    session.adjust({"kind": "give_favor", "player": "Dee", "source": "special"})
    roll = session.roll_for_me(0).roll.as_dict()
    session.act(0, {"kind": "roll", "roll": roll}, request_id="ann-roll")
    session.propose_roll(1, Roll(*(("finger",) * n for n in session.state.stashes[1])), source="camera")
    session.pause(True)
    views = [session.view_for(s) for s in range(4)] + [session.view_for(None, viewer=SPECTATOR)]
    again = Session(EventLog(tmp_path / "t.sqlite3"))
    assert again.version == session.version and again.state == session.state
    assert [again.view_for(s) for s in range(4)] + [again.view_for(None, viewer=SPECTATOR)] == views
    assert [again.seat_for_token(t) for t in tokens] == [0, 1, 2, 3]
    assert again.host_token == session.host_token
    assert again.act(0, {"kind": "roll", "roll": roll}, request_id="ann-roll") == (200, {"ok": True, "version": session.version - 2})
    assert again.seq == session.seq
    again.pause(False)
    again.undo()  # the host log came back too
    assert again.state.special == session.state.special + 1
