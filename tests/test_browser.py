"""The pages in a real browser (Debian's Chromium) against a real server.

Every move is made by tapping the pages; the API is read only to check what they show.
"""

from __future__ import annotations

import json
import random
import time

import cv2

from browser_support import PHONE, Server, Tabletop, browser, server, shot  # noqa: F401  (fixtures)

GAME_DEADLINE = 150  # seconds for a whole game


def start_game(table, phones, mode_label="Tutorial", setup=None):
    table.locator(".lobby-seats .seat").nth(len(phones) - 1).wait_for()
    table.get_by_role("button", name=mode_label).click()
    if setup:
        setup()
    table.locator("#start").click()
    for p in phones:
        p.wait_step("roll")


def play_until_over(table, phones, rng, *, shots=False, deadline=GAME_DEADLINE):
    """Tap through rounds on every phone until the game ends; returns the rounds seen."""
    end = time.monotonic() + deadline
    seen = {"bid": False, "sealed": False, "reveal": False}
    rounds = set()
    while True:
        assert time.monotonic() < end, "the game did not end in time"
        if all(p.step() == "finished" for p in phones):
            break
        acted = False
        for p in phones:
            step = p.step()
            if step == "roll":
                p.roll_for_me()
                acted = True
                if shots and not seen["bid"]:
                    shot(p.page, "phone-bid-pad")
                    seen["bid"] = True
                p.bid(rng)
                if shots and not seen["sealed"] and p.step() == "sealed":
                    shot(p.page, "phone-sealed")
                    seen["sealed"] = True
            elif step == "decide":
                kind = p.page.locator(".decision").get_attribute("data-kind")
                if shots and kind not in seen:
                    shot(p.page, f"phone-decision-{kind}")
                    seen[kind] = True
                if shots and not seen["reveal"]:
                    table.locator(".reveal").first.wait_for()
                    shot(table, "table-reveal")
                    seen["reveal"] = True
                acted = p.decide(rng) is not None
                time.sleep(0.05)
        rounds.add(table.locator("#round").text_content())
        if not acted:
            time.sleep(0.05)
    return rounds


def test_full_tutorial_game_three_phones(browser, server):
    rng = random.Random(7)
    with Tabletop(browser, server) as tabletop:
        table = tabletop.page
        shot(table, "table-lobby-empty")
        phones = tabletop.joined("Alice", "Bob", "Carla")
        # The lobby shows the QR code, the address and every seat with its bid-card color.
        table.locator(".lobby-seats .seat").nth(2).wait_for()
        assert table.locator("img.qr").get_attribute("src") == "/qr.svg"
        assert table.locator(".join-url").text_content().endswith("/play")
        assert table.locator(".lobby-seats .seat-yellow").text_content().startswith("Alice")
        assert table.locator(".lobby-seats .seat-red").text_content().startswith("Bob")
        assert table.locator(".lobby-seats .seat-blue").text_content().startswith("Carla")
        shot(table, "table-lobby")

        start_game(table, phones)
        # The table shows the four tokens and every stash (6 dice each) before the first roll.
        assert table.locator(".token").count() == 4
        assert table.locator('.player[data-player="Alice"] .pips .die').count() == 6
        shot(table, "table-round-1")

        play_until_over(table, phones, rng, shots=True)

        state = server.state()
        assert state["finished"] and state["winners"]
        table.locator(".gameover").wait_for()
        shown = table.locator(".gameover .winners").text_content()
        for w in state["winners"]:
            assert w in shown
        # Each winner has an empty stash on the table screen.
        for w in state["winners"]:
            assert table.locator(f'.player[data-player="{w}"] .pips .die').count() == 0
        shot(table, "table-game-over")
        shot(phones[0].page, "phone-game-over")
        for p in phones:
            assert p.page.locator(".gameover").count() == 1
            assert not p.errors, p.errors
        assert not tabletop.errors, tabletop.errors


