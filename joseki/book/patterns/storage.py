"""The pattern index in the store: games' facts in ``pattern_game``, their arrays in segments of chunked BLOBs.

:func:`write_games` is the batch writer the indexer and the learning pipeline call, one transaction a batch:
it adds the games not already there (by key) as ``pattern_game`` rows and one new segment
(:mod:`joseki.book.patterns.segment`), then merges segments in tiers (:data:`FANOUT` segments of one level
make one of the next), so that adding games never rebuilds the index and a search reads few segments.
A merge (:func:`merge_segments`, the tiers' and :func:`compact`'s) streams: it reads its parts' arrays one at
a time and writes the merged arrays chunk by chunk as :mod:`joseki.book.patterns.merging` makes them, so its
memory is bounded by a part's array and a range of keys, not by the merged segment.
:func:`~joseki.book.patterns.reads.read_segment` reads a segment's arrays back with ``numpy.frombuffer`` (no
copy when an array is one chunk). The reads go through :func:`joseki.book.store.bookfile.rows`, on a store or a
read-only SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
from sqlalchemy import Connection, delete, update

from joseki.book.patterns.merging import Piece, pieces
from joseki.book.patterns.reads import layout_error, read_array, segment_arrays, segment_list
from joseki.book.patterns.segment import (
    ARRAY_NAMES,
    DTYPES,
    MAX_RECORDS,
    WINNER_CODE,
    GameArrays,
    Segment,
    build,
    date_code,
    game_keys,
)
from joseki.book.patterns.windows import SHAPES
from joseki.book.store.bookfile import rows
from joseki.book.store.database import FAST_DIALECTS, Store, advisory_lock, insert_rows
from joseki.book.store.schema import pattern_chunk, pattern_segment

COLUMNS = ("game_key", "root", "source", "black", "white", "black_rank", "white_rank", "date", "result", "winner",
           "event", "moves")
FANOUT = 4
"""Segments of one level merged into one of the next."""
FULL = 1000
"""The level of a segment too big to merge with its peers."""
CHUNK_BYTES = 32 << 20
"""The most bytes one BLOB holds."""
LOCK = "pattern_index"


@dataclass(frozen=True, slots=True)
class IndexedGame:
    """One game as the pattern index takes it: its ``pattern_game`` row and its move list with captures
    (:func:`joseki.core.movelist.encode`)."""

    key: str
    root: str
    """The folder the game was indexed from (absolute)."""
    source: str
    """The game's file relative to ``root`` (an archive member as ``ARCHIVE/MEMBER``)."""
    black: str
    white: str
    black_rank: str
    white_rank: str
    date: str
    result: str
    winner: str
    """``b``, ``w``, ``d`` (a draw) or '' when unknown."""
    event: str
    moves: int
    record: bytes
    keys: bytes | None = None
    """Its events' packed keys (:func:`with_keys`), little-endian 32-bit, shape by shape; None until worked out."""

    def row(self) -> tuple[object, ...]:
        return (self.key, self.root, self.source, self.black[:200], self.white[:200], self.black_rank,
                self.white_rank, self.date[:10], self.result[:40], self.winner, self.event[:200], self.moves)

    def arrays(self, game_id: int) -> GameArrays:
        words = np.frombuffer(self.record, dtype="<u2")
        keys = None if self.keys is None else np.frombuffer(self.keys, dtype="<u4").reshape(len(SHAPES), -1)
        return GameArrays(game_id, words, WINNER_CODE.get(self.winner, 0), date_code(self.date), keys)


def with_keys(games: Sequence[IndexedGame]) -> list[IndexedGame]:
    """``games`` with their events' keys, worked out for all of them at once
    (:func:`joseki.book.patterns.segment.game_keys`). Called where the games are read, in a worker, it takes the
    largest share of building a segment off the one process that writes."""
    keys = game_keys([np.frombuffer(g.record, dtype="<u2") for g in games])
    return [replace(g, keys=k.astype("<u4").tobytes()) for g, k in zip(games, keys, strict=True)]


