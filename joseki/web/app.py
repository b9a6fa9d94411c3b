"""``joseki serve``: the explorer's web server, a FastAPI app under uvicorn: its routes and how it is served.

FastAPI (over Starlette) because the explorer has a documented JSON API: it writes the OpenAPI
description from the routes' signatures (``/api/openapi.json``, shown by the page ``/api``); its
import (about 0.3 s) happens only inside ``serve``. The interactive docs FastAPI would load from a
CDN are switched off: every file the page needs ships in ``joseki/web/static``.

Each view's route turns its query into the view's request (:mod:`joseki.web.views`) and answers it
through the one cache of answers (:mod:`joseki.web.cache`), computing it in a thread on a miss, on a
store whose reads remember their answers (:mod:`joseki.book.query.memo`; a player's first asks share
most of their reads with earlier ones). More players are served by more server processes
(``workers``, uvicorn's own) and, for many, a PostgreSQL store.

Safety: bound to 127.0.0.1 by default and answering only requests addressed to the host it
serves (no DNS rebinding; another address is served only for the host names it is given, never any);
a request's body must arrive within :data:`BODY_SECONDS` (else 408); a client that goes away is told in
one log line; pages may not be framed by another site; no answer names a file by its place on the
server (a learnt game is named by its key and its path below the folder of the learnt games); read-only
unless started ``writable`` (then it may upgrade the schema and load the starter book into an empty store);
uploads are capped at :data:`~joseki.core.limits.MAX_UPLOAD_BYTES` and parsed with the import limits; a game of the
store is opened only by its key (:func:`joseki.book.gamerefs.read.load_game`), never by a path from
the request; every SGF text reaches the page as JSON data and is written there as text.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from joseki.book.gamerefs.read import GameFilter, load_game
from joseki.book.query.memo import Memo
from joseki.book.store import contents
from joseki.book.store.database import Store, current_revision
from joseki.book.store.errors import StoreError
from joseki.book.store.files import head_revision
from joseki.core.errors import BadInput, UserError
from joseki.core.geometry import Corner
from joseki.core.limits import MAX_UPLOAD_BYTES, beyond
from joseki.core.moves import parse_game_text, split_tokens
from joseki.web import views
from joseki.web.cache import DEFAULT_MB, Cache, encode
from joseki.web.views import Explore, Games, Practise, Review, Search

STATIC = Path(__file__).resolve().parent / "static"
DB_VAR, WRITABLE_VAR, HOSTS_VAR, CACHE_VAR = "JOSEKI_DB", "JOSEKI_SERVE_WRITABLE", "JOSEKI_SERVE_HOSTS", \
    "JOSEKI_SERVE_CACHE_MB"
MEMO_PER_MB = 1024
"""The bound of the book's memo per MiB of ``cache_mb``, in entries (about a KiB each at the explorer's mix)."""
JSON: dict[int | str, dict[str, Any]] = {200: {"content": {"application/json": {}}}}
BODY_SECONDS = 30.0
"""The time a request's body may take to arrive, from the request's start (an upload is at most
:data:`~joseki.core.limits.MAX_UPLOAD_BYTES`): a client that stalls is answered 408 and its connection closed."""
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
"""The Host names a server always answers."""
log = logging.getLogger("joseki.web")

MovesText = Annotated[str, Query(description="Moves in GTP (Q16) or SGF (pd) notation, comma separated; "
                                             "pass = tenuki.")]
First = Annotated[str, Query(description="Colour of the first move: black or white.")]
Collections = Annotated[list[str] | None, Query(alias="collection", description="Only these collections.")]
Profile = Annotated[str | None, Query(description="Statistics of this profile (falling back to global).")]
Rank = Annotated[str, Query(description="Order: popularity, priority, winrate, games, context (the games of the "
                                                "whole-board context, when it has any).")]
Top = Annotated[int | None, Query(ge=1, le=100, description="At most this many candidates.")]
SetupText = Annotated[str, Query(description="Stones on the board before the moves (a game's setup), as a "
                                               "game's moves are written: bpdbdp...")]
Favour = Annotated[str, Query(pattern="^(focus|all)$", description="Favourability of the candidates of the focus "
                              "corner only (focus: the corner of the last local move, whose table is shown) or all.")]


def open_store(db: str | None, writable: bool, cache_mb: int = 0) -> Store:
    """The store to serve: upgraded and given the starter book when writable, else checked to be current; its reads
    remembered in a memo of about ``cache_mb`` MiB (:mod:`joseki.book.query.memo`; 0: none)."""
    store = Store(db, upgrade=writable, memo=Memo(cache_mb * MEMO_PER_MB) if cache_mb > 0 else None)
    if writable:
        from joseki.book.importer import import_file
        from joseki.book.store.files import starter_book

        if store.collection_count() == 0:
            report = import_file(store, starter_book(), "starter")
            if report.error:
                raise StoreError(f"starter book {starter_book()}: {report.error}")
        return store
    with store.read() as conn:
        revision = current_revision(conn)
    if revision != head_revision():
        store.close()
        raise StoreError(f"{store.display_url}: schema {revision or 'empty'}, not {head_revision()}: run "
                         "'joseki db upgrade' (or serve --writable)")
    return store


def create_app(store: Store, writable: bool = False, hosts: list[str] | None = None,
               cache_mb: int = DEFAULT_MB, body_seconds: float = BODY_SECONDS) -> ASGIApp:
    """The app over ``store``; ``hosts``: the Host names it answers (default: loopback names); ``cache_mb``: the
    bound of its cache of answers (:mod:`joseki.web.cache`; 0: none cached); ``body_seconds``: the time a request's
    body may take to arrive."""
    cache = Cache(store, cache_mb << 20)

    async def answered(request: views.Request) -> Response:
        """The view's answer to ``request`` through the cache, computed in a thread on a miss."""
        view = views.view_for(request)

        async def compute() -> bytes:
            return await run_in_threadpool(lambda: encode(view.function(store, request)))

        body, how = await cache.answer((view.name, request) if view.cacheable(request) else None, compute)
        response = Response(body)
        response.raw_headers = [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json"),
                                (b"x-cache", how.encode())]
        return response

    app = FastAPI(title="joseki explorer", version="1", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json",
                  description="The joseki book over HTTP: each view's data is the CLI's --json plus drawing keys.")

    @app.exception_handler(UserError)
    async def bad_input(request: Request, exc: UserError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.exception_handler(StoreError)
    async def bad_store(request: Request, exc: StoreError) -> JSONResponse:
        log.warning("%s %s: %s", request.method, request.url.path, exc)  # it names the database: not for the client
        return JSONResponse({"error": "the store cannot answer now (the server's log says why)"}, status_code=503)

    @app.exception_handler(SlowBody)
    async def slow_body(request: Request, exc: SlowBody) -> JSONResponse:
        log.warning("%s %s: %s; answered 408", request.method, request.url.path, exc)
        return JSONResponse({"error": str(exc)}, status_code=408, headers={"Connection": "close"})

    @app.exception_handler(ClientDisconnect)
    async def went_away(request: Request, exc: ClientDisconnect) -> Response:
        return Response(status_code=400)  # sent to no one; BodyDeadline tells it in the log

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=_NO_SNIFF)

    @app.get("/api", include_in_schema=False)
    def api_page() -> FileResponse:
        return FileResponse(STATIC / "api.html", headers=_NO_SNIFF)

    @app.get("/api/catalogue")
    def catalogue() -> dict[str, Any]:
        """The collections and profiles of the store, and whether the server may write."""
        held = contents.catalogue(store)
        return {"collections": held.collections, "profiles": held.profiles, "writable": writable}

    @app.get("/api/stats")
    def stats() -> dict[str, Any]:
        """This server process's cache of answers (:mod:`joseki.web.cache`) and the book's memo of its reads
        (:mod:`joseki.book.query.memo`): bounds, sizes, hits and misses."""
        return {"pid": os.getpid(), "cache": cache.stats(), "memo": None if store.memo is None else store.memo.stats()}

    @app.get("/api/explore", response_model=dict[str, Any], responses=JSON)
    async def explore(moves: MovesText = "", first: First = "black", corner: str = "top-right",
                      collection: Collections = None, profile: Profile = None, rank: Rank = "popularity",
                      top: Top = None, favour: Favour = "focus", setup: SetupText = "") -> Response:
        """The book after MOVES: every corner (``joseki next --json``), the focus corner's line (``joseki show
        --json``), the board; ``corner`` is the corner asked about on an empty board."""
        return await answered(Explore(tuple(split_tokens(moves)), views.colour(first), Corner.parse(corner),
                                      _names(collection), profile or None, rank, top, favour == "all",
                                      _setup(setup)))

    @app.get("/api/review", response_model=dict[str, Any], responses=JSON)
    async def review(game: Annotated[str, Query(description="A game's moves: colour + SGF point each, "
                                                            "bpdwdd...")] = "",
                     move: Annotated[int | None, Query(ge=0, description="After this many moves "
                                                                         "(default: all).")] = None,
                     setup: SetupText = "",
                     collection: Collections = None, profile: Profile = None, rank: Rank = "popularity",
                     top: Top = None, favour: Favour = "focus") -> Response:
        """Every corner of a game after MOVE moves (``joseki next --sgf G --move N --json``), with the board."""
        played = parse_game_text(game)
        if move is not None and move > len(played):
            raise BadInput(f"move {move} is beyond the game's {len(played)} moves")
        views.check_game(played, _setup(setup))
        return await answered(Review(tuple(played[:move] if move is not None else played), _setup(setup),
                                     _names(collection), profile or None, rank, top, favour == "all"))

    @app.post("/api/upload")
    async def upload(request: Request) -> dict[str, Any]:
        """An SGF game record sent as the request body (at most MAX_UPLOAD_BYTES), read as ``learn`` reads it."""
        from joseki.sgf.game import game_from_bytes
        from joseki.sgf.text import file_name

        data = await _body(request, MAX_UPLOAD_BYTES)
        if not data.strip():
            raise BadInput("upload: empty file")
        # the page percent-encodes the name; another client may send its bytes (which Starlette reads as Latin-1)
        name = file_name(os.fsdecode(request.headers.get("x-file-name", "upload.sgf").encode("latin-1")))[:200]
        try:
            game = game_from_bytes(data, name)
        except ValueError as exc:
            raise BadInput(f"{name}: {exc}") from None
        if game.size != 19:
            raise BadInput(f"{name}: board size {game.size}: the book is for 19x19")
        return {"game": views.game_json(game, name)}

    @app.get("/api/practise", response_model=dict[str, Any], responses=JSON)
    async def practise(moves: MovesText = "", first: First = "black", collection: Collections = None,
                       profile: Profile = None,
                       seed: Annotated[int | None, Query(description="Seed of the book's choice "
                                                                     "(repeatable).")] = None,
                       corner: Annotated[str, Query(description="Where the book moves first, with no moves.")]
                       = "top-right") -> Response:
        """The player's last move graded against the book, and the book's answer (the GTP proxy's policy); with
        no moves, the book's first move."""
        return await answered(Practise(tuple(split_tokens(moves)), views.colour(first), _names(collection),
                                       profile or None, seed, Corner.parse(corner)))

    @app.get("/api/games", response_model=dict[str, Any], responses=JSON)
    async def games(moves: Annotated[str, Query(description="Moves, as for /api/explore: the corner of the last "
                                                            "local move is asked about.")] = "",
                    first: str = "black",
                    profile: Annotated[str | None, Query(description="Games learnt into this profile.")] = None,
                    order: Annotated[str, Query(description="newest or strongest first.")] = "newest",
                    limit: Annotated[int, Query(ge=1, le=100)] = 20,
                    player: Annotated[str, Query(max_length=100, description="Part of a player's name.")] = "",
                    rank: Annotated[str, Query(max_length=10, description="Both players at least this rank (5d).")]
                    = "", since: Annotated[str, Query(max_length=10, description="From this date (2019-05).")] = "",
                    until: Annotated[str, Query(max_length=10, description="Up to this date.")] = "",
                    result: Annotated[str, Query(description="black, white or draw: the games won so.")] = "",
                    setup: SetupText = "") -> Response:
        """The learnt or mined games that reached the position of the focus corner after MOVES (``joseki games
        --json``), newest or strongest first, those of the store's kept games that pass the filters."""
        only = GameFilter(player, rank, since, until, result)
        return await answered(Games(tuple(split_tokens(moves)), views.colour(first), profile or None, order, limit,
                                    only, _setup(setup)))

    @app.get("/api/search", response_model=dict[str, Any], responses=JSON)
    async def search(pattern: Annotated[str, Query(max_length=800, description="The pattern's rows of Kombilo "
                                                   "letters (. empty, X black, O white, x black or empty, o white or "
                                                   "empty, * anything) separated by /.")] = "",
                     corner: Annotated[str | None, Query(description="In this corner as drawn (the default: "
                                                                     "top-left).")] = None,
                     side: Annotated[str | None, Query(description="Along this side (top, bottom, left, right), "
                                                                   "anywhere on it.")] = None,
                     anywhere: Annotated[bool, Query(description="Anywhere on the board.")] = False,
                     at: Annotated[str | None, Query(description="Only at this place: the pattern's top-left point "
                                                                 "(Q16, pd).")] = None,
                     origin: Annotated[str | None, Query(description="Where the pattern is drawn: its top-left "
                                                                     "point, one of the places the placement "
                                                                     "allows (default: its home). The drawing keys "
                                                                     "and NEXT are on the board as drawn.")] = None,
                     fixed_colour: Annotated[bool, Query(description="X is Black only (no colour swap).")] = False,
                     fixed_orientation: Annotated[bool, Query(description="As drawn only (no symmetry).")] = False,
                     player: Annotated[str, Query(max_length=100, description="A player of either colour (part of "
                                                                              "the name).")] = "",
                     min_rank: Annotated[str, Query(max_length=10, description="Every known rank at least this "
                                                                               "(7d).")] = "",
                     date_from: Annotated[str, Query(alias="from", max_length=10, description="Played on or after "
                                                                                            "(2011, 2011-05-01).")]
                     = "",
                     date_to: Annotated[str, Query(alias="to", max_length=10, description="Played on or before.")]
                     = "",
                     result: Annotated[str, Query(max_length=5, description="Won by B or W (D: a draw).")] = "",
                     event: Annotated[str, Query(max_length=100, description="The event (part of its name).")] = "",
                     next_moves: Annotated[str, Query(alias="next", description="Moves played next inside the "
                                                                                "pattern, in order, comma "
                                                                                "separated (B:Q16 names the "
                                                                                "colour; else they alternate from "
                                                                                "Black).")] = "",
                     limit: Annotated[int, Query(ge=1, le=500, description="Games listed (the counts are over "
                                                                           "all).")] = 50) -> Response:
        """Where a pattern occurred in the indexed games and what was played next (``joseki search --json``),
        with the keys to draw it where it is drawn."""
        from joseki.book.patternsearch import GameFilter as PatternGames
        from joseki.book.patternsearch import Query as PatternQuery
        from joseki.core.pattern import parse_pattern
        from joseki.core.patternwords import placement, sequence

        parsed = parse_pattern(pattern, "pattern")
        where = placement(parsed, corner, side, anywhere, at)
        drawn = views.drawn_origin(parsed, where, origin)
        games = PatternGames(player, min_rank, date_from, date_to, result.strip().lower()[:1], event)
        query = PatternQuery(parsed, where, fixed_orientation, fixed_colour, games,
                             sequence(split_tokens(next_moves), parsed, drawn, "where it is drawn"), limit)
        return await answered(Search(query, drawn))

    @app.get("/api/game/{key}")
    def game(key: str) -> dict[str, Any]:
        """A game of the store by its key (from /api/games or /api/search): its players, result and moves."""
        loaded = load_game(store, key)
        return {"game": {**views.game_json(loaded, loaded.source), "key": key}}

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    guarded = BodyDeadline(SecurityHeaders(app), body_seconds)
    return TrustedHostMiddleware(guarded, allowed_hosts=hosts or list(LOOPBACK))


