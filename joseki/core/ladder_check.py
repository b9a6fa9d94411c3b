"""Ladder conditions read on the board asked: does the ladder a book line needs work here?

A book move may hold only if a ladder works (or fails). A collection's dialect says which ladder
(:func:`joseki.sgf.dialects.ladder_questions`), as one of two questions read here on the board:

- :class:`NamedLadder`: a source that names the ladder exactly (Pachi's keys): the side that
  ataris, at which point, after which setup stones; the setup stones are put down first, then
  that side ataris the two-liberty string next to the point (Pachi's own check).
- :class:`WordedLadder`: a sentence that says who needs the ladder and which way ("{c:2:White}
  must have the ladder", "if the ladder is unfavourable"). The words never say which stones, so
  the ladder is the one the rest of the board decides: after the candidate, the one string of the
  other side in this corner with two liberties that the needer, to move, captures in a ladder
  reading the corner's stones alone, with a chase that runs out of the corner; if there is none,
  the same after each of the next :data:`AHEAD` moves of the book's main line where the needer is
  to move (the ladder the book's line leads to). None, or several at once: ``unknown``.

Each question becomes a :class:`LadderCheck`: whether the ladder works, fails, or is ``unknown``
on this board, what the line needs, and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from joseki.core.conditions import Condition
from joseki.core.geometry import Point, Transform
from joseki.core.ladder import UNKNOWN, Reading, board_of, ladder_from, read_ladder, string_at
from joseki.core.notation import format_gtp_vertex
from joseki.core.position import LocalBoard
from joseki.core.steps import Colour, other
from joseki.core.zone import in_zone

AHEAD = 6
"""How many moves of the book's main line after the candidate are searched for the ladder its words mean."""


@dataclass(frozen=True, slots=True)
class NamedLadder:
    """A ladder a source names exactly: who ataris at which point, after which setup stones, and what the line needs.

    ``chaser`` and the setup stones' sides are ``own`` (the candidate's mover) or ``other``;
    points are zone points of the book's canonical frame.
    """

    needed: str
    """``works`` or ``fails``."""
    chaser: str
    points: tuple[Point, ...]
    setup_own: tuple[Point, ...] = ()
    setup_other: tuple[Point, ...] = ()


@dataclass(frozen=True, slots=True)
class WordedLadder:
    """A ladder a sentence speaks of: what the line needs and whose ladder it is, or why the words decide nothing.

    ``needer``: ``1`` the line's first player, ``2`` the other, None the candidate's mover.
    """

    needed: str | None
    needer: str | None = None
    undecided: str | None = None
    """Why the words decide nothing ("the words do not say whose ladder"); None when they do."""


LadderQuestion = NamedLadder | WordedLadder
"""What a ladder condition asks of the board."""


@dataclass(frozen=True, slots=True)
class LadderCheck:
    """One ladder condition on this board: the ladder's verdict, what the line needs, and why."""

    condition: str
    ladder: str
    """``works``, ``fails`` or ``unknown``."""
    needed: str | None
    """What the line needs: ``works``, ``fails``, or None when the condition does not say."""
    reason: str
    chaser: Colour | None = None
    """Who ataris, when the ladder was found."""
    line: tuple[Point, ...] = ()
    """The chase read (board points), when the ladder was found."""

    @property
    def holds(self) -> bool | None:
        """Whether the condition holds here (None: not known)."""
        if self.ladder == UNKNOWN or self.needed is None:
            return None
        return self.ladder == self.needed

    def as_json(self) -> dict[str, object]:
        return {"condition": self.condition, "ladder": self.ladder, "needed": self.needed, "holds": self.holds,
                "reason": self.reason, "chaser": None if self.chaser is None else _name(self.chaser).lower()}

    def __str__(self) -> str:
        verdict = {True: "holds", False: "FAILS", None: "unknown"}[self.holds]
        return f"ladder {self.ladder} here ({self.reason}): condition {verdict}"


@dataclass(frozen=True, slots=True)
class Setting:
    """Where a candidate is asked: the whole board before it, its move and mover, and the book's frame."""

    board: LocalBoard
    point: Point | None
    mover: Colour
    transform: Transform
    first: Colour
    """The colour that moved first in this corner's line (the book's ``{c:1:...}``)."""
    fmt: Callable[[Point], str] = format_gtp_vertex
    continuation: tuple[Point | None, ...] = ()
    """The book's main line after the candidate (board points, None for a tenuki): where its ladder may show."""


def check_ladders(questions: Sequence[tuple[Condition, LadderQuestion]], setting: Setting,
                  shown: Callable[[Condition], str] = str) -> list[LadderCheck]:
    """A check of each ladder question (with the condition that asks it, shown by ``shown``) on the board."""
    return [_named(q, shown(c), setting) if isinstance(q, NamedLadder) else _worded(q, shown(c), setting)
            for c, q in questions]


