"""Browser-test support: a real server in a subprocess, Debian's Chromium, and a phone driver.

The tests drive the pages the way players do (tapping buttons); they read the API only to check
what the pages show against the table's state, never to act.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TABLE = {"viewport": {"width": 1600, "height": 900}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m web`` on a free port with its own data directory."""

    def __init__(self, data_dir: Path, camera: str = "none", extra: tuple[str, ...] = ()) -> None:
        self.camera, self.extra = camera, extra
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.data_dir = data_dir
        self.log = open(data_dir / "server.log", "ab")
        self._start()

    def kill_and_restart(self) -> None:
        """SIGKILL the server (a crash or a power cut), then start it again on the same port and data."""
        self.proc.kill()
        self.proc.wait(10)
        self._start()

    def _start(self) -> None:
        data_dir = self.data_dir
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "web", "--host", "127.0.0.1", "--port", str(self.port), "--data", str(data_dir), "--camera", self.camera, *self.extra],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {(data_dir / 'server.log').read_text()}")
            time.sleep(0.1)

    def state(self, seat_token: str | None = None) -> dict:
        """Read the view a seat (or a spectator) gets: reading only."""
        req = urllib.request.Request(self.base + "/api/state")
        if seat_token:
            req.add_header("X-Seat-Token", seat_token)
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path)
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium is needed for the browser tests: {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def shot(page, name: str) -> None:
    """Keep a screenshot of a key screen in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


class Phone:
    """One player's phone: its own browser context (its own localStorage), on /play."""

    def __init__(self, browser, server: Server, name: str) -> None:
        self.server = server
        self.name = name
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(server.base + "/play")

    def step(self) -> str | None:
        return self.page.locator("#app").get_attribute("data-step")

    def wait_step(self, *steps: str, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while True:
            current = self.step()
            if current in steps:
                return current
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: waited for {steps}, the pad shows {current!r}")
            time.sleep(0.05)

    def join(self) -> None:
        self.wait_step("join")
        self.page.get_by_label("Your name").fill(self.name)
        self.page.get_by_role("button", name="Join the table").click()
        self.wait_step("lobby", "spectator")

    def token(self) -> str | None:
        return self.page.evaluate("localStorage.getItem('gd-seat-token')")

    def state(self) -> dict:
        return self.server.state(self.token())

    def roll_for_me(self) -> None:
        self.page.locator("#roll-for-me").click()
        confirm = self.page.locator("#confirm-roll")
        confirm.wait_for()
        self.page.wait_for_function("() => { const b = document.querySelector('#confirm-roll'); return b && !b.disabled; }")
        confirm.click()
        self.wait_step("bid")

    def bid(self, rng: random.Random) -> None:
        """Pick a legal bid on every bid pad (random token, random favor) and seal."""
        pads = self.page.locator(".bidpad")
        for i in range(pads.count()):
            pad = self.page.locator(f'.bidpad[data-bid="{i}"]')
            symbols = pad.locator(".sym-choice:not([disabled])")
            symbols.first.wait_for(timeout=5000)  # a pad's choices are disabled while an answer is on its way
            n = symbols.count()
            fingers = pad.locator('.sym-choice[data-symbol="finger"]:not([disabled])')
            target = fingers.first if fingers.count() and rng.random() < 0.5 else symbols.nth(rng.randrange(n))
            target.click()
            pad = self.page.locator(f'.bidpad[data-bid="{i}"]')
            favors = pad.locator(".favor-choice:not([disabled])")
            if favors.count():
                favors.nth(rng.randrange(favors.count())).click()
        self.page.locator("#seal").click()
        self.wait_step("sealed", "wait", "decide", "roll", "finished")

    def decide(self, rng: random.Random) -> str | None:
        """Answer the decision on screen with a random legal choice; returns its kind, or None
        when its choices are disabled (the last answer is still on its way): nothing to do yet."""
        box = self.page.locator(".decision")
        if not box.locator("button.act:not([disabled])").count():
            return None
        kind = box.get_attribute("data-kind")
        colors = box.locator(".color-choice:not([disabled])")
        if kind == "speakeasy":
            gives = box.locator(".side").nth(0).locator(".stepper")
            takes = box.locator(".side").nth(1).locator(".stepper")
            if gives.count() and takes.count() and rng.random() < 0.7:
                gives.nth(rng.randrange(gives.count())).get_by_role("button", name="+").click()
                self.page.locator(".decision .side").nth(1).locator(".stepper").nth(rng.randrange(takes.count())).get_by_role("button", name="+").click()
                self.page.locator("#exchange").click()
            else:
                box.get_by_role("button", name="No exchange").click()
        elif kind == "streets":
            if colors.count() and rng.random() < 0.8:
                colors.nth(rng.randrange(colors.count())).click()
            else:
                box.get_by_role("button", name="No die").click()
        elif kind in ("investigator_color", "investigator_take"):
            colors.nth(rng.randrange(colors.count())).click()
        else:
            raise AssertionError(f"unknown decision {kind!r}")
        return kind

    def close(self) -> None:
        self.context.close()


def open_table(browser, server: Server):
    context = browser.new_context(**TABLE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.locator('#app[data-step="lobby"]').wait_for()
    return context, page, errors


class Tabletop:
    """The table screen and the phones a test opens beside it, all closed when the test ends
    (``with Tabletop(browser, server) as tabletop:``), whether it passed or not."""

    def __init__(self, browser, server: Server) -> None:
        self.browser, self.server = browser, server
        self._stack = ExitStack()
        context, self.page, self.errors = open_table(browser, server)
        self._stack.callback(context.close)

    def phone(self, name: str) -> Phone:
        """A phone opened on /play, closed with the table."""
        phone = Phone(self.browser, self.server, name)
        self._stack.callback(phone.close)
        return phone

    def phones(self, *names: str) -> list[Phone]:
        return [self.phone(name) for name in names]

    def joined(self, *names: str) -> list[Phone]:
        """Phones that have each joined the lobby under their name, in this order."""
        phones = self.phones(*names)
        for phone in phones:
            phone.join()
        return phones

    def keep(self, context):
        """Close another browser context (a second device, say) with the table."""
        self._stack.callback(context.close)
        return context

    def assert_no_page_errors(self, phones: list[Phone]) -> None:
        """No script error on any of these phones' pages, nor on the table screen's."""
        for phone in phones:
            assert not phone.errors, phone.errors
        assert not self.errors, self.errors

    def __enter__(self) -> "Tabletop":
        return self

    def __exit__(self, *exc_info) -> None:
        self._stack.close()  # phones first, the table screen last
