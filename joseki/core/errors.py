"""The errors a user can cause, under one base: what the command line tells in one line and the web answers 400.

Anything else that escapes is a bug: the command line then says "internal error" (``JOSEKI_DEBUG=1`` shows
the traceback) and the web answers 500 with the traceback in the server's log. So a user's mistake is
raised as one of these where it is first recognised, and an error from a library (sgfmill's ValueError,
an OSError on the user's file, a database driver's error) is turned into one at the edge that called it.
"""

from __future__ import annotations


class UserError(Exception):
    """Something the user can put right: bad input, an unusable file, database or engine; told in one line."""


class BadInput(UserError, ValueError):
    """Input that means nothing here: a move, a step string, an option's value, a file's content."""


def file_error(exc: OSError) -> UserError:
    """The user's error for an OSError on a file the user named: ``file: reason`` (``reason`` alone without one)."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return UserError(reason)
    if exc.filename2 is not None:
        return UserError(f"{exc.filename} -> {exc.filename2}: {reason}")
    return UserError(f"{exc.filename}: {reason}")
