"""``python -m web``: serve the table (same as ``gangster-dice serve``)."""

from __future__ import annotations

import sys

from .serve import main

if __name__ == "__main__":
    sys.exit(main())
