"""The games behind a book position: who played it, when, how strong, and where the record is.

:func:`games_at` finds the position's book node as every command does (:func:`joseki.book.query.walk.walk`,
transpositions included) and lists the games ``learn`` and ``mine`` credited there under a
profile, newest or strongest first, from the bounded references :mod:`joseki.book.gamerefs.write`
keeps; ``count`` is every game credited there (the node's statistics), kept or not.
:func:`load_game` opens one of those games again, by key: only a file the store itself holds.

A game is named to players by its key and its file's path below the folder holding every learnt game
(:func:`learnt_folder`), decoded (:func:`joseki.sgf.text.file_name`): never by its place on the server.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Select, bindparam, desc, func, select

from joseki.book.gamerefs.write import CORNERS, REFS_PER_NODE, UNKNOWN_STRENGTH
from joseki.book.learnt.profiles import GLOBAL, require_profile
from joseki.book.query.lookup import Lookup
from joseki.book.query.walk import walk
from joseki.book.store.database import Store
from joseki.book.store.keys import node_id
from joseki.core.errors import BadInput
from joseki.core.gameinfo import normal_date, normal_rank, rank_value
from joseki.core.geometry import Corner
from joseki.core.moves import typed_moves
from joseki.core.steps import Colour, canonical, parse_steps
from joseki.sgf.game import Game, read_game
from joseki.sgf.text import file_name

ORDERS = ("newest", "strongest")
RESULTS = ("", "black", "white", "draw")
"""Results a list of games may be filtered to: any, Black won, White won, a draw."""
__all__ = ["ORDERS", "REFS_PER_NODE", "RESULTS", "GameFilter", "GameRef", "GamesAt", "corner_steps", "games_at",
           "load_game"]


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
    """The SGF file, named as :func:`shown_source` names it."""
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
class GameFilter:
    """Which games to list: a player's name (part of it, either colour, any case), every known rank of its players
    at least ``min_rank`` (``5d``; a game with no rank known is left out), dates from ``date_from`` to ``date_to``
    (ISO prefixes: ``2019``, ``2019-05``), a result (:data:`RESULTS`). Empty fields filter nothing; BadInput for a
    rank, date or result not of that form."""

    player: str = ""
    min_rank: str = ""
    date_from: str = ""
    date_to: str = ""
    result: str = ""

    def __post_init__(self) -> None:
        if self.min_rank and rank_value(normal_rank(self.min_rank)) is None:
            raise BadInput(f"rank {self.min_rank!r}: expected a rank such as 5d, 3k or 9p")
        for date in (self.date_from, self.date_to):
            if date and normal_date(date) != date:
                raise BadInput(f"date {date!r}: expected YYYY, YYYY-MM or YYYY-MM-DD")
        if self.result not in RESULTS:
            raise BadInput(f"result {self.result!r}: expected one of black, white, draw")

    def __bool__(self) -> bool:
        return any((self.player.strip(), self.min_rank, self.date_from, self.date_to, self.result))

    def keeps(self, ref: GameRef) -> bool:
        """Whether ``ref`` passes every filter."""
        name = self.player.strip().casefold()
        if name and name not in ref.black.casefold() and name not in ref.white.casefold():
            return False
        if self.min_rank:
            least = rank_value(normal_rank(self.min_rank))
            ranks = [r for r in (rank_value(ref.black_rank), rank_value(ref.white_rank)) if r is not None]
            if not ranks or least is None or min(ranks) < least:
                return False
        if self.date_from and (not ref.date or ref.date < self.date_from):
            return False
        if self.date_to and (not ref.date or ref.date[: len(self.date_to)] > self.date_to):
            return False
        return not self.result or winner_of(ref.result) == self.result

    def as_json(self) -> dict[str, str]:
        return {"player": self.player, "min_rank": self.min_rank, "date_from": self.date_from,
                "date_to": self.date_to, "result": self.result}


def winner_of(result: str) -> str:
    """``black``, ``white`` or ``draw`` of an SGF ``RE`` value; '' when it says none of them."""
    text = result.strip().upper()
    if text.startswith("B+"):
        return "black"
    if text.startswith("W+"):
        return "white"
    return "draw" if text in ("0", "DRAW", "JIGO", "D") else ""


@dataclass(frozen=True, slots=True)
class GamesAt:
    """The games behind a position: ``count`` credited there in all, ``games`` the ones asked for."""

    count: int
    games: list[GameRef] = field(default_factory=list)
    steps: str | None = None
    """The book line whose node holds the games (differs from the asked string by transposition); None off the book."""
    matched: int | None = None
    """With a filter: how many of the games the store keeps there (:data:`REFS_PER_NODE` per order) pass it."""

    def as_json(self) -> dict[str, object]:
        return {"count": self.count, "book_steps": self.steps, "games": [g.as_json() for g in self.games],
                **({} if self.matched is None else {"matched": self.matched})}


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
             limit: int = 20, only: GameFilter = GameFilter()) -> GamesAt:
    """The games that reached the corner position of play-step string ``steps`` (``first`` played its first step).

    ``order``: ``newest`` or ``strongest`` first; at most ``limit`` games (the first
    :data:`REFS_PER_NODE` of either order are exact; beyond, only kept games are listed).
    With a filter ``only``, the kept games that pass it (``matched`` of them). A position off the book, or the
    empty corner, has no games.
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
        kept = REFS_PER_NODE * len(ORDERS) if only else limit  # a filter reads every kept game
        rows = conn.execute(queries[order], {**params, "limit": kept})
        folder = learnt_folder(conn, store)
        games = [GameRef(str(key), black, white, black_rank, white_rank, date, result, shown_source(source, folder),
                         int(number), CORNERS[corner])
                 for key, black, white, black_rank, white_rank, date, result, source, number, corner in rows]
    if not only:
        return GamesAt(int(count or 0), games, route.base)
    passed = [g for g in games if only.keeps(g)]
    return GamesAt(int(count or 0), passed[:limit], route.base, len(passed))


