"""The pages: the table screen (``/``) and the phone pad (``/play``).

Templates are dumb shells; every piece of game data comes from the JSON API and its event stream,
rendered by the page's script. Everything a page needs is served from here (no CDN).
"""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)


@bp.get("/")
def table():
    """The table screen: lobby with the join QR code, then the game as the whole table sees it."""
    return render_template("table.html")


@bp.get("/play")
def play():
    """A player's phone: join, roll, seal bids, decide; a spectator's view after the start."""
    return render_template("play.html")


@bp.after_request
def _no_store(response):
    # Pages are tiny; never let a phone show a stale shell after an update.
    if response.mimetype == "text/html":
        response.headers["Cache-Control"] = "no-store"
    return response
