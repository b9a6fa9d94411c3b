"""Statistics in the store: profiles, per-node results, and the games already learnt.

Writes add counts (``games = games + n``), so concurrent learners never lose an update;
rows are written in key order (games by key, then node statistics by node) so that two
writers never wait on each other in a cycle: on PostgreSQL, where writers run at once and
lock only the rows they write, that is what rules deadlocks out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from sqlalchemy import Connection, bindparam, delete, select, update

from joseki.book.learnt.profiles import GLOBAL, profile_id_named
from joseki.book.store.database import FAST_DIALECTS, Store, batched, insert_rows
from joseki.core.priority import Record

CLAIMS_PER_STATEMENT = 1000
"""Games claimed by one ``INSERT`` on SQLite (five values each, within SQLite's limit on a statement's values)."""


def profile_id(conn: Connection, store: Store, name: str | None, create: bool = False) -> int | None:
    """The id of profile ``name`` (``global`` when None); created when ``create``, else None if absent."""
    p = store.tables["profile"]
    name = name or GLOBAL
    pid = profile_id_named(conn, name)
    if pid is None and create:
        if conn.dialect.name in FAST_DIALECTS:
            conn.exec_driver_sql(
                "INSERT INTO profile (name, created_at) VALUES ({0}, {0}) ON CONFLICT (name) DO NOTHING".format(
                    "?" if conn.dialect.paramstyle == "qmark" else "%s"),
                (name, datetime.now(UTC).replace(tzinfo=None)))
        else:
            conn.execute(p.insert().values(name=name, created_at=datetime.now(UTC).replace(tzinfo=None)))
        pid = profile_id_named(conn, name)
    return pid


def learnt_keys(conn: Connection, store: Store, pid: int) -> set[str]:
    """The keys of every game learnt under profile ``pid``."""
    lg = store.tables["learnt_game"]
    return set(conn.execute(select(lg.c.game_key).where(lg.c.profile_id == pid)).scalars())


def claim_games(conn: Connection, store: Store, pid: int, games: Sequence[tuple[str, str, str]]) -> set[str]:
    """Record games (key, source, result) as learnt; returns the keys that were not learnt before."""
    lg = store.tables["learnt_game"]
    now = datetime.now(UTC).replace(tzinfo=None)
    games = sorted(games)
    keys = [k for k, _, _ in games]
    claimed: set[str] = set()
    if conn.dialect.name == "postgresql":
        for chunk in batched(games, 10000):
            rows = conn.exec_driver_sql(
                "INSERT INTO learnt_game (profile_id, game_key, source, result, learnt_at) "
                "SELECT %s, k, s, r, %s FROM unnest(%s::varchar(32)[], %s::text[], %s::varchar(40)[]) "
                "WITH ORDINALITY AS g(k, s, r, i) ORDER BY i ON CONFLICT DO NOTHING RETURNING game_key",
                (pid, now, [k for k, _, _ in chunk], [src for _, src, _ in chunk], [r[:40] for _, _, r in chunk]))
            claimed.update(row[0] for row in rows)
        return claimed
    if conn.dialect.name in FAST_DIALECTS:
        mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
        for chunk in batched(games, CLAIMS_PER_STATEMENT):
            values = ", ".join([f"({mark}, {mark}, {mark}, {mark}, {mark})"] * len(chunk))
            sql = (f"INSERT INTO learnt_game (profile_id, game_key, source, result, learnt_at) VALUES {values} "
                   "ON CONFLICT DO NOTHING RETURNING game_key")
            rows = conn.exec_driver_sql(sql, tuple(v for k, s, r in chunk for v in (pid, k, s, r[:40], now)))
            claimed.update(row[0] for row in rows)
        return claimed
    existing: set[str] = set()
    for chunk in batched(keys):
        existing.update(conn.execute(select(lg.c.game_key).where(lg.c.profile_id == pid,
                                                                 lg.c.game_key.in_(chunk))).scalars())
    fresh = [(k, s, r) for k, s, r in games if k not in existing]
    if fresh:
        conn.execute(lg.insert(), [{"profile_id": pid, "game_key": k, "source": s, "result": r[:40],
                                    "learnt_at": now} for k, s, r in fresh])
    return {k for k, _, _ in fresh}


def add_records(conn: Connection, store: Store, pid: int, records: dict[int, Record]) -> None:
    """Add ``records`` (node id -> counts) to the profile's statistics."""
    if not records:
        return
    rows = [(nid, pid, r.games, r.wins, r.losses, r.draws) for nid, r in sorted(records.items())]
    ns = store.tables["node_stats"]
    if conn.dialect.name in FAST_DIALECTS:
        insert_rows(conn, ns, ("node_id", "profile_id", "games", "wins", "losses", "draws"), rows,
                    "ON CONFLICT (node_id, profile_id) DO UPDATE SET games = node_stats.games + excluded.games, "
                    "wins = node_stats.wins + excluded.wins, losses = node_stats.losses + excluded.losses, "
                    "draws = node_stats.draws + excluded.draws", chunk=10000)
        return
    existing: set[int] = set()
    for chunk in batched([r[0] for r in rows]):
        existing.update(conn.execute(select(ns.c.node_id).where(ns.c.profile_id == pid,
                                                                ns.c.node_id.in_(chunk))).scalars())
    new = [r for r in rows if r[0] not in existing]
    old = [r for r in rows if r[0] in existing]
    if new:
        conn.execute(ns.insert(), [dict(zip(("node_id", "profile_id", "games", "wins", "losses", "draws"), r,
                                            strict=True)) for r in new])
    if old:
        conn.execute(update(ns).where(ns.c.node_id == bindparam("k_node"), ns.c.profile_id == pid).values(
            games=ns.c.games + bindparam("k_g"), wins=ns.c.wins + bindparam("k_w"),
            losses=ns.c.losses + bindparam("k_l"), draws=ns.c.draws + bindparam("k_d")),
            [{"k_node": r[0], "k_g": r[2], "k_w": r[3], "k_l": r[4], "k_d": r[5]} for r in old])


def drop_empty(conn: Connection, store: Store, pid: int, node_ids: Iterable[int]) -> None:
    """Delete the profile's rows of ``node_ids`` whose counts came back to zero (credits taken back)."""
    ns = store.tables["node_stats"]
    for chunk in batched(sorted(set(node_ids))):
        conn.execute(delete(ns).where(ns.c.profile_id == pid, ns.c.node_id.in_(chunk), ns.c.games == 0,
                                      ns.c.wins == 0, ns.c.losses == 0, ns.c.draws == 0))
