"""Worker processes that start fast and leave Ctrl-C to their parent.

Where the platform has it, a worker is a fork of one server process that imported the workers' modules
(:data:`WORKER_MODULES`) once, when :func:`start_early` (or the first pool) started it, instead of a new
interpreter importing them again for each pool (``forkserver``, else ``spawn``). Each worker then takes the
parent's current directory (as :mod:`multiprocessing` does) and environment of the moment, as a spawned one would.

A terminal sends SIGINT to the whole foreground process group: without care each worker of a
:class:`multiprocessing.pool.Pool` prints its own KeyboardInterrupt traceback. Here the server and the workers
start with SIGINT ignored (set while they are started, so even their start-up is covered); the
parent alone gets KeyboardInterrupt, and leaving the ``with`` block terminates the workers
(SIGTERM, which they do not catch) and waits for them.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from multiprocessing.context import BaseContext
from multiprocessing.pool import Pool
from typing import Any, TypeVar

T = TypeVar("T")

WORKER_MODULES = ["joseki.games.learn", "joseki.games.mine"]
"""The modules the fan-out's chunk tasks live in (with what they import): the server imports them once."""


def _context() -> BaseContext:
    """The start method: ``forkserver`` with :data:`WORKER_MODULES` where the platform has it, else ``spawn``."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(WORKER_MODULES)
    return context


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored in this process (its main thread) while processes are started, so they inherit it."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def start_early() -> None:
    """Start the server workers are forked from, if the platform has one and it is not running: it imports
    :data:`WORKER_MODULES` in the background while this process goes on (listing files, loading the book)."""
    if _context().get_start_method() == "forkserver":
        with _interrupts_ignored():
            multiprocessing.forkserver.ensure_running()


class _Pool(Pool):
    """A pool whose thread minding the workers wakes when a worker ends or the pool changes, not at each result.

    The stock pool's also waits on the results' pipe: while a result lies there unread it wakes again and again,
    each time asking every worker whether it has ended (with a forkserver, a ``select`` a worker), which takes this
    process's CPU and the lock every thread needs from the thread that reads the results."""

    def _get_sentinels(self) -> list[Any]:
        return [self._change_notifier._reader]  # type: ignore[attr-defined]


def _start_worker(environ: dict[str, str], initializer: Callable[..., None] | None, *args: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.clear()
    os.environ.update(environ)
    if initializer is not None:
        initializer(*args)


@contextmanager
def worker_pool(processes: int | None, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> Iterator[Pool]:
    """A pool of ``processes`` workers that ignore SIGINT, in this process's directory and environment, terminated
    and joined on leaving."""
    with _interrupts_ignored():
        pool = _Pool(processes, _start_worker, (dict(os.environ), initializer, *initargs), context=_context())
    try:
        yield pool
    finally:
        pool.terminate()
        pool.join()


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter), taken lazily."""
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk
