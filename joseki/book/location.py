"""Where a store is when ``--db`` names no URL: a SQLite file, by default in the user's data directory.

Kept apart from the store so that finding a SQLite book (:mod:`joseki.book.reader`) needs no
SQLAlchemy.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "JOSEKI_DB"


def default_path() -> Path:
    """Where the default SQLite store lives: the user's data directory (``~/.local/share/joseki`` on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("joseki", appauthor=False)) / "joseki.sqlite"


def sqlite_file(db: str | None = None) -> Path | None:
    """The SQLite file that ``db`` (else ``$JOSEKI_DB``, else the default) names as a plain path; None for a URL."""
    value = db or os.environ.get(ENV_VAR) or str(default_path())
    return None if "://" in value else Path(value).expanduser().resolve()
