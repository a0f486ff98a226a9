"""``python -m companion``: the companion's command line (replay, simulate, serve, ...)."""

from .cli import main

raise SystemExit(main())
