"""Writing the games behind book positions: each game's facts once, and bounded references from nodes.

The workers of ``learn`` and ``mine`` find a game's facts (:class:`GameInfo`) and, per corner,
the game move of each local step (:func:`corner_moves`); the book nodes a corner reached are
the ones its credits went to (:func:`joseki.games.credit.game_records` hands them out), so the
games behind a node are exactly the games counted in its statistics. The parent writes them with
:func:`record_games` in the transaction that writes the credits, so a killed run leaves
nothing half-written.

Bounded: per node and profile, only the :data:`REFS_PER_NODE` newest and the
:data:`REFS_PER_NODE` strongest games are kept (at most twice that many rows; both orders stay
exact for their first :data:`REFS_PER_NODE`); the full count is the node's ``node_stats.games``.
A reference costs a few bytes: the game's facts are in ``game_record``, once per game.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection, bindparam, delete, func, select

from joseki.book.query.next import move_numbers
from joseki.book.store.database import FAST_DIALECTS, Store, batched, insert_rows
from joseki.core.corners import CornerTable
from joseki.core.gameinfo import strength
from joseki.core.geometry import Corner
from joseki.sgf.game import Game

REFS_PER_NODE = 20
"""Games kept per node and profile for each order (newest, strongest)."""

CORNERS = tuple(Corner)
"""A corner's number in ``game_ref.corner``."""

UNKNOWN_STRENGTH = -1000
"""Where a game of unknown ranks sorts among the strongest: last."""

GAME_COLUMNS = ("game_key", "source", "black", "white", "black_rank", "white_rank", "date", "result", "moves",
                "strength")


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the store keeps about one game (a ``game_record`` row)."""

    key: str
    source: str
    """The SGF file, as an absolute path."""
    black: str = ""
    white: str = ""
    black_rank: str = ""
    white_rank: str = ""
    date: str = ""
    result: str = ""
    moves: int = 0
    strength: int | None = None
    """:func:`joseki.core.gameinfo.strength` of the ranks."""

    @classmethod
    def of(cls, game: Game, key: str | None = None) -> GameInfo:
        """The facts of a game read from its file (``key``: its :attr:`~joseki.sgf.game.Game.key`, if known)."""
        return cls(key or game.key, os.path.abspath(game.source), game.black[:200], game.white[:200], game.black_rank,
                   game.white_rank, game.date, game.result[:40], len(game.moves),
                   strength(game.black_rank, game.white_rank))

    def row(self) -> tuple[object, ...]:
        return (self.key, self.source, self.black, self.white, self.black_rank, self.white_rank, self.date,
                self.result, self.moves, self.strength)


def newest_key(date: str, strength: int | None, key: str) -> tuple[str, str]:
    """Sort key of the ``newest`` order (descending): date, then game key."""
    return (date, key)


def strongest_key(date: str, strength: int | None, key: str) -> tuple[int, str, str]:
    """Sort key of the ``strongest`` order (descending): strength (unknown last), then date, then game key."""
    return (UNKNOWN_STRENGTH if strength is None else strength, date, key)


def chosen(games: Sequence[tuple[str, int | None, str]], bound: int = REFS_PER_NODE) -> set[str]:
    """The keys of (date, strength, key) ``games`` among the ``bound`` newest or the ``bound`` strongest."""
    if len(games) <= bound:
        return {key for _, _, key in games}
    newest = sorted(games, key=lambda g: newest_key(*g), reverse=True)[:bound]
    strongest = sorted(games, key=lambda g: strongest_key(*g), reverse=True)[:bound]
    return {key for _, _, key in newest} | {key for _, _, key in strongest}


CornerMoves = tuple[int, list[int]]
"""A corner's number in :data:`CORNERS` and the game move (from 1) of each step of its string."""


def corner_moves(tables: Iterable[CornerTable], steps: Sequence[int] | int) -> list[CornerMoves]:
    """Each corner with local moves, in the order :func:`joseki.games.credit.table_corners` lists them, with
    the game moves of its first ``steps`` steps (``steps[i]`` for the ``i``-th corner when a sequence)."""
    played = [t for t in tables if t.builder.first_colour is not None]
    limits = [steps] * len(played) if isinstance(steps, int) else steps
    return [(CORNERS.index(t.corner), move_numbers(t, limit) if limit else [])
            for t, limit in zip(played, limits, strict=True)]


@dataclass(slots=True)
class GameRefs:
    """One game's facts and the book nodes it reached: (node id, game move, corner number), one per node."""

    info: GameInfo
    nodes: list[tuple[int, int, int]] = field(default_factory=list)


