"""One node of a flattened line as a dialect reads it: its place, its properties, and the moves its notes name.

What a node says is said in the position it speaks in: its line's setup stones put down so far, its
own included (:mod:`joseki.sgf.setups`). So everything it says of a move (:meth:`Node.verdict`,
:meth:`Node.condition`, :meth:`Node.entry`) is about that move in that position, and a node after
setup stones never speaks for a board without them (of a move played before them it says nothing
the book keeps: no line plays that move in its position).

A note speaks of its own move (the step prefix after its node) and, in free text, of others
(:class:`~joseki.sgf.dialects.targets.Target`): a label names the continuation played at the
labelled point (a label outside the zone names no book move), a number ("White 3") that colour's
stone of the line (never a pass) if it is at most :data:`MOVE_REACH` moves back.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from joseki.core.conditions import sgf_points
from joseki.core.geometry import Point, Transform
from joseki.core.notation import format_zone_point
from joseki.core.steps import Colour, other, reflection_needed, swap_token
from joseki.core.wording import SourceFrame
from joseki.core.zone import in_zone
from joseki.sgf.dialects.targets import MOVE, SELF, Target

if TYPE_CHECKING:
    from joseki.core.conditions import Condition
    from joseki.sgf.forest import NodeNote, Variation
    from joseki.sgf.movenotes import BookNotes, MoveNote

MOVE_REACH = 2
"""How far back a comment may name a move by number ("White 10 was a mistake" two moves later).

Further back, Kogo's remarks describe the line at hand ("Black 3 is overconcentrated now"), not
the earlier move as such; so does a remark that sets an earlier move against another ("Black 3
is too close to Black 5"), which is left out too."""


class Node:
    """A node of line ``variation`` (its ``note``), read into ``book``: its prefix, properties and comment.

    ``position``: the setup stones of the position the node speaks in ('' for none,
    :func:`joseki.sgf.setups.spoken_in`).
    """

    __slots__ = ("_frame", "_labels", "book", "comment", "note", "position", "prefix", "properties", "variation")

    def __init__(self, book: BookNotes, variation: Variation, note: NodeNote, position: str = "") -> None:
        self.book = book
        self.variation = variation
        self.note = note
        self.position = position
        self.prefix = variation.steps[: 2 * note.step]
        self.properties = dict(note.properties)
        self.comment = note.comment
        self._labels: dict[str, str] | None = None
        self._frame: SourceFrame | None = None

    @property
    def transform(self) -> Transform:
        """The frame of the node's line: its corner and reflection."""
        return Transform(self.variation.corner, self.variation.swap)

    @property
    def stone(self) -> bool:
        """True if the node holds a move that puts a stone on the board (not a pass)."""
        return self.note.own and len(self.note.moves) not in self.note.passes

    @property
    def frame(self) -> SourceFrame:
        """The frame the node's comment speaks in (:func:`source_frame`)."""
        if self._frame is None:
            self._frame = source_frame(self.properties, self.transform, self.variation.first_colour)
        return self._frame

    def entry(self, prefix: str) -> MoveNote:
        """The notes of the move of ``prefix`` in the node's position."""
        return self.book.at(prefix, self.position)

    def verdict(self, prefix: str, category: str | None, own: bool = True) -> None:
        """Give the move of ``prefix`` a verdict (:meth:`joseki.sgf.movenotes.BookNotes.verdict`) in the node's
        position."""
        self.book.verdict(prefix, category, own, self.position)

    def condition(self, prefix: str, condition: Condition) -> None:
        """Make the move of ``prefix`` depend on ``condition`` in the node's position."""
        self.book.condition(prefix, condition, self.position)

    def resolve(self, target: Target) -> str:
        """The step prefix of the move ``target`` names; ``""`` when it names no move of the book."""
        note, v = self.note, self.variation
        if target.kind == SELF:
            return self.prefix
        if target.kind == MOVE:
            index = _numbered(int(target.key or 0), target.colour, v, note)
            if index is None:
                return ""
            if index == len(note.moves) and note.own:
                return self.prefix
            if not max(1, len(note.moves) - MOVE_REACH) <= index:
                return ""
            return v.steps[: 2 * note.moves[index - 1]]
        if self._labels is None:
            self._labels = _labels(self.properties, self.prefix, v)
        token = self._labels.get(str(target.key))
        return self.prefix + token if token else ""


def _numbered(number: int, colour: str | None, v: Variation, note: NodeNote) -> int | None:
    """The index in the line (1 = its first move) of the stone a text names by ``number`` and ``colour``.

    Kogo counts moves both ways: with the passes of the line, as an SGF editor numbers them,
    and without them, as its diagrams number the stones. The number is read the first way, and
    the second where the first names a move of the other colour. A pass is never the move named
    (it has no stone to carry a number), nor a move of the other colour; None when no stone fits.
    """
    stones = [i for i in range(1, len(note.moves) + 1) if i not in note.passes]
    for index in (number, stones[number - 1] if 0 < number <= len(stones) else 0):
        if 0 < index <= len(note.moves) and index not in note.passes:
            count = note.moves[index - 1]
            before = note.moves[index - 2] if index >= 2 else 0
            mover = v.first_colour if (count - 1) % 2 == 0 else other(v.first_colour)
            if before < count <= len(v.steps) // 2 and (colour is None or colour == mover):
                return index
    return None


def _labels(props: dict[str, tuple[str, ...]], prefix: str, v: Variation) -> dict[str, str]:
    """The token of each labelled point (LB) in ``v``'s canonical frame after ``prefix``; XX outside the zone."""
    transform = Transform(v.corner, v.swap)
    on_diagonal = reflection_needed(prefix) is None
    tokens: dict[str, str] = {}
    for value in props.get("LB", ()):
        point, _, text = value.partition(":")
        label = text.strip().lower()
        if len(point) != 2 or not point.isalpha() or not point.islower() or label in tokens:
            continue
        x, y = ord(point[0]) - 97, ord(point[1]) - 97
        if not (x < 19 and y < 19):
            continue
        zpoint = transform.to_zone((x, y), 19)
        if not in_zone(zpoint):
            continue
        token = format_zone_point(zpoint)
        tokens[label] = swap_token(token) if on_diagonal and token[0] > token[1] else token
    return tokens


def source_frame(props: dict[str, tuple[str, ...]], transform: Transform, first: Colour) -> SourceFrame:
    """The frame a node's comment speaks in: its record's, with the node's labels and marks as board points."""
    labels: dict[str, Point] = {}
    for value in props.get("LB", ()):
        point, _, text = value.partition(":")
        with suppress(ValueError):
            labels.setdefault(text.strip().lower(), sgf_points(point)[0])
    marks: dict[str, tuple[Point, ...]] = {}
    for key in ("TR", "SQ", "CR", "MA"):
        with suppress(ValueError):
            marks[key] = tuple(p for value in props.get(key, ()) for p in sgf_points(value))
    return SourceFrame(transform, first, labels, marks)
