"""The book's reads as SQL text, run on a SQLAlchemy connection or straight on the standard library's sqlite3.

``joseki next`` on a SQLite file already at the current migration needs a handful of
indexed SELECTs, while importing SQLAlchemy alone costs 0.22 s, more than the whole
answer. So the queries that answer a position are written once, as portable SQL with
``:name`` parameters (a list or tuple value stands for an ``IN`` list), and :func:`rows` runs
them on either kind of connection: a SQLAlchemy one for any store (:class:`joseki.book.store.database.Store`),
or a read-only sqlite3 one from :func:`open_book_file`, which SQLAlchemy is never imported for.
Anything else (an empty, missing or older file, a URL) is left to the store, which creates,
upgrades and fills.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Hashable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from joseki.book.query.memo import Memo
from joseki.book.store.errors import StoreError
from joseki.book.store.files import head_revision, sqlite_file
from joseki.book.store.version import file_version

if TYPE_CHECKING:
    from sqlalchemy import Connection, TextClause

ReadConnection: TypeAlias = "Connection | sqlite3.Connection"
"""Either connection the book's reads run on."""

BUSY_TIMEOUT_S = 60.0
"""How long a SQLite connection waits for another's lock, the store's and these alike."""
CACHE_KIB = 65536
"""The page cache of each connection to a SQLite book, the store's and the read-only ones alike (SQLite's default,
2 MiB, holds a small part of a mined book's index pages)."""
COLLECTION_COUNT = "SELECT count(*) FROM collection"
_PARAMETER = re.compile(r"(?<![:\w]):(\w+)")


@lru_cache(maxsize=512)
def _expanded(sql: str, lists: tuple[tuple[str, int], ...]) -> str:
    sizes = dict(lists)

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in sizes:
            return match.group(0)
        return ", ".join(f":{name}_{i}" for i in range(sizes[name])) or "NULL"

    return _PARAMETER.sub(one, sql)


def expand(sql: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """``sql`` and ``params`` with each list parameter spread into one parameter per item (none: ``NULL``)."""
    lists = tuple(sorted((k, len(v)) for k, v in params.items() if isinstance(v, (list, tuple))))
    if not lists:
        return sql, dict(params)
    flat = {k: v for k, v in params.items() if not isinstance(v, (list, tuple))}
    for name, _ in lists:
        flat.update((f"{name}_{i}", item) for i, item in enumerate(params[name]))
    return _expanded(sql, lists), flat


@lru_cache(maxsize=512)
def _text(sql: str) -> TextClause:
    from sqlalchemy import text

    return text(sql)


def rows(conn: ReadConnection, sql: str, params: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]:
    """The rows of query ``sql`` with ``params`` on ``conn``."""
    query, flat = expand(sql, params or {})
    if isinstance(conn, sqlite3.Connection):
        return conn.execute(query, flat).fetchall()
    return [tuple(row) for row in conn.execute(_text(query), flat)]


def scalar(conn: ReadConnection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first column of the first row of ``sql``; None when there is no row."""
    found = rows(conn, sql, params)
    return found[0][0] if found else None


class BookFile:
    """A SQLite store at the current migration holding a book, opened read-only without SQLAlchemy.

    It serves the reads that :class:`~joseki.book.store.database.Store` serves (``read``, ``collection_count``),
    with sqlite3 connections for :func:`rows`; it remembers nothing from one read to the next (``memo``: None).
    """

    memo: Memo | None = None

    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        self.is_sqlite = True
        with self._file_errors():
            self._conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S,
                                         isolation_level=None, check_same_thread=False, cached_statements=1024)
            self._conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")

    @contextmanager
    def _file_errors(self) -> Iterator[None]:
        """A failure of the file (not a database, malformed, locked) as a StoreError naming it."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"database {self.path}: {' '.join(str(exc).split())}") from exc

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction; a failure of the file is a StoreError."""
        with self._file_errors():
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("ROLLBACK")

    book_read = read
    """The book's own queries read as every other read does (the connection is sqlite3's already)."""

    def collection_count(self) -> int:
        """How many collections the store holds."""
        with self.read() as conn:
            return int(scalar(conn, COLLECTION_COUNT))

    def version(self) -> Hashable | None:
        """The file's version (:func:`joseki.book.store.version.file_version`)."""
        return file_version(str(self.path))

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> BookFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_book_file(db: str | None = None) -> BookFile | None:
    """The SQLite file ``db`` names, opened read-only, if it is at the current migration and holds a collection.

    None in every other case (a URL, no such file, not a database, an older schema, an empty
    store): the caller opens a :class:`~joseki.book.store.database.Store`, which says what is wrong or
    puts it right.
    """
    path = sqlite_file(db)
    if path is None or not path.is_file():
        return None
    try:
        book = BookFile(path)
    except StoreError:
        return None
    try:
        with book.read() as conn:
            tables = {name for (name,) in rows(conn, "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "alembic_version" not in tables or "collection" not in tables:
                raise LookupError
            versions = [v for (v,) in rows(conn, "SELECT version_num FROM alembic_version")]
            if versions != [head_revision()] or not scalar(conn, COLLECTION_COUNT):
                raise LookupError
    except (LookupError, StoreError):
        book.close()
        return None
    return book
