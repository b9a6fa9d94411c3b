"""Where the files that ship with the package are: Alembic migrations and the starter book.

An installed wheel carries them inside the package (``joseki/_migrations``, ``joseki/_db``);
a source checkout or an editable install finds them at the top of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _shipped(installed: str, source: str) -> Path:
    inside = _PACKAGE / installed
    return inside if inside.exists() else _PACKAGE.parent / source


def migrations_dir() -> Path:
    """The Alembic script directory."""
    return _shipped("_migrations", "migrations")


def starter_book() -> Path:
    """The starter book SGF that an empty store is loaded with."""
    return _shipped("_db", "db") / "starter.sgf"
