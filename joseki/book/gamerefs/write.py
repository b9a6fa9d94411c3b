"""Writing the games behind book positions: each game's facts once, and bounded references from nodes.

The workers of ``learn`` and ``mine`` find a game's facts (:class:`GameInfo`) and the book nodes
its corners reached, with the game move that reached each (:func:`game_refs`); those are the nodes
its credits went to (:mod:`joseki.games.credit`), so the games behind a node are exactly the games
counted in its statistics. The parent writes them with a :class:`RefsWriter` in the transaction
that writes the credits, so a killed run leaves nothing half-written.

Bounded: per node and profile, only the :data:`REFS_PER_NODE` newest and the
:data:`REFS_PER_NODE` strongest games are kept (at most twice that many rows; both orders stay
exact for their first :data:`REFS_PER_NODE`); the full count is the node's ``node_stats.games``.
A reference costs a few bytes: the game's facts are in ``game_record``, once per game. The writer
holds each node's kept games in memory for the run, so a batch inserts only the references that
make a node's bound and deletes only those pushed out of it, reading nothing back.
"""

from __future__ import annotations

import heapq
import os
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import Connection, bindparam, delete, exists, select

from joseki.book.store.database import FAST_DIALECTS, Store, batched, insert_rows
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


Order = tuple[str, int | None, str]
"""What a game's place in both orders depends on: its date, strength and key."""


def chosen(games: Sequence[Order], bound: int = REFS_PER_NODE) -> set[str]:
    """The keys of (date, strength, key) ``games`` among the ``bound`` newest or the ``bound`` strongest."""
    if len(games) <= bound:
        return {key for _, _, key in games}
    # the orders of newest_key and strongest_key, made inline and compared in C (a node's games may be many)
    newest = heapq.nlargest(bound, [(date, key) for date, _, key in games])
    strongest = heapq.nlargest(bound, [(UNKNOWN_STRENGTH if power is None else power, date, key)
                                       for date, power, key in games])
    return {key for _, key in newest} | {key for _, _, key in strongest}


CornerMoves = tuple[int, list[int]]
"""A corner's number in :data:`CORNERS` and the game move (from 1) of each step of its string."""


@dataclass(slots=True)
class GameRefs:
    """One game's facts and the book nodes it reached: (node id, game move, corner number), one per node."""

    info: GameInfo
    nodes: list[tuple[int, int, int]] = field(default_factory=list)


PackedRefs = tuple[list[tuple[Any, ...]], "array[int]", "array[int]", "array[int]", "array[int]"]
"""A chunk of games' references (:func:`pack_refs`)."""


def pack_refs(games: Iterable[GameRefs | None]) -> PackedRefs:
    """A chunk of games' references as :meth:`RefsWriter.add_packed` takes them: the facts of each game that has
    some (:meth:`GameInfo.row`) and its number of references, then the references as the writer's columns (node,
    game move, corner), so that the parent copies a few arrays, not every value."""
    infos: list[tuple[Any, ...]] = []
    sizes, nodes, numbers, corners = array("i"), array("q"), array("i"), array("b")
    for refs in games:
        if refs is None:
            continue
        infos.append(refs.info.row())
        sizes.append(len(refs.nodes))
        if refs.nodes:
            ids, moves, where = zip(*refs.nodes, strict=True)
            nodes.extend(ids)
            numbers.extend(moves)
            corners.extend(where)
    return infos, sizes, nodes, numbers, corners


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


Kept = tuple[Order, int]
"""A reference a node keeps: its game's order and ``game_record`` id."""
Offered = tuple[Order, int, int]
"""A reference offered to a node: its game's order, the game move and the corner."""


