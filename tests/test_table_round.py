"""A whole game at the table, through the real server: the round loop of camera, phones and engine.

With the demo camera, every round's dice are rendered from the game's real stashes in each seat's
zone, read by the real reader once the settle trigger fires, and offered to the phones; the
players confirm, correct a die the camera could not read, re-roll when the camera saw a die
missing, bid and decide, to the end of the game. Without a camera, players tap their dice in.
"""

from __future__ import annotations

import random

import pytest

from web import create_app
from web.camera import CAMERA_KEY
from web.serve import serve_in_thread
from web.table_camera import DemoFaults

from table_players import Phone, Refused, call, corrected, matches, truth_by_seat, wait_until

NAMES = ("Ann", "Bob", "Cat")


def start_table(tmp_path, camera: str, faults: DemoFaults | None = None):
    app = create_app(
        tmp_path,
        camera=camera,
        public_host="127.0.0.1",
        config={"START_CAMERA": camera != "none", "DEMO_FAULTS": faults},
    )
    base, server = serve_in_thread(app)
    host = call(base, "GET", "/api/host/claim")["host_token"]
    phones = [Phone(base, name, seed) for seed, name in enumerate(NAMES)]
    call(base, "POST", "/api/host/start", {"mode": "tutorial"}, {"X-Host-Token": host})
    return app, base, server, phones


def stop_table(app, server) -> None:
    camera = app.extensions.get(CAMERA_KEY)
    if camera is not None:
        camera.stop()
    server.close()


def test_a_whole_game_with_the_demo_camera(tmp_path):
    faults = DemoFaults({1: (("cocked", 0),), 2: (("missing", 1),)})
    app, base, server, phones = start_table(tmp_path, "demo", faults)
    camera = app.extensions[CAMERA_KEY]
    rng = random.Random(5)
    flagged_fixed = mismatches_resolved = dice_read = dice_right = 0
    rerolled: set[tuple[int, int]] = set()
    try:
        for _ in range(4000):
            views = [p.view() for p in phones]
            table = views[0]
            if table["finished"]:
                break
            acted = False
            for seat, (phone, view) in enumerate(zip(phones, views)):
                if view["phase"] == "bidding" and not view["players"][seat]["rolled"]:
                    proposal = view.get("proposed_roll")
                    if proposal is None or proposal["source"] != "camera":
                        continue
                    truth = truth_by_seat(camera.demo.truth).get(seat, {})
                    slots = proposal["roll"]
                    if any("saw" in p for p in proposal["problems"]):
                        # The camera saw a die missing or too many: roll again, let it read again.
                        assert (view["round"], seat) not in rerolled, proposal["problems"]
                        rerolled.add((view["round"], seat))
                        phone.post("/api/camera/reroll")
                        acted = True
                        continue
                    if (view["round"], seat) in rerolled:
                        mismatches_resolved += 1
                        rerolled.discard((view["round"], seat))
                    dice_read += sum(len(v) for v in slots.values())
                    dice_right += matches(slots, truth)
                    if any(s is None for v in slots.values() for s in v):
                        flagged_fixed += 1
                    phone.send({"kind": "roll", "roll": corrected(truth, rng)}, view)
                    acted = True
                else:
                    try:
                        acted = phone.play_turn(view) or acted
                    except Refused as refusal:
                        assert refusal.status == 409, refusal  # the state moved on meanwhile
            if not acted:
                wait_until(lambda: phones[0].view()["version"] != table["version"], timeout=60, interval=0.05)
        final = phones[0].view()
    finally:
        stop_table(app, server)
    assert final["finished"] and final["winners"], "the game did not reach its end"
    assert flagged_fixed >= 1, "no die the camera could not read was corrected from a phone"
    assert mismatches_resolved >= 1, "no stash mismatch was resolved by a re-roll"
    assert dice_read > 0 and dice_right / dice_read >= 0.9, f"camera read {dice_right}/{dice_read} dice right"


def test_a_whole_game_without_a_camera(tmp_path):
    app, base, server, phones = start_table(tmp_path, "none")
    rng = random.Random(9)
    try:
        assert call(base, "GET", "/api/state")["camera"] is None
        with pytest.raises(Refused) as refused:
            phones[0].post("/api/camera/read-now")
        assert refused.value.status == 404 and "tap your dice" in str(refused.value)
        for _ in range(4000):
            views = [p.view() for p in phones]
            if views[0]["finished"]:
                break
            for seat, (phone, view) in enumerate(zip(phones, views)):
                if view["phase"] == "bidding" and not view["players"][seat]["rolled"]:
                    stash = view["players"][seat]["stash"]
                    tapped = {c: [rng.choice(["finger", "gun", "cocktail", "gavel"]) for _ in range(n)] for c, n in stash.items()}
                    phone.send({"kind": "roll", "roll": tapped}, view)
                else:
                    try:
                        phone.play_turn(view)
                    except Refused as refusal:
                        assert refusal.status == 409, refusal
        final = phones[0].view()
    finally:
        stop_table(app, server)
    assert final["finished"] and final["winners"]
