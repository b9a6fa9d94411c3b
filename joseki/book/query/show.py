"""``joseki show``: one line of the book, move by move, with everything the book says about it.

For each move: where it is on the board, whether the book holds it, its category, the
collections' comments and the conditions it depends on, its statistics (games credited to
the player who chose it, :func:`joseki.book.learnt.profiles.records_for`) and source priors. For the line:
a diagram of its end, whether it is a complete record, and the influence model's verdict on
its end (:mod:`joseki.book.query.favour`); a line that goes on in the book also gets its main line's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from joseki.book.learnt.profiles import records_for
from joseki.book.query.favour import Favour, main_line, verdict
from joseki.book.query.lookup import Lookup
from joseki.book.store.bookfile import ReadConnection, rows
from joseki.book.store.keys import node_id
from joseki.core.category import category_label, combined, merge_sources
from joseki.core.conditions import display, from_json
from joseki.core.diagram import corner_diagram, marks_of
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point, Transform
from joseki.core.moves import Moves, typed_moves
from joseki.core.notation import format_gtp_vertex
from joseki.core.position import replay
from joseki.core.priority import Record
from joseki.core.steps import Colour, canonical, iter_points, other, parse_steps
from joseki.core.wording import SourceFrame, line_text
from joseki.sgf.dialects import dialect_named
from joseki.sgf.dialects.dialect import Dialect
from joseki.sgf.dialects.node import source_frame
from joseki.sgf.dialects.words import Asked, Words

if TYPE_CHECKING:
    from joseki.book.store.bookfile import BookFile
    from joseki.book.store.database import Store

NOTES = """
SELECT nb.node_id, c.name, nb.paths, nb.category, nb.comment, nb.conditions, nb.prior_games, nb.prior_wins,
       nb.properties, nb.collection_id
FROM node_book AS nb JOIN collection AS c ON c.id = nb.collection_id
WHERE nb.node_id IN (:nodes) {books} ORDER BY c.name"""
"""What each collection says of some nodes."""
RECORD_THROUGH = """
SELECT corner, swapped, first_color FROM variation
WHERE collection_id = :collection AND steps >= :low AND steps < :high AND steps LIKE :pattern ESCAPE '/'
ORDER BY steps LIMIT 1"""
"""The frame of a collection's first record (in step order) through a prefix: the range finds it in the
(collection_id, steps) index, where a LIKE alone (case-insensitive on SQLite) scans the collection's records."""
RECORDS_OF_LINE = """
SELECT c.name FROM collection AS c JOIN variation AS nb ON nb.collection_id = c.id
WHERE nb.steps = :line AND nb.setup_stones = '' {books} ORDER BY c.name"""
"""The collections that hold a line as a complete record on a board without setup stones (``nb``: the lookup's
restriction applies to it)."""


@dataclass(slots=True)
class MoveInfo:
    """One move of the line and what the book says about it."""

    number: int
    token: str
    move: str
    colour: Colour
    in_book: bool = False
    paths: int = 0
    category: str | None = None
    comments: list[tuple[str, str]] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    """The conditions in the line's frame and colours (:func:`joseki.core.conditions.display`)."""
    named: dict[Point, str] = field(default_factory=dict)
    """The points the conditions name, as diagram marks."""
    record: Record = field(default_factory=Record)
    prior_games: int = 0
    prior_wins: int = 0
    setup: list[tuple[Point, Colour]] = field(default_factory=list)
    sources: dict[str, str | None] = field(default_factory=dict)
    """Each collection holding the move and its verdict; ``category`` is their combined verdict."""
    comment_points: list[Point] = field(default_factory=list)
    """The board points the comments name (their labels and marks in the line's frame), for a board to draw."""
    words: list[tuple[str, Words]] = field(default_factory=list)
    """Each collection's comment as a player reads it (:meth:`joseki.sgf.dialects.dialect.Dialect.words`)."""

    @property
    def label(self) -> str:
        """The category as shown, naming its sources where they differ (:func:`joseki.core.category.category_label`)."""
        return category_label(self.sources)

    def as_json(self) -> dict[str, object]:
        return {"number": self.number, "step": self.token, "move": self.move,
                "color": "black" if self.colour == "b" else "white", "in_book": self.in_book, "paths": self.paths,
                "category": self.category, "categories": dict(self.sources), "category_label": self.label,
                "conditions": self.conditions,
                "comments": [{"collection": c, **w.as_json()} for c, w in self.words],
                "games": self.record.games, "corners": self.record.corners, "wins": self.record.wins,
                "losses": self.record.losses,
                "draws": self.record.draws, "prior_games": self.prior_games, "prior_wins": self.prior_wins}


