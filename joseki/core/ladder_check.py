"""Ladder conditions read on the board asked: does the ladder a book line needs work here?

A book move may hold only if a ladder works (or fails): Pachi's josekifix keys say exactly
which (``ladder_own = H3`` with its setup stones: the side to play ataris at H3), Kogo's and
OGS's comments say it in words ("White must have the ladder to play this way"). Each ladder
condition of a candidate becomes a :class:`LadderCheck`: whether the ladder works, fails, or
is ``unknown`` on this board, what the line needs, and why.

- Pachi's keys: ``[no]ladder_{own,other}[2] = P`` with ``..._setup_{own,other} = P Q``: "own"
  is the side to play the candidate, the setup stones are put down first, then the side the
  key names ataris at ``P`` the two-liberty string next to it (Pachi's own check); ``no``: the
  line needs the ladder to fail.
- Words: the sentence must say who needs the ladder and which way ("{c:2:White} must have the
  ladder", "needs a favourable ladder", "if the ladder is unfavourable"; a sentence naming
  several moves or both ways is ``unknown``). The words never say which stones, so the ladder is
  the one the rest of the board decides: after the candidate, the one string of the other side
  in this corner with two liberties that the needer, to move, captures in a ladder reading the
  corner's stones alone, with a chase that runs out of the corner; if there is none, the same
  after each of the next :data:`AHEAD` moves of the book's main line where the needer is to move
  (the ladder the book's line leads to). None, or several at once: ``unknown``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from joseki.core.conditions import Condition, parse_condition
from joseki.core.geometry import Point, Transform
from joseki.core.ladder import FAILS, UNKNOWN, WORKS, Reading, board_of, ladder_from, read_ladder, string_at
from joseki.core.notation import format_gtp_vertex
from joseki.core.position import LocalBoard
from joseki.core.steps import Colour, other
from joseki.core.zone import in_zone

AHEAD = 6
"""How many moves of the book's main line after the candidate are searched for the ladder its words mean."""
_KEY = re.compile(r"^(no)?ladder_(own|other)(2?)(?:_setup_(own|other))?\s*=\s*(.*)$")
_ZONE = re.compile(r"\{p:([A-S]{2})\}")
_COLOUR = re.compile(r"\{c:([12]):[^{}]*\}")
_FAVOURABLE = r"(?:a |the )?(?:favou?rable |good )?(?:ladder|shicho)"
_NEEDS = re.compile(r"\{c:([12]):[^{}]*\}\s+(?:must|should|needs? to|has to)\s+have\s+"
                    + _FAVOURABLE + r"|\{c:([12]):[^{}]*\}\s+needs\s+" + _FAVOURABLE
                    + r"|\b(?:if|when)\s+\{c:([12]):[^{}]*\}\s+(?:has|have|gets)\s+" + _FAVOURABLE, re.I)
_FAVOURS = re.compile(r"\bwith\s+(?:a|the)\s+favou?rable\s+ladder"
                      r"|\b(?:if|when)\s+the\s+ladder\s+(?:is\s+favou?rable|works|favou?rs)"
                      r"|\bwith\s+the\s+ladder\b|\bneeds?\s+(?:a|the)\s+(?:favou?rable\s+)?ladder", re.I)
_AGAINST = re.compile(r"\b(?:if|when)\s+(?:the\s+)?ladders?\s+(?:is|are)\s+(?:unfavou?rable|not\s+favou?rable|bad)"
                      r"|\bwithout\s+(?:a|the)\s+(?:favou?rable\s+)?ladder|\b(?:does\s*n[o']t|do\s*n[o']t|does\s+not)\s+"
                      r"have\s+(?:a|the)\s+(?:favou?rable\s+)?ladder"
                      r"|\bladder\s+(?:does\s*n[o']t|does\s+not)\s+work", re.I)
_MIXED = re.compile(r"\bif not\b|\botherwise\b|\bregardless\b|\beven (?:if|with)\b|\bmistake\b|\bor\b", re.I)


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


def check_ladders(stored: list[Condition] | list[str], setting: Setting,
                  shown: Callable[[Condition], str] = str) -> list[LadderCheck]:
    """A check for each ladder condition of a candidate (Pachi's setup keys go with their ladder key).

    ``stored``: the conditions, or their ``kind: text`` forms as the book keeps them.
    """
    conditions = [c for c in map(_parsed, stored) if c is not None]
    keys = [(m, c) for c in conditions if c.kind == "ladder" and (m := _KEY.match(c.text)) is not None]
    setups: dict[tuple[str, str], dict[str, list[Point]]] = {}
    for m, c in keys:
        if m.group(4):
            group = setups.setdefault((m.group(2), m.group(3)), {})
            group.setdefault(m.group(4), []).extend(_points(c.text, setting.transform))
    checks = []
    for c in conditions:
        if c.kind != "ladder":
            continue
        m = _KEY.match(c.text)
        if m is None:
            checks.append(_words(c, shown(c), setting))
        elif not m.group(4):
            checks.append(_pachi(m, shown(c), setting, setups.get((m.group(2), m.group(3)), {})))
    return checks


def _parsed(condition: Condition | str) -> Condition | None:
    if isinstance(condition, Condition):
        return condition
    try:
        return parse_condition(condition)
    except ValueError:
        return None


def _points(text: str, transform: Transform) -> list[Point]:
    return [transform.to_board((ord(z[0]) - 65, ord(z[1]) - 65), 19) for z in _ZONE.findall(text)]


def _pachi(m: re.Match[str], text: str, setting: Setting, setup: dict[str, list[Point]]) -> LadderCheck:
    needed = FAILS if m.group(1) else WORKS
    points = _points(m.group(5), setting.transform)
    if len(points) != 1:
        return LadderCheck(text, UNKNOWN, needed, "the key names no single point")
    board = setting.board.copy()
    own = setting.mover
    for side, colour in (("own", own), ("other", other(own))):
        for p in setup.get(side, []):
            if p not in board.stones:
                board.play(colour, p, lenient=True)
    chaser = own if m.group(2) == "own" else other(own)
    reading = ladder_from(board, points[0], chaser)
    fmt = setting.fmt
    if reading is None:
        return LadderCheck(text, UNKNOWN, needed, f"no {_name(other(chaser))} string with two liberties next to "
                                                  f"{fmt(points[0])} here")
    return LadderCheck(text, reading.verdict, needed, f"{_name(chaser)} ataris at {fmt(points[0])}: "
                       + explain(reading, fmt), chaser, reading.line)


def _words(condition: Condition, text: str, setting: Setting) -> LadderCheck:
    body = condition.text
    needs, favours, against = _NEEDS.search(body), _FAVOURS.search(body), _AGAINST.search(body)
    positive = needs is not None or favours is not None
    if len(_ZONE.findall(body)) > 1 or _MIXED.search(body) or positive == (against is not None):
        return LadderCheck(text, UNKNOWN, None, "the words do not say who needs which ladder")
    colours = set(_COLOUR.findall(body))
    if needs is not None:
        role = next(g for g in needs.groups() if g)
    elif len(colours) == 1:
        role = colours.pop()
    elif not colours:
        role = None  # "with a favourable ladder": the player of the move
    else:
        return LadderCheck(text, UNKNOWN, None, "the words do not say whose ladder")
    needer = setting.mover if role is None else setting.first if role == "1" else other(setting.first)
    needed = FAILS if against is not None else WORKS
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
