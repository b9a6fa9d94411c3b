"""What a collection file says about each move: category, comments, conditions, statistics, per step prefix.

The file's dialect (:func:`joseki.sgf.dialects.detect`) decides how its notes are read. Each node
gives the move after it (its step prefix) its comment, its properties and the verdicts of its own
marks, tags or headings (:meth:`~joseki.sgf.dialects.dialect.Dialect.own_verdicts`); the dialect
reads the rest (:meth:`~joseki.sgf.dialects.dialect.Dialect.read`): verdicts on the moves free text
names, conditions, statistics. Which verdict stands is :class:`~joseki.sgf.movenotes.MoveNote`'s rule.
A move played with setup stones on the board is read into that position (:mod:`joseki.sgf.setups`),
and the stones are a condition of the move they are put down before: the node's own move, else the
next move of each line through it (but for stones set up before the first move, which only make the
position, and in a dialect that carries its conditions otherwise).
"""

from __future__ import annotations

from joseki.core.category import merge
from joseki.core.conditions import setup
from joseki.sgf.dialects import detect
from joseki.sgf.dialects.dialect import Dialect
from joseki.sgf.dialects.node import Node
from joseki.sgf.forest import Forest, NodeNote, Variation
from joseki.sgf.movenotes import BookNotes
from joseki.sgf.setups import spoken_in


def book_notes(forest: Forest, dialect: Dialect | None = None) -> BookNotes:
    """The notes of every move of a flattened file, read in its dialect (told from the file when not given);
    BadInput for malformed notes (an export's ``J*`` values)."""
    unique: dict[int, tuple[Variation, NodeNote]] = {}
    setups: list[tuple[Variation, NodeNote]] = []
    for v in forest.variations:
        for note in v.notes:
            if id(note) not in unique:
                unique[id(note)] = (v, note)
            if note.setup and not note.own:
                setups.append((v, note))
    notes = list(unique.values())
    if dialect is None:
        dialect = _detect(forest.preamble, [n for _, n in notes])
    book = BookNotes(dialect.name)
    spoken: dict[int, str] = {}
    for v in forest.variations:
        if v.setup:
            spoken.update(spoken_in(v))
    for v, note in notes:
        _read(book, dialect, Node(book, v, note, spoken.get(id(note), "")))
    if dialect.keeps_setup:
        for v, note in setups:
            _setup_next(Node(book, v, note, spoken.get(id(note), "")))
    return book


def file_dialect(forest: Forest) -> Dialect:
    """The dialect a flattened file is written in (:func:`joseki.sgf.dialects.detect`)."""
    unique = {id(note): note for v in forest.variations for note in v.notes}
    return _detect(forest.preamble, list(unique.values()))


def _detect(preamble: str, notes: list[NodeNote]) -> Dialect:
    return detect(preamble, (n.comment for n in notes if n.comment), {key for n in notes for key, _ in n.properties})


def _read(book: BookNotes, dialect: Dialect, node: Node) -> None:
    prefix, note, v = node.prefix, node.note, node.variation
    if note.step:
        entry = node.entry(prefix)
        if note.comment and note.comment not in entry.comments:
            entry.comments.append(note.comment)
        for key, values in node.properties.items():
            entry.properties.setdefault(key, []).extend(values)
        category: str | None = None
        for found in dialect.own_verdicts(node):
            category = merge(category, found)
        node.verdict(prefix, category)
    if dialect.keeps_setup and note.own and note.setup:
        condition = setup(node.properties, node.transform, v.first_colour)
        if condition is not None:
            node.condition(prefix, condition)
    dialect.read(node)


def _setup_next(node: Node) -> None:
    """Setup stones on a node without a move: a condition of the next move of this line.

    Setup stones before the line's first move only make the position all its moves are played in.
    """
    note, v = node.note, node.variation
    if note.step and len(v.steps) >= 2 * note.step + 2:
        condition = setup(node.properties, node.transform, v.first_colour)
        if condition is not None:
            node.condition(v.steps[: 2 * note.step + 2], condition)
