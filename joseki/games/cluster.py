"""The fan-out's cluster side (:mod:`joseki.games.fanout`): chunk tasks on a Dask distributed cluster (``--cluster``).

The games are cut into chunks of :data:`CHUNK_FILES`, one Dask task each; a task runs the same
chunk task the local worker processes run and returns its results in the games' order. The
parent takes the chunks back in order and merges them exactly as a local run does, so a run on
the cluster writes what a local run writes. A bounded window of chunks is in flight at a time
(a few per worker thread), so ten million games need neither ten million futures nor all their
results in memory at once. Dask reruns the tasks of a worker that dies (its finished but
unfetched results too): the results are the same, since every task is a pure function of its files.

Every worker must see the input files at the paths the parent gives (a shared filesystem or the
same copy on each machine) and have this version of joseki installed; a file it cannot see stops
the run with an error, rather than being counted as an unreadable game. The chunk task (with the
book's index in it) goes to the scheduler once, as a task whose result the workers copy from each
other, so workers need no access to the database.

Dask is imported only here, and only when a run asks for a cluster (the ``cluster`` extra).
"""

from __future__ import annotations

import os
import socket
import uuid
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from joseki.core.errors import BadInput
from joseki.games.pool import chunks
from joseki.sgf.archive import Source, container

T = TypeVar("T")
R = TypeVar("R")

CHUNK_FILES = 128
"""Files per task: a few hundred milliseconds of work, so the scheduler's cost per task stays small."""

WINDOW_PER_THREAD = 4
"""Chunks in flight per worker thread: enough that no worker waits for the parent."""

KEY_PREFIX = "joseki-chunk"
"""Start of every task key (how tests and the dashboard tell these tasks apart)."""


class MissingInput(Exception):
    """A worker cannot see an input file (raised in the worker, reported by the parent)."""

    def __init__(self, path: str, host: str) -> None:
        super().__init__(path, host)
        self.path = path
        self.host = host


def run_chunk(task: Callable[[list[Source | Any]], R], games: list[Source | Any]) -> R:
    """``task(games)`` once every game named by a file is seen to be there (runs in a worker)."""
    for game in games:
        if isinstance(game, str) and not os.path.exists(container(game)):
            raise MissingInput(game, socket.gethostname())
    return task(games)


def _shared(value: T) -> T:
    """What every chunk needs (the chunk task), as a task of its own (runs in a worker).

    Not :meth:`~distributed.Client.scatter`: the scheduler may drop a scattered value's extra
    copies (its active memory manager), and a value lost with its worker cannot be made again,
    whereas a task's result is recomputed from the task.
    """
    return value


def _client(address: str) -> Any:
    """A client of the scheduler at ``address``; BadInput naming the address when there is none."""
    try:
        from distributed import Client
        from distributed.comm.addressing import get_address_host_port, parse_address, resolve_address
    except ImportError:
        raise BadInput("--cluster needs Dask distributed: pip install 'joseki[cluster]'") from None
    try:
        target = resolve_address(address)
        if parse_address(target)[0] == "tcp":  # a refused connection fails at once, not after Dask's retries
            socket.create_connection(get_address_host_port(target), timeout=20).close()
        return Client(target, timeout="20s", set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise BadInput(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def map_chunks(address: str, task: Callable[[list[Any]], R], games: Iterable[Source | Any],
               chunk: int | None = None) -> Iterator[R]:
    """``task`` over the chunks of ``games``, run on the Dask cluster at ``address``: each chunk's results, in order.

    ``games`` are file names (each checked to be there), a tar member's name and bytes
    (:func:`joseki.sgf.archive.sources`), or anything else ``task`` takes; ``task`` must be picklable
    and importable by the workers, and is sent once. ``chunk``: games per task (default :data:`CHUNK_FILES`).
    Raises BadInput if a worker cannot see a file or import joseki.
    """
    parts = chunks(games, chunk or CHUNK_FILES)
    run = uuid.uuid4().hex[:12]
    with _client(address) as client:
        with warnings.catch_warnings():  # a book index is a "large graph": sent once, as intended
            warnings.simplefilter("ignore", UserWarning)
            shared = client.submit(_shared, task, key=f"joseki-shared-{run}", pure=False)
        pending: deque[Any] = deque()
        submitted = 0

        def submit_more() -> None:
            nonlocal submitted
            window = max(2, WINDOW_PER_THREAD * sum(client.nthreads().values()))
            while len(pending) < window:
                part = next(parts, None)
                if part is None:
                    return
                pending.append(client.submit(run_chunk, shared, part, key=f"{KEY_PREFIX}-{run}-{submitted}",
                                             pure=False))
                submitted += 1

        submit_more()
        while pending:
            future = pending.popleft()
            try:
                results = future.result()
            except MissingInput as exc:
                raise BadInput(f"{exc.path}: not found on a worker at {exc.host}: every worker must see "
                               "the input files at the same path") from None
            except ModuleNotFoundError as exc:
                raise BadInput(f"a Dask worker cannot import {exc.name}: install joseki on every worker") from None
            future.release()
            submit_more()
            yield results
