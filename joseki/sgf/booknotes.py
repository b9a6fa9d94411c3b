"""What a collection file says about each move: category, comments, conditions, statistics, per step prefix.

The file's dialect (:func:`joseki.core.category.detect_dialect`) decides how its notes are read.
A note speaks of its own move (the prefix after its node), and free text also of other
moves (:mod:`joseki.core.judgement`): a label is resolved to the continuation played at the
labelled point (a label outside the zone names no book move), a move number ("White 3") to
that colour's stone of the line (:func:`_numbered`; never a pass) if it is at most
:data:`MOVE_REACH` moves back. A verdict said on the move's own node beats one said on another
node that names it, but never hides a warning said there (:class:`MoveNote`). A good word
on a tenuki means ``tenuki-ok``. Setup stones are a condition of the move played with them on
the board: the node's own move, else the next move of each line through it (but for stones
set up before the first move). The KataGo trees' JSON counts become the move's prior
statistics, from the point of view of the player who made it: games with a result and that
player's wins.
This project's exports carry all of it in ``J*`` properties, read back exactly.
"""

from __future__ import annotations

import json
import re
from contextlib import suppress
from dataclasses import dataclass, field

from joseki.core.category import NEVER_FIRST, categorise, check_category, detect_dialect, merge
from joseki.core.conditions import (
    Condition,
    from_gnugo,
    from_pachi,
    from_text,
    in_frame,
    parse_condition,
    setup,
    sgf_points,
)
from joseki.core.errors import BadInput
from joseki.core.geometry import Point, Transform
from joseki.core.judgement import LABEL, MOVE, SELF, Target, judge
from joseki.core.notation import TENUKI, format_zone_point
from joseki.core.priority import Record
from joseki.core.steps import Colour, other, reflection_needed, swap_token
from joseki.core.wording import SourceFrame
from joseki.core.zone import in_zone
from joseki.sgf.forest import Forest, NodeNote, Variation

TEXT_DIALECTS = frozenset({"text", "pachi"})
"""Dialects whose free text is read for judgements."""
_NUMBERED = re.compile(r"\b(?:black|white)\s+\d+", re.I)
MOVE_REACH = 2
"""How far back a comment may judge a move by number ("White 10 was a mistake" two moves later).

Further back, Kogo's remarks describe the line at hand ("Black 3 is overconcentrated now"), not
the earlier move as such; so does a remark that sets an earlier move against another ("Black 3
is too close to Black 5"), which is left out too."""


@dataclass(slots=True)
class MoveNote:
    """What one file says about one move.

    Its category follows a precedence (:attr:`category`): a verdict said on the move's own
    node (its marks, class letter, tags or headings, a bare verdict, its own number) beats one
    said on another node that names it (a label on the previous node's diagram, a number on a
    later node), but never hides a warning (trick, mistake) said there; among verdicts of equal
    standing the more cautious wins.
    """

    own: str | None = None
    named: str | None = None
    comments: list[str] = field(default_factory=list)
    properties: dict[str, list[str]] = field(default_factory=dict)
    conditions: list[Condition] = field(default_factory=list)
    prior_games: int = 0
    prior_wins: int = 0
    record: Record | None = None

    @property
    def category(self) -> str | None:
        """The move's category in this file: its own node's verdict, else (or if only it warns) the one naming it."""
        if self.own is None or (self.named in NEVER_FIRST and self.own not in NEVER_FIRST):
            return self.named
        return self.own


@dataclass(slots=True)
class BookNotes:
    """A file's notes per step prefix, and the dialect they were read in."""

    dialect: str
    moves: dict[str, MoveNote] = field(default_factory=dict)

    def at(self, prefix: str) -> MoveNote:
        note = self.moves.get(prefix)
        if note is None:
            note = self.moves[prefix] = MoveNote()
        return note

    def judge(self, prefix: str, category: str | None, own: bool = True) -> None:
        """Give the move of ``prefix`` a verdict, said on its own node or (``own`` False) on another."""
        if category is not None and prefix:
            if prefix.endswith(TENUKI) and category in ("ideal", "good"):
                category = "tenuki-ok"
            note = self.at(prefix)
            if own:
                note.own = merge(note.own, category)
            else:
                note.named = merge(note.named, category)

    def condition(self, prefix: str, condition: Condition) -> None:
        if prefix:
            note = self.at(prefix)
            if condition not in note.conditions:
                note.conditions.append(condition)


def book_notes(forest: Forest) -> BookNotes:
    """The notes of every move of a flattened file; BadInput for malformed ``J*`` properties."""
    unique: dict[int, tuple[Variation, NodeNote]] = {}
    setups: list[tuple[Variation, NodeNote]] = []
    for v in forest.variations:
        for note in v.notes:
            if id(note) not in unique:
                unique[id(note)] = (v, note)
            if note.setup and not note.own:
                setups.append((v, note))
    notes = list(unique.values())
    dialect = detect_dialect(forest.preamble, (n.comment for _, n in notes if n.comment),
                             {key for _, n in notes for key, _ in n.properties})
    book = BookNotes(dialect)
    for v, note in notes:
        _read(book, v, note, dialect)
    if dialect != "export":
        for v, note in setups:
            _setup_next(book, v, note)
    return book


