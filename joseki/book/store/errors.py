"""The store's one exception, in a module of its own so that reading a book needs no SQLAlchemy to raise it."""

from __future__ import annotations

from joseki.core.errors import UserError


class StoreError(UserError):
    """A problem with the database itself (cannot open, bad URL, locked, full, not a store), told in one line."""
