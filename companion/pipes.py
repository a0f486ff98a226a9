"""Command-line output into a pipe whose reader stopped early (`... | head`).

That is not an error of ours nor of the input: the command ends quietly with the status a shell
gives such a pipeline (1), rather than a traceback or the bad-input status (2).
"""

from __future__ import annotations

import os
import sys

EXIT_PIPE_CLOSED = 1


def output_abandoned() -> int:
    """Point stdout at nothing, so the interpreter's own flush at exit does not complain either,
    and give the exit status to return."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_PIPE_CLOSED