def test_two_player_round_makes_two_bids(browser, server):
    rng = random.Random(3)
    with Tabletop(browser, server) as tabletop:
        table = tabletop.page
        phones = tabletop.joined("Dora", "Ed")

        def characters():
            table.get_by_label("Character for Dora").select_option("Silvio")
            table.get_by_label("Favor cards for Ed").select_option("4")

        start_game(table, phones, "Character cards", characters)
        state = server.state()
        assert state["players"][0]["character"] == "Silvio"
        assert state["players"][1]["character"]  # dealt at random
        assert [p["hand_size"] for p in state["players"]] == [3, 4]
        assert table.locator('.player[data-player="Dora"]').text_content().count("Silvio") == 1
        # Dora rolls real dice and taps in each die's symbol; Ed lets the table roll for him.
        dora, ed = phones
        dora.wait_step("roll")
        faces = ["finger", "gun", "cocktail", "gavel", "finger", "gun"]
        assert dora.page.locator("#confirm-roll").is_disabled()
        for face in faces:
            # The next die to set is selected by itself after each tap.
            dora.page.locator(f'.palette .sym-btn[data-symbol="{face}"]').click()
        # Correct the first white die before confirming.
        dora.page.locator('.die-btn[data-color="white"][data-index="0"]').click()
        dora.page.locator('.palette .sym-btn[data-symbol="gavel"]').click()
        dora.page.locator("#confirm-roll").click()
        dora.wait_step("bid")
        assert dora.state()["players"][0]["roll"] == {"white": ["gavel", "gun"], "red": ["cocktail", "gavel"], "blue": ["finger", "gun"]}
        ed.roll_for_me()
        for p in phones:
            required = p.state()["me"]["bids_required"]
            assert p.page.locator(".bidpad").count() == required
            # The seal button waits until every bid has a token and a favor.
            assert p.page.locator("#seal").is_disabled()
            if required == 2:
                # A symbol taken by bid 1 cannot be chosen for bid 2.
                first = p.page.locator('.bidpad[data-bid="0"] .sym-choice').first
                symbol = first.get_attribute("data-symbol")
                first.click()
                assert p.page.locator(f'.bidpad[data-bid="1"] .sym-choice[data-symbol="{symbol}"]').is_disabled()
            # Only symbols that show on the player's own dice are offered.
            roll = p.state()["players"][p.state()["you"]["seat"]]["roll"]
            showing = {s for faces in roll.values() for s in faces}
            offered = {p.page.locator(".bidpad").first.locator(".sym-choice").nth(i).get_attribute("data-symbol")
                       for i in range(p.page.locator(".bidpad").first.locator(".sym-choice").count())}
            assert offered == showing
            p.bid(rng)
        table.locator(".reveal").first.wait_for()
        state = server.state()
        reveal = state["reveal"] or state["last_round"]
        assert reveal["round"] == 1
        for p in phones:
            n = len(reveal["bids"][p.name])
            # Every bid shows on the table screen, with its score.
            assert table.locator(f'.reveal .bids li:has(.name:text-is("{p.name}"))').count() == n
        assert sum(len(b) for b in reveal["bids"].values()) >= 3


def test_phone_offline_and_reload_returns_to_its_seat(browser, server):
    rng = random.Random(5)
    with Tabletop(browser, server) as tabletop:
        table = tabletop.page
        phones = tabletop.joined("Gus", "Hana", "Ivo")
        start_game(table, phones)
        gus, hana, ivo = phones
        gus.roll_for_me()
        gus.context.set_offline(True)
        hana.roll_for_me()
        hana.bid(rng)
        time.sleep(1.5)
        gus.context.set_offline(False)
        # Back online: the pad is Gus's, shows his bid pad, and the news that Hana has sealed.
        gus.page.wait_for_function("() => { const w = document.querySelector('#waiting'); return w && !w.textContent.includes('Hana'); }", timeout=10000)
        assert "Ivo" in gus.page.locator("#waiting").text_content()
        assert gus.step() == "bid"
        assert gus.page.locator("#who").text_content() == "Gus"
        # A reload (or a locked phone waking up) brings the player straight back to the seat.
        gus.page.reload()
        gus.wait_step("bid")
        assert gus.page.locator("#who").text_content() == "Gus"
        gus.bid(rng)
        # Closing the page and opening it again: same seat, same sealed state.
        gus.page.close()
        gus.page = gus.context.new_page()
        gus.page.goto(server.base + "/play")
        gus.wait_step("sealed")
        assert "Ivo" in gus.page.locator("#sealed").text_content()
        # Ivo's virtual dice are proposed by the table: after a reload the pad offers the same dice.
        ivo.page.locator("#roll-for-me").click()
        ivo.page.wait_for_function("() => !document.querySelector('#confirm-roll').disabled")
        dice = ivo.page.eval_on_selector_all(".die-btn", "bs => bs.map(b => b.getAttribute('aria-label'))")
        ivo.page.reload()
        ivo.wait_step("roll")
        ivo.page.wait_for_function("() => !document.querySelector('#confirm-roll').disabled")
        assert ivo.page.eval_on_selector_all(".die-btn", "bs => bs.map(b => b.getAttribute('aria-label'))") == dice
        ivo.page.locator("#confirm-roll").click()
        ivo.wait_step("bid")
        ivo.bid(rng)
        table.locator(".reveal").first.wait_for()


