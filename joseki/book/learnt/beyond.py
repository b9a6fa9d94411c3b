"""Moves played beyond a mined book: the continuations of its lines below its threshold.

A mined book keeps a line where at least ``--min-games`` games played it, so its lines end
where play spreads out, and it says nothing there. ``mine`` also keeps, after each line it
keeps (and at the empty corner), the moves played in at least :data:`BEYOND_MIN_GAMES` games but
fewer than the threshold, with their games, in ``beyond_book``. They are not book moves: no line
goes through them, ``learn`` does not credit them, and the GTP policy never plays them. ``next``
lists them after the book's moves ("played beyond the book"), and ``evaluate`` ranks them
after the book's moves, most played first.

:data:`BEYOND_MIN_GAMES` was chosen on the validation split (``bench_context.py --validation``):
top-3 with context 83.4% without these moves, 87.0% with those of 2 games or more, 85.8% with
those of 3 or more.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from joseki.core.geometry import Point
from joseki.core.notation import TENUKI
from joseki.core.steps import reflection_needed, swap_token

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from joseki.book.query.lookup import Lookup
    from joseki.book.store.database import Store

BEYOND_MIN_GAMES = 2
"""Games a move needs after a mined line to be kept as played beyond the book (a move seen once is an anecdote)."""


@dataclass(slots=True)
class BeyondMove:
    """A move played beyond the book, in the caller's frame and notation."""

    move: str
    point: Point | None
    games: int

    def as_json(self) -> dict[str, object]:
        return {"move": self.move, "games": self.games}


def beyond_moves(counts: Iterable[tuple[str, int]], frequent: set[str], min_games: int) -> dict[tuple[str, str], int]:
    """(line, move) -> games for each prefix of ``counts`` (prefix, games) played in at least
    :data:`BEYOND_MIN_GAMES` and fewer than ``min_games`` games whose line without its last move is in
    ``frequent`` or empty."""
    out: dict[tuple[str, str], int] = {}
    for prefix, games in counts:
        if BEYOND_MIN_GAMES <= games < min_games and (len(prefix) == 2 or prefix[:-2] in frequent):
            out[prefix[:-2], prefix[-2:]] = games
    return out


def write_beyond(conn: Connection, store: Store, collection_id: int, moves: dict[tuple[int, str], int]) -> None:
    """Keep ``moves`` ((line's node id, move) -> games) for the collection; a move it holds already keeps the
    larger count (mining the same games again adds nothing; other games mined into it add their moves)."""
    from sqlalchemy import delete, select

    from joseki.book.store.database import bulk_insert

    table = store.tables["beyond_book"]
    merged = dict(moves)
    for parent, move, games in conn.execute(select(table.c.parent_id, table.c.move, table.c.games)
                                            .where(table.c.collection_id == collection_id)):
        merged[parent, move] = max(games, merged.get((parent, move), 0))
    conn.execute(delete(table).where(table.c.collection_id == collection_id))
    bulk_insert(conn, table, ("parent_id", "collection_id", "move", "games"),
                [(parent, collection_id, move, games) for (parent, move), games in sorted(merged.items())])


def keep_beyond(conn: Connection, store: Store, collection: str, moves: dict[tuple[str, str], int]) -> None:
    """:func:`write_beyond` for collection ``collection`` (by name), the moves' lines given as step strings."""
    from sqlalchemy import select

    from joseki.book.store.keys import ROOT_ID, node_id

    c = store.tables["collection"]
    cid = conn.execute(select(c.c.id).where(c.c.name == collection)).scalar_one()
    write_beyond(conn, store, cid, {(node_id(line) if line else ROOT_ID, move): n for (line, move), n in moves.items()})


def beyond_book(lookup: Lookup, base: str, book_moves: Iterable[str], tenuki: bool = True) -> list[tuple[str, int]]:
    """The moves played beyond the book after line ``base`` (its frame), most played first, without the book's
    own ``book_moves`` (after a line on the diagonal, a move's reflection is the same move); ``tenuki``: with
    a tenuki among them."""
    symmetric = reflection_needed(base) is None
    known = set(book_moves)
    if symmetric:
        known |= {swap_token(m) for m in known}
    return [(move, games) for move, games in lookup.beyond(base)
            if move not in known and (tenuki or move != TENUKI)]
