"""Where a view's answer is computed: in a thread of the server process, or in processes of their own.

A view is named by a :data:`Call` (the view's name and its arguments, plain data that pickles) and
computed by :func:`compute`, wherever it runs, so a request gives the same bytes either way.

A view is all interpreter work once the book's reads are kept (:mod:`joseki.book.query.memo`; on
PostgreSQL too, where the rest is waiting on the server), and one process runs it one thread at
a time: in the server's own threads, players asking at once queue behind each other's first
asks while the other cores idle. So a server over a store that other processes can open (a
SQLite file, a server database) computes them in processes of its own (:class:`InProcesses`,
one a core by default: :func:`default_processes`). Each opens the store itself and keeps its
own memory of the parts of answers (corner answers, focus lines, the book's reads: a
:class:`joseki.web.cache.Cache`, checked against the store's version before every view, as the
server's is); the server process parses requests, keeps and sends the finished answers, and
hands each first ask to the next free process. Several server processes (``--workers``, for a
server database) compute in their threads (:class:`InThreads`).
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import anyio.to_thread

from joseki.book.store.database import Store
from joseki.core.geometry import Corner
from joseki.core.steps import Colour
from joseki.web import gamerefs_views, views
from joseki.web.cache import Cache, encode
from joseki.web.reads import Reads

Call = tuple[str, tuple[Any, ...]]
"""A view and its arguments after the store: ``("explore", (tokens, colour, corner, ...))`` (:data:`VIEWS`)."""
THREADS = {"sqlite": 1, "postgresql": 4}
"""How many views a server process computes at once in its threads, by backend. On SQLite a view is all interpreter
work, which one process runs one thread at a time: more threads would only take turns, each answer finishing later,
and keep the event loop from sending the answers already kept. A server database answers over the network, so some
threads wait on it."""
FREEZE_EVERY = 100
"""How many views a process computes between two freezes of its heap (:class:`Heap`)."""


def _explore(store: Store, cache: Cache, reads: Reads, tokens: list[str], colour: Colour, corner: Corner,
             collections: list[str] | None, profile: str | None, rank: str, top: int | None,
             favour_all: bool) -> dict[str, Any]:
    return views.explore(store, tokens, colour, corner, collections, profile, rank, top, favour_all, cache.line,
                         cache.corner, reads())


def _review(store: Store, cache: Cache, reads: Reads, played: views.Played, collections: list[str] | None,
            profile: str | None, rank: str, top: int | None, favour_all: bool) -> dict[str, Any]:
    return views.review(store, played, collections, profile, rank, top, favour_all, cache.line, cache.corner,
                        reads())


def _practise(store: Store, cache: Cache, reads: Reads, tokens: list[str], colour: Colour,
              collections: list[str] | None, profile: str | None, seed: int | None) -> dict[str, Any]:
    return views.practise(store, tokens, colour, collections, profile, seed, cache.corner, reads())


def _games(store: Store, cache: Cache, reads: Reads, tokens: list[str], colour: Colour, profile: str | None,
           order: str, limit: int) -> dict[str, Any]:
    return gamerefs_views.games_behind(store, tokens, colour, profile, order, limit)


VIEWS: dict[str, Callable[..., dict[str, Any]]] = {"explore": _explore, "review": _review, "practise": _practise,
                                                   "games": _games}
"""Each view by name, called with the store, its memory of parts, its reads and the :data:`Call`'s arguments."""


def compute(store: Store, cache: Cache, reads: Reads, call: Call) -> bytes:
    """The encoded answer to ``call``, from ``store`` read through ``reads`` with ``cache``'s parts."""
    name, args = call
    return encode(VIEWS[name](store, cache, reads, *args))


