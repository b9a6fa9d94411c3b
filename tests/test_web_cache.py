"""The server's memory of answers (joseki.web.cache): the same bytes as a fresh answer, bounded, counted, and
dropped when anyone writes to the store."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from joseki.book.importer import import_file
from joseki.book.store.bookfile import BookFile
from joseki.book.store.database import Store
from joseki.games.learn import learn
from joseki.sgf.game import read_game
from joseki.web import views
from joseki.web.cache import Cache, encode
from joseki.web.reads import Reads

from .conftest import KOGO, Databases, need
from .games import write_game
from .test_ladder_book import _game
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
        if again.headers["x-cache"] == "hit" or http.get("/api/stats").json()["cache"]["invalidations"] == dropped:
            return first, again
    raise AssertionError(f"the store kept changing under {path}")


def test_a_kept_answer_is_the_fresh_answer_byte_for_byte(book: Store) -> None:
    with running(book, cache_mb=0) as plain, running(book) as cached, \
            httpx.Client(base_url=plain, timeout=120) as fresh, httpx.Client(base_url=cached, timeout=120) as kept:
        for path, params in REQUESTS:
            want = fresh.get(path, params=params)
            first, again = _twice(kept, path, params)
            assert want.status_code == 200 and want.headers["x-cache"] == "miss", (path, params, want.text)
            assert again.headers["x-cache"] == "hit", (path, params)
            assert want.content == first.content == again.content, (path, params)
            assert json.loads(again.content) == json.loads(want.content)
        stats = kept.get("/api/stats").json()["cache"]
        assert stats["hits"] >= len(REQUESTS) and stats["misses"] >= len(REQUESTS)
        assert 0 < stats["entries"] <= len(REQUESTS) and 0 < stats["bytes"] <= stats["max_bytes"]
        assert stats["evictions"] == 0 and stats["lines"]["entries"] > 0 and stats["corners"]["hits"] > 0
        assert fresh.get("/api/stats").json()["cache"]["enabled"] is False


def test_a_request_asked_again_as_it_came_is_sent_before_routing(book: Store) -> None:
    """KeptFirst: the same path and query string again is a hit under its alias; another spelling of the request is
    the same answer through the view; the host check and the CSP still apply to what is sent first."""
    with running(book) as base, httpx.Client(base_url=base, timeout=120) as http:
        first, again = _twice(http, "/api/explore", {"moves": "Q16,R14,R11", "first": "black"})
        stats = http.get("/api/stats").json()["cache"]
        assert again.headers["x-cache"] == "hit" and stats["aliases"] >= 1 and first.content == again.content
        assert again.headers["content-type"] == "application/json" and "default-src" in again.headers[
            "content-security-policy"] and again.headers["x-content-type-options"] == "nosniff"
        spelt = http.get("/api/explore", params={"moves": "q16 r14 r11"})
        assert spelt.content == first.content and spelt.headers["x-cache"] in ("hit", "miss")
        assert http.get("/api/explore", params={"moves": "Q16,R14,R11", "first": "black"},
                        headers={"Host": "attacker.example"}).status_code == 400
        assert http.get("/api/explore", params={"moves": "Q16,Q16"}).status_code == 400
        assert http.get("/api/explore", params={"moves": "Q16,Q16"}).status_code == 400


def test_errors_and_unseeded_practice_are_not_kept(book: Store) -> None:
    with running(book) as base, httpx.Client(base_url=base, timeout=120) as http:
        for _ in range(2):
            bad = http.get("/api/explore", params={"moves": "Q16,Q16"})
            assert bad.status_code == 400 and bad.json() == {"error": "move 2 (Q16) lands on a stone"}
            assert http.get("/api/practise", params={"moves": "Q16,R14,R11"}).headers["x-cache"] == "miss"
        assert http.get("/api/stats").json()["cache"]["entries"] == 0


def test_the_bound_holds_and_the_oldest_go_first(book: Store) -> None:
    bodies = {i: encode(views.explore(book, [["Q16", "D4", "R4", "D16"][i % 4]], "b" if i % 8 < 4 else "w"))
              for i in range(32)}
    cache = Cache(book, max_bytes=8 * max(map(len, bodies.values())))
    version = cache.check()
    for i, body in bodies.items():
        cache.put(i, body, version)
        assert cache.bytes <= cache.max_bytes
    stats = cache.stats()
    assert stats["evictions"] > 0 and 8 <= stats["entries"] < len(bodies)
    assert cache.get(31) == bodies[31] and cache.get(0) is None  # the newest kept, the oldest gone
    cache.put("stale", bodies[0], "another version")
    assert cache.get("stale") is None
    cache.put("huge", b" " * (cache.max_bytes // 4), version)  # an answer past an eighth of the room is not kept
    assert cache.get("huge") is None


@pytest.mark.parametrize(("writable", "processes"), [(False, 0), (True, 0), (False, 1)])
def test_a_write_to_the_store_is_seen(databases: Databases, tmp_path: Path, writable: bool, processes: int) -> None:
    """Whoever writes (here ``learn``, beside a running server), the next answer is computed again: by the server's
    threads, or by a process of its own that keeps parts of answers too (joseki.web.compute)."""
    url = databases.new("written")
    store = make_book(url, tmp_path)
    try:
        with running(store, writable, processes=processes) as base, httpx.Client(base_url=base, timeout=120) as http:
            asked = {"moves": "Q16,R14,R11"}
            before = [_twice(http, path, asked)[1].json() for path in ("/api/games", "/api/explore")]
            then = _twice(http, "/api/explore", {"moves": "Q16,R14"})[1].json()
            dropped = http.get("/api/stats").json()["cache"]["invalidations"]
            games = tmp_path / "more"
            games.mkdir()
            write_game(games / "new.sgf", ["Q16", "R14", "R11", "C4"], "W+R", extra="PB[Newcomer]DT[2025-01-01]")
            assert learn(store, [games], None, 1).learnt == 1
            answer = http.get("/api/games", params=asked)
            assert answer.headers["x-cache"] == "miss"
            assert answer.json()["count"] == before[0]["count"] + 1 and answer.json()["games"][0]["black"] == "Newcomer"
            explored = http.get("/api/explore", params=asked).json()
            assert explored["line"]["moves"][-1]["games"] == before[1]["line"]["moves"][-1]["games"] + 1
            r11 = [[c["games"] for c in corner["candidates"] if c["move"] == "R11"]
                   for corner in (then["corners"][0], http.get("/api/explore", params={"moves": "Q16,R14"}).json()
                                  ["corners"][0])]
            assert r11[1] == [r11[0][0] + 1]  # the corners' answers too (read through sqlite3 on SQLite)
            assert http.get("/api/stats").json()["cache"]["invalidations"] > dropped
    finally:
        store.close()
        databases.drop(url)


@pytest.fixture(scope="module")
def kogo(databases: Databases) -> Iterator[Store]:
    url = databases.new("kogo")
    store = Store(url)
    assert import_file(store, need(KOGO), "kogo").error is None
    yield store
    store.close()
    databases.drop(url)


def test_a_corner_answer_is_kept_for_its_board_only_when_its_ladders_are_read(kogo: Store, tmp_path: Path) -> None:
    """Kogo's O15 needs a ladder: broken by White's stone at D4, working with it at Q4 (test_ladder_book); the
    corner is the same, so its remembered answer must not carry one board's reading to the other."""
    cache = Cache(kogo)
    cache.check()
    for white in ("dp", "pp", "dp", "pp"):
        played = read_game(_game(tmp_path, white)).moves
        remembered = views.review(kogo, played, line=cache.line, answer=cache.corner)
        assert remembered == views.review(kogo, played)
        [o15] = [c for a in remembered["corners"] for c in a["candidates"] if c["move"] == "O15"]
        assert [check["holds"] for check in o15["ladders"]] == [white == "pp"] * len(o15["ladders"])
    assert cache.stats()["corners"]["hits"] > 0


