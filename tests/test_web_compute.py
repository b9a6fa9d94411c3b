"""Views computed in processes of the server's own (joseki.web.compute): the threads' answers byte for byte, the
same errors, the parts they keep counted, and a heap the collector does not walk again and again."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import httpx
import pytest

from joseki.book.store.database import Store
from joseki.web.cache import Cache
from joseki.web.compute import FREEZE_EVERY, Heap, default_processes

from .conftest import Databases
from .test_web_cache import REQUESTS
from .webserver import new_book, running


@pytest.fixture(scope="module")
def book(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with new_book(databases, tmp_path_factory.mktemp("compute"), "compute") as (_, store):
        yield store


def test_answers_computed_in_processes_are_the_threads_answers(book: Store) -> None:
    with running(book, processes=0) as threads, running(book, processes=2) as processes, \
            httpx.Client(base_url=threads, timeout=120) as here, httpx.Client(base_url=processes, timeout=120) as there:
        for path, params in REQUESTS:
            want, got = here.get(path, params=params), there.get(path, params=params)
            assert want.status_code == got.status_code == 200, (path, params, got.text)
            assert got.headers["x-cache"] == "miss" and got.content == want.content, (path, params)
        for path, params in REQUESTS:  # asked again: the server process sends what it kept
            assert there.get(path, params=params).headers["x-cache"] == "hit"
        unseeded = there.get("/api/practise", params={"moves": "Q16,R14,R11"})  # the book's choice left to chance
        assert unseeded.status_code == 200 and unseeded.headers["x-cache"] == "miss" and unseeded.json()["reply"]
        stats = there.get("/api/stats").json()["cache"]
        assert stats["processes"] == 2 and stats["misses"] >= len(REQUESTS)
        assert stats["corners"]["hits"] + stats["corners"]["misses"] > 0 and stats["lines"]["misses"] > 0
        assert "processes" not in here.get("/api/stats").json()["cache"]


def test_a_computing_process_says_what_is_wrong_as_the_server_does(book: Store) -> None:
    with running(book, processes=1) as base, httpx.Client(base_url=base, timeout=120) as http:
        for _ in range(2):
            bad = http.get("/api/explore", params={"moves": "Q16,Q16"})
            assert bad.status_code == 400 and bad.json() == {"error": "move 2 (Q16) lands on a stone"}
        practised = http.get("/api/practise", params={"moves": "Q16,D4,D4", "seed": "1"})
        assert practised.status_code == 400 and practised.json() == {"error": "move 3 (D4) lands on a stone"}
        assert http.get("/api/stats").json()["cache"]["entries"] == 0
        assert http.get("/api/explore", params={"moves": "Q16"}).status_code == 200  # the process is still there


def test_the_default_is_a_process_a_core_on_a_file_or_a_server_database(book: Store) -> None:
    cores = len(os.sched_getaffinity(0))
    assert default_processes(book) == (cores if cores > 1 else 0)
    memory = Store("sqlite://")
    try:
        assert default_processes(memory) == 0  # no other process can open it
    finally:
        memory.close()


def test_the_heap_is_frozen_as_views_go_and_thawed_when_the_store_changes(book: Store) -> None:
    cache = Cache(book)
    cache.check()
    try:
        heap = Heap(cache)
        frozen = gc.get_freeze_count()
        assert frozen > 0
        for _ in range(FREEZE_EVERY - 1):
            heap.after_view()
        kept = [[i] for i in range(1000)]  # new objects the collector tracks, alive at the next freeze
        assert gc.get_freeze_count() == frozen
        heap.after_view()
        assert gc.get_freeze_count() >= frozen + len(kept)
        cache.invalidations += 1  # as Cache.check does when the store's version moved
        gc.unfreeze()
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle  # garbage only the collector can free, which a thaw lets it
        heap.after_view()
        assert heap.invalidations == cache.invalidations and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