@dataclass(slots=True)
class Shown:
    """A line of the book as :func:`show` finds it."""

    steps: str
    corner: Corner
    first: Colour
    transform: Transform
    moves: list[MoveInfo]
    records: list[str]
    continuations: int
    favour: Favour
    main_line: str | None = None
    main_favour: Favour | None = None
    stones: dict[Point, Colour] = field(default_factory=dict)

    def diagram(self) -> list[str]:
        """The corner at the end of the line, as text rows, with the points the conditions name marked."""
        marks = {p: m for info in self.moves for p, m in info.named.items()}
        return corner_diagram(self.corner, self.stones, {}, marks=marks)

    def line(self, steps: str) -> str:
        """The moves of a step string of this line's corner (``Q16 R14``), for people to read."""
        return line_text(steps, self.transform)

    def as_json(self) -> dict[str, object]:
        first, second = ("black", "white") if self.first == "b" else ("white", "black")
        return {"steps": self.steps, "corner": self.corner.value, "first": first, "second": second,
                "records": self.records, "continuations": self.continuations,
                "moves": [m.as_json() for m in self.moves], "favourability": self.favour.as_json(),
                "main_line": self.main_line,
                "main_line_moves": None if self.main_line is None else self.line(self.main_line).split(),
                "main_line_favourability": None if self.main_favour is None else self.main_favour.as_json(),
                "diagram": self.diagram()}


def show(store: Store | BookFile, moves: Moves | Sequence[str] | None = None, steps: str | None = None,
         first: Colour = "b", corner: Corner = Corner.TOP_RIGHT, collections: list[str] | None = None,
         profile: str | None = None, swap: bool = False) -> Shown:
    """One line of the book, given as ``steps`` (in ``corner``, ``first`` moving first, reflected when ``swap``)
    or as one corner's ``moves`` (best parsed, :func:`joseki.core.moves.typed_moves`; tokens are parsed here,
    colours alternating from ``first``). Raises BadInput for bad moves or steps, or moves in more than one
    corner."""
    line, reflected, first, corner = _line(moves, steps, first, corner)
    transform = Transform(corner, reflected != (swap and steps is not None))
    with store.book_read() as conn:
        lookup = Lookup(store, conn, collections)
        return _shown(conn, lookup, line, first, transform, profile)


def _shown(conn: ReadConnection, lookup: Lookup, line: str, first: Colour, transform: Transform,
           profile: str | None) -> Shown:
    """:func:`show` of the canonical ``line`` in the frame of ``transform``, read on ``conn``."""
    infos = _moves(conn, lookup, line, first, transform, profile)
    in_book = bool(infos) and infos[-1].in_book
    children = lookup.children(line) if in_book or not line else []
    shown = Shown(line, transform.corner, first, transform, infos, _records(conn, lookup, line), len(children),
                  verdict(lookup, line))
    if children:
        shown.main_line = main_line(lookup, line)
        shown.main_favour = verdict(lookup, shown.main_line)
    board, _ = replay(line, first)
    shown.stones = {transform.to_board(p, 19): c for p, c in board.stones.items()}
    for info in infos:
        info.named = marks_of(info.named, shown.stones, dict(info.setup))
    return shown


def _line(moves: Moves | Sequence[str] | None, steps: str | None, first: Colour,
          corner: Corner) -> tuple[str, bool, Colour, Corner]:
    """The canonical step string, its reflection, first colour and corner of the line asked for."""
    if steps is not None:
        line, swap = canonical(parse_steps(steps))
        if not line:
            raise BadInput("empty step string: give at least one move")
        return line, swap, first, corner
    if not isinstance(moves, Moves):
        moves = typed_moves(moves or (), first)
    active = moves.active
    if len(active) != 1:
        where = ", ".join(t.corner.value for t in active) or "no corner"
        raise BadInput(f"show takes the moves of one corner, these are in {where}")
    builder = active[0].builder
    assert builder.first_colour is not None
    return builder.steps_to_move(), bool(builder.swap), builder.first_colour, active[0].corner


