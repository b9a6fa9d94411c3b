"""The store: a database at any SQLAlchemy URL, its schema kept current by Alembic.

``--db`` or ``JOSEKI_DB`` name the database; a bare path means a SQLite file; the default is
``joseki.sqlite`` in the user's data directory (:func:`default_path`). The schema is created
or upgraded on first use. Writers take SQLite's write lock at the start of their transaction
(``BEGIN IMMEDIATE``) and wait up to :data:`BUSY_TIMEOUT_S` for it, so that concurrent
writers queue instead of failing. ``joseki next`` on a SQLite file already at the newest
migration reads it without a store (:mod:`joseki.book.store.bookfile`), with the same SQL.

PostgreSQL (``postgresql+psycopg://user:password@host/db``; a plain ``postgresql://`` URL
means psycopg 3, the ``postgres`` extra) runs transactions at READ COMMITTED: concurrent
writers only wait for each other on the rows they share, and take those rows in key order
(:func:`insert_rows`), so they never deadlock. Schema upgrades hold an advisory lock, so
processes starting together on a new database migrate it once.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import sys
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeAlias

from sqlalchemy import Connection, Engine, Table, create_engine, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from joseki.book.query.memo import Memo
from joseki.book.store.bookfile import BUSY_TIMEOUT_S, CACHE_KIB, COLLECTION_COUNT, ReadConnection, scalar
from joseki.book.store.errors import StoreError
from joseki.book.store.files import ENV_VAR, head_revision, migrations_dir, sqlite_file
from joseki.book.store.keys import node_id
from joseki.book.store.schema import metadata
from joseki.book.store.version import file_version, server_version

WriteConnection: TypeAlias = Connection
"""The connection inside :meth:`Store.write`: what the batch writers of statistics write through."""

BATCH = 500
PG_MIGRATION_LOCK = 0x6A6F73656B69
"""The PostgreSQL advisory lock key held while migrating (``joseki`` in ASCII)."""
PG_DRIVER = "postgresql+psycopg"
PG_COPY_ROWS = 5000
"""From this many rows on, PostgreSQL bulk inserts go through COPY (:func:`insert_rows`)."""
PG_ANALYZE_ROWS = 1000
"""A PostgreSQL table that one transaction wrote this many rows into, and more than half as
many as it held when last analysed, is analysed after the commit (:func:`refresh_statistics`)."""
_WRITTEN = "joseki_rows_written"
_TEMP_NAMES = itertools.count()


def resolve_url(db: str | None = None) -> str:
    """The SQLAlchemy URL for ``db``, else ``$JOSEKI_DB``, else the default SQLite file."""
    path = sqlite_file(db)
    if path is not None:
        return f"sqlite:///{path}"
    value = db or os.environ.get(ENV_VAR) or ""
    scheme, rest = value.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        value = f"{PG_DRIVER}://{rest}"  # psycopg 3 (the postgres extra), not SQLAlchemy's psycopg2 default
    try:
        make_url(value)
    except ArgumentError as exc:
        raise StoreError(f"bad database URL {value!r}: {exc}") from None
    return value




def _sqlite_engine(url: str) -> Engine:
    parsed = make_url(url)
    path = parsed.database
    if path and path != ":memory:" and not parsed.query.get("uri"):  # a file: URI names no folder to make
        _make_folder(Path(path))
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("write") else "BEGIN")

    return engine


def _make_folder(path: Path) -> None:
    """Make the folder of a SQLite file; StoreError naming the part of the path that stops it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next(p for p in path.parents if p.exists())
        raise StoreError(f"cannot open the database {path}: {blocking} is not a folder") from None
    except OSError as exc:
        raise StoreError(f"cannot open the database {path}: {exc.strerror}: {exc.filename}") from None


def describe_url(url: str) -> str:
    """A database URL as told to the user: a SQLite file as its path, other URLs without the password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        query = "&".join(f"{k}={v}" for k, v in parsed.query.items())
        return (parsed.database or ":memory:") + (f"?{query}" if query else "")
    return parsed.render_as_string(hide_password=True)


def open_engine(url: str) -> Engine:
    """An engine for ``url``; StoreError when the driver is missing or the URL is unusable."""
    try:
        if url.startswith("sqlite"):
            return _sqlite_engine(url)
        if url.startswith("postgresql"):
            return create_engine(url, pool_pre_ping=True, connect_args={"application_name": "joseki"})
        return create_engine(url, pool_pre_ping=True)
    except (ImportError, ModuleNotFoundError) as exc:
        hint = " (pip install 'joseki[postgres]')" if url.startswith("postgresql") else ""
        raise StoreError(f"cannot open {_hide_password(url)}: {exc}{hint}") from None
    except ArgumentError as exc:
        raise StoreError(f"cannot open {_hide_password(url)}: {exc}") from None


def _hide_password(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


def alembic_config(connection: Connection | None = None) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at; None for an empty database.

    Read from Alembic's own ``alembic_version`` table with one query, so that opening a
    store that is already current never imports Alembic.
    """
    if not connection.dialect.has_table(connection, VERSION_TABLE):
        return None
    versions = connection.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}").scalars().all()
    if len(versions) > 1:
        raise StoreError(f"the database has {len(versions)} schema heads {sorted(versions)}; expected one")
    return versions[0] if versions else None