def corner_steps(moves: list[str], first: str = "B") -> tuple[str, str]:
    """The play-step string and first colour (``B``/``W``) of typed moves (``Q16 R14``) in one corner; after a
    tenuki there (``Q16 R14 pass``) it ends with that tenuki, whose games are the ones asked for.

    BadInput when a move is illegal, or the moves are in no corner or in more than one.
    """
    active = [t for t in typed_moves(moves, _colour(first)).tables.values() if t.builder.first_colour is not None]
    if len(active) != 1:
        where = "no corner" if not active else f"{len(active)} corners ({', '.join(t.corner.value for t in active)})"
        raise BadInput(f"the moves are in {where}; give the moves of one corner")
    builder = active[0].builder
    assert builder.first_colour is not None
    return builder.steps_to_move(), builder.first_colour.upper()


def load_game(store: Store, key: str) -> Game:
    """The game of ``key``, read again from the file the store recorded for it, its ``source`` named as players see
    it: a learnt game's path below the learnt games' folder (:func:`shown_source`), else a game of the pattern index
    (``joseki index``) by its path below the folder it was indexed from.

    Only a file the store holds is opened; BadInput for an unknown key, a file gone or
    unreadable, or one that no longer holds that game.
    """
    if len(key) != 32 or any(c not in "0123456789abcdef" for c in key):
        raise BadInput(f"not a game key: {key!r}")
    g, p = store.tables["game_record"], store.tables["pattern_game"]
    with store.read() as conn:
        source = conn.execute(select(g.c.source).where(g.c.game_key == key)).scalar()
        shown = "" if source is None else shown_source(source, learnt_folder(conn, store))
        if source is None:
            indexed = conn.execute(select(p.c.root, p.c.source).where(p.c.game_key == key)).first()
            if indexed is not None:
                source, shown = os.path.join(indexed.root, indexed.source), indexed_source(indexed.source)
    if source is None:
        raise BadInput(f"no game {key} in the store")
    try:
        game = read_game(source)
    except (ValueError, OSError) as exc:
        raise BadInput(f"{shown}: {exc}") from None
    if game.key != key:
        raise BadInput(f"{shown}: the file no longer holds game {key} (changed since it was learnt)")
    game.source = shown
    return game


def indexed_source(source: str) -> str:
    """A pattern-indexed game's file as players see it: its path below the folder it was indexed from, decoded (a
    file outside that folder, kept whole by the index, by its name alone: no answer names a place on the server)."""
    return file_name(os.path.basename(source) if os.path.isabs(source) else source)


def learnt_folder(conn: Connection, store: Store) -> str:
    """The folder holding every learnt game's file (their paths' longest common folder, ending in a separator;
    '' for none): the paths' common folder is that of the least and the greatest of them."""
    g = store.tables["game_record"]
    source = g.c.source.collate("C") if conn.dialect.name == "postgresql" else g.c.source  # bytewise order
    least, greatest = conn.execute(select(func.min(source), func.max(source))).one()
    if least is None:
        return ""
    folder = os.path.dirname(least) if least == greatest else os.path.commonpath([least, greatest])
    return os.path.join(folder, "")


def shown_source(source: str, folder: str) -> str:
    """A learnt game's file as players see it: its path below ``folder`` (:func:`learnt_folder`), decoded."""
    return file_name(source[len(folder):] if folder and source.startswith(folder) else os.path.basename(source))