def test_late_joiners_become_spectators(browser, server):
    with Tabletop(browser, server) as tabletop:
        table = tabletop.page
        phones = tabletop.joined("Jo", "Kim", "Lia", "<i>Mo</i>")
        # A fifth phone at a full table is told so and watches.
        ned = tabletop.phone("Ned")
        ned.wait_step("join")
        ned.page.get_by_label("Your name").fill("Ned")
        ned.page.get_by_role("button", name="Join the table").click()
        ned.wait_step("spectator")
        assert "full" in ned.page.locator("#app").text_content()
        assert ned.token() is None
        # Names are shown as text, never as markup.
        assert table.locator(".lobby-seats .seat-green").text_content().startswith("<i>Mo</i>")
        assert table.locator(".lobby-seats i").count() == 0
        start_game(table, phones)
        ned.page.locator(".token").first.wait_for()
        assert ned.page.locator(".players i").count() == 0
        # A phone that opens the pad after the start gets no join form: the public game only.
        late = tabletop.phone("Lou")
        late.wait_step("spectator")
        assert late.page.locator(".token").count() == 4
        assert late.page.locator("input").count() == 0
        assert late.token() is None
        assert late.page.locator(".player").count() == 4
        # The spectator sees no one's hand or pad: only the public counts.
        assert late.page.locator(".favor-choice, .bidpad, #roll-for-me, .hand-cards").count() == 0
        shot(late.page, "phone-spectator")


def pick_first_bids(page):
    for i in range(page.locator(".bidpad").count()):
        page.locator(f'.bidpad[data-bid="{i}"] .sym-choice:not([disabled])').first.click()
        favors = page.locator(f'.bidpad[data-bid="{i}"] .favor-choice:not([disabled])')
        if favors.count():
            favors.first.click()


def test_lost_and_refused_actions_show_their_message(browser, server):
    with Tabletop(browser, server) as tabletop:
        table = tabletop.page
        phones = tabletop.joined("Max", "Nia")
        start_game(table, phones)
        max_, nia = phones
        max_.roll_for_me()
        # Max's second device (the same seat token), at the same bid pad.
        twin_ctx = tabletop.keep(browser.new_context(**PHONE))
        twin_ctx.add_init_script(f"localStorage.setItem('gd-seat-token', {json.dumps(max_.token())})")
        twin = twin_ctx.new_page()
        twin.goto(server.base + "/play")
        twin.locator('#app[data-step="bid"]').wait_for()
        assert twin.locator("#who").text_content() == "Max"
        # The twin's live stream is cut (it keeps showing the bid pad), then it loses the Wi-Fi:
        # a seal that cannot reach the table says so, and nothing is sent.
        twin.route("**/api/stream*", lambda route: route.abort())
        twin.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        twin_ctx.set_offline(True)
        pick_first_bids(twin)
        twin.locator("#seal").click()
        twin.locator("#error").wait_for()
        assert "No connection" in twin.locator("#error").text_content()
        assert server.state(max_.token())["me"]["bids"] is None
        # Meanwhile Max seals on the first device. The twin comes back, but its live stream stays cut,
        # so it still shows the bid pad; its retry is refused by the table with a sentence to show.
        max_.bid(random.Random(1))
        twin_ctx.set_offline(False)
        assert twin.locator("#app").get_attribute("data-step") == "bid"
        twin.locator("#seal").click()
        twin.wait_for_function("() => document.querySelector('#error').textContent.includes('sealed')")
        assert "Your bid is sealed" in twin.locator("#error").text_content()
        shot(twin, "phone-refused")
        # Once its stream is back the twin shows the sealed bid, with no error left over.
        twin.unroute("**/api/stream*")
        twin.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        twin.locator('#app[data-step="sealed"]').wait_for()
        assert twin.locator("#error").is_hidden()
        nia.roll_for_me()
        nia.bid(random.Random(2))
        table.locator(".reveal").first.wait_for()