def _read(book: BookNotes, v: Variation, note: NodeNote, dialect: str) -> None:
    prefix = v.steps[: 2 * note.step]
    props = dict(note.properties)
    if note.step:
        entry = book.at(prefix)
        if note.comment and note.comment not in entry.comments:
            entry.comments.append(note.comment)
        for key, values in props.items():
            entry.properties.setdefault(key, []).extend(values)
        book.judge(prefix, categorise(note.comment, props, dialect, _stone(note)))
    if dialect == "export":
        _read_export(book, prefix, props)
        return
    if note.own and note.setup:
        condition = setup(props, Transform(v.corner, v.swap), v.first_colour)
        if condition is not None:
            book.condition(prefix, condition)
    labels: dict[str, str] | None = None
    if dialect in TEXT_DIALECTS and note.comment:
        for j in judge(note.comment):
            if j.target.kind == LABEL and labels is None:
                labels = _labels(props, prefix, v)
            judged = _resolve(j.target, prefix, v, note, labels)
            if j.target.kind == MOVE and judged != prefix and len(_NUMBERED.findall(j.text)) > 1:
                continue
            book.judge(judged, j.category, own=judged == prefix)
    if (dialect in TEXT_DIALECTS or dialect == "ogs") and note.comment:
        frame = None
        for target, condition in from_text(note.comment):
            if target.kind == LABEL and labels is None:
                labels = _labels(props, prefix, v)
            frame = frame or source_frame(props, Transform(v.corner, v.swap), v.first_colour)
            book.condition(_resolve(target, prefix, v, note, labels), in_frame(condition, frame, dialect == "pachi"))
    if dialect == "pachi":
        for condition in from_pachi(note.comment):
            frame = source_frame(props, Transform(v.corner, v.swap), v.first_colour)
            book.condition(prefix, in_frame(condition, frame))
    elif dialect == "gnugo":
        for condition in from_gnugo(note.comment):
            book.condition(prefix, condition)
    elif dialect == "katago" and note.own and note.step:
        _read_counts(book, v, note)


def _setup_next(book: BookNotes, v: Variation, note: NodeNote) -> None:
    """Setup stones on a node without a move: a condition of the next move of this line.

    Setup stones before the line's first move make another position altogether; no move of
    the book stands for it (the record's ``setup`` flag says so).
    """
    if note.step and len(v.steps) >= 2 * note.step + 2:
        condition = setup(dict(note.properties), Transform(v.corner, v.swap), v.first_colour)
        if condition is not None:
            book.condition(v.steps[: 2 * note.step + 2], condition)


def _resolve(target: Target, prefix: str, v: Variation, note: NodeNote, labels: dict[str, str] | None) -> str:
    """The step prefix of a judgement's target in variation ``v``; ``""`` when it names no move of the book."""
    if target.kind == SELF:
        return prefix
    if target.kind == MOVE:
        index = _numbered(int(target.key or 0), target.colour, v, note)
        if index is None:
            return ""
        if index == len(note.moves) and note.own:
            return prefix
        if not max(1, len(note.moves) - MOVE_REACH) <= index:
            return ""
        return v.steps[: 2 * note.moves[index - 1]]
    token = (labels or {}).get(str(target.key))
    return prefix + token if token else ""


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


def _stone(note: NodeNote) -> bool:
    """True if the node holds a move that puts a stone on the board (not a pass)."""
    return note.own and len(note.moves) not in note.passes


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


def _read_counts(book: BookNotes, v: Variation, note: NodeNote) -> None:
    """A KataGo JSON comment: the move's games with a result and its mover's wins."""
    try:
        counts = json.loads(note.comment)
        black, white = int(counts["b_win"]), int(counts["w_win"])
    except (ValueError, KeyError, TypeError):
        return
    mover = v.first_colour if (note.step - 1) % 2 == 0 else other(v.first_colour)
    entry = book.at(v.steps[: 2 * note.step])
    entry.prior_games += black + white
    entry.prior_wins += black if mover == "b" else white


def _read_export(book: BookNotes, prefix: str, props: dict[str, tuple[str, ...]]) -> None:
    """This project's own properties: JK conditions, JS statistics, JP prior statistics."""
    if not prefix:
        return
    for text in props.get("JK", ()):
        book.condition(prefix, parse_condition(text))
    entry = book.at(prefix)
    if "JS" in props:
        games, wins, losses, draws = _numbers(props["JS"][0], 4, "JS")
        entry.record = Record(games, wins, losses, draws)
    if "JP" in props:
        entry.prior_games, entry.prior_wins = _numbers(props["JP"][0], 2, "JP")
    if "JC" in props:
        check_category(props["JC"][0])


def _numbers(text: str, count: int, key: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != count or not all(p.strip().isdigit() for p in parts):
        raise BadInput(f"bad {key}[{text}] (expected {count} whole numbers separated by commas)")
    return [int(p) for p in parts]