def ranks(orders: Sequence[Order]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each game's place among ``orders`` in the newest order and in the strongest order (0 the last)."""
    count = len(orders)
    newest = np.empty(count, np.int64)
    strongest = np.empty(count, np.int64)
    places = np.arange(count, dtype=np.int64)
    newest[sorted(range(count), key=lambda i: (orders[i][0], orders[i][2]))] = places
    strongest[sorted(range(count), key=lambda i: (UNKNOWN_STRENGTH if (p := orders[i][1]) is None else p,
                                                   orders[i][0], orders[i][2]))] = places
    return newest, strongest


def top_offers(nodes: npt.NDArray[np.int64], rank: npt.NDArray[np.int64],
               bound: int = REFS_PER_NODE) -> npt.NDArray[np.intp]:
    """The references (positions in ``nodes``) among the ``bound`` of highest ``rank`` at their node."""
    if not len(nodes):
        return np.zeros(0, np.intp)
    order = np.lexsort((-rank, nodes))
    sorted_nodes = nodes[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_nodes[1:] != sorted_nodes[:-1])))
    first = np.repeat(starts, np.diff(np.append(starts, len(order))))
    return order[np.arange(len(order)) - first < bound]


_TYPES = {"q": np.int64, "i": np.int32, "b": np.int8}
"""The numpy type of each array type :class:`RefsWriter` holds a column in."""


def _entries(column: array[int], at: npt.NDArray[np.intp]) -> array[int]:
    """The entries ``at`` of ``column``, as a column of its type."""
    out = array(column.typecode)
    out.frombytes(np.frombuffer(column, _TYPES[column.typecode])[at].tobytes())
    return out


