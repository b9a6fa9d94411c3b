"""The book's memo of its reads (joseki.book.query.memo): the same views as fresh reads, bounded, and forgotten when
the store's version moves, even by a read that began before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from joseki.book.query.memo import MISSING, Memo
from joseki.book.store.database import Store
from joseki.games.learn import learn
from joseki.web import views
from joseki.web.views import Explore, Practise, Review

from .conftest import Databases
from .games import write_game
from .webserver import make_book

ASKED = [Explore(("Q16",)), Explore(("Q16", "R14")), Explore(("Q16", "R14", "R11", "D4", "C16")),
         Explore(("pd", "qf")), Explore(("Q16",), collections=("hostile",)), Explore(collections=("starter",)),
         Explore(("Q16", "R14", "Q12", "C3", "D17", "R6")), Explore(("Q16", "R14", "R11", "D4", "C16", "R6", "P17")),
         Review((("b", (15, 3)), ("w", (16, 5)), ("b", (16, 8)), ("w", (3, 3)))),
         Practise(("Q16", "R14", "R11"), seed=3), Practise(("Q16", "R14", "O14"), seed=3)]
"""Positions with main lines, transpositions, contexts, a commented move (``hostile``: its label reframed)."""


@pytest.fixture()
def stores(databases: Databases, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """The same book opened twice: plainly, and with a memo."""
    url = databases.new("memo")
    plain = make_book(url, tmp_path)
    remembering = Store(url, memo=Memo(10_000))
    yield plain, remembering
    remembering.close()
    plain.close()
    databases.drop(url)


def _answers(store: Store) -> list[dict[str, object]]:
    return [views.view_for(asked).function(store, asked) for asked in ASKED]


def test_a_memo_holds_answers_for_one_version_and_stays_bounded() -> None:
    memo = Memo(max_entries=3)
    began = memo.begin("v1")
    assert memo.get("a") is MISSING
    memo.put("a", None, began)
    assert memo.get("a") is None and (memo.hits, memo.misses) == (1, 1)
    assert memo.begin("v1") == began and memo.get("a") is None  # the same version: still held
    memo.put("b", 2, memo.begin("v2") - 1)  # computed under the version forgotten since: not held
    assert memo.get("b") is MISSING and memo.get("a") is MISSING and len(memo) == 0
    epoch = memo.begin("v2")
    for key in "cdef":
        memo.put(key, key, epoch)
    assert len(memo) == 1 and memo.get("f") == "f"  # full: all went, then the new one
    unknown = memo.begin(None)  # a version that cannot be told: nothing held
    memo.put("g", 1, unknown)
    assert memo.get("g") is MISSING and len(memo) == 0


def test_views_read_through_a_memo_are_the_fresh_views(stores: tuple[Store, Store]) -> None:
    plain, remembering = stores
    memo = remembering.memo
    assert memo is not None
    fresh = _answers(plain)
    misses = []
    for _ in range(2):  # the second time from the memo alone
        assert _answers(remembering) == fresh
        misses.append(memo.misses)
    assert misses[0] == misses[1] > 0 and memo.hits > 0


def test_a_write_to_the_store_is_seen_through_the_memo(stores: tuple[Store, Store], tmp_path: Path) -> None:
    plain, remembering = stores
    asked = Explore(("Q16", "R14"))
    before = views.explore(remembering, asked)
    games = tmp_path / "more"
    games.mkdir()
    write_game(games / "new.sgf", ["Q16", "R14", "R11", "C4"], "W+R")
    assert learn(plain, [games], None, 1).learnt == 1
    after = views.explore(remembering, asked)
    assert after == views.explore(plain, asked) != before
    r11 = [[c["games"] for c in answer["corners"][0]["candidates"] if c["move"] == "R11"]  # type: ignore[index]
           for answer in (before, after)]
    assert r11[1] == [r11[0][0] + 1]
