"""Shared fixtures: where the real data lives, skips when it is absent, and fresh databases.

The tests run on SQLite by default. ``JOSEKI_TEST_DB=postgresql+psycopg://user:pw@host:port/db``
(or ``pytest --test-db URL``) runs them on PostgreSQL instead: every store a test makes is then
a new, empty database on that server (the URL's role needs CREATEDB), dropped after the test.
``.ci/postgres.sh`` starts such a server and prints its URL.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy.engine import make_url

from joseki.book.store.database import resolve_url
from joseki.engine.judge import gnugo_path

settings.register_profile("any-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("any-machine")
"""Hypothesis never times an example: the tests pass on a loaded machine with few cores."""

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
JOSEKI = SHARED / "joseki"
GAMES = SHARED / "games"
KOGO = JOSEKI / "kogo-kjd-2014" / "Kogo_s_Joseki_Dictionary.sgf"
KOGO_ZH = JOSEKI / "kogo-kjd-2007-zh" / "Kogo's Joseki Dictionary.sgf"
OGS = JOSEKI / "ogs-joseki-export" / "OGS_export.sgf"
GNUGO_PATH = Path(gnugo_path())
GNUGO_CMD = f"{GNUGO_PATH} --mode gtp --level 1"
"""GNU Go at its quickest level, as a GTP command."""
needs_gnugo = pytest.mark.skipif(not GNUGO_PATH.exists(), reason="GNU Go not installed (apt-get install gnugo)")


def need(path: Path) -> Path:
    """Skip the test with a clear reason when the shared data is not beside the repo."""
    if not path.exists():
        pytest.skip(f"real data not found at {path} (../shared is absent)")
    return path


TEST_DB_VAR = "JOSEKI_TEST_DB"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--test-db", default=None, metavar="URL",
                     help=f"run the store tests on this PostgreSQL server (default: ${TEST_DB_VAR}, else SQLite)")


class Databases:
    """Fresh, empty databases for the tests: SQLite files, or new databases on one PostgreSQL server."""

    def __init__(self, base_url: str | None, tmp: pytest.TempPathFactory) -> None:
        self.base_url = resolve_url(base_url) if base_url else None
        self.backend = make_url(self.base_url).get_backend_name() if self.base_url else "sqlite"
        if self.backend not in ("sqlite", "postgresql"):
            raise pytest.UsageError(f"{TEST_DB_VAR}: expected a PostgreSQL URL, got {base_url!r}")
        self.tmp = tmp
        self.created: list[str] = []
        self._numbers = itertools.count()
        self._admin: Any = None

    @property
    def is_postgres(self) -> bool:
        return self.backend == "postgresql"

    def _admin_connection(self) -> Any:
        import psycopg

        if self._admin is None:
            assert self.base_url is not None
            url = make_url(self.base_url).set(drivername="postgresql")
            try:
                self._admin = psycopg.connect(url.render_as_string(hide_password=False), autocommit=True)
            except psycopg.OperationalError as exc:
                pytest.exit(f"{TEST_DB_VAR}: cannot connect to {url.render_as_string()}: {exc}", returncode=3)
            # FILE_COPY (PostgreSQL 15+) creates a database several times faster than the default WAL_LOG
            version = self._admin.info.server_version
            self._strategy = " STRATEGY FILE_COPY" if version >= 150000 else ""
        return self._admin

    def new(self, name: str = "book") -> str:
        """A new empty database: a SQLite file path, or the URL of a new PostgreSQL database."""
        if not self.is_postgres:
            return str(self.tmp.mktemp(name) / f"{name}.sqlite")
        assert self.base_url is not None
        database = f"joseki_test_{os.getpid()}_{next(self._numbers)}_{name}".lower()
        self._admin_connection().execute(f'CREATE DATABASE "{database}"{self._strategy}')
        self.created.append(database)
        return make_url(self.base_url).set(database=database).render_as_string(hide_password=False)

    def drop(self, url: str) -> None:
        """Drop a database made by :meth:`new` (closing its connections); SQLite files stay in tmp."""
        if not self.is_postgres:
            return
        database = make_url(url).database
        if database in self.created:
            self._drop(database)
            self.created.remove(database)

    def _drop(self, database: str) -> None:
        """Drop a test database; an autovacuum worker still in it (a superuser's process) may delay that."""
        import time

        import psycopg

        for attempt in range(20):
            try:
                self._admin_connection().execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
                return
            except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
                time.sleep(0.25 * (attempt + 1))
        # left behind on the throwaway server: it is removed with the server's data directory

    def close(self) -> None:
        for database in list(self.created):
            self._drop(database)
        self.created.clear()
        if self._admin is not None:
            self._admin.close()


@pytest.fixture(scope="session")
def databases(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    """The backend under test and its fresh databases (see the module docstring)."""
    url = request.config.getoption("--test-db") or os.environ.get(TEST_DB_VAR) or None
    dbs = Databases(url, tmp_path_factory)
    yield dbs
    dbs.close()


@pytest.fixture()
def new_db(databases: Databases) -> Iterator[Callable[..., str]]:
    """``new_db(name)``: a fresh, empty database for this test (a file path or a URL), for ``Store`` or ``--db``."""
    made: list[str] = []

    def make(name: str = "book") -> str:
        made.append(databases.new(name))
        return made[-1]

    yield make
    for url in made:
        databases.drop(url)


def pytest_report_header(config: pytest.Config) -> str:
    url = config.getoption("--test-db") or os.environ.get(TEST_DB_VAR)
    if not url:
        return "joseki test databases: SQLite files"
    return f"joseki test databases: PostgreSQL, new databases on {make_url(resolve_url(url)).render_as_string()}"


@pytest.fixture()
def book(new_db: Callable[..., str]) -> str:
    """A new store (on the backend under test) holding the starter book."""
    from joseki.book.importer import import_files
    from joseki.book.store.database import Store
    from joseki.book.store.files import starter_book

    db = new_db("book")
    with Store(db) as store:
        import_files(store, [starter_book()], "starter")
    return db