def test_each_thread_reads_a_sqlite_book_on_its_own_connection(book: Store) -> None:
    reads = Reads(book)
    try:
        mine = reads()
        if not book.is_sqlite:
            assert mine is book
            return
        assert isinstance(mine, BookFile) and reads() is mine
        theirs: list[object] = []
        thread = threading.Thread(target=lambda: theirs.append(reads()))
        thread.start()
        thread.join()
        assert isinstance(theirs[0], BookFile) and theirs[0] is not mine
        assert views.explore(book, ["Q16", "R14"], reads=mine) == views.explore(book, ["Q16", "R14"])
    finally:
        reads.close()


def test_encode_writes_json_bytes_of_the_standard_library(book: Store) -> None:
    """orjson's bytes are json's (as FastAPI would send them) for what views return; other keys go through json."""
    for data in (views.explore(book, ["Q16", "R14", "R11", "D4"]), views.review(book, views.parse_played("bpdwqfbqi"))):
        standard = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))
        assert encode(data) == standard.encode("utf-8")
    data = {"text": "<script>\x1b\x7f\u2028 é 囲碁 \"\\ \t\n\x00/",
            "numbers": [0.0001, 1.0, -0.5, 0.1234, 1e15, 2**63 - 1, -(2**63), None, True, False],
            "empty": {}, "list": [], "nested": [{"a": [1, {"b": "c"}]}]}
    standard = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))
    assert encode(data) == standard.encode("utf-8")
    assert encode({1: 2**70}) == b'{"1":1180591620717411303424}'  # orjson declines both: json writes them
    with pytest.raises(ValueError):
        encode({"x": float("nan"), 1: 2})
