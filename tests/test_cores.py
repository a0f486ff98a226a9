"""Jobs run on the machine's cores (`vision.cores`): each in a worker process of its own, answers
in order, a job's exception raised to the caller, a worker that dies leaving its job to the caller,
and as many workers as the cores and the memory allow."""

from __future__ import annotations

import os

import pytest

from vision import cores
from vision.cores import map_on_cores, workers_for


def _where(job: int) -> tuple[int, int]:
    """The job, and the process that ran it."""
    return job, os.getpid()


def _fails(job: int) -> None:
    raise ValueError(f"job {job} failed in process {os.getpid()}")


def _dies_in_a_worker(caller: int) -> str:
    """Ends its process at once, unless run by `caller` itself."""
    if os.getpid() != caller:
        os._exit(3)
    return "ran in the caller"


def test_each_job_runs_in_a_worker_process_and_answers_in_order() -> None:
    answers = map_on_cores(_where, [1, 2, 3], memory_each=1, workers=3)
    assert [job for job, _ in answers] == [1, 2, 3]
    processes = {process for _, process in answers}
    assert os.getpid() not in processes
    assert len(processes) == 3


def test_one_worker_runs_the_jobs_here() -> None:
    assert map_on_cores(_where, [1, 2], memory_each=1, workers=1) == [(1, os.getpid()), (2, os.getpid())]


def test_a_jobs_exception_is_raised_to_the_caller() -> None:
    with pytest.raises(ValueError, match=r"job 2 failed in process (\d+)") as raised:
        map_on_cores(_fails, [2, 2], memory_each=1, workers=2)
    assert str(os.getpid()) not in str(raised.value)


def test_a_worker_that_dies_leaves_its_job_to_the_caller() -> None:
    assert map_on_cores(_dies_in_a_worker, [os.getpid()] * 2, memory_each=1, workers=2) == ["ran in the caller"] * 2


def test_workers_are_one_per_job_as_far_as_cores_and_memory_allow(monkeypatch: pytest.MonkeyPatch) -> None:
    gigabyte = 1 << 30
    assert workers_for(3, gigabyte, cores=4, memory=8 * gigabyte) == 3
    assert workers_for(3, gigabyte, cores=2, memory=8 * gigabyte) == 3  # three at once end soonest
    assert workers_for(3, gigabyte, cores=1, memory=8 * gigabyte) == 1
    assert workers_for(3, gigabyte, cores=4, memory=2 * gigabyte) == 1  # a quarter of it kept free
    assert workers_for(3, gigabyte, cores=4, memory=3 * gigabyte) == 2
    monkeypatch.setattr(cores, "available_memory", lambda: None)
    assert workers_for(3, gigabyte, cores=4) == 1  # memory unknown: none
