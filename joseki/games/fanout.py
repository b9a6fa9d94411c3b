"""The one fan-out over games: a task's chunks run in this process, in local worker processes or on a Dask cluster.

Every command that reads many games (``learn`` with each signal, both passes of ``mine``) hands its
per-game work here as a chunk task: a picklable callable made in the parent that holds what every
game needs (the book's index, the steps to run, how a worker makes a judge) and turns a list of
games into a list of results. Local worker processes get the task once, as their initializer's
argument; a cluster gets it once, as a task of its own (:mod:`joseki.games.cluster`). Results come
back in the order of the games.

The feed is continuous and bounded: a window of chunks is in flight at a time, and a new chunk goes
out as each result comes back, so no worker waits for the rest of a window and a tar archive
(whose games the parent reads, :func:`joseki.sgf.archive.sources`) is never read far ahead.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from typing import Any, TypeVar

from joseki.core.errors import BadInput
from joseki.games.pool import chunks, start_early, worker_pool

I = TypeVar("I")  # noqa: E741 (an item of work)
R = TypeVar("R")

IN_PROCESS_BELOW = 50
"""Fewer games than this are read in this process: starting worker processes would cost more."""

CHUNKS_PER_PROCESS = 64
"""Chunks in flight per local worker process: enough that none waits for the parent, even while the parent writes
a batch (a learning batch takes a second or two to write; a worker reads a chunk in a few hundredths)."""


@dataclass(frozen=True, slots=True)
class Workers:
    """Where per-game work runs: ``processes`` local worker processes (all cores when None), or the Dask
    scheduler at ``cluster`` (then ``processes`` must be None)."""

    processes: int | None = None
    cluster: str | None = None

    def __post_init__(self) -> None:
        if self.cluster is not None and self.processes is not None:
            raise BadInput("--workers and --cluster exclude each other (the cluster's workers do the work)")

    def local(self, games: int) -> int:
        """How many local processes read ``games`` games (1: this process)."""
        processes = self.processes or os.cpu_count() or 1
        return 1 if games < IN_PROCESS_BELOW else processes


IN_PROCESS = Workers(processes=1)
"""Every game read in this process."""


def prepare(workers: Workers) -> None:
    """Let local worker processes start sooner, when ``workers`` may run any (:func:`joseki.games.pool.start_early`):
    called before the files are listed, which for a folder of many games takes a while."""
    if workers.cluster is None and workers.local(IN_PROCESS_BELOW) > 1:
        start_early()


def fan_out(task: Callable[[list[I]], R], items: Iterable[I], games: int, workers: Workers, chunk: int) -> Iterator[R]:
    """``task`` of each chunk of ``chunk`` of ``items`` (``games`` of them), in the items' order.

    On a cluster, its chunks are of :data:`joseki.games.cluster.CHUNK_FILES` games.
    """
    if workers.cluster is not None:
        from joseki.games.cluster import map_chunks

        yield from map_chunks(workers.cluster, task, items)
        return
    processes = workers.local(games)
    if processes <= 1:
        yield from map(task, chunks(items, chunk))
        return
    yield from _in_processes(task, items, processes, chunk)


_TASK: Callable[[list[Any]], Any] | None = None
"""A local worker process's task, set once when it starts."""


def _install(task: Callable[[list[Any]], Any]) -> None:
    global _TASK
    _TASK = task


def _run(part: list[Any]) -> Any:
    assert _TASK is not None
    return _TASK(part)


def _in_processes(task: Callable[[list[I]], R], items: Iterable[I], processes: int, chunk: int) -> Iterator[R]:
    parts = chunks(items, chunk)
    with worker_pool(processes, _install, (task,)) as pool:
        pending: deque[AsyncResult[R]] = deque()

        def submit_more() -> None:
            while len(pending) < CHUNKS_PER_PROCESS * processes:
                part = next(parts, None)
                if part is None:
                    return
                pending.append(pool.apply_async(_run, (part,)))

        submit_more()
        while pending:
            result = pending.popleft().get()
            submit_more()
            yield result
