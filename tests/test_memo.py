"""The book's memory of its reads (joseki.book.query.memo): the same views as fresh reads, bounded, and forgotten when
the store changes, even by a read that began before."""

from __future__ import annotations

from pathlib import Path

from joseki.book.query.lookup import Lookup
from joseki.book.query.memo import MISSING, Memo
from joseki.book.store.bookfile import BookFile, open_book_file
from joseki.book.store.database import Store
from joseki.games.learn import learn
from joseki.web import views
from joseki.web.cache import Cache
from joseki.web.reads import Reads

from .games import write_game
from .webserver import make_book

POSITIONS = [(["Q16"], None), (["Q16", "R14"], None), (["Q16", "R14", "R11", "D4", "C16"], None),
             (["pd", "qf"], None), (["Q16"], ["hostile"]), (["Q16", "R14", "Q12", "C3", "D17", "R6"], None),
             (["Q16", "R14", "R11", "D4", "C16", "R6", "P17"], None), ([], ["starter"])]
"""Positions with main lines, transpositions, contexts, a commented move (``hostile``: its label reframed)."""


def test_a_memo_keeps_answers_until_cleared_and_stays_bounded() -> None:
    memo = Memo(max_entries=3)
    assert memo.get("a") is MISSING
    memo.put("a", None, memo.epoch)
    assert memo.get("a") is None and (memo.hits, memo.misses) == (1, 1)
    began = memo.epoch
    memo.clear()
    memo.put("b", 2, began)  # computed under the store as it was before the clear: not kept
    assert memo.get("b") is MISSING and len(memo) == 0
    for key in "cde":
        memo.put(key, key, memo.epoch)
    memo.put("f", "f", memo.epoch)  # full: all go, then the new one
    assert len(memo) == 1 and memo.get("f") == "f" and memo.get("c") is MISSING
    Memo(max_entries=0).put("a", 1, 0)


def _book(tmp_path: Path) -> tuple[Store, BookFile]:
    store = make_book(str(tmp_path / "book.sqlite"), tmp_path)
    book = open_book_file(str(tmp_path / "book.sqlite"))
    assert book is not None
    return store, book


def test_views_read_through_a_memo_are_the_fresh_views(tmp_path: Path) -> None:
    store, book = _book(tmp_path)
    try:
        book.memo = memo = Memo()
        fresh = [views.explore(store, moves, collections=names) for moves, names in POSITIONS]
        misses = []
        for _ in range(2):  # the second time from the memory alone
            assert [views.explore(store, moves, collections=names, reads=book)
                    for moves, names in POSITIONS] == fresh
            misses.append(memo.misses)
        assert misses[0] == misses[1] > 0 and memo.hits > 0
        kinds = {key[0] for key in memo._kept}
        assert {"has", "children", "position", "end", "favour", "context", "comment"} <= kinds
        played = views.parse_played("bpdwqfbqibdd")
        assert views.review(store, played, reads=book) == views.review(store, played)
        assert views.judge(book, ["Q16", "R14"]) == views.judge(store, ["Q16", "R14"])
        for moves in (["Q16", "R14", "R11"], ["Q16", "R14", "O14"]):
            assert views.practise(store, moves, seed=3, reads=book) == views.practise(store, moves, seed=3)
    finally:
        book.close()
        store.close()


def test_a_write_to_the_store_clears_the_memo(tmp_path: Path) -> None:
    store, _ = _book(tmp_path)
    cache = Cache(store)
    reads = Reads(store, cache.memo)
    try:
        asked = ["Q16", "R14", "R11"]
        cache.check()
        before = views.explore(store, asked, reads=reads())
        assert len(cache.memo) > 0
        games = tmp_path / "more"
        games.mkdir()
        write_game(games / "new.sgf", [*asked, "C4"], "W+R", extra="PB[Newcomer]DT[2025-01-01]")
        assert learn(store, [games], None, 1).learnt == 1
        cache.check()
        assert len(cache.memo) == 0
        after = views.explore(store, asked, reads=reads())
        assert after == views.explore(store, asked) != before
        assert after["line"]["moves"][-1]["games"] == before["line"]["moves"][-1]["games"] + 1
    finally:
        reads.close()
        store.close()


def test_a_read_begun_before_a_clear_keeps_nothing(tmp_path: Path) -> None:
    store, book = _book(tmp_path)
    try:
        book.memo = Memo()
        with book.read() as conn:
            lookup = Lookup(book, conn)
            assert lookup.has("DD") and len(book.memo) == 1
            book.memo.clear()  # the store changed meanwhile: what this read sees may be the old book
            assert lookup.has("DD") and lookup.children("DD") and len(book.memo) == 0
        with book.read() as conn:
            assert Lookup(book, conn).children("DD") and len(book.memo) == 1
    finally:
        book.close()
        store.close()
