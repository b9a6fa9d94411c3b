"""The store's one exception, in a module of its own so the CLI can catch it without loading SQLAlchemy."""


class StoreError(Exception):
    """A problem with the database itself (cannot open, bad URL), told to the user in one line."""
