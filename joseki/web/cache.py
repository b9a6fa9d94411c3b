"""The server's one cache: encoded answers by request, for the store's version, and requests in flight shared.

A view's answer is a function of its request and the store's contents (:mod:`joseki.web.views`), so
once encoded it is sent again as the same bytes for the same normalised request while the store's
version (:meth:`joseki.book.store.database.Store.version`) stays: the version is read before every
request and every cached answer is dropped when it moved, whoever wrote. Bounded in bytes, the least
recently used going first; for a store whose version cannot be read nothing is cached. A request that
arrives while the same request, under the same version, is being computed waits for that
computation instead of repeating it. Each server process (``--workers``) has its own.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from joseki.book.store.database import Store

DEFAULT_MB = 64
"""Default bound of the encoded answers cached, in MiB."""
HIT, MISS, SHARED = "hit", "miss", "shared"
"""How an answer was found: cached, computed, or computed for another request in flight (the ``X-Cache`` header)."""


def encode(data: Any) -> bytes:
    """JSON bytes exactly as FastAPI would send ``data`` (Starlette's ``JSONResponse.render``), without its object
    walk: the views return plain JSON data only."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


class Cache:
    """Encoded answers by request key, at most ``max_bytes`` of them, valid for one store version (module
    docstring); ``max_bytes`` 0: none cached, requests in flight still shared."""

    def __init__(self, store: Store, max_bytes: int = DEFAULT_MB << 20) -> None:
        self.store, self.max_bytes = store, max_bytes
        self._answers: OrderedDict[Hashable, bytes] = OrderedDict()
        self._running: dict[Hashable, asyncio.Future[bytes]] = {}
        self._lock = threading.Lock()
        self.bytes = self.hits = self.misses = self.shared = self.evictions = self.invalidations = 0
        self.version: Hashable | None = store.version() if max_bytes > 0 else None

    async def answer(self, key: Hashable | None, compute: Callable[[], Awaitable[bytes]]) -> tuple[bytes, str]:
        """The encoded answer for request ``key`` and how it was found (:data:`HIT`, :data:`MISS`,
        :data:`SHARED`): cached, or computed by ``compute`` once for all requests of that key in flight. A key of
        None is never cached nor shared."""
        if key is None:
            return await compute(), MISS
        version = self.check()
        body = self._get(key)
        if body is not None:
            return body, HIT
        running = self._running.get((version, key))
        if running is not None:
            self.shared += 1
            return await asyncio.shield(running), SHARED
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._running[version, key] = future
        try:
            body = await compute()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # the waiters, if any, raise it; none: it is not "never retrieved"
            raise
        finally:
            del self._running[version, key]
        future.set_result(body)
        self._put(key, body, version)
        return body, MISS

    def check(self) -> Hashable | None:
        """The store's version now; every cached answer is dropped if it moved since the answers were computed."""
        if self.max_bytes <= 0:
            return None
        version = self.store.version()
        with self._lock:
            if version != self.version:
                if self._answers:
                    self.invalidations += 1
                self._answers.clear()
                self.bytes, self.version = 0, version
        return version

    def _get(self, key: Hashable) -> bytes | None:
        with self._lock:
            body = self._answers.get(key) if self.version is not None else None
            if body is None:
                self.misses += 1
                return None
            self._answers.move_to_end(key)
            self.hits += 1
            return body

    def _put(self, key: Hashable, body: bytes, version: Hashable | None) -> None:
        """Cache ``body`` if the store is still at ``version``, the one it was computed under; an answer past an
        eighth of the bound is not cached (one huge answer does not flush the rest)."""
        if len(body) > self.max_bytes // 8:
            return
        with self._lock:
            if version is None or version != self.version or key in self._answers:
                return
            self._answers[key] = body
            self.bytes += len(body)
            while self.bytes > self.max_bytes:
                _, old = self._answers.popitem(last=False)
                self.bytes -= len(old)
                self.evictions += 1

    def stats(self) -> dict[str, Any]:
        """The counts ``/api/stats`` reports."""
        with self._lock:
            return {"enabled": self.max_bytes > 0 and self.version is not None, "entries": len(self._answers),
                    "bytes": self.bytes, "max_bytes": self.max_bytes, "hits": self.hits, "misses": self.misses,
                    "shared": self.shared, "evictions": self.evictions, "invalidations": self.invalidations}
