"""Conditions: what a variation depends on besides its own moves, as data.

A condition has a kind and the collection's own words (each dialect finds its own,
:mod:`joseki.sgf.dialects`):

- ``ladder``: a ladder must work (or fail) for the line to be right: Kogo's and OGS's
  comments ("White must have the ladder to play this way"), OGS's ``### Ladder`` heading,
  Pachi's josekifix keys (``ladder_own = F4``, ``noladder_other = E5``).
- ``nearby``: stones or a position elsewhere (a neighbouring corner, a side): "'b' if
  Black is in the lower right", "depending on support at the top".
- ``setup``: setup stones (AB/AW/AE) in the line; the text lists them in zone letters of
  the record's canonical frame, colours as if Black moved first (``black CC DE; white FD``),
  so it reads the same in every orientation and can be written back as setup stones
  (:func:`setup_points`).
- ``reading``: a tactical constraint a program checks (GNU Go's ``;`` lines).

Conditions are stored per move (``node_book.conditions``) and a variation depends on the
conditions of all its moves. Free text is stored with the source's labels, marks, colours and
sides as placeholders of the canonical frame (:mod:`joseki.core.wording`); :func:`display`
shows any condition in the frame and colours a reader asked for, setup stones as board points.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from joseki.core.errors import BadInput
from joseki.core.geometry import Point, Transform
from joseki.core.notation import format_gtp_vertex, format_zone_point, parse_zone_point
from joseki.core.steps import Colour
from joseki.core.wording import SourceFrame, render, to_canonical, vertices_to_canonical

KINDS = ("ladder", "nearby", "setup", "reading")
SETUP_COLOURS = {"AB": "black", "AW": "white", "AE": "empty"}


@dataclass(frozen=True, slots=True, order=True)
class Condition:
    """One thing a move depends on: its kind and the source's words."""

    kind: str
    text: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"


def parse_condition(text: str) -> Condition:
    """A condition from its ``kind: text`` form; BadInput for an unknown kind or no text."""
    kind, sep, rest = text.partition(":")
    kind, rest = kind.strip(), rest.strip()
    if not sep or kind not in KINDS or not rest:
        raise BadInput(f"bad condition {text!r} (expected 'kind: text', kind one of {', '.join(KINDS)})")
    return Condition(kind, rest)


def to_json(conditions: list[Condition]) -> str | None:
    """The stored form: a JSON list of ``[kind, text]``; None for no conditions."""
    return json.dumps([[c.kind, c.text] for c in conditions], ensure_ascii=False) if conditions else None


def from_json(text: str | None) -> list[Condition]:
    """The conditions of a stored JSON value."""
    return [Condition(kind, value) for kind, value in json.loads(text)] if text else []


def setup(properties: dict[str, tuple[str, ...]], transform: Transform, first: Colour = "b") -> Condition | None:
    """The setup stones of a node as a condition, in zone letters of ``transform``'s frame.

    Colours are those of the line with Black first: a record whose first move is White's has
    its AB stones written as ``white``.
    """
    parts = []
    for key, colour in SETUP_COLOURS.items():
        source = colour_key(key, first)
        points = sorted({transform.to_zone(p, 19) for value in properties.get(source, ()) for p in sgf_points(value)})
        if points:
            parts.append(f"{colour} " + " ".join(format_zone_point(z) for z in points))
    return Condition("setup", "; ".join(parts)) if parts else None


def colour_key(key: str, first: Colour) -> str:
    """The setup property (AB, AW, AE) holding, in a line ``first`` starts, what ``key`` holds with Black first."""
    return {"AB": "AW", "AW": "AB"}.get(key, key) if first == "w" else key


