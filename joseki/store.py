"""The store: a database at any SQLAlchemy URL, its schema kept current by Alembic.

``--db`` or ``JOSEKI_DB`` name the database; a bare path means a SQLite file; the default is
``joseki.sqlite`` in the user's data directory (:func:`default_path`). The schema is created
or upgraded on first use. Writers take SQLite's write lock at the start of their transaction
(``BEGIN IMMEDIATE``) and wait up to :data:`BUSY_TIMEOUT_S` for it, so that concurrent
writers queue instead of failing.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import Connection, Engine, Table, create_engine, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError

from joseki.models import Base

ENV_VAR = "JOSEKI_DB"
BUSY_TIMEOUT_S = 60.0
BATCH = 500


class StoreError(Exception):
    """A problem with the database itself (cannot open, bad URL), told to the user in one line."""


def default_path() -> Path:
    """Where the default SQLite store lives: the user's data directory (``~/.local/share/joseki`` on Linux)."""
    return Path(user_data_dir("joseki", appauthor=False)) / "joseki.sqlite"


def resolve_url(db: str | None = None) -> str:
    """The SQLAlchemy URL for ``db``, else ``$JOSEKI_DB``, else the default SQLite file."""
    value = db or os.environ.get(ENV_VAR) or str(default_path())
    if "://" in value:
        try:
            make_url(value)
        except ArgumentError as exc:
            raise StoreError(f"bad database URL {value!r}: {exc}") from None
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def node_id(steps: str) -> int:
    """The node key of a canonical step string: its BLAKE2b hash as a signed 64-bit integer.

    A hash rather than a sequence number, so that any process can compute the key of a
    prefix without asking the database, and concurrent writers never disagree about it.
    """
    return int.from_bytes(hashlib.blake2b(steps.encode("ascii"), digest_size=8).digest(), "big", signed=True)


ROOT_ID = node_id("")


def _sqlite_engine(url: str) -> Engine:
    path = make_url(url).database
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA cache_size=-65536")
        cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("write") else "BEGIN")

    return engine


def open_engine(url: str) -> Engine:
    """An engine for ``url``; StoreError when the driver is missing or the URL is unusable."""
    try:
        if url.startswith("sqlite"):
            return _sqlite_engine(url)
        return create_engine(url, pool_pre_ping=True)
    except (ArgumentError, ImportError, ModuleNotFoundError) as exc:
        raise StoreError(f"cannot open {url!r}: {exc}") from None


def alembic_config(connection: Connection | None = None) -> Any:
    from alembic.config import Config

    from joseki.resources import migrations_dir

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest migration's revision."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at; None for an empty database."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


class Store:
    """An open database with a current schema."""

    def __init__(self, db: str | None = None, *, upgrade: bool = True) -> None:
        self.url = resolve_url(db)
        self.engine = open_engine(self.url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self.tables: dict[str, Table] = {t.name: t for t in Base.metadata.sorted_tables}
        if upgrade:
            self.upgrade()

    def upgrade(self) -> tuple[str | None, str]:
        """Create or upgrade the schema to the newest migration; returns (before, after)."""
        from alembic import command

        head = head_revision()
        try:
            with self.read() as conn:
                before = current_revision(conn)
            if before != head:
                with self.write() as conn:
                    if current_revision(conn) != head:
                        command.upgrade(alembic_config(conn), "head")
        except OperationalError as exc:
            raise StoreError(f"cannot open the database {self.display_url}: {exc.orig}") from None
        return before, head

    @property
    def display_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction: all of it is committed, or none of it."""
        with self.engine.connect() as conn:
            conn.info["write"] = True
            try:
                with conn.begin():
                    yield conn
            finally:
                conn.info.pop("write", None)

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """One read transaction."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def batched(items: Sequence[Any], size: int = BATCH) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


FAST_DIALECTS = ("sqlite", "postgresql")
"""Dialects whose bulk writes go straight to the driver, with ``ON CONFLICT`` clauses."""


def _placeholder(conn: Connection) -> str:
    return "?" if conn.dialect.paramstyle == "qmark" else "%s"


def bulk_insert(conn: Connection, table: Table, columns: Sequence[str], rows: Sequence[tuple[Any, ...]],
                ignore_existing: bool = False, key: str = "id") -> None:
    """Insert ``rows`` (tuples in ``columns`` order), skipping rows whose key exists when ``ignore_existing``.

    On SQLite and PostgreSQL the rows go to the driver's executemany in one statement (with
    ``ON CONFLICT DO NOTHING``, so that concurrent writers adding the same node never fail);
    elsewhere through SQLAlchemy, selecting existing keys first.
    """
    if not rows:
        return
    if conn.dialect.name in FAST_DIALECTS:
        marks = ", ".join([_placeholder(conn)] * len(columns))
        sql = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({marks})"
        if ignore_existing:
            sql += " ON CONFLICT DO NOTHING"
        for chunk in batched(rows, 20000):
            conn.exec_driver_sql(sql, list(chunk))
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