def _moves(conn: ReadConnection, lookup: Lookup, line: str, first: Colour, transform: Transform,
           profile: str | None) -> list[MoveInfo]:
    """Each move of ``line`` with the book's notes and statistics."""
    prefixes = [line[: 2 * i] for i in range(1, len(line) // 2 + 1)]
    ids = {node_id(p): p for p in prefixes}
    infos: dict[str, MoveInfo] = {}
    colour = first
    for number, (prefix, zpoint) in enumerate(zip(prefixes, iter_points(line), strict=True), start=1):
        move = "tenuki" if zpoint is None else format_gtp_vertex(transform.to_board(zpoint, 19))
        infos[prefix] = MoveInfo(number, prefix[-2:], move, colour)
        colour = other(colour)
    books, params = lookup.books()
    for nid, name, paths, category, comment, conditions, prior_games, prior_wins, props, cid in rows(
            conn, NOTES.format(books=books), {**params, "nodes": list(ids)}):
        info = infos[ids[nid]]
        info.in_book = True
        info.paths += paths
        merge_sources(info.sources, {name: category})
        info.category = combined(info.sources)
        if comment:
            prefix = ids[nid]
            words = lookup.remembered(("comment", cid, prefix, transform, first),
                                      lambda: _words(conn, lookup, cid, prefix, comment, props,  # noqa: B023
                                                     Asked(transform, first)))
            if words is not None:
                info.comments.append((name, words.text))
                info.words.append((name, words))
                info.comment_points.extend(p for p in words.points if p not in info.comment_points)
        for condition in from_json(conditions):
            shown_condition = display(condition, transform, first)
            if shown_condition.text not in info.conditions:
                info.conditions.append(shown_condition.text)
                info.named.update(dict.fromkeys(shown_condition.points, ""))
                info.setup.extend(shown_condition.stones)
        info.prior_games += prior_games or 0
        info.prior_wins += prior_wins or 0
    for nid, record in records_for(conn, list(ids), profile).items():
        infos[ids[nid]].record = record
    out = list(infos.values())
    for i, info in enumerate(out):
        if not info.in_book:
            for later in out[i + 1 :]:
                later.in_book = False
            break
    return out


def _words(conn: ReadConnection, lookup: Lookup, collection_id: int, prefix: str, comment: str,
           props: str | None, asked: Asked) -> Words | None:
    """A collection's comment on ``prefix`` as a player reads it in the frame asked, by the collection's dialect;
    in its own frame when no record of it passes there (as it is written)."""
    dialect = lookup.remembered(("comment-dialect", collection_id), lambda: _dialect(conn, collection_id))
    source = _source_frame(conn, collection_id, prefix, json.loads(props) if props else {})
    return dialect.words(comment, source or SourceFrame(asked.transform, asked.first, {}, {}), asked)


PLAIN = Dialect()
"""How a comment reads when its collection's dialect is not known (files imported before it was kept, or of
several dialects): free text."""


def _dialect(conn: ReadConnection, collection_id: int) -> Dialect:
    """The dialect of a collection's files, when they have one and the same."""
    names = {name for (name,) in rows(conn, "SELECT dialect FROM source_file WHERE collection_id = :collection",
                                      {"collection": collection_id})}
    if len(names) != 1 or None in names:
        return PLAIN
    try:
        return dialect_named(str(names.pop()))
    except ValueError:
        return PLAIN


def _source_frame(conn: ReadConnection, collection_id: int, prefix: str,
                  props: dict[str, list[str]]) -> SourceFrame | None:
    """The frame a collection's comment on ``prefix`` was written in: that of one of its records through it."""
    pattern = prefix.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"
    high = prefix[:-1] + chr(ord(prefix[-1]) + 1)  # every string that starts with the prefix sorts below this
    found = rows(conn, RECORD_THROUGH, {"collection": collection_id, "low": prefix, "high": high,
                                        "pattern": pattern})
    if not found:
        return None
    corner, swapped, first = found[0]
    return source_frame({k: tuple(v) for k, v in props.items()}, Transform(Corner(corner), bool(swapped)), first)


def _records(conn: ReadConnection, lookup: Lookup, line: str) -> list[str]:
    """The collections (of the lookup's) that hold ``line`` as a complete record."""
    books, params = lookup.books()
    return [str(name) for (name,) in rows(conn, RECORDS_OF_LINE.format(books=books), {**params, "line": line})]