def test_host_controls_pause_adjust_undo_end(browser, server):
    with Tabletop(browser, server) as tabletop:
        table = tabletop.page
        phones = tabletop.joined("Ola", "Pim")
        start_game(table, phones)
        ola = phones[0]
        table.locator(".host-panel > summary").click()
        # The host can hand the controls to a phone with a QR code.
        table.locator(".handoff > summary").click()
        table.wait_for_function("() => { const i = document.querySelector('img.host-qr'); return i && i.complete && i.naturalWidth > 0; }")
        # Pause: the phones say so and their buttons stop working until the host resumes.
        table.locator("#pause").click()
        ola.page.locator("#banner", has_text="paused").wait_for()
        assert ola.page.locator("#roll-for-me").is_disabled()
        table.get_by_role("button", name="Resume").click()
        ola.page.locator("#banner").wait_for(state="hidden")
        # Move a die from Ola's stash to the box: the table screen and the host log show it.
        table.get_by_label("Die color").select_option("red")
        table.get_by_label("From").select_option("stash:Ola")
        table.get_by_label("To").select_option("box")
        table.get_by_role("button", name="Move").click()
        table.wait_for_function("() => document.querySelectorAll('.player[data-player=\"Ola\"] .pips .die').length === 5")
        assert table.locator(".host-log li").count() == 1
        # The phone's dice pad follows the stash: 5 dice to roll now.
        ola.page.wait_for_function("() => document.querySelectorAll('.die-btn').length === 5")
        # Give Pim a +4 from the special stack, then undo it.
        table.get_by_label("Player").first.select_option("Pim")
        table.get_by_label("Source").select_option("special")
        table.get_by_role("button", name="Give", exact=True).click()
        table.wait_for_function("() => document.querySelectorAll('.host-log li').length === 2")
        pim_hand = server.state(phones[1].token())["me"]["hand"]
        assert 4 in pim_hand
        table.locator("#undo").click()
        table.wait_for_function("() => document.querySelectorAll('.host-log li').length === 3")
        assert 4 not in server.state(phones[1].token())["me"]["hand"]
        shot(table, "table-host-controls")
        # End the game: everyone sees that it is over, with no winner.
        table.once("dialog", lambda d: d.accept())
        table.get_by_role("button", name="End the game").click()
        table.locator(".gameover").wait_for()
        ola.wait_step("finished")
        assert "nobody won" in table.locator(".gameover").text_content()
        assert not tabletop.errors, tabletop.errors


def test_server_killed_mid_round_phones_carry_on_by_themselves(browser, server):
    """A crash or power cut mid-round: started again, the game is exactly where it was, and the
    phones (never reloaded) reconnect on their own and play on."""
    rng = random.Random(3)
    with Tabletop(browser, server) as tabletop:
        table = tabletop.page
        phones = tabletop.joined("Ann", "Ben")
        start_game(table, phones)
        phones[0].roll_for_me()
        phones[0].bid(rng)
        phones[0].wait_step("sealed")
        before = [p.state() for p in phones]

        server.kill_and_restart()

        def game(view: dict) -> dict:
            """A view without whose phone is connected right now (that is presence, not game)."""
            lobby = dict(view["lobby"], seats=[{k: v for k, v in s.items() if k != "connected"} for s in view["lobby"]["seats"]])
            return dict(view, lobby=lobby)

        assert [game(p.state()) for p in phones] == [game(v) for v in before]  # same version, same views
        deadline = time.monotonic() + 20
        while not all(s["connected"] for s in server.state()["lobby"]["seats"]):
            assert time.monotonic() < deadline, "the phones did not reconnect by themselves"
            time.sleep(0.1)
        # Ben's phone, never reloaded, finds its stream again and plays on; Ann's phone, also
        # never reloaded, learns of the reveal through its own reopened stream.
        phones[1].page.locator('#conn[data-state="live"]').wait_for(timeout=20000)
        phones[1].wait_step("roll", timeout=20)
        phones[1].roll_for_me()
        phones[1].bid(rng)
        assert server.state()["round"] >= 1 and server.state()["version"] > before[0]["version"]
        phones[0].wait_step("decide", "wait", "roll", "finished", timeout=20)
        table.locator('#conn[data-state="live"]').wait_for(timeout=20000)
        tabletop.assert_no_page_errors(phones)


