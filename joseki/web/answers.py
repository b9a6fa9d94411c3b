"""How a view's answer reaches the client: from the cache, or computed once in a worker thread and encoded.

A request whose answer is kept (:mod:`joseki.web.cache`) is sent from the event loop without
touching a thread or the database. Otherwise the view runs in Starlette's thread pool and its
JSON is encoded once (:func:`joseki.web.cache.encode`); requests for the same key that arrive
while it runs wait for that one computation instead of repeating it. The ``X-Cache`` header
says which happened: ``hit``, ``miss`` or ``shared``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from typing import Any

import anyio.to_thread
from starlette.responses import Response

from joseki.web.cache import Cache, encode

THREADS = {"sqlite": 1, "postgresql": 4}
"""How many views are computed at once, by backend. On SQLite a view is all interpreter work, which one process runs
one thread at a time: more threads would only take turns, each answer finishing later, and keep the event loop from
sending the answers already kept. A server database answers over the network, so some threads wait on it."""


class Answers:
    """Answer requests by key through ``cache`` (a key of None: never kept, as for a practice move without a seed)."""

    def __init__(self, cache: Cache, threads: int | None = None) -> None:
        self.cache = cache
        self._running: dict[Hashable, asyncio.Future[bytes]] = {}
        self._threads = anyio.CapacityLimiter(threads or THREADS.get(cache.store.engine.dialect.name, 4))

    async def _computed(self, view: Callable[[], dict[str, Any]]) -> bytes:
        return await anyio.to_thread.run_sync(lambda: encode(view()), limiter=self._threads)

    async def __call__(self, key: Hashable | None, view: Callable[[], dict[str, Any]]) -> Response:
        version = self.cache.check()
        if key is None:
            return _response(await self._computed(view), "miss")
        body = self.cache.get(key)
        if body is not None:
            return _response(body, "hit")
        running = self._running.get(key)
        if running is not None:
            return _response(await asyncio.shield(running), "shared")
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            body = await self._computed(view)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # the waiters, if any, raise it; none: it is not "never retrieved"
            raise
        finally:
            del self._running[key]
        future.set_result(body)
        self.cache.put(key, body, version)
        return _response(body, "miss")


def _response(body: bytes, how: str) -> Response:
    return Response(body, media_type="application/json", headers={"X-Cache": how})
