"""Local outcomes in the store: judged corners per book move and profile, and the games already judged.

Beside :mod:`joseki.book.learnt.results` (game results), with the same rules: writes add counts, rows
go in key order, a game judged once under a profile is not judged again.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import Connection, bindparam, select, update

from joseki.book.learnt.results import profile_id
from joseki.book.store.database import Store, batched
from joseki.core.priority import Record

COLUMNS = ("corners", "wins", "losses", "draws", "margin")


def claim_judged(conn: Connection, store: Store, pid: int, games: Sequence[tuple[str, str]]) -> set[str]:
    """Record games (key, source) as judged; returns the keys that were not judged before."""
    jg = store.tables["judged_game"]
    games = sorted(set(games))
    existing: set[str] = set()
    for chunk in batched([k for k, _ in games]):
        existing.update(conn.execute(select(jg.c.game_key).where(jg.c.profile_id == pid,
                                                                 jg.c.game_key.in_(chunk))).scalars())
    now = datetime.now(UTC).replace(tzinfo=None)
    fresh: dict[str, str] = {}
    for key, source in games:
        if key not in existing:
            fresh.setdefault(key, source)
    if fresh:
        conn.execute(jg.insert(), [{"profile_id": pid, "game_key": k, "source": s, "judged_at": now}
                                   for k, s in fresh.items()])
    return set(fresh)


def add_judged(conn: Connection, store: Store, pid: int, rows: dict[int, list[float]]) -> None:
    """Add ``rows`` (node id -> [corners, wins, losses, draws, margin]) to the profile's local outcomes."""
    if not rows:
        return
    nl = store.tables["node_local"]
    ids = sorted(rows)
    existing: set[int] = set()
    for chunk in batched(ids):
        existing.update(conn.execute(select(nl.c.node_id).where(nl.c.profile_id == pid,
                                                                nl.c.node_id.in_(chunk))).scalars())
    new = [{"node_id": nid, "profile_id": pid, **_values(rows[nid])} for nid in ids if nid not in existing]
    old = [{"k_node": nid, **{f"k_{c}": v for c, v in _values(rows[nid]).items()}} for nid in ids if nid in existing]
    if new:
        conn.execute(nl.insert(), new)
    if old:
        conn.execute(update(nl).where(nl.c.node_id == bindparam("k_node"), nl.c.profile_id == pid).values(
            **{c: nl.c[c] + bindparam(f"k_{c}") for c in COLUMNS}), old)


def _values(row: list[float]) -> dict[str, float]:
    return {"corners": int(row[0]), "wins": int(row[1]), "losses": int(row[2]), "draws": int(row[3]),
            "margin": float(row[4])}


def judged_for(conn: Connection, store: Store, profile: str | None) -> dict[int, tuple[Record, float]]:
    """Each node's local record (``games`` = corners) and summed margin under ``profile``."""
    pid = profile_id(conn, store, profile)
    if pid is None:
        return {}
    nl = store.tables["node_local"]
    return {int(nid): (Record(c, w, lo, d), float(m)) for nid, c, w, lo, d, m in conn.execute(
        select(nl.c.node_id, *(nl.c[c] for c in COLUMNS)).where(nl.c.profile_id == pid))}
