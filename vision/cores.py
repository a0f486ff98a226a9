"""Running independent, CPU-bound jobs on the machine's cores, each in a worker process.

Teaching trains its die finder as three members that share nothing (`vision.die_finder`); most
of that work holds Python's lock, so threads barely overlap (box C, four images: 17.8 -> 14.5 s
with three threads), while processes do (its finder on two cores: 14.1-15.9 -> 10.4-11.8 s, the
same model to the bit). A Raspberry Pi has four cores, and teaching runs while the players wait
at the setup screen.

A worker is a fresh interpreter, handed its caller's import path, then one job and its function's
name, on its standard input, and answering on its standard output: it imports the very code its
caller runs, wherever that came from. So it never inherits a lock one of the camera's or the web
server's threads held (a plain fork of a threaded server can deadlock), and, unlike
multiprocessing's spawned workers, it never runs the caller's main script again (a script without
a main guard would start teaching over in every worker). A job's result must not depend on where
it runs: the caller hands every job its own seed. A job whose worker cannot start or dies (out of
memory) runs here instead.
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")

# A worker's first act: take its caller's import path, then serve (`_serve`).
_BOOTSTRAP = "import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); import vision.cores; vision.cores._serve()"


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory the system can still give without swapping (Linux's MemAvailable), or
    None where it cannot tell."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def workers_for(jobs: int, memory_each: int, cores: int | None = None, memory: int | None = None) -> int:
    """How many workers to run `jobs` jobs needing `memory_each` bytes each: one per job on a
    machine of more than one core (`usable_cores` unless given), as many as the free memory
    holds with a quarter of it left over (`available_memory` unless given; unknown memory allows
    none). Jobs of about equal length all at once end soonest: three on two cores take one and a
    half job's time, two rounds of two take two."""
    cores = usable_cores() if cores is None else cores
    memory = available_memory() if memory is None else memory
    if cores <= 1 or memory is None:
        return 1
    return max(1, min(jobs, int(0.75 * memory // max(memory_each, 1))))


def map_on_cores(function: Callable[[Job], Result], jobs: Sequence[Job], memory_each: int,
                 workers: int | None = None) -> list[Result]:
    """`[function(job) for job in jobs]`, each job in a worker process, as many at once as
    `workers` says (or `workers_for`); with one, all here. `function` must be a module's
    top-level function, and the jobs and results picklable. An exception a job raises in its
    worker is raised here."""
    count = workers_for(len(jobs), memory_each) if workers is None else max(1, min(workers, len(jobs)))
    if count <= 1:
        return [function(job) for job in jobs]
    # Threads only wait here: each feeds one worker its job and waits for its answer.
    with ThreadPoolExecutor(max_workers=count) as waiting:
        return list(waiting.map(lambda job: _in_worker(function, job), jobs))


def _in_worker(function: Callable[[Job], Result], job: Job) -> Result:
    """`function(job)` in a worker process, or here when the worker cannot give an answer."""
    name = f"{function.__module__}:{function.__qualname__}"
    try:
        worker = subprocess.run([sys.executable, "-c", _BOOTSTRAP],
                                input=pickle.dumps(sys.path) + pickle.dumps((name, job)),
                                capture_output=True, check=False)
    except OSError:  # no process to be had
        return function(job)
    if worker.returncode != 0 or not worker.stdout:
        return function(job)  # killed, out of memory, or broken before it could answer
    ok, answer = pickle.loads(worker.stdout)
    if not ok:
        raise answer
    return answer


def _serve() -> None:
    """A worker, its import path set: read (function name, job) from standard input, write
    (True, result) or (False, the exception it raised) to standard output."""
    # The answer alone goes to standard output: whatever else writes there while the job runs
    # (a library's print, from Python or from C) goes to standard error.
    answer_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    name, job = pickle.loads(sys.stdin.buffer.read())
    module, _, qualified = name.partition(":")
    function: Any = importlib.import_module(module)
    for part in qualified.split("."):
        function = getattr(function, part)
    try:
        answer = (True, function(job))
    except Exception as error:  # handed back to the caller, who raises it
        answer = (False, error)
    answer_out.write(pickle.dumps(answer))
    answer_out.close()
