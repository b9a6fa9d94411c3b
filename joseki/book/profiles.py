"""Profiles as the reads see them: the global one, a profile's id, and the check that a named profile exists.

Statistics are kept per profile (:mod:`joseki.book.stats` writes them); ``global`` holds every
game learnt or mined, whatever the profile.
"""

from __future__ import annotations

from joseki.book.reader import ReadConnection, rows, scalar

GLOBAL = "global"
"""The profile every game is also credited to."""
PROFILE_ID = "SELECT id FROM profile WHERE name = :name"


def profile_id_named(conn: ReadConnection, name: str) -> int | None:
    """The id of profile ``name``; None if there is none."""
    found = scalar(conn, PROFILE_ID, {"name": name})
    return None if found is None else int(found)


def require_profile(conn: ReadConnection, name: str | None) -> None:
    """ValueError unless profile ``name`` exists (None and ``global`` always do): for commands that only read.

    Commands that write statistics (learn, mine, match --learn) create a profile instead
    (:func:`joseki.book.stats.profile_id` with ``create``); one that reads must not fall back silently.
    """
    if not name or name == GLOBAL or profile_id_named(conn, name) is not None:
        return
    known = ", ".join(str(n) for (n,) in rows(conn, "SELECT name FROM profile ORDER BY name"))
    raise ValueError(f"no profile named {name!r} (profiles: {known or 'none'}); "
                     "learn, mine or match --learn create one")
