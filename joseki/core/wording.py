"""A source's words carried into the player's frame: labels, marks, colours and sides.

A collection's comment speaks in its own frame: its labels (``'e'``, from the node's ``LB``),
its marks ("the triangled point", ``TR``), its colours ("Black", who played first there) and
its sides ("extension at top", seen from its corner). Shown as they are, they lie in every
other corner, orientation and colour. So a condition's text is stored with placeholders that
hold the meaning in the record's canonical frame (:func:`to_canonical`, at import), and each
reader renders it in the frame asked for (:func:`render`):

- ``{p:CF}``: a labelled point, by its zone point; shown as the board point (``R12``), never
  as the source's letter, which would clash with the candidate letters of our diagrams.
- ``{m:CF CG}``: the points of a mark ("triangled", "marked"...); shown after the word,
  ``(Q10, R10)``.
- ``{c:1:Black}``: the first player's colour (``2``: the other's), spelt as the source did.
- ``{s:JA:top}``: a side, by the zone point of the middle of that board edge;
  ``{k:SA:upper right}``: a corner, by its corner point. Both go through the transform.

Every point a text names is also returned, so that diagrams can draw it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from joseki.core.geometry import Point, Transform
from joseki.core.notation import GTP_COLUMNS, format_gtp_vertex, format_sgf_point, format_zone_point
from joseki.core.regex import LazyPattern
from joseki.core.steps import Colour, iter_points, other

SIZE = 19
LAST = SIZE - 1
MARK_WORDS = {"triangled": ("TR",), "squared": ("SQ",), "circled": ("CR",),
              "marked": ("MA", "TR", "SQ", "CR")}
"""The SGF marks each word of a comment may point at, the likeliest first."""

_PLACEHOLDER = LazyPattern(r"\{([pmcsk]):([^{}]*)\}")
_LABEL = LazyPattern(r"'([a-z])(?:\s*\*)?'")
_MARK = LazyPattern(r"\b(" + "|".join(MARK_WORDS) + r")(\s+(?:points?|stones?|positions?|moves?|spots?|areas?))?\b",
                       re.I)
_VERTEX = LazyPattern(r"\b([A-HJ-T])(1[0-9]|[1-9])\b")
_COLOUR = LazyPattern(r"\b(black|white)\b", re.I)
_VERTICAL = r"upper|lower|top|bottom"
_CORNER = LazyPattern(rf"\b({_VERTICAL})([- ])(left|right)\b", re.I)
_SIDES = rf"{_VERTICAL}|left|right"
_SIDE_AFTER = LazyPattern(
    rf"\b((?:the|at|on|to|toward|towards|from|of) )({_SIDES})\b"
    r"(?! (?:move|moves|way|answer|choice|time|moment|response|play|direction|idea|priority|order|shape)\b)", re.I)
_SIDE_BEFORE = LazyPattern(rf"()\b({_SIDES})(?= (?:side|corner|half|edge)\b)", re.I)
_SIDE_POINTS: dict[str, Point] = {"top": (LAST // 2, 0), "bottom": (LAST // 2, LAST),
                                  "left": (0, LAST // 2), "right": (LAST, LAST // 2)}
_SYNONYM = {"upper": "top", "lower": "bottom"}


@dataclass(frozen=True, slots=True)
class SourceFrame:
    """Where a comment was written: its record's transform, first colour, and its node's labels and marks.

    ``labels`` maps a label (lower case) to its board point, ``marks`` an SGF mark property
    (TR, SQ, CR, MA) to its board points.
    """

    transform: Transform
    first: Colour
    labels: Mapping[str, Point]
    marks: Mapping[str, tuple[Point, ...]]


def _zone(frame: SourceFrame, point: Point) -> str:
    return format_zone_point(frame.transform.to_zone(point, SIZE))


def to_canonical(text: str, frame: SourceFrame) -> str:
    """``text`` with its labels, marks, colours and sides as placeholders of the canonical frame."""
    text = text.replace("{", "(").replace("}", ")")

    def label(m: re.Match[str]) -> str:
        point = frame.labels.get(m.group(1))
        return m.group(0) if point is None else f"{{p:{_zone(frame, point)}}}"

    def mark(m: re.Match[str]) -> str:
        for key in MARK_WORDS[m.group(1).lower()]:
            points = frame.marks.get(key)
            if points:
                return m.group(0) + "{m:" + " ".join(sorted(_zone(frame, p) for p in points)) + "}"
        return m.group(0)

    def colour(m: re.Match[str]) -> str:
        word = m.group(1)
        return f"{{c:{1 if word[0].lower() == frame.first else 2}:{word}}}"

    def corner(m: re.Match[str]) -> str:
        vertical, sep, horizontal = m.group(1), m.group(2), m.group(3)
        x = LAST if horizontal.lower() == "right" else 0
        y = LAST if _SYNONYM.get(vertical.lower(), vertical.lower()) == "bottom" else 0
        return f"{{k:{_zone(frame, (x, y))}:{vertical}{sep}{horizontal}}}"

    def side(m: re.Match[str]) -> str:
        word = m.group(2)
        point = _SIDE_POINTS[_SYNONYM.get(word.lower(), word.lower())]
        return f"{m.group(1)}{{s:{_zone(frame, point)}:{word}}}"

    for pattern, replace in ((_LABEL, label), (_MARK, mark), (_COLOUR, colour), (_CORNER, corner),
                             (_SIDE_AFTER, side), (_SIDE_BEFORE, side)):
        text = _outside_placeholders(text, pattern, replace)
    return text


def vertices_to_canonical(text: str, frame: SourceFrame) -> str:
    """``text`` with its GTP vertices (Pachi's ``ladder_own = E5``) as point placeholders of the canonical frame."""

    def vertex(m: re.Match[str]) -> str:
        return f"{{p:{_zone(frame, (GTP_COLUMNS.index(m.group(1)), SIZE - int(m.group(2))))}}}"

    return _outside_placeholders(text, _VERTEX, vertex)


def _outside_placeholders(text: str, pattern: LazyPattern, replace: Callable[[re.Match[str]], str]) -> str:
    """``pattern.sub(replace, text)`` on the text between placeholders only."""
    parts, last = [], 0
    for m in _PLACEHOLDER.finditer(text):
        parts.append(pattern.sub(replace, text[last : m.start()]))
        parts.append(m.group(0))
        last = m.end()
    parts.append(pattern.sub(replace, text[last:]))
    return "".join(parts)


def point_format(sgf: bool = False) -> Callable[[Point], str]:
    """How a text names a board point: GTP (``R12``), or SGF (``qg``) for a reader who typed SGF."""
    return format_sgf_point if sgf else format_gtp_vertex


def _cased(word: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return word.upper()
    return word.capitalize() if like[:1].isupper() else word


def _side_word(point: Point, like: str) -> str:
    x, y = point
    name = "top" if y == 0 else "bottom" if y == LAST else "left" if x == 0 else "right"
    if name in ("top", "bottom") and like.lower() in ("upper", "lower"):
        name = "upper" if name == "top" else "lower"
    return _cased(name, like)


def render(text: str, transform: Transform, first: Colour,
           fmt: Callable[[Point], str] = format_gtp_vertex) -> tuple[str, list[Point]]:
    """``text`` in the frame of ``transform`` with ``first`` moving first, and the board points it names.

    Text without placeholders (stored before they existed) comes back as it is. Remembered: a line shows the
    comments of all its moves, and the next line asked is mostly the same moves.
    """
    shown, named = _rendered(text, transform, first, fmt)
    return shown, list(named)


@lru_cache(maxsize=8192)
def _rendered(text: str, transform: Transform, first: Colour,
              fmt: Callable[[Point], str]) -> tuple[str, tuple[Point, ...]]:
    named: list[Point] = []

    def board(zone: str) -> Point:
        return transform.to_board((ord(zone[0]) - 65, ord(zone[1]) - 65), SIZE)

    def one(m: re.Match[str]) -> str:
        kind, body = m.group(1), m.group(2)
        if kind == "p":
            point = board(body)
            named.append(point)
            return fmt(point)
        if kind == "m":
            points = [board(z) for z in body.split()]
            named.extend(points)
            return " (" + ", ".join(fmt(p) for p in points) + ")"
        key, _, word = body.partition(":")
        if kind == "c":
            colour = first if key == "1" else other(first)
            return _cased("black" if colour == "b" else "white", word)
        x, y = board(key)
        if kind == "s":
            return _side_word((x, y), word)
        vertical, sep, horizontal = re.split(r"([- ])", word, maxsplit=1)
        return (_side_word((x, 0 if y == 0 else LAST), vertical) + sep
                + _side_word((0 if x == 0 else LAST, 1), horizontal))

    return _PLACEHOLDER.sub(one, text), tuple(named)


def reframe(text: str, source: SourceFrame, transform: Transform, first: Colour,
            fmt: Callable[[Point], str] = format_gtp_vertex) -> tuple[str, list[Point]]:
    """A source's free text (a comment) read in its frame and shown in ``transform``'s, ``first`` moving first,
    and the board points it names (its labels and marks, for a board to draw)."""
    return render(to_canonical(text, source), transform, first, fmt)


def line_text(steps: str, transform: Transform, fmt: Callable[[Point], str] = format_gtp_vertex) -> str:
    """The moves of a play-step string on the board (``Q16 R14 tenuki R12``), for people to read."""
    return " ".join("tenuki" if z is None else fmt(transform.to_board(z, SIZE)) for z in iter_points(steps))