def game_refs(info: GameInfo, corners: Sequence[CornerMoves], reached: Sequence[Sequence[int]]) -> GameRefs:
    """The references of a game whose ``i``-th corner reached the nodes ``reached[i]`` (one per in-book step).

    A node reached in two corners keeps the earlier move.
    """
    best: dict[int, tuple[int, int]] = {}
    for (corner, numbers), nodes in zip(corners, reached, strict=True):
        for nid, number in zip(nodes, numbers, strict=False):
            if nid not in best or number < best[nid][0]:
                best[nid] = (number, corner)
    return GameRefs(info, [(nid, number, corner) for nid, (number, corner) in best.items()])


def record_games(conn: Connection, store: Store, pid: int, games: Sequence[GameRefs],
                 replace: Iterable[str] = ()) -> None:
    """Write ``games`` and their references under profile ``pid``, then trim the nodes they reached.

    ``replace``: keys of games whose references under the profile are dropped first (``mine``
    moving a game learnt before onto its new book).
    """
    if not games:
        return
    ids = game_ids(conn, store, [g.info for g in games])
    gr = store.tables["game_ref"]
    for chunk in batched(sorted(ids[k] for k in set(replace) if k in ids)):
        conn.execute(delete(gr).where(gr.c.profile_id == pid, gr.c.game_id.in_(chunk)))
    per_node: dict[int, list[tuple[tuple[str, int | None, str], int, int, int]]] = {}
    for g in games:
        order, gid = (g.info.date, g.info.strength, g.info.key), ids[g.info.key]
        for nid, number, corner in g.nodes:
            per_node.setdefault(nid, []).append((order, gid, number, corner))
    rows: list[tuple[int, int, int, int, int]] = []
    for nid, refs in per_node.items():
        if len(refs) <= REFS_PER_NODE:
            rows.extend((pid, nid, gid, number, corner) for _, gid, number, corner in refs)
            continue
        keep = chosen([order for order, _, _, _ in refs])
        rows.extend((pid, nid, gid, number, corner) for order, gid, number, corner in refs if order[2] in keep)
    rows.sort()
    columns = ("profile_id", "node_id", "game_id", "move_number", "corner")
    if conn.dialect.name in FAST_DIALECTS:
        insert_rows(conn, gr, columns, rows, "ON CONFLICT DO NOTHING")
    else:
        conn.execute(gr.insert(), [dict(zip(columns, r, strict=True)) for r in rows])
    trim(conn, store, pid, per_node)


def game_ids(conn: Connection, store: Store, infos: Sequence[GameInfo]) -> dict[str, int]:
    """The ``game_record`` id of each game, its row written if new (an existing row is kept as it is)."""
    g = store.tables["game_record"]
    unique = sorted({i.key: i.row() for i in infos}.values())
    keys = [str(r[0]) for r in unique]
    found: dict[str, int] = {}

    def read() -> None:
        for chunk in batched(keys):
            found.update((str(k), int(i)) for k, i in conn.execute(select(g.c.game_key, g.c.id)
                                                                   .where(g.c.game_key.in_(chunk))))

    if conn.dialect.name in FAST_DIALECTS:
        insert_rows(conn, g, GAME_COLUMNS, unique, "ON CONFLICT (game_key) DO NOTHING")
    else:
        read()
        fresh = [r for r in unique if r[0] not in found]
        if fresh:
            conn.execute(g.insert(), [dict(zip(GAME_COLUMNS, r, strict=True)) for r in fresh])
    read()
    return found


def trim(conn: Connection, store: Store, pid: int, nodes: Iterable[int]) -> None:
    """Keep, at each of ``nodes``, only the profile's references :func:`kept` allows."""
    gr, g = store.tables["game_ref"], store.tables["game_record"]
    full: list[int] = []
    for chunk in batched(sorted(nodes)):
        full.extend(conn.execute(select(gr.c.node_id).where(gr.c.profile_id == pid, gr.c.node_id.in_(chunk))
                                 .group_by(gr.c.node_id).having(func.count() > REFS_PER_NODE)).scalars())
    drop: list[dict[str, int]] = []
    for chunk in batched(full):
        games: dict[int, list[tuple[str, int | None, str, int]]] = {}
        query = (select(gr.c.node_id, g.c.date, g.c.strength, g.c.game_key, g.c.id)
                 .join(g, g.c.id == gr.c.game_id).where(gr.c.profile_id == pid, gr.c.node_id.in_(chunk)))
        for nid, date, power, key, gid in conn.execute(query):
            games.setdefault(int(nid), []).append((str(date), power, str(key), int(gid)))
        for nid, refs in sorted(games.items()):
            keep = chosen([(d, s, k) for d, s, k, _ in refs])
            drop.extend({"k_node": nid, "k_game": gid} for _, _, k, gid in sorted(refs, key=lambda r: r[3])
                        if k not in keep)
    if drop:
        conn.execute(delete(gr).where(gr.c.profile_id == pid, gr.c.node_id == bindparam("k_node"),
                                      gr.c.game_id == bindparam("k_game")), drop)