def _board(zone: Point, transform: Transform) -> Point:
    return transform.to_board(zone, 19)


def _named(q: NamedLadder, text: str, setting: Setting) -> LadderCheck:
    needed = q.needed
    points = [_board(z, setting.transform) for z in q.points]
    if len(points) != 1:
        return LadderCheck(text, UNKNOWN, needed, "the key names no single point")
    board = setting.board.copy()
    own = setting.mover
    for stones, colour in ((q.setup_own, own), (q.setup_other, other(own))):
        for p in (_board(z, setting.transform) for z in stones):
            if p not in board.stones:
                board.play(colour, p, lenient=True)
    chaser = own if q.chaser == "own" else other(own)
    reading = ladder_from(board, points[0], chaser)
    fmt = setting.fmt
    if reading is None:
        return LadderCheck(text, UNKNOWN, needed, f"no {_name(other(chaser))} string with two liberties next to "
                                                  f"{fmt(points[0])} here")
    return LadderCheck(text, reading.verdict, needed, f"{_name(chaser)} ataris at {fmt(points[0])}: "
                       + explain(reading, fmt), chaser, reading.line)


def _worded(q: WordedLadder, text: str, setting: Setting) -> LadderCheck:
    if q.undecided is not None:
        return LadderCheck(text, UNKNOWN, q.needed, q.undecided)
    needer = setting.mover if q.needer is None else setting.first if q.needer == "1" else other(setting.first)
    needed = q.needed
    if setting.point is None:
        return LadderCheck(text, UNKNOWN, needed, "a tenuki: no ladder to read")
    board = setting.board.copy()
    fmt = setting.fmt
    colour, played = setting.mover, []
    found: tuple[Point, Reading] | str = "the move cannot be played on this board"
    for point in (setting.point, *setting.continuation[:AHEAD]):
        if point is not None:
            try:
                board.play(colour, point)
            except ValueError:
                break
            played.append(fmt(point))
        colour = other(colour)
        if len(played) == 1 or colour == needer:  # after the candidate, then where the needer is to move
            found = the_ladder(board, needer, setting.transform)
            if not isinstance(found, str):
                break
    if isinstance(found, str):
        return LadderCheck(text, UNKNOWN, needed, found)
    prey, reading = found
    after = f" after the book's {' '.join(played[1:])}" if len(played) > 1 else ""
    return LadderCheck(text, reading.verdict, needed, f"{_name(needer)}'s ladder on {fmt(prey)}{after}: "
                       + explain(reading, fmt), needer, reading.line)


def the_ladder(board: LocalBoard, chaser: Colour, transform: Transform) -> tuple[Point, Reading] | str:
    """The one ladder of the corner the rest of the board decides, read on the whole board; else why not.

    The candidates are the strings of the other side in the corner with two liberties; one
    counts if ``chaser``, to move, captures it reading the corner's stones alone with a chase that
    leaves the corner's zone (stones elsewhere can then change it).
    """
    corner = {p: c for p, c in board.stones.items() if in_zone(transform.to_zone(p, 19))}
    local = board_of(corner)
    prey_colour = other(chaser)
    seen: set[Point] = set()
    found: list[Point] = []
    for p in sorted(corner):
        if corner[p] != prey_colour or p in seen:
            continue
        string, libs = string_at(board, p)
        seen |= string
        if len(libs) != 2 or string_at(local, p)[1] != libs:
            continue
        alone = read_ladder(local, p, chaser)
        if alone.works and any(not in_zone(transform.to_zone(q, 19)) for q in alone.line):
            found.append(p)
    if not found:
        return "no ladder here that runs out of the corner"
    if len(found) > 1:
        return f"{len(found)} ladders could be meant"
    return found[0], read_ladder(board, found[0], chaser)


def explain(reading: Reading, fmt: Callable[[Point], str] = format_gtp_vertex) -> str:
    """A reading in words: ``captured at T16 (the edge) after 57 moves``, ``breaker at K11``."""
    where = "" if reading.point is None else fmt(reading.point)
    if reading.reason == "captured":
        return f"captured at {where}{' at the edge' if reading.edge else ''} after {len(reading.line)} moves"
    if reading.reason == "breaker":
        return f"breaker at {where}"
    if reading.reason == "counter-capture":
        return f"the prey captures the chaser's stone at {where}"
    if reading.reason == "escape":
        return f"the prey gets out at {where}"
    return "too long to read"


def _name(colour: Colour) -> str:
    return "Black" if colour == "b" else "White"


def board_after(moves: list[tuple[Colour, Point | None]], size: int = 19,
                setup: dict[Point, Colour] | None = None) -> LocalBoard:
    """The whole board after ``setup`` stones and ``moves`` (colour, point or None for a pass), with captures."""
    board = board_of(setup or {}, size)
    for colour, point in moves:
        if point is not None:
            board.play(colour, point, lenient=True)
    return board
