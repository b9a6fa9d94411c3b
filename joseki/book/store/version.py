"""The store's version: a value that changes whenever anyone commits to it, for caches of what it answers.

For a SQLite file, its change counter (bytes 24-27 of the header, bumped by every commit in
rollback-journal mode) with the sizes and times of the file and its write-ahead log (which
a commit in WAL mode grows); for PostgreSQL, the server's current snapshot, which changes
whenever a transaction that wrote anything commits. None when it cannot be told (an
in-memory database, another backend, a standby, a missing permission): then nothing read may
be cached from one read to the next.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Hashable

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from joseki.book.store.database import Store
from joseki.book.store.errors import StoreError


def store_version(store: Store) -> Hashable | None:
    """The store's version now (module docstring); None when it cannot be read."""
    if store.is_sqlite:
        return _file_version(_database(store.url))
    if store.engine.dialect.name == "postgresql":
        try:
            with store.read() as conn:
                return str(conn.exec_driver_sql("SELECT pg_current_snapshot()::text").scalar())
        except (StoreError, SQLAlchemyError):
            return None
    return None


def _file_version(path: str | None) -> Hashable | None:
    """A SQLite file's change counter and the file's and its log's inode, size and time."""
    if not path or path == ":memory:":
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            counter, stats = os.pread(fd, 4, 24), [os.fstat(fd)]
        finally:
            os.close(fd)
    except OSError:
        return None
    with contextlib.suppress(OSError):
        stats.append(os.stat(path + "-wal"))
    return counter, tuple((s.st_ino, s.st_size, s.st_mtime_ns) for s in stats)


@functools.lru_cache(maxsize=16)
def _database(url: str) -> str | None:
    """The database of a URL (SQLite's file), parsed once: the version is read before every request."""
    return make_url(url).database