def write_games(conn: Connection, store: Store, games: Sequence[IndexedGame]) -> int:
    """Add ``games`` to the index in the transaction on ``conn``, as rows and one segment; how many were new.

    A key already indexed, or repeated in ``games``, is kept once. Writers on PostgreSQL take a lock for
    the transaction, so segments are written and merged one writer at a time.
    """
    if not games:
        return 0
    advisory_lock(conn, LOCK)
    upgrade(conn)
    unique = {g.key: g for g in reversed(games)}
    known = {str(k) for (k,) in rows(conn, "SELECT game_key FROM pattern_game WHERE game_key IN (:keys)",
                                     {"keys": sorted(unique)})}
    fresh = [unique[k] for k in sorted(unique) if k not in known]
    if not fresh:
        return 0
    table = store.tables["pattern_game"]
    if conn.dialect.name in FAST_DIALECTS:
        insert_rows(conn, table, COLUMNS, [g.row() for g in fresh])
    else:
        conn.execute(table.insert(), [dict(zip(COLUMNS, g.row(), strict=True)) for g in fresh])
    ids = {str(k): int(i) for i, k in rows(conn, "SELECT id, game_key FROM pattern_game WHERE game_key IN (:keys)",
                                           {"keys": [g.key for g in fresh]})}
    for part in _parts(sorted(fresh, key=lambda g: ids[g.key])):
        write_segment(conn, build([g.arrays(ids[g.key]) for g in part]), 0)
    merge_tiers(conn)
    return len(fresh)


UPGRADE_RECORDS = 1 << 20
"""Records keyed again at a time when a segment of an earlier layout is brought up to date (bounds the memory)."""
_GAME_ARRAYS = ("game_id", "record_start", "words", "winner", "date")
"""The arrays every layout has stored: what a segment is built from."""


def upgrade(conn: Connection) -> int:
    """Bring every segment of an earlier layout (lacking some of this version's arrays) up to date, in the
    transaction on ``conn``: its games keyed again from its own move lists, at most :data:`UPGRADE_RECORDS` records
    at a time each written as a new segment, the old one deleted, then the tiers merged; how many games. No game
    file is read. A segment of a later layout is left as it is (a search says so)."""
    games = 0
    for segment_id, names in sorted(segment_arrays(conn).items()):
        if layout_error(segment_id, names) is None or not names.issuperset(_GAME_ARRAYS) \
                or not names.issubset(ARRAY_NAMES):
            continue
        game_id, starts, words, winner, date = (read_array(conn, segment_id, name) for name in _GAME_ARRAYS)
        bounds, moves = starts.astype(np.int64), words.view(np.uint16)
        first = 0
        while first < len(game_id):
            last = first + 1
            while last < len(game_id) and bounds[last + 1] - bounds[first] <= UPGRADE_RECORDS:
                last += 1
            part = [GameArrays(int(game_id[g]), moves[bounds[g]:bounds[g + 1]], int(winner[g]), int(date[g]))
                    for g in range(first, last)]
            write_segment(conn, build(part), 0)
            first = last
        _delete_segment(conn, segment_id)
        games += len(game_id)
    if games:
        merge_tiers(conn)
    return games


def _parts(games: list[IndexedGame]) -> list[list[IndexedGame]]:
    """``games`` cut where a segment would hold more than :data:`MAX_RECORDS` records."""
    parts: list[list[IndexedGame]] = [[]]
    size = 0
    for game in games:
        records = len(game.record) // 2
        if parts[-1] and size + records > MAX_RECORDS:
            parts.append([])
            size = 0
        parts[-1].append(game)
        size += records
    return parts


def write_segment(conn: Connection, segment: Segment, level: int) -> int:
    """Store ``segment`` at ``level``; its id."""
    whole = ((name, piece) for name, array in segment.arrays().items() for piece in (array, None))
    return _write_pieces(conn, level, segment.games, segment.records, whole)


def merge_segments(conn: Connection, ids: Sequence[int], level: int) -> int:
    """Merge the stored segments ``ids`` (their games in that order) into a new one at ``level`` and delete them;
    the new one's id. The merged arrays are written as :func:`joseki.book.patterns.merging.pieces` makes them,
    each part's arrays read when needed (:func:`~joseki.book.patterns.reads.read_array`), so the merge never
    holds the merged segment."""
    counts = {int(i): (int(g), int(r)) for i, g, r in rows(
        conn, "SELECT id, games, records FROM pattern_segment WHERE id IN (:ids)", {"ids": list(ids)})}
    parts = [StoredPart(conn, i, *counts[i]) for i in ids]
    merged = _write_pieces(conn, level, sum(p.games for p in parts), sum(p.records for p in parts), pieces(parts))
    for segment_id in ids:
        _delete_segment(conn, segment_id)
    return merged


