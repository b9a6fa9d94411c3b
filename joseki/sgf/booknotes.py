"""What a collection file says about each move: category, comments, conditions, statistics, per step prefix.

The file's dialect (:func:`joseki.sgf.dialects.detect`) decides how its notes are read. Each node
gives the move after it (its step prefix) its comment, its properties and the verdicts of its own
marks, tags or headings (:meth:`~joseki.sgf.dialects.dialect.Dialect.own_verdicts`); the dialect
reads the rest (:meth:`~joseki.sgf.dialects.dialect.Dialect.read`): verdicts on the moves free text
names, conditions, statistics. Which verdict stands is :class:`~joseki.sgf.movenotes.MoveNote`'s rule.
Setup stones are a condition of the move played with them on the board: the node's own move, else
the next move of each line through it (but for stones set up before the first move, and in a dialect
that carries them otherwise).
"""

from __future__ import annotations

from joseki.core.category import merge
from joseki.core.conditions import setup
from joseki.core.geometry import Transform
from joseki.sgf.dialects import detect
from joseki.sgf.dialects.dialect import Dialect
from joseki.sgf.dialects.node import Node
from joseki.sgf.forest import Forest, NodeNote, Variation
from joseki.sgf.movenotes import BookNotes


def book_notes(forest: Forest) -> BookNotes:
    """The notes of every move of a flattened file; BadInput for malformed notes (an export's ``J*`` values)."""
    unique: dict[int, tuple[Variation, NodeNote]] = {}
    setups: list[tuple[Variation, NodeNote]] = []
    for v in forest.variations:
        for note in v.notes:
            if id(note) not in unique:
                unique[id(note)] = (v, note)
            if note.setup and not note.own:
                setups.append((v, note))
    notes = list(unique.values())
    dialect = detect(forest.preamble, (n.comment for _, n in notes if n.comment),
                     {key for _, n in notes for key, _ in n.properties})
    book = BookNotes(dialect.name)
    for v, note in notes:
        _read(book, dialect, v, note)
    if dialect.keeps_setup:
        for v, note in setups:
            _setup_next(book, v, note)
    return book


def _read(book: BookNotes, dialect: Dialect, v: Variation, note: NodeNote) -> None:
    node = Node(book, v, note)
    prefix = node.prefix
    if note.step:
        entry = book.at(prefix)
        if note.comment and note.comment not in entry.comments:
            entry.comments.append(note.comment)
        for key, values in node.properties.items():
            entry.properties.setdefault(key, []).extend(values)
        category: str | None = None
        for found in dialect.own_verdicts(node):
            category = merge(category, found)
        book.verdict(prefix, category)
    if dialect.keeps_setup and note.own and note.setup:
        condition = setup(node.properties, node.transform, v.first_colour)
        if condition is not None:
            book.condition(prefix, condition)
    dialect.read(node)


def _setup_next(book: BookNotes, v: Variation, note: NodeNote) -> None:
    """Setup stones on a node without a move: a condition of the next move of this line.

    Setup stones before the line's first move make another position altogether; no move of
    the book stands for it (the record's ``setup`` flag says so).
    """
    if note.step and len(v.steps) >= 2 * note.step + 2:
        condition = setup(dict(note.properties), Transform(v.corner, v.swap), v.first_colour)
        if condition is not None:
            book.condition(v.steps[: 2 * note.step + 2], condition)
