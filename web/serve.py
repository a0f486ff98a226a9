"""``gangster-dice serve``: run the table's web server (waitress, many threads) on the LAN."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

#: Threads: 4 phones + the table + 10 spectators each hold a live stream, plus room for requests.
THREADS = 48


def make_server(app, host: str = "0.0.0.0", port: int = 8000):
    """A waitress server for ``app`` (not yet running): enough threads for every live stream."""
    from waitress.server import create_server

    return create_server(
        app,
        host=host,
        port=port,
        threads=THREADS,
        # Live streams write a heartbeat every 15 s; a connection silent for 2 minutes is dead.
        channel_timeout=120,
        connection_limit=200,
        ident="gangster-dice",
    )


def serve_in_thread(app, host: str = "127.0.0.1", port: int = 0):
    """Run ``app`` on a real waitress server in a daemon thread (for tests and the benchmark).

    Returns (base URL, server); ``server.close()`` stops it: the loop is told to end first, so
    closing the listening socket never races the loop's select.
    """
    import threading

    server = make_server(app, host, port)
    stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=run, name="waitress", daemon=True)
    thread.start()
    close = server.close

    def stop() -> None:
        stopping.set()
        server.task_dispatcher.shutdown(timeout=1)
        close()
        thread.join(timeout=5)

    server.close = stop
    return f"http://{host}:{server.effective_port}", server


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole LAN)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--data", default=None, help="data directory (default $XDG_DATA_HOME/gangster-dice)")
    parser.add_argument(
        "--camera",
        default="auto",
        help="camera source: auto (default: the Pi camera if there is one, else the demo camera), demo, none, pi, "
        "an OpenCV index, or a folder of frames",
    )
    parser.add_argument(
        "--demo-faults",
        default="",
        help="demo camera only: show faults to try the table's corrections, e.g. 1:cocked:0,2:missing:1 "
        "(round:kind:seat; kinds: cocked, missing)",
    )


def resolve_camera(source: str) -> str:
    """``auto``: the Pi's camera when picamera2 and a camera are there, else the demo camera."""
    if source != "auto":
        return source
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]

        if Picamera2.global_camera_info():
            return "pi"
    except Exception:  # no picamera2, or no libcamera: not a Pi with a camera
        pass
    return "demo"


def parse_demo_faults(text: str):
    """``round:kind:seat,...`` as the demo camera's fault plan (see vision.demo_camera.DemoTable)."""
    from .table_camera import DemoFaults

    plan: dict[int, tuple[tuple[str, int], ...]] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        try:
            round_no, kind, seat = item.split(":")
            if kind not in ("cocked", "missing"):
                raise ValueError(kind)
            plan[int(round_no)] = plan.get(int(round_no), ()) + ((kind, int(seat)),)
        except ValueError:
            raise SystemExit(f"--demo-faults: {item!r} is not round:kind:seat (kinds: cocked, missing)") from None
    return DemoFaults(plan)


def _camera_config(args: argparse.Namespace) -> dict:
    return {"START_CAMERA": True, "DEMO_FAULTS": parse_demo_faults(getattr(args, "demo_faults", "") or "")}


def add_command(subparsers) -> None:
    """Register ``serve`` on the ``gangster-dice`` command."""
    parser = subparsers.add_parser("serve", help="run the table companion's web server")
    add_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from . import create_app, default_data_dir
    from .network import base_url

    data_dir = Path(args.data) if args.data else default_data_dir()
    app = create_app(data_dir, camera=resolve_camera(args.camera), port=args.port, config=_camera_config(args))
    session = app.extensions["gangster_session"]
    server = make_server(app, args.host, args.port)
    join = base_url(app.config["PUBLIC_HOST"], args.port)
    local = base_url("127.0.0.1", args.port)
    print(f"Gangster Dice table companion, data in {data_dir}", flush=True)
    print(f"  Phones join at:      {join}/play", flush=True)
    print(f"  Table screen:        {local}/  (on this machine: it becomes the host)", flush=True)
    print(f"  Table screen + host: {join}/?host={session.host_token}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web", description="Gangster Dice table companion: web server")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
