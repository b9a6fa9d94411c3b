"""Where the store's files are: the default SQLite file, the shipped migrations and starter book, the head migration.

Kept apart from the store so that finding and reading a SQLite book (:mod:`joseki.book.store.bookfile`)
needs no SQLAlchemy. An installed wheel carries the migrations and the starter book inside the package
(``joseki/_migrations``, ``joseki/_db``); a source checkout or an editable install finds them at the top
of the repository.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from joseki.book.store.errors import StoreError

ENV_VAR = "JOSEKI_DB"
_PACKAGE = Path(__file__).resolve().parent.parent.parent


def default_path() -> Path:
    """Where the default SQLite store lives: the user's data directory (``~/.local/share/joseki`` on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("joseki", appauthor=False)) / "joseki.sqlite"


def sqlite_file(db: str | None = None) -> Path | None:
    """The SQLite file that ``db`` (else ``$JOSEKI_DB``, else the default) names as a plain path; None for a URL."""
    value = db or os.environ.get(ENV_VAR) or str(default_path())
    return None if "://" in value else Path(value).expanduser().resolve()


def _shipped(installed: str, source: str) -> Path:
    inside = _PACKAGE / installed
    return inside if inside.exists() else _PACKAGE.parent / source


def migrations_dir() -> Path:
    """The Alembic script directory."""
    return _shipped("_migrations", "migrations")


def starter_book() -> Path:
    """The starter book SGF that an empty store is loaded with."""
    return _shipped("_db", "db") / "starter.sgf"


_REVISION_LINE = re.compile(r"^(down_revision|revision) = (?:\"([^\"]*)\"|None)$", re.M)


@lru_cache(maxsize=1)
def head_revision() -> str:
    """The newest migration's revision: the one no other migration revises.

    Read from the ``revision`` and ``down_revision`` lines of the migration scripts rather
    than through Alembic's script directory, which costs a fifth of a second to import.
    """
    revisions: set[str] = set()
    revised: set[str] = set()
    for script in sorted((migrations_dir() / "versions").glob("*.py")):
        for name, value in _REVISION_LINE.findall(script.read_text(encoding="utf-8")):
            (revisions if name == "revision" else revised).add(value)
    heads = revisions - revised
    if len(heads) != 1:
        raise StoreError(f"the migrations in {migrations_dir()} have heads {sorted(heads)}; expected one")
    return heads.pop()
