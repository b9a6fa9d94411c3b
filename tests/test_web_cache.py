"""The server's one cache (joseki.web.cache): the same bytes as a fresh answer, bounded, keyed by the request and
the store's version, dropped when anyone writes to the store, and one computation for the same request in flight."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from joseki.book.query.memo import Memo
from joseki.book.store.database import Store
from joseki.games.learn import learn
from joseki.web import views
from joseki.web.cache import HIT, MISS, SHARED, Cache, encode
from joseki.web.views import Explore, Review

from .conftest import Databases
from .games import write_game
from .webserver import make_book, new_book, running

REQUESTS = [("/api/explore", {"moves": "Q16,R14"}), ("/api/explore", {"moves": "Q16,R14,R11,D4,C16"}),
            ("/api/explore", {"moves": "", "corner": "bottom-left"}), ("/api/explore", {"moves": "pd,qf"}),
            ("/api/explore", {"moves": "Q16", "collection": "hostile"}),
            ("/api/review", {"game": "bpdwqfbqi", "move": "2"}), ("/api/review", {"game": "bpdwqfbqibdd"}),
            ("/api/games", {"moves": "Q16,R14,R11"}), ("/api/games", {"moves": "Q16,R14,R11", "order": "strongest"}),
            ("/api/practise", {"moves": "Q16,R14,R11", "seed": "1"}),
            ("/api/practise", {"moves": "Q16,R14,O14", "seed": "3"})]


@pytest.fixture(scope="module")
def book(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with new_book(databases, tmp_path_factory.mktemp("cache"), "cache") as (_, store):
        yield store


def _twice(http: httpx.Client, path: str, params: dict[str, str]) -> tuple[httpx.Response, httpx.Response]:
    """The same request twice in a row, the second answered from the cache: again if the store's version moved
    in between (on PostgreSQL, any transaction that writes, autovacuum's too, moves it)."""
    for _ in range(10):
        dropped = http.get("/api/stats").json()["cache"]["invalidations"]
        first, again = http.get(path, params=params), http.get(path, params=params)
        if again.headers["x-cache"] == HIT or http.get("/api/stats").json()["cache"]["invalidations"] == dropped:
            return first, again
    raise AssertionError(f"the store kept changing under {path}")


def test_a_cached_answer_is_the_fresh_answer_byte_for_byte(book: Store) -> None:
    with running(book, cache_mb=0) as plain, running(book) as cached, \
            httpx.Client(base_url=plain, timeout=120) as fresh, httpx.Client(base_url=cached, timeout=120) as http:
        for path, params in REQUESTS:
            want = fresh.get(path, params=params)
            first, again = _twice(http, path, params)
            assert want.status_code == 200 and want.headers["x-cache"] == MISS, (path, params, want.text)
            assert again.headers["x-cache"] == HIT, (path, params)
            assert want.content == first.content == again.content, (path, params)
            assert again.headers["content-type"] == "application/json" and "default-src" in again.headers[
                "content-security-policy"] and again.headers["x-content-type-options"] == "nosniff"
        stats = http.get("/api/stats").json()["cache"]
        assert stats["hits"] >= len(REQUESTS) and stats["misses"] >= len(REQUESTS)
        assert 0 < stats["entries"] <= len(REQUESTS) and 0 < stats["bytes"] <= stats["max_bytes"]
        assert stats["evictions"] == 0 and fresh.get("/api/stats").json()["cache"]["enabled"] is False


def test_the_key_is_the_normalised_request(book: Store) -> None:
    """Another spelling of the same request (separators, the colour's name) is the same cached answer."""
    with running(book) as base, httpx.Client(base_url=base, timeout=120) as http:
        first, _ = _twice(http, "/api/explore", {"moves": "Q16,R14,R11", "first": "black"})
        spelt = _twice(http, "/api/explore", {"moves": "Q16 R14  R11", "first": "b"})[0]
        assert spelt.content == first.content and spelt.headers["x-cache"] == HIT
        assert http.get("/api/explore", params={"moves": "Q16,R14,R11"},
                        headers={"Host": "attacker.example"}).status_code == 400


def test_errors_and_unseeded_practice_are_not_cached(book: Store) -> None:
    with running(book) as base, httpx.Client(base_url=base, timeout=120) as http:
        for _ in range(2):
            bad = http.get("/api/explore", params={"moves": "Q16,Q16"})
            assert bad.status_code == 400 and bad.json() == {"error": "move 2 (Q16) lands on a stone"}
            assert http.get("/api/practise", params={"moves": "Q16,R14,R11"}).headers["x-cache"] == MISS
        assert http.get("/api/stats").json()["cache"]["entries"] == 0


@pytest.fixture
def still(book: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    """``book`` with its version held still: the tests of what the cache keeps must not see a PostgreSQL server's
    snapshot move under them (any commit on the server moves it, autovacuum's too)."""
    monkeypatch.setattr(book, "version", lambda: "still")
    return book


def _answer(cache: Cache, key: object, body: bytes) -> tuple[bytes, str]:
    async def compute() -> bytes:
        return body

    return asyncio.run(cache.answer(key, compute))


def test_the_bound_holds_and_the_oldest_go_first(still: Store) -> None:
    bodies = {i: encode(views.explore(still, Explore((["Q16", "D4", "R4", "D16"][i % 4],), "b" if i % 8 < 4 else "w")))
              for i in range(32)}
    cache = Cache(still, max_bytes=8 * max(map(len, bodies.values())))
    for i, body in bodies.items():
        assert _answer(cache, i, body) == (body, MISS)
        assert cache.bytes <= cache.max_bytes
    stats = cache.stats()
    assert stats["evictions"] > 0 and 8 <= stats["entries"] < len(bodies)
    assert _answer(cache, 31, b"other") == (bodies[31], HIT)  # the newest cached, the oldest gone
    assert _answer(cache, 0, b"again") == (b"again", MISS)
    assert _answer(cache, "huge", b" " * (cache.max_bytes // 4))[1] == MISS  # past an eighth of the room: not cached
    assert _answer(cache, "huge", b"small")[0] == b"small"


def test_the_same_request_in_flight_is_computed_once(still: Store) -> None:
    """Requests of one key that arrive while it is computed wait for that computation (``shared``); a failure
    reaches them all, and is not cached."""
    cache = Cache(still)
    calls: list[object] = []

    async def asked(key: object, fail: bool = False) -> tuple[bytes, str]:
        async def compute() -> bytes:
            calls.append(key)
            await asyncio.sleep(0.2)
            if fail:
                raise ValueError("bad")
            return b"answer"

        return await cache.answer(key, compute)

    async def together() -> list[tuple[bytes, str] | BaseException]:
        return await asyncio.gather(*(asked("k") for _ in range(3)), *(asked("bad", True) for _ in range(2)),
                                    return_exceptions=True)

    found = asyncio.run(together())
    assert found[:3] == [(b"answer", MISS), (b"answer", SHARED), (b"answer", SHARED)]
    assert all(isinstance(f, ValueError) for f in found[3:]) and calls == ["k", "bad"]
    assert _answer(cache, "k", b"other") == (b"answer", HIT) and _answer(cache, "bad", b"ok") == (b"ok", MISS)


def test_a_write_to_the_store_is_seen(databases: Databases, tmp_path: Path) -> None:
    """Whoever writes (here ``learn``, beside a running server), the next answer is computed again, and the book's
    memo of its reads forgets them (joseki.book.query.memo)."""
    url = databases.new("written")
    store, served = make_book(url, tmp_path), Store(url, memo=Memo(10_000))
    try:
        with running(served) as base, httpx.Client(base_url=base, timeout=120) as http:
            asked = {"moves": "Q16,R14,R11"}
            before = [_twice(http, path, asked)[1].json() for path in ("/api/games", "/api/explore")]
            dropped = http.get("/api/stats").json()["cache"]["invalidations"]
            games = tmp_path / "more"
            games.mkdir()
            write_game(games / "new.sgf", ["Q16", "R14", "R11", "C4"], "W+R", extra="PB[Newcomer]DT[2025-01-01]")
            assert learn(store, [games], None, 1).learnt == 1
            answer = http.get("/api/games", params=asked)
            assert answer.headers["x-cache"] == MISS
            assert answer.json()["count"] == before[0]["count"] + 1 and answer.json()["games"][0]["black"] == "Newcomer"
            explored = http.get("/api/explore", params=asked).json()
            assert explored["line"]["moves"][-1]["games"] == before[1]["line"]["moves"][-1]["games"] + 1
            assert http.get("/api/stats").json()["cache"]["invalidations"] > dropped
            assert http.get("/api/stats").json()["memo"]["hits"] > 0
    finally:
        served.close()
        store.close()
        databases.drop(url)


def test_encode_writes_the_json_bytes_fastapi_sends(book: Store) -> None:
    """The cached bytes are those of Starlette's JSONResponse for what the views return."""
    from starlette.responses import JSONResponse

    for data in (views.explore(book, Explore(("Q16", "R14", "R11", "D4"))),
                 views.review(book, Review((("b", (15, 3)), ("w", (16, 5)), ("b", None))))):
        assert encode(data) == JSONResponse(data).body
        assert json.loads(encode(data)) == data
