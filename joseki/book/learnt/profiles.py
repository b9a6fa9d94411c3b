"""Statistics per profile as the reads see them: the global profile, a profile's id, the check that a named
profile exists, and nodes' records under a profile, falling back to the global ones.

Statistics are kept per profile (:mod:`joseki.book.learnt.results` writes them); ``global`` holds every
game learnt or mined, whatever the profile.
"""

from __future__ import annotations

from collections.abc import Sequence

from joseki.book.store.bookfile import ReadConnection, rows, scalar
from joseki.core.errors import BadInput
from joseki.core.priority import Record

GLOBAL = "global"
"""The profile every game is also credited to."""
PROFILE_ID = "SELECT id FROM profile WHERE name = :name"
RECORDS = """
SELECT ns.node_id, p.name, ns.games, ns.wins, ns.losses, ns.draws FROM node_stats AS ns
JOIN profile AS p ON p.id = ns.profile_id WHERE ns.node_id IN (:nodes) AND p.name IN (:names)"""


def profile_id_named(conn: ReadConnection, name: str) -> int | None:
    """The id of profile ``name``; None if there is none."""
    found = scalar(conn, PROFILE_ID, {"name": name})
    return None if found is None else int(found)


def require_profile(conn: ReadConnection, name: str | None) -> None:
    """BadInput unless profile ``name`` exists (None and ``global`` always do): for commands that only read.

    Commands that write statistics (learn, mine, match --learn) create a profile instead
    (:func:`joseki.book.learnt.results.profile_id` with ``create``); one that reads must not fall back silently.
    """
    if not name or name == GLOBAL or profile_id_named(conn, name) is not None:
        return
    known = ", ".join(str(n) for (n,) in rows(conn, "SELECT name FROM profile ORDER BY name"))
    raise BadInput(f"no profile named {name!r} (profiles: {known or 'none'}); "
                     "learn, mine or match --learn create one")


def profile_names(profile: str | None) -> list[str]:
    """The profiles a read under ``profile`` asks for, in order of preference: the profile, then ``global``."""
    return [GLOBAL] if not profile or profile == GLOBAL else [profile, GLOBAL]


def records_for(conn: ReadConnection, node_ids: Sequence[int], profile: str | None) -> dict[int, Record]:
    """Each node's counts under ``profile``, falling back to the global counts where the profile has none."""
    require_profile(conn, profile)
    names = profile_names(profile)
    found: dict[str, dict[int, Record]] = {name: {} for name in names}
    for nid, name, g, w, lo, d in rows(conn, RECORDS, {"nodes": list(node_ids), "names": names}):
        found[name][int(nid)] = Record(g, w, lo, d)
    merged = dict(found[GLOBAL])
    if len(names) == 2:
        merged.update(found[names[0]])
    return merged
