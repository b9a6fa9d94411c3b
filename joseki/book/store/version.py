"""The store's version: a value that changes whenever anyone commits to it, for caches of what it answers.

For a SQLite file, its change counter (bytes 24-27 of the header, bumped by every commit in
rollback-journal mode) with the sizes and times of the file and its write-ahead log (which
a commit in WAL mode grows); for PostgreSQL, the server's current snapshot, which changes
whenever a transaction that wrote anything commits. None when it cannot be told (an
in-memory database, another backend, a standby, a missing permission): then nothing read may
be cached from one read to the next. :meth:`joseki.book.store.database.Store.version` asks the
one that fits the store.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Hashable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import Connection

SNAPSHOT = "SELECT pg_current_snapshot()::text"


def file_version(path: str | None) -> Hashable | None:
    """A SQLite file's change counter and the file's and its log's inode, size and time; None for no file."""
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


def server_version(conn: Connection) -> Hashable | None:
    """A PostgreSQL server's current snapshot, read on ``conn``; None when it cannot be read."""
    from sqlalchemy.exc import SQLAlchemyError  # here: a SQLite file's readers never import SQLAlchemy

    try:
        return str(conn.exec_driver_sql(SNAPSHOT).scalar())
    except SQLAlchemyError:
        return None