class RefsWriter:
    """Writes the games behind each position, batch by batch, under one profile.

    :meth:`add` takes each new game's :class:`GameRefs`; :meth:`write`, in the batch's transaction,
    writes their facts (``game_record``), inserts each reference that makes its node's bound and
    deletes the references it pushes out. :meth:`replacing` names games whose references are dropped
    first (``mine`` moving games learnt before onto its new book).

    A batch's references are held as columns (node, game, move, corner) and each node's best offers chosen
    from them at once (:meth:`offered`): a run offers millions, too many for a heap operation each.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.infos: dict[str, GameInfo] = {}
        self.orders: list[Order] = []
        """Each game added since the last write (its number in :attr:`games` is its place here)."""
        self.nodes = array("q")
        self.games = array("i")
        self.numbers = array("i")
        self.corners = array("b")
        self.ids: dict[str, int] = {}
        """The ``game_record`` id of each game added since the last write whose facts :meth:`prune` wrote."""
        self.kept: dict[int, list[Kept]] = {}
        self.unlisted: tuple[list[Order], npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[np.int64]] | None
        self.unlisted = None
        """What the last write inserted with nothing kept before it, not yet in :attr:`kept` (the games' orders, then
        each reference's node, game and ``game_record`` id): a run that writes once never lists it (:meth:`_list`)."""
        self.replace: set[str] = set()
        self.reads_back: bool | None = None
        """Whether nodes met for the first time are read from the store (not when the profile held no references)."""

    def replacing(self, keys: Iterable[str]) -> None:
        """Drop the references of the games ``keys`` under the profile at the next write."""
        self.replace.update(keys)

    def add(self, refs: GameRefs | None) -> None:
        """One new game's facts and references (None: the game has none)."""
        if refs is None:
            return
        info = refs.info
        self.infos[info.key] = info
        if not refs.nodes:
            return
        nodes, numbers, corners = zip(*refs.nodes, strict=True)
        self.games.extend([len(self.orders)] * len(nodes))
        self.orders.append((info.date, info.strength, info.key))
        self.nodes.extend(nodes)
        self.numbers.extend(numbers)
        self.corners.extend(corners)

    def add_packed(self, packed: PackedRefs) -> None:
        """A chunk of new games' facts and references, as :func:`pack_refs` made them: what :meth:`add` of each
        game does."""
        infos, sizes, nodes, numbers, corners = packed
        for row, size in zip(infos, sizes, strict=True):
            info = GameInfo(*row)
            self.infos[info.key] = info
            if size:
                self.games.extend([len(self.orders)] * size)
                self.orders.append((info.date, info.strength, info.key))
        self.nodes.extend(nodes)
        self.numbers.extend(numbers)
        self.corners.extend(corners)

    def _best(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], npt.NDArray[np.intp]]:
        """The references added since the last write that can make their node's bound (positions in the
        columns, in order), with the node and the game of each: the :data:`REFS_PER_NODE` newest and the
        :data:`REFS_PER_NODE` strongest at each node."""
        nodes = np.frombuffer(self.nodes, np.int64)
        games = np.frombuffer(self.games, np.int32).astype(np.intp)
        newest, strongest = ranks(self.orders)
        chosen = np.zeros(len(nodes), np.bool_)
        chosen[top_offers(nodes, newest[games])] = True
        chosen[top_offers(nodes, strongest[games])] = True
        return np.flatnonzero(chosen), nodes, games

    def prune(self, conn: Connection | None = None) -> None:
        """Drop the references added since the last write that cannot make their node's bound: the best of a
        node's references are the best of the best of each part of them, so a run that writes once, at its end,
        need hold no more than these. With ``conn``, also write the facts of the games added (``game_record``),
        which the next write would write as they are."""
        if conn is not None and self.infos:
            self.ids.update(game_ids(conn, self.store, list(self.infos.values())))
            self.infos = {}
        chosen, _, _ = self._best()
        self.nodes, self.games, self.numbers, self.corners = (_entries(column, chosen) for column in (
            self.nodes, self.games, self.numbers, self.corners))

    def offered(self) -> dict[int, list[Offered]]:
        """Each node's references added since the last write that can make its bound (:meth:`_best`)."""
        chosen, nodes, games = self._best()
        out: dict[int, list[Offered]] = {}
        orders, numbers, corners = self.orders, self.numbers, self.corners
        for at, nid, game in zip(chosen.tolist(), nodes[chosen].tolist(), games[chosen].tolist(), strict=True):
            offer = (orders[game], numbers[at], corners[at])
            found = out.get(nid)
            if found is None:
                out[nid] = [offer]
            else:
                found.append(offer)
        return out

    def write(self, conn: Connection, pid: int) -> None:
        """Write the games added since the last write and their references under profile ``pid``."""
        if not self.infos and not self.ids:
            return
        ids = self.ids
        if self.infos:
            ids.update(game_ids(conn, self.store, list(self.infos.values())))
        gr = self.store.tables["game_ref"]
        if self.replace:
            for chunk in batched(sorted(ids[k] for k in self.replace if k in ids)):
                conn.execute(delete(gr).where(gr.c.profile_id == pid, gr.c.game_id.in_(chunk)))
            self.replace.clear()
        if self.reads_back is None:
            self.reads_back = bool(conn.execute(select(exists().where(gr.c.profile_id == pid))).scalar())
        dropped: list[tuple[int, int]] = []
        if not self.reads_back and not self.kept and self.unlisted is None:
            rows = self._first(pid, ids)
        else:
            self._list()
            offered = self.offered()
            if self.reads_back:
                self._read_kept(conn, pid, [nid for nid in offered if nid not in self.kept])
            rows, dropped = self._merge(pid, offered, {order[2]: (order, ids[order[2]]) for order in self.orders})
            rows.sort()
        self.infos, self.orders, self.ids = {}, [], {}
        self.nodes, self.games, self.numbers, self.corners = array("q"), array("i"), array("i"), array("b")
        columns = ("profile_id", "node_id", "game_id", "move_number", "corner")
        if conn.dialect.name in FAST_DIALECTS:
            insert_rows(conn, gr, columns, rows, "ON CONFLICT DO NOTHING")
        elif rows:
            conn.execute(gr.insert(), [dict(zip(columns, r, strict=True)) for r in rows])
        if dropped:
            dropped.sort()
            if conn.dialect.name in FAST_DIALECTS:  # the driver's executemany: no statement compiled a row
                mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
                conn.exec_driver_sql(f"DELETE FROM game_ref WHERE profile_id = {mark} AND node_id = {mark} "
                                     f"AND game_id = {mark}", [(pid, nid, gid) for nid, gid in dropped])
            else:
                conn.execute(delete(gr).where(gr.c.profile_id == pid, gr.c.node_id == bindparam("k_node"),
                                              gr.c.game_id == bindparam("k_game")),
                             [{"k_node": nid, "k_game": gid} for nid, gid in dropped])

    def _first(self, pid: int, ids: dict[str, int]) -> list[tuple[int, int, int, int, int]]:
        """The rows to insert when no node keeps a reference yet: every reference :meth:`_best` chooses, in the
        order of the rows, found column by column (a run's only write may hold millions); :attr:`unlisted` records
        them."""
        at, nodes, games = self._best()
        gids = np.array([ids[order[2]] for order in self.orders], np.int64)[games[at]]
        nodes = nodes[at]
        numbers = np.frombuffer(self.numbers, np.int32)[at]
        corners = np.frombuffer(self.corners, np.int8)[at]
        order = np.lexsort((corners, numbers, gids, nodes))
        self.unlisted = (self.orders, nodes[order], games[at][order], gids[order])
        columns = (nodes[order].tolist(), gids[order].tolist(), numbers[order].tolist(), corners[order].tolist())
        return list(zip(repeat(pid), *columns))

    def _list(self) -> None:
        """Put :attr:`unlisted` in :attr:`kept`, for a write that merges."""
        if self.unlisted is None:
            return
        orders, nodes, games, gids = self.unlisted
        self.unlisted = None
        kept = self.kept
        for nid, game, gid in zip(nodes.tolist(), games.tolist(), gids.tolist(), strict=True):
            found = kept.get(nid)
            if found is None:
                kept[nid] = [(orders[game], gid)]
            else:
                found.append((orders[game], gid))

    def _merge(self, pid: int, offered: dict[int, list[Offered]],
               games: dict[str, Kept]) -> tuple[list[tuple[int, int, int, int, int]], list[tuple[int, int]]]:
        """Each node's new bound: the rows to insert and the (node, game id) references to delete."""
        rows: list[tuple[int, int, int, int, int]] = []
        dropped: list[tuple[int, int]] = []
        for nid, offers in offered.items():
            kept = self.kept.get(nid)
            if not kept:  # the offers are the node's bound already (:meth:`offered`)
                now = []
                for order, number, corner in offers:
                    game = games[order[2]]
                    rows.append((pid, nid, game[1], number, corner))
                    now.append(game)
                self.kept[nid] = now
                continue
            keep = chosen([*(k[0] for k in kept), *(o[0] for o in offers)])
            now = [k for k in kept if k[0][2] in keep]
            dropped.extend((nid, k[1]) for k in kept if k[0][2] not in keep)
            for order, number, corner in offers:
                if order[2] in keep:
                    game = games[order[2]]
                    rows.append((pid, nid, game[1], number, corner))
                    now.append(game)
            self.kept[nid] = now
        return rows, dropped

    def _read_kept(self, conn: Connection, pid: int, nodes: list[int]) -> None:
        """The references the store holds at ``nodes`` (met for the first time in this run)."""
        gr, g = self.store.tables["game_ref"], self.store.tables["game_record"]
        for nid in nodes:
            self.kept[nid] = []
        for chunk in batched(sorted(nodes)):
            query = (select(gr.c.node_id, g.c.date, g.c.strength, g.c.game_key, g.c.id)
                     .join(g, g.c.id == gr.c.game_id).where(gr.c.profile_id == pid, gr.c.node_id.in_(chunk)))
            for nid, date, power, key, gid in conn.execute(query):
                self.kept[int(nid)].append(((str(date), power, str(key)), int(gid)))


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
