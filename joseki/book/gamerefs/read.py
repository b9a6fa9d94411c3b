"""The games behind a book position: who played it, when, how strong, and where the record is.

:func:`games_at` finds the position's book node as every command does (:func:`joseki.book.query.walk.walk`,
transpositions included) and lists the games ``learn`` and ``mine`` credited there under a
profile, newest or strongest first, from the bounded references :mod:`joseki.book.gamerefs.write`
keeps; ``count`` is every game credited there (the node's statistics), kept or not.
:func:`load_game` opens one of those games again, by key: only a file the store itself holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Select, bindparam, desc, func, select

from joseki.book.gamerefs.write import CORNERS, REFS_PER_NODE, UNKNOWN_STRENGTH
from joseki.book.learnt.profiles import GLOBAL, require_profile
from joseki.book.query.lookup import Lookup
from joseki.book.query.walk import walk
from joseki.book.store.database import Store
from joseki.book.store.keys import node_id
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner
from joseki.core.moves import typed_moves
from joseki.core.steps import Colour, canonical, parse_steps
from joseki.sgf.game import Game, read_game

ORDERS = ("newest", "strongest")
__all__ = ["ORDERS", "REFS_PER_NODE", "GameRef", "GamesAt", "corner_steps", "games_at", "load_game"]


@dataclass(frozen=True, slots=True)
class GameRef:
    """One game that reached a position."""

    key: str
    """The game's key (:attr:`joseki.sgf.game.Game.key`), for :func:`load_game`."""
    black: str
    white: str
    black_rank: str
    """``9d``, ``3k``, ``5p``, or '' when the record has none (:func:`joseki.core.gameinfo.normal_rank`)."""
    white_rank: str
    date: str
    """ISO ``YYYY-MM-DD`` (or ``YYYY-MM``, ``YYYY``), '' when unknown."""
    result: str
    source: str
    """The SGF file (absolute path)."""
    move_number: int
    """The game move (from 1) that reached the position: the board after the game's first
    ``move_number`` moves shows it (``game.moves[move_number - 1]`` is that move)."""
    corner: Corner
    """The corner of the board where the game played it."""

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "black": self.black, "white": self.white, "black_rank": self.black_rank,
                "white_rank": self.white_rank, "date": self.date, "result": self.result, "source": self.source,
                "move_number": self.move_number, "corner": self.corner.value}


@dataclass(frozen=True, slots=True)
class GamesAt:
    """The games behind a position: ``count`` credited there in all, ``games`` the ones asked for."""

    count: int
    games: list[GameRef] = field(default_factory=list)
    steps: str | None = None
    """The book line whose node holds the games (differs from the asked string by transposition); None off the book."""

    def as_json(self) -> dict[str, object]:
        return {"count": self.count, "book_steps": self.steps, "games": [g.as_json() for g in self.games]}


def _colour(first: str) -> Colour:
    colour = first.strip().lower()[:1]
    if colour not in ("b", "w") or first.strip().lower() not in ("b", "w", "black", "white"):
        raise BadInput(f"first colour {first!r}: expected B or W")
    return "b" if colour == "b" else "w"


_STATEMENTS: WeakKeyDictionary[Store, dict[str, Select[Any]]] = WeakKeyDictionary()


def _statements(store: Store) -> dict[str, Select[Any]]:
    """The count query and one list query per order, built once per store (building costs more than running)."""
    if store not in _STATEMENTS:
        ns, gr, g = store.tables["node_stats"], store.tables["game_ref"], store.tables["game_record"]
        listed = (select(g.c.game_key, g.c.black, g.c.white, g.c.black_rank, g.c.white_rank, g.c.date, g.c.result,
                         g.c.source, gr.c.move_number, gr.c.corner)
                  .join(g, g.c.id == gr.c.game_id)
                  .where(gr.c.profile_id == bindparam("pid"), gr.c.node_id == bindparam("node")))
        strongest = desc(func.coalesce(g.c.strength, UNKNOWN_STRENGTH))
        _STATEMENTS[store] = {
            "count": select(ns.c.games).where(ns.c.node_id == bindparam("node"), ns.c.profile_id == bindparam("pid")),
            "newest": listed.order_by(desc(g.c.date), desc(g.c.game_key)).limit(bindparam("limit")),
            "strongest": listed.order_by(strongest, desc(g.c.date), desc(g.c.game_key)).limit(bindparam("limit"))}
    return _STATEMENTS[store]


def games_at(store: Store, steps: str, *, first: str = "B", profile: str | None = None, order: str = "newest",
             limit: int = 20) -> GamesAt:
    """The games that reached the corner position of play-step string ``steps`` (``first`` played its first step).

    ``order``: ``newest`` or ``strongest`` first; at most ``limit`` games (the first
    :data:`REFS_PER_NODE` of either order are exact; beyond, only kept games are listed).
    A position off the book, or the empty corner, has no games.
    """
    if order not in ORDERS:
        raise BadInput(f"unknown order {order!r} (expected one of {', '.join(ORDERS)})")
    if limit < 1:
        raise BadInput(f"limit {limit}: expected at least 1")
    colour = _colour(first)
    prefix, _ = canonical(parse_steps(steps))
    with store.read() as conn:
        lookup = Lookup(store, conn)
        pid = lookup.profile_id(profile or GLOBAL)
        if pid is None:
            require_profile(conn, profile)
        if not prefix or pid is None:
            return GamesAt(0)
        route = walk(lookup, prefix, colour, rejoin=False)
        if route.left_at is not None:
            return GamesAt(0)
        queries = _statements(store)
        params = {"node": node_id(route.base), "pid": pid}
        count = conn.execute(queries["count"], params).scalar()
        rows = conn.execute(queries[order], {**params, "limit": limit})
        games = [GameRef(str(key), black, white, black_rank, white_rank, date, result, source, int(number),
                         CORNERS[corner])
                 for key, black, white, black_rank, white_rank, date, result, source, number, corner in rows]
    return GamesAt(int(count or 0), games, route.base)


def corner_steps(moves: list[str], first: str = "B") -> tuple[str, str]:
    """The play-step string and first colour (``B``/``W``) of typed moves (``Q16 R14``) in one corner.

    BadInput when a move is illegal, or the moves are in no corner or in more than one.
    """
    active = [t for t in typed_moves(moves, _colour(first)).tables.values() if t.builder.first_colour is not None]
    if len(active) != 1:
        where = "no corner" if not active else f"{len(active)} corners ({', '.join(t.corner.value for t in active)})"
        raise BadInput(f"the moves are in {where}; give the moves of one corner")
    builder = active[0].builder
    assert builder.first_colour is not None
    return builder.steps, builder.first_colour.upper()


def load_game(store: Store, key: str) -> Game:
    """The game of ``key``, read again from the file the store recorded for it.

    Only a file the store holds is opened; BadInput for an unknown key, a file gone or
    unreadable, or one that no longer holds that game.
    """
    if len(key) != 32 or any(c not in "0123456789abcdef" for c in key):
        raise BadInput(f"not a game key: {key!r}")
    g = store.tables["game_record"]
    with store.read() as conn:
        source = conn.execute(select(g.c.source).where(g.c.game_key == key)).scalar()
    if source is None:
        raise BadInput(f"no game {key} in the store")
    try:
        game = read_game(source)
    except (ValueError, OSError) as exc:
        raise BadInput(f"{source}: {exc}") from None
    if game.key != key:
        raise BadInput(f"{source}: the file no longer holds game {key} (changed since it was learnt)")
    return game