@dataclass(frozen=True, slots=True)
class StoredPart:
    """A stored segment as a merge's :class:`~joseki.book.patterns.merging.Part`: each array read when asked."""

    conn: Connection
    segment_id: int
    games: int
    records: int

    def array(self, name: str) -> npt.NDArray[np.generic]:
        return read_array(self.conn, self.segment_id, name)


def _write_pieces(conn: Connection, level: int, games: int, records: int, arrays: Iterator[Piece]) -> int:
    """A new segment at ``level`` of ``arrays`` (each array's pieces in order, arrays interleaved, then None), written
    in chunks of :data:`CHUNK_BYTES` as they fill, an array's last chunk once it is whole; its id."""
    segment_id = int(conn.execute(pattern_segment.insert().returning(pattern_segment.c.id),
                                  {"level": level, "games": games, "records": records, "bytes": 0}).scalar_one())
    pending = {name: bytearray() for name in ARRAY_NAMES}
    parts = dict.fromkeys(ARRAY_NAMES, 0)
    size = 0

    def flush(name: str, data: memoryview | bytearray) -> None:
        conn.execute(pattern_chunk.insert(), {"segment_id": segment_id, "name": name, "part": parts[name],
                                              "data": bytes(data)})
        parts[name] += 1

    for name, piece in arrays:
        if piece is None:
            if pending[name] or not parts[name]:
                flush(name, pending[name])
            del pending[name]
            continue
        data = np.ascontiguousarray(piece, dtype=DTYPES[name])
        size += data.nbytes
        view, buffer = data.view(np.uint8).data, pending[name]
        if buffer:
            room = CHUNK_BYTES - len(buffer)
            buffer += view[:room]
            view = view[room:]
            if len(buffer) == CHUNK_BYTES:
                flush(name, buffer)
                buffer.clear()
        while len(view) >= CHUNK_BYTES:
            flush(name, view[:CHUNK_BYTES])
            view = view[CHUNK_BYTES:]
        buffer += view
    assert not pending, f"arrays left unfinished: {sorted(pending)}"
    conn.execute(update(pattern_segment).where(pattern_segment.c.id == segment_id).values(bytes=size))
    return segment_id


def merge_tiers(conn: Connection) -> None:
    """Merge :data:`FANOUT` segments of one level into one of the next while some level has that many."""
    while True:
        segments = segment_list(conn)
        group = _next_group(segments)
        if group is None:
            return
        ids = [i for i, _, _ in group]
        level = group[0][1]
        if sum(r for _, _, r in group) > MAX_RECORDS:
            biggest = max(group, key=lambda s: s[2])[0]
            conn.execute(update(pattern_segment).where(pattern_segment.c.id == biggest).values(level=FULL))
            continue
        merge_segments(conn, ids, level + 1)


def compact(conn: Connection) -> bool:
    """Merge every segment into one when they are more than one and hold at most :data:`MAX_RECORDS` records in
    all (a search costs a few numpy calls per segment: one segment searches fastest); whether it merged. The
    merged segment takes the level above the highest, so the tiers go on from it."""
    advisory_lock(conn, LOCK)
    segments = segment_list(conn)
    if len(segments) < 2 or sum(r for _, _, r in segments) > MAX_RECORDS:
        return False
    merge_segments(conn, [i for i, _, _ in segments], max(level for _, level, _ in segments if level < FULL) + 1
                   if any(level < FULL for _, level, _ in segments) else FULL)
    return True


def _next_group(segments: list[tuple[int, int, int]]) -> list[tuple[int, int, int]] | None:
    """The oldest :data:`FANOUT` segments of the lowest level that has that many (None: no level has)."""
    levels = sorted({level for _, level, _ in segments if level < FULL})
    for level in levels:
        same = [s for s in segments if s[1] == level]
        if len(same) >= FANOUT:
            return same[:FANOUT]
    return None


def _delete_segment(conn: Connection, segment_id: int) -> None:
    conn.execute(delete(pattern_chunk).where(pattern_chunk.c.segment_id == segment_id))
    conn.execute(delete(pattern_segment).where(pattern_segment.c.id == segment_id))