class Heap:
    """Keeps the garbage collector's passes short in a process whose ``cache`` holds many answers' parts.

    Those parts live long and hold no reference cycles, yet each full pass of CPython's collector
    walks them all: with the caches full, a pause of 100-250 ms in the middle of a view, which
    the requests queued behind it wait out too (bench_serve.py). So every :data:`FREEZE_EVERY`
    views the young generations are collected and what survives is frozen (:func:`gc.freeze`:
    never walked again, still freed when its last reference goes); when the store changes and
    the caches are dropped, everything is thawed and collected once.
    """

    def __init__(self, cache: Cache) -> None:
        self.cache, self.views, self.invalidations = cache, 0, cache.invalidations
        gc.freeze()

    def after_view(self) -> None:
        """Count a view; collect and freeze when due (class docstring)."""
        self.views += 1
        if self.cache.invalidations != self.invalidations:
            self.invalidations = self.cache.invalidations
            gc.unfreeze()
            gc.collect()
            gc.freeze()
        elif self.views % FREEZE_EVERY == 0:
            gc.collect(1)
            gc.freeze()


class InThreads:
    """Views computed in this process's threads, at most ``threads`` at once (default: :data:`THREADS`), with the
    server's own memory ``cache`` of their parts."""

    def __init__(self, store: Store, cache: Cache, threads: int | None = None) -> None:
        self.store, self.cache, self.reads = store, cache, Reads(store, cache.memo)
        self._limiter = anyio.CapacityLimiter(threads or THREADS.get(store.engine.dialect.name, 4))

    async def __call__(self, call: Call) -> bytes:
        return await anyio.to_thread.run_sync(compute, self.store, self.cache, self.reads, call,
                                              limiter=self._limiter)

    def parts(self) -> dict[str, Any]:
        """The parts' counts are the server cache's own."""
        return {}

    def close(self) -> None:
        self.reads.close()


_process: tuple[Store, Cache, Reads, Heap] | None = None
"""A computing process's store, memory of parts and reads (:func:`_start`)."""


def _start(url: str, cache_bytes: int) -> None:
    global _process
    store = Store(url)
    cache = Cache(store, cache_bytes)
    _process = store, cache, Reads(store, cache.memo), Heap(cache)


def _in_process(call: Call) -> tuple[bytes, int, dict[str, Any]]:
    """``call`` computed in a computing process: its answer, the process's id and its parts' counts."""
    assert _process is not None, "not a computing process"
    store, cache, reads, heap = _process
    cache.check()
    try:
        body = compute(store, cache, reads, call)
    finally:
        heap.after_view()
    return body, os.getpid(), cache.parts()


def _ready() -> int:
    return os.getpid()


class InProcesses:
    """Views computed in ``processes`` processes of their own over the store at ``url``, each remembering parts of
    answers within ``cache_bytes`` (module docstring)."""

    def __init__(self, url: str, processes: int, cache_bytes: int) -> None:
        self.processes = processes
        self._pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_start, initargs=(url, cache_bytes))
        self._counts: dict[int, dict[str, Any]] = {}

    def start(self) -> None:
        """Start every process now (each imports the views and opens the store), not at the first requests."""
        for future in [self._pool.submit(_ready) for _ in range(self.processes)]:
            future.result()

    async def __call__(self, call: Call) -> bytes:
        body, pid, counts = await asyncio.get_running_loop().run_in_executor(self._pool, _in_process, call)
        self._counts[pid] = counts
        return body

    def parts(self) -> dict[str, Any]:
        """The parts' counts summed over the processes (as of each one's latest answer)."""
        summed: dict[str, Any] = {}
        for counts in self._counts.values():
            for part, values in counts.items():
                into = summed.setdefault(part, {})
                for name, value in values.items():
                    into[name] = into.get(name, 0) + value
        return {**summed, "processes": self.processes}

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def default_processes(store: Store) -> int:
    """How many processes compute views by default: one a core for a store other processes can open (a SQLite file,
    a server database) with more than one core to use, none (threads) otherwise (module docstring)."""
    if store.is_sqlite and Reads(store).path is None:
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores if cores > 1 else 0
