"""The pattern index in the store: one ``pattern_game`` row per game, written in batches, read back whole.

A row is a game's facts and its move list with captures (:mod:`joseki.core.movelist`): a few hundred
bytes a game, and adding games only appends rows (a game already indexed, by key, is left as it is).
:func:`write_games` is the batch writer (one transaction, rows in key order so that PostgreSQL writers
never deadlock); :mod:`joseki.book.patternsearch` reads them back (without SQLAlchemy on a SQLite file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from joseki.book.store.bookfile import rows, scalar
from joseki.book.store.database import FAST_DIALECTS, Store, insert_rows

COLUMNS = ("game_key", "root", "source", "black", "white", "black_rank", "white_rank", "date", "result", "winner",
           "event", "moves", "record")
COUNT = "SELECT count(*) FROM pattern_game"


@dataclass(frozen=True, slots=True)
class IndexedGame:
    """One game as the pattern index keeps it (a ``pattern_game`` row)."""

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
    """The move list with captures (:func:`joseki.core.movelist.encode`)."""

    def row(self) -> tuple[object, ...]:
        return (self.key, self.root, self.source, self.black[:200], self.white[:200], self.black_rank,
                self.white_rank, self.date, self.result[:40], self.winner, self.event[:200], self.moves, self.record)


def write_games(conn: Connection, store: Store, games: Sequence[IndexedGame]) -> int:
    """Add ``games`` to the index in the transaction on ``conn``; how many were new (a key already there is kept)."""
    if not games:
        return 0
    table = store.tables["pattern_game"]
    unique = sorted({g.key: g.row() for g in games}.values(), key=lambda r: str(r[0]))
    before = int(scalar(conn, COUNT) or 0)
    if conn.dialect.name in FAST_DIALECTS:
        insert_rows(conn, table, COLUMNS, unique, "ON CONFLICT (game_key) DO NOTHING")
    else:
        known = {str(k) for (k,) in rows(conn, "SELECT game_key FROM pattern_game WHERE game_key IN (:keys)",
                                         {"keys": [r[0] for r in unique]})}
        fresh = [dict(zip(COLUMNS, r, strict=True)) for r in unique if r[0] not in known]
        if fresh:
            conn.execute(table.insert(), fresh)
    return int(scalar(conn, COUNT) or 0) - before