def test_camera_reading_on_the_phone_with_a_die_to_tap_right(browser, tmp_path):
    """With the demo camera, each phone shows its dice as the camera read them, with a picture of
    them; a die the camera could not read (cocked, in round 1, at Ann's seat) shows as "?" with
    what is wrong, the player taps it right, and the confirmed roll is what the engine takes."""
    demo = Server(tmp_path, camera="demo", extra=("--demo-faults", "1:cocked:0"))
    try:
        with Tabletop(browser, demo) as tabletop:
            table = tabletop.page
            phones = tabletop.joined("Ann", "Ben")
            start_game(table, phones)
            ann = phones[0]
            # The reading arrives by itself once the rendered dice settle: no button pressed.
            ann.page.locator(".camera-problems").wait_for(timeout=60000)
            problems = ann.page.locator(".camera-problems li").all_text_contents()
            # a cocked die is seen as cocked, or seen and not read, or not seen as a die at all
            assert any(p.startswith("Ann: ") and ("cocked" in p or "could not be read" in p or "saw" in p)
                       for p in problems), problems
            ann.page.locator("img.crop").wait_for()
            assert ann.page.locator(".die-btn.empty").count() >= 1
            assert ann.page.locator("#confirm-roll").is_disabled()
            shot(ann.page, "phone-camera-reading")
            while ann.page.locator(".die-btn.empty").count():
                ann.page.locator(".die-btn.empty").first.click()
                ann.page.locator('.palette .sym-btn[data-symbol="finger"]').click()
            shown = {
                color: [b.get_attribute("aria-label").split(": ")[1] for b in ann.page.locator(f'.die-btn[data-color="{color}"]').all()]
                for color in ("white", "red", "blue")
            }
            ann.page.locator("#confirm-roll").click()
            ann.wait_step("bid")
            taken = ann.state()["players"][0]["roll"]
            assert {c: sorted(v) for c, v in taken.items()} == {c: sorted(v) for c, v in shown.items()}
            # The table screen shows the camera's picture with what it was not sure of.
            table.locator(".camera-slot img.camera").wait_for()
            tabletop.assert_no_page_errors(phones)
    finally:
        demo.stop()


def test_teaching_at_the_table_takes_out_a_phantom_and_adds_a_missed_die(browser, tmp_path):
    """On the camera set-up page the host puts the reading right before a frame teaches: a
    "die" that is not one is taken out, a die the reader missed is tapped on the picture and
    given its color and symbol; the frame kept is labelled exactly so."""
    demo = Server(tmp_path, camera="demo")
    try:
        with Tabletop(browser, demo) as tabletop:
            start_game(tabletop.page, tabletop.joined("Ann", "Ben"))
            page = tabletop.keep(tabletop.page.context).new_page()  # the host's own browser
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(demo.base + "/calibrate")
            rows = page.locator("#dice li.teach-die")
            deadline = time.monotonic() + 60
            while not rows.count():  # the demo dice settle, then a reading has dice
                assert time.monotonic() < deadline, "no dice read on the set-up page"
                page.locator("#read").click()
                page.wait_for_timeout(500)
            read = rows.count()
            rows.nth(0).get_by_role("button", name="✕ not a die").click()
            assert rows.count() == read - 1
            box = page.locator("#overlay").bounding_box()
            # (off the middle, where the seat zones' corners meet and a tap drags them)
            page.locator("#overlay").click(position={"x": 0.37 * box["width"], "y": 0.41 * box["height"]})
            assert rows.count() == read
            added = rows.nth(read - 1)
            added.locator("select").nth(0).select_option("blue")
            added.locator("select").nth(1).select_option("gavel")
            # While the server keeps the frame (from the fourth on it teaches: a minute on a Pi),
            # the page says it is at work and the button cannot be pressed again.
            held = []
            page.route("**/api/camera/teach", lambda route: held.append(route))
            page.locator("#keep").click()
            page.locator("#teach-msg").filter(has_text="Keeping this frame").wait_for()
            assert page.locator("#keep").is_disabled()
            while not held:
                page.wait_for_timeout(50)
            held[0].continue_()
            page.locator("#teach-msg").filter(has_text="Frame 1 kept").wait_for()
            page.unroute("**/api/camera/teach")
            labels = json.loads((tmp_path / "teach" / "teach_001.json").read_text())["dice"]
            assert len(labels) == read
            width, height = cv2.imread(str(tmp_path / "teach" / "teach_001.jpg")).shape[1::-1]
            last = labels[-1]
            assert (last["color"], last["symbol"]) == ("blue", "gavel")
            assert abs(last["center"][0] - 0.37 * width) < 0.02 * width
            assert abs(last["center"][1] - 0.41 * height) < 0.02 * height
            assert not errors, errors
    finally:
        demo.stop()
