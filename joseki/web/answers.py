"""How a view's answer reaches the client: from the cache, or computed once and encoded.

A request whose answer is kept (:mod:`joseki.web.cache`) is sent from the event loop without
touching a thread or the database. Otherwise the view is computed where the server computes
views (:mod:`joseki.web.compute`: its threads, or processes of its own) and its JSON is
encoded once (:func:`joseki.web.cache.encode`); requests for the same key that arrive
while it runs wait for that one computation instead of repeating it. The ``X-Cache`` header
says which happened: ``hit``, ``miss`` or ``shared``.

A request asked again exactly as before (the same path and query string) is answered before
routing (:class:`KeptFirst`): FastAPI's parameter checks and routing cost about 0.4 ms a
request, more than sending the kept bytes. The kept answer is found under the request as it
came (:meth:`joseki.web.cache.Cache.get_raw`), recorded when the view's answer was kept; any
other request goes through the view, which normalises it (``Q16,R14`` and ``q16 r14`` are one
answer).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from joseki.web.cache import Cache
from joseki.web.compute import Call

KEPT_PATHS = frozenset({"/api/explore", "/api/review", "/api/games", "/api/practise"})
"""The views answered through :class:`Answers`, whose kept answers :class:`KeptFirst` may send."""
_RAW: ContextVar[tuple[str, bytes] | None] = ContextVar("raw_request", default=None)
"""The request being answered as it came (path, query string), set by :class:`KeptFirst`."""
_CHECKED: ContextVar[tuple[Hashable | None] | None] = ContextVar("store_checked", default=None)
"""The store's version as :class:`KeptFirst` read it for the request being answered (read once a request)."""


class Answers:
    """Answer requests by key through ``cache``, computing the views' :data:`~joseki.web.compute.Call` by
    ``computer`` (a key of None: never kept, as for a practice move without a seed)."""

    def __init__(self, cache: Cache, computer: Callable[[Call], Awaitable[bytes]]) -> None:
        self.cache, self._computed = cache, computer
        self._running: dict[Hashable, asyncio.Future[bytes]] = {}

    async def __call__(self, key: Hashable | None, view: Call) -> Response:
        checked = _CHECKED.get()
        version = self.cache.check() if checked is None else checked[0]
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
        self.cache.put(key, body, version, _RAW.get())
        return _response(body, "miss")


class KeptFirst:
    """ASGI middleware: a GET of a view whose answer for this very path and query string is kept is sent at once;
    every other request goes on to the app (module docstring). Inside the host check, so that still applies."""

    def __init__(self, app: ASGIApp, cache: Cache) -> None:
        self.app, self.cache = app, cache

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or scope["path"] not in KEPT_PATHS:
            await self.app(scope, receive, send)
            return
        raw = (scope["path"], scope["query_string"])
        version = self.cache.check()
        body = self.cache.get_raw(raw)
        if body is not None:
            await send({"type": "http.response.start", "status": 200, "headers": _headers(body, "hit")})
            await send({"type": "http.response.body", "body": body})
            return
        token, checked = _RAW.set(raw), _CHECKED.set((version,))
        try:
            await self.app(scope, receive, send)
        finally:
            _RAW.reset(token)
            _CHECKED.reset(checked)


def _headers(body: bytes, how: str) -> list[tuple[bytes, bytes]]:
    """The headers of a view's answer ``body``: its length, JSON, and how it was answered (``X-Cache``)."""
    return [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json"),
            (b"x-cache", how.encode())]


def _response(body: bytes, how: str) -> Response:
    response = Response(body)
    response.raw_headers = _headers(body, how)
    return response