VERSION_TABLE = "alembic_version"


class Store:
    """An open database with a current schema.

    ``memo``: where the book's reads remember their answers while the store's version stays
    (:mod:`joseki.book.query.memo`), for a long-running reader; None (the default): nothing is remembered."""

    def __init__(self, db: str | None = None, *, upgrade: bool = True, memo: Memo | None = None) -> None:
        self.url = resolve_url(db)
        self.engine = open_engine(self.url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self.tables: dict[str, Table] = {t.name: t for t in metadata.sorted_tables}
        self.memo = memo
        self._file = make_url(self.url).database if self.is_sqlite else None
        if upgrade:
            self.upgrade()

    def upgrade(self) -> tuple[str | None, str]:
        """Create or upgrade the schema to the newest migration; returns (before, after)."""
        head = head_revision()
        try:
            with self.read() as conn:
                before = current_revision(conn)
            if before != head:
                with self.write() as conn:
                    if conn.dialect.name == "postgresql":
                        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (PG_MIGRATION_LOCK,))
                    if current_revision(conn) != head:
                        from alembic import command

                        command.upgrade(alembic_config(conn), "head")
        except StoreError as exc:
            if not isinstance(exc.__cause__, DBAPIError):
                raise
            raise StoreError(f"cannot open the database {describe_url(self.url)}: {_reason(exc.__cause__)}") from None
        return before, head

    @property
    def display_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction: all of it is committed, or none of it.

        On PostgreSQL, a table that the transaction grew a lot (see :func:`insert_rows`) is
        analysed after the commit, so that the next queries are planned with its new size.
        """
        with database_errors(self.url), self.engine.connect() as conn:
            conn.info["write"] = True
            try:
                with conn.begin():
                    yield conn
                written = conn.info.pop(_WRITTEN, None)
                if written:
                    refresh_statistics(conn, written)
            finally:
                conn.info.pop("write", None)
                conn.info.pop(_WRITTEN, None)

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """One read transaction."""
        with database_errors(self.url), self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def book_read(self) -> Iterator[ReadConnection]:
        """One read transaction for the book's own queries (:func:`~joseki.book.store.bookfile.rows`): on SQLite
        the driver's connection itself, which answers them without SQLAlchemy's work on each."""
        with self.read() as conn:
            if not self.is_sqlite:
                yield conn
                return
            raw = conn.connection.dbapi_connection
            assert isinstance(raw, sqlite3.Connection)
            yield raw

    def collection_count(self) -> int:
        """How many collections the store holds."""
        with self.read() as conn:
            return int(scalar(conn, COLLECTION_COUNT))

    def version(self) -> Hashable | None:
        """The store's version now (:mod:`joseki.book.store.version`); None when it cannot be told."""
        if self.is_sqlite:
            return file_version(self._file)
        if self.engine.dialect.name != "postgresql":
            return None
        try:
            with self.read() as conn:
                return server_version(conn)
        except StoreError:
            return None

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _reason(exc: BaseException) -> str:
    """The driver's own words for a database error, on one line (libpq's run over several)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc) or type(exc).__name__
    return " ".join(text.split())


def database_error(exc: BaseException, db: str | None = None) -> str | None:
    """The one-line message for a database failure, naming the database; None for other errors.

    The driver's errors, as SQLAlchemy wraps them (the file is not a database or is malformed,
    the disk is full, the store is read-only or locked, the server went away) or raised
    outside SQLAlchemy (sqlite3, psycopg). SQLAlchemy's own errors about a statement are bugs.
    """
    import sqlite3

    psycopg = sys.modules.get("psycopg")
    driver = (sqlite3.Error,) + ((psycopg.Error,) if psycopg is not None else ())
    if not isinstance(exc, (DBAPIError, *driver)):
        return None
    try:
        where = describe_url(resolve_url(db))
    except (StoreError, ArgumentError):
        where = "the database"
    return f"database {where}: {_reason(exc)}"


@contextmanager
def database_errors(db: str | None = None) -> Iterator[None]:
    """Turn a database failure inside the block into a :class:`StoreError` naming the database."""
    try:
        yield
    except StoreError:
        raise
    except Exception as exc:
        message = database_error(exc, db)
        if message is None:
            raise
        raise StoreError(message) from exc


def advisory_lock(conn: Connection, name: str) -> None:
    """Hold the lock ``name`` until the end of the write transaction on ``conn``.

    PostgreSQL: a transaction-level advisory lock keyed by the name's hash, for writers that
    must not run at once (two imports into the same collection: each would insert the same
    new rows). SQLite: nothing to do, its writers already run one at a time.
    """
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (node_id(f"lock:{name}"),))


def batched(items: Sequence[Any], size: int = BATCH) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


FAST_DIALECTS = ("sqlite", "postgresql")
"""Dialects whose bulk writes go straight to the driver, with ``ON CONFLICT`` clauses."""


def _placeholder(conn: Connection) -> str:
    return "?" if conn.dialect.paramstyle == "qmark" else "%s"


def insert_rows(conn: Connection, table: Table, columns: Sequence[str], rows: Sequence[tuple[Any, ...]],
                conflict: str = "", chunk: int = 20000) -> None:
    """``INSERT INTO table (columns) ... conflict`` for ``rows`` on a FAST_DIALECTS connection.

    SQLite: the driver's executemany. PostgreSQL: one statement per chunk, the rows sent as one
    array per column and read back with ``unnest`` (a round trip per chunk, not per row). Either
    way the rows are written in the order given, so writers that sort their rows by key take
    row locks in the same order and cannot deadlock.
    """
    head = f"INSERT INTO {table.name} ({', '.join(columns)}) "
    if conn.dialect.name == "postgresql":
        written = conn.info.setdefault(_WRITTEN, {})
        written[table.name] = written.get(table.name, 0) + len(rows)
    if conn.dialect.name == "postgresql" and len(rows) >= PG_COPY_ROWS:
        _pg_copy_insert(conn, table, columns, rows, conflict)
        return
    if conn.dialect.name == "postgresql":
        types = [table.c[c].type.compile(dialect=conn.dialect) for c in columns]
        sql = head + "SELECT * FROM unnest(" + ", ".join(f"%s::{t}[]" for t in types) + ") " + conflict
        for part in batched(rows, chunk):
            conn.exec_driver_sql(sql, tuple(list(column) for column in zip(*part, strict=True)))
        return
    marks = ", ".join([_placeholder(conn)] * len(columns))
    sql = head + f"VALUES ({marks}) " + conflict
    for part in batched(rows, chunk):
        conn.exec_driver_sql(sql, list(part))


def refresh_statistics(conn: Connection, written: dict[str, int]) -> None:
    """PostgreSQL: ANALYZE the tables that ``written`` (rows per table, just committed) changed a lot.

    The planner needs a table's size to pick index lookups over scans: a book imported into a
    new database would otherwise be queried with the plans of an empty one until autovacuum
    comes by (a minute or more). Runs in its own short transaction after the write committed,
    so concurrent writers never wait on it; a failure here only leaves the statistics to
    autovacuum.
    """
    for name, rows in sorted(written.items()):
        if rows < PG_ANALYZE_ROWS:
            continue
        try:
            with conn.begin():
                estimate = conn.exec_driver_sql("SELECT reltuples FROM pg_class WHERE oid = %s::regclass",
                                                (name,)).scalar()
                if estimate is None or estimate < 0 or rows > estimate / 2:
                    conn.exec_driver_sql(f"ANALYZE {name}")
        except DBAPIError:
            pass


def _pg_copy_insert(conn: Connection, table: Table, columns: Sequence[str], rows: Sequence[tuple[Any, ...]],
                    conflict: str) -> None:
    """PostgreSQL, many rows: COPY them into a temporary table, then one ``INSERT ... SELECT`` in their order."""
    names = ", ".join(columns)
    temp = f"joseki_load_{next(_TEMP_NAMES)}"
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"CREATE TEMPORARY TABLE {temp} ON COMMIT DROP AS "
                       f"SELECT {names}, 0::bigint AS joseki_seq FROM {table.name} WITH NO DATA")
        with cursor.copy(f"COPY {temp} ({names}, joseki_seq) FROM STDIN") as copy:
            for seq, row in enumerate(rows):
                copy.write_row((*row, seq))
        cursor.execute(f"INSERT INTO {table.name} ({names}) SELECT {names} FROM {temp} ORDER BY joseki_seq "
                       f"{conflict}")
        cursor.execute(f"DROP TABLE {temp}")
    finally:
        cursor.close()


def bulk_insert(conn: Connection, table: Table, columns: Sequence[str], rows: Sequence[tuple[Any, ...]],
                ignore_existing: bool = False, key: str = "id") -> None:
    """Insert ``rows`` (tuples in ``columns`` order), skipping rows whose key exists when ``ignore_existing``.

    On SQLite and PostgreSQL the rows go to the driver in few statements (:func:`insert_rows`,
    with ``ON CONFLICT DO NOTHING``, so that concurrent writers adding the same node never
    fail); elsewhere through SQLAlchemy, selecting existing keys first.
    """
    if not rows:
        return
    if conn.dialect.name in FAST_DIALECTS:
        insert_rows(conn, table, columns, rows, "ON CONFLICT DO NOTHING" if ignore_existing else "")
        return
    dicts = [dict(zip(columns, row, strict=True)) for row in rows]
    if ignore_existing:
        column = table.c[key]
        existing: set[Any] = set()
        for chunk in batched([d[key] for d in dicts]):
            existing.update(conn.execute(select(column).where(column.in_(chunk))).scalars())
        dicts = [d for d in dicts if d[key] not in existing]
    if dicts:
        conn.execute(table.insert(), dicts)
