"""What the store holds by name and count (joseki.book.store.contents), and its version, which moves with every
commit (joseki.book.store.version)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from joseki.book.importer import import_files
from joseki.book.learnt.results import profile_id
from joseki.book.store.bookfile import rows
from joseki.book.store.contents import COUNTED, catalogue, summary
from joseki.book.store.database import Store
from joseki.book.store.files import head_revision, starter_book


def test_the_catalogue_and_summary_name_and_count_what_is_held(book: str) -> None:
    with Store(book) as store:
        with store.write() as conn:
            profile_id(conn, store, "zeta", create=True)
            profile_id(conn, store, "alpha", create=True)
        held = catalogue(store)
        assert held.collections == ["starter"] and held.profiles[:2] == ["alpha", "global"]
        assert held.profiles == sorted(held.profiles) and "zeta" in held.profiles
        counted = summary(store)
        assert counted.revision == head_revision() and set(counted.counts) == set(COUNTED)
        assert counted.counts["collection"] == 1 and counted.counts["variation"] > 0


def test_the_version_moves_with_every_commit_and_only_then(new_db: Callable[..., str]) -> None:
    with Store(new_db("version")) as store:
        before = store.version()
        assert before is not None and store.version() == before
        with store.read() as conn:
            conn.exec_driver_sql("SELECT 1")
        assert store.version() == before
        import_files(store, [starter_book()], "starter")
        assert store.version() not in (None, before)


def test_a_store_in_memory_has_no_version() -> None:
    with Store("sqlite://") as store:
        assert store.version() is None


def test_the_books_reads_see_what_every_read_sees(book: str) -> None:
    """On SQLite the book's own queries run on the driver's connection (no SQLAlchemy between); the rows are the
    same either way, on every kind of store."""
    query = "SELECT id, steps FROM variation ORDER BY id LIMIT :n"
    with Store(book) as store:
        with store.read() as conn:
            through_sqlalchemy = rows(conn, query, {"n": 50})
        with store.book_read() as conn:
            assert isinstance(conn, sqlite3.Connection) == store.is_sqlite
            assert rows(conn, query, {"n": 50}) == through_sqlalchemy and through_sqlalchemy