class SlowBody(Exception):
    """A request's body that did not arrive within :data:`BODY_SECONDS`."""


class BodyDeadline:
    """Bounds the time a request's body takes to arrive (:data:`BODY_SECONDS` from the request's start): past it,
    the app's next wait for the body raises :class:`SlowBody` (answered 408). Once the body is in, waits are not
    bounded (a response may wait for the client to go away). When the answer is ready to go, a client that went
    away meanwhile is told in one log line (uvicorn drops what is sent to it)."""

    def __init__(self, app: ASGIApp, seconds: float = BODY_SECONDS) -> None:
        self.app, self.seconds = app, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline, arrived = time.monotonic() + self.seconds, False

        async def bounded() -> Message:
            nonlocal arrived
            if arrived:
                return await receive()
            try:
                async with asyncio.timeout(max(deadline - time.monotonic(), 0)):
                    message = await receive()
            except TimeoutError:
                raise SlowBody(f"the request's body did not arrive within {self.seconds:g} s") from None
            arrived = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start" and await Request(scope, receive).is_disconnected():
                log.warning("%s %s: the client went away before its answer", scope["method"], scope["path"])
            await send(message)

        await self.app(scope, bounded, watched)


class SecurityHeaders:
    """Adds the content security policy and ``nosniff`` to every response (a plain ASGI middleware: Starlette's
    ``BaseHTTPMiddleware`` costs a task group and a stream per request)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", _CSP)
                headers.setdefault("X-Content-Type-Options", "nosniff")
            await send(message)

        await self.app(scope, receive, with_headers)


def _setup(text: str) -> views.Setup:
    """Setup stones as part of a request, from a text as a game's moves are written (``bpdbdp``)."""
    return tuple(sorted((p, c) for c, p in parse_game_text(text) if p is not None))


