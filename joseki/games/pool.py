"""Worker processes that leave Ctrl-C to their parent.

A terminal sends SIGINT to the whole foreground process group: without care each worker of a
:class:`multiprocessing.pool.Pool` prints its own KeyboardInterrupt traceback. Here the workers
start with SIGINT ignored (set while they are spawned, so even their start-up is covered); the
parent alone gets KeyboardInterrupt, and leaving the ``with`` block terminates the workers
(SIGTERM, which they do not catch) and waits for them.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from multiprocessing.pool import Pool
from typing import Any, TypeVar

T = TypeVar("T")

def _ignore_interrupts(initializer: Callable[..., None] | None, *args: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*args)


@contextmanager
def worker_pool(processes: int | None, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> Iterator[Pool]:
    """A pool of ``processes`` spawned workers that ignore SIGINT, terminated and joined on leaving."""
    context = multiprocessing.get_context("spawn")
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        pool = context.Pool(processes, _ignore_interrupts, (initializer, *initargs))
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
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