def setup_points(condition: Condition) -> dict[str, list[Point]]:
    """The zone points of a ``setup`` condition by SGF property (AB, AW, AE); BadInput if malformed."""
    if condition.kind != "setup":
        raise BadInput(f"not a setup condition: {condition}")
    names = {colour: key for key, colour in SETUP_COLOURS.items()}
    out: dict[str, list[Point]] = {}
    for part in condition.text.split(";"):
        colour, *tokens = part.split()
        if colour not in names or not tokens:
            raise BadInput(f"bad setup condition {condition.text!r}")
        out[names[colour]] = [parse_zone_point(t) for t in tokens]
    return out


def merged_setup(conditions: Iterable[Condition]) -> Condition | None:
    """The stones of ``setup`` conditions put down one after another, as one condition (None for none).

    A later one's point replaces an earlier one's; the text is written as :func:`setup` writes it, so
    one condition merged alone is itself. BadInput if one is malformed.
    """
    last: dict[Point, str] = {}
    for condition in conditions:
        for key, points in setup_points(condition).items():
            for point in points:
                last.pop(point, None)
                last[point] = key
    parts = []
    for key, colour in SETUP_COLOURS.items():
        points = sorted(p for p, k in last.items() if k == key)
        if points:
            parts.append(f"{colour} " + " ".join(format_zone_point(z) for z in points))
    return Condition("setup", "; ".join(parts)) if parts else None


def sgf_points(value: str) -> list[Point]:
    """The board points of an SGF point or compressed rectangle (``aa:cc``); BadInput if malformed."""
    corners = value.strip().split(":")
    if len(corners) > 2 or any(len(c) != 2 or not c.isalpha() or not c.islower() for c in corners):
        raise BadInput(f"bad SGF point {value!r}")
    (x1, y1), (x2, y2) = ((ord(c[0]) - 97, ord(c[1]) - 97) for c in (corners[0], corners[-1]))
    if max(x1, y1, x2, y2) >= 19:
        raise BadInput(f"SGF point {value!r} is off the 19x19 board")
    return [(x, y) for x in range(min(x1, x2), max(x1, x2) + 1) for y in range(min(y1, y2), max(y1, y2) + 1)]


def in_frame(condition: Condition, frame: SourceFrame, vertices: bool = False) -> Condition:
    """A free-text condition with the source's words as placeholders (:func:`joseki.core.wording.to_canonical`).

    With ``vertices``, its GTP vertices too (:func:`~joseki.core.wording.vertices_to_canonical`).
    """
    if condition.kind not in ("ladder", "nearby"):
        return condition
    text = to_canonical(condition.text, frame)
    if vertices:
        text = vertices_to_canonical(text, frame)
    return Condition(condition.kind, text)


@dataclass(frozen=True, slots=True)
class Shown:
    """A condition as a reader sees it: its text, the board points it names, the setup stones it puts down."""

    text: str
    points: tuple[Point, ...] = ()
    stones: tuple[tuple[Point, Colour], ...] = ()


def display(condition: Condition | str, transform: Transform, first: Colour,
            fmt: Callable[[Point], str] = format_gtp_vertex) -> Shown:
    """``condition`` (or its ``kind: text`` form) in the frame of ``transform``, ``first`` moving first."""
    if isinstance(condition, str):
        try:
            condition = parse_condition(condition)
        except ValueError:
            return Shown(str(condition))
    if condition.kind == "setup":
        try:
            groups = setup_points(condition)
        except ValueError:
            return Shown(str(condition))
        parts: list[str] = []
        stones: list[tuple[Point, Colour]] = []
        for key in SETUP_COLOURS:
            points = sorted(transform.to_board(z, 19) for z in groups.get(colour_key(key, first), ()))
            if points:
                parts.append(SETUP_COLOURS[key] + " " + " ".join(fmt(p) for p in points))
                if key != "AE":
                    stones.extend((p, "b" if key == "AB" else "w") for p in points)
        return Shown(f"setup: {'; '.join(parts)}", tuple(p for p, _ in stones), tuple(stones))
    text, named = render(condition.text, transform, first, fmt)
    return Shown(f"{condition.kind}: {text}", tuple(dict.fromkeys(named)))