def _names(collections: list[str] | None) -> tuple[str, ...] | None:
    """Collections as part of a request (None: all)."""
    return tuple(collections) if collections else None


_NO_SNIFF = {"X-Content-Type-Options": "nosniff"}
_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
        "frame-ancestors 'none'")


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused past ``limit`` bytes before it is read whole."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise beyond("upload: a file", limit, "bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise beyond("upload: a file", limit, "bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def app_from_env() -> ASGIApp:
    """The app for a uvicorn worker process (several workers): the store and flags from the environment."""
    writable = os.environ.get(WRITABLE_VAR) == "1"
    hosts = [h for h in os.environ.get(HOSTS_VAR, "").split(",") if h] or None
    cache_mb = int(os.environ.get(CACHE_VAR, DEFAULT_MB))
    return create_app(open_store(os.environ.get(DB_VAR), writable, cache_mb), writable, hosts, cache_mb)


def serve(db: str | None = None, host: str = "127.0.0.1", port: int = 8000, writable: bool = False,
          workers: int = 1, log_level: str = "warning", announce: Callable[[str], None] | None = None,
          cache_mb: int = DEFAULT_MB, allowed_hosts: list[str] | None = None) -> None:
    """Run the explorer until interrupted; with ``workers`` > 1 as that many uvicorn processes (each with its own
    cache: for a PostgreSQL store, or a SQLite file many players read).

    ``announce`` is told the page's address once the store is open; ``cache_mb`` bounds each process's cache of
    answers (:mod:`joseki.web.cache`); ``allowed_hosts``: the Host names it answers besides the loopback ones (required
    to serve any other address, :func:`allowed`). uvicorn runs its own choice of event loop and HTTP parser (uvloop and
    httptools when installed; uvloop turns Nagle's algorithm off on every connection)."""
    import uvicorn

    hosts = allowed(host, allowed_hosts or [])
    store = open_store(db, writable, cache_mb)  # fail here, in one line, before any worker starts
    if announce is not None:
        announce(f"http://{'[' + host + ']' if ':' in host else host}:{port}/")
    if workers <= 1:
        uvicorn.run(create_app(store, writable, hosts, cache_mb), host=host, port=port, log_level=log_level)
        return
    os.environ.update({DB_VAR: store.url, WRITABLE_VAR: "1" if writable else "0", HOSTS_VAR: ",".join(hosts),
                       CACHE_VAR: str(cache_mb)})
    store.close()
    uvicorn.run("joseki.web.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level=log_level)


def allowed(host: str, names: list[str]) -> list[str]:
    """The Host names a server on address ``host`` answers: the loopback names, ``host`` itself when it is one
    address, and ``names``; BadInput for an address other than loopback without ``names``, or a name that
    would match any host."""
    if any(n.strip() in ("*", "") for n in names):
        raise BadInput("--allowed-host: name each host (a.example.org, *.example.org), never '*'")
    if not _loopback(host) and not names:
        raise BadInput(f"--host {host} is not this machine alone: name the host names players use to reach it "
                       "with --allowed-host NAME (repeatable)")
    found = list(LOOPBACK)
    for name in ([] if host in ("0.0.0.0", "::") else [f"[{host}]" if ":" in host else host]) + names:
        if name.strip() not in found:
            found.append(name.strip())
    return found


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
