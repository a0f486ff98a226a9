"""The web side of the companion: one Flask application per table (application factory).

:func:`create_app` opens (or creates) the table's SQLite database, builds the one
:class:`companion.session.Session` over it (resuming a game in progress), and registers the JSON
API blueprint and, when present, the pages blueprint. Nothing is global outside the app.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask

from companion.log import EventLog
from companion.session import Session

DB_NAME = "gangster-dice.sqlite3"


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/gangster-dice``, or ``~/.local/share/gangster-dice``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "gangster-dice"


def create_app(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    db_path: str | os.PathLike[str] | None = None,
    session: Session | None = None,
    camera: str = "demo",
    port: int | None = None,
    public_host: str | None = None,
    config: dict[str, Any] | None = None,
) -> Flask:
    """The application for one table.

    ``data_dir`` holds the database (default: :func:`default_data_dir`); ``db_path`` names the
    database file directly (":memory:" for tests); ``session`` uses one already built. ``camera``
    is kept in ``app.config["CAMERA"]`` for the camera integration; ``port`` and ``public_host``
    make the join address (default: the LAN address and the port of each request).
    """
    app = Flask(__name__)
    app.config.update(
        CAMERA=camera,
        PORT=port,
        PUBLIC_HOST=public_host,
        STREAM_HEARTBEAT_SECONDS=15.0,
        STREAM_MAX_SECONDS=300.0,
        JSON_SORT_KEYS=False,
        # Every request body is a small JSON object; refuse anything bigger outright.
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    if config:
        app.config.update(config)
    if app.config["PUBLIC_HOST"] is None:
        from .network import lan_address

        app.config["PUBLIC_HOST"] = lan_address()
    directory = Path(data_dir) if data_dir is not None else default_data_dir()
    if session is None:
        if db_path is None:
            directory.mkdir(parents=True, exist_ok=True)
            db_path = directory / DB_NAME
        session = Session(EventLog(db_path))
    app.config["DATABASE"] = str(session.log.path)
    app.config.setdefault("DATA_DIR", str(directory))

    from . import api

    app.extensions[api.SESSION_KEY] = session
    app.register_blueprint(api.bp)
    try:
        from . import pages
    except ImportError:
        pages = None  # type: ignore[assignment]
    if pages is not None and hasattr(pages, "bp"):
        app.register_blueprint(pages.bp)

    from . import camera as camera_blueprint

    app.register_blueprint(camera_blueprint.bp)
    if app.config.get("START_CAMERA") and camera != "none":
        # Only a serving process owns the camera (tests build many apps and want none).
        from .table_camera import TableCamera

        try:
            table_camera = TableCamera(session, camera, app.config["DATA_DIR"], demo_faults=app.config.get("DEMO_FAULTS"))
            table_camera.start()
        except Exception as error:  # a broken camera must never stop the game: players tap their dice
            app.logger.error("camera %r unavailable: %s", camera, error)
            session.set_camera({"source": camera, "error": f"The camera could not start: {error}", "problems": []})
        else:
            app.extensions[camera_blueprint.CAMERA_KEY] = table_camera

    @app.context_processor
    def _table_context() -> dict[str, Any]:
        # For templates: the join address, and the host token only for the server's own screen.
        return {"join_url": api.join_url(), "host_token": api.loopback_host_token()}

    return app
