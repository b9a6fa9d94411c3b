"""Per-corner play-step tables of a whole-board move sequence (a game, or moves typed by a user).

Each move goes to at most one corner (:func:`owner`), so that a move on the edge shared by
two zones never lands in both tables: among the corners whose zone holds the point, the
one with a local stone nearest to it (Manhattan distance, at most
:data:`~joseki.core.zone.REACH`) takes it; with no stone that near, an empty corner whose start
square holds it (:func:`~joseki.core.zone.can_start`) takes it; else nobody does, and the move is
"elsewhere" for every corner (a side or centre move of the opening).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from joseki.core.geometry import MAX_SIZE, Corner, Point, Transform, check_point, nearest_corner
from joseki.core.steps import Colour, StepBuilder
from joseki.core.zone import REACH, ZONE_BOARD_SIZE, can_start, check_zone_size, in_zone


@dataclass(slots=True)
class CornerTable:
    """One corner's local moves in game order and its play-step string."""

    corner: Corner
    builder: StepBuilder = field(default_factory=StepBuilder)
    moves: list[tuple[int, Colour, Point]] = field(default_factory=list)
    """(move number from 1, colour, board point) of each local move."""
    bits: int = 0
    """The points of its moves, one bit each (:func:`_near`): a point played again is set once."""

    @property
    def transform(self) -> Transform:
        """The frame the string is written in: this corner, reflected when the string needed it."""
        return Transform(self.corner, bool(self.builder.swap))

    def add(self, number: int, colour: Colour, point: Point, zpoint: Point) -> None:
        """Record a local move at board ``point`` (``zpoint`` in this corner's unreflected frame)."""
        self.builder.local(colour, zpoint)
        self.moves.append((number, colour, point))
        self.bits |= _near(point)[1]

    def copy(self) -> CornerTable:
        """A table that later moves to this one leave as it is."""
        return CornerTable(self.corner, self.builder.copy(), list(self.moves), self.bits)

    def distance(self, point: Point) -> int | None:
        """Manhattan distance from ``point`` to this corner's nearest local stone, if at most REACH
        (0 for a stone played again where one of this corner's stones was captured)."""
        return _distance(self.bits, _near(point))


def _distance(bits: int, near: tuple[int, ...]) -> int | None:
    """:meth:`CornerTable.distance` of the stones ``bits`` from a point whose :func:`_near` is ``near``."""
    if not bits & near[0]:
        return None
    for d in range(REACH):
        if bits & near[d + 1]:
            return d
    return REACH


def _nearest(bits: list[int], zones: tuple[tuple[int, Point], ...], near: tuple[int, ...]) -> tuple[int, Point]:
    """The first of ``zones`` (corners' places in :data:`_CORNERS`, with their stones ``bits``) whose nearest stone is
    nearest a point whose :func:`_near` is ``near``, given that one is within REACH."""
    for ring in near[1:]:
        for zone in zones:
            if bits[zone[0]] & ring:
                return zone
    raise AssertionError("no stone within reach")


_NEAR: dict[Point, tuple[int, ...]] = {}
""":func:`_near` of each point asked so far."""


def _near(point: Point) -> tuple[int, ...]:
    """The points within REACH of ``point`` as one bit mask, then those at each distance 0..REACH.

    A point's bit is ``x * MAX_SIZE + y``, so a table's stones are one integer and "is a stone at
    distance d" one ``&`` (any board the geometry supports; BadInput for a point off all of them).
    """
    try:
        return _NEAR[point]
    except KeyError:
        pass
    x, y = check_point(point, MAX_SIZE)
    rings = [0] * (REACH + 1)
    for a in range(max(0, x - REACH), min(MAX_SIZE, x + REACH + 1)):
        for b in range(max(0, y - REACH), min(MAX_SIZE, y + REACH + 1)):
            d = abs(a - x) + abs(b - y)
            if d <= REACH:
                rings[d] |= 1 << (a * MAX_SIZE + b)
    within = 0
    for ring in rings:
        within |= ring
    found = _NEAR[point] = (within, *rings)
    return found


_CORNERS = tuple(Corner)
"""The corners in the order of a :class:`GameCorners`' tables: a spot names a corner by its place here."""

_Spot = tuple[tuple[tuple[int, Point], ...], tuple[int, Point] | None, tuple[int, ...]]

_SPOTS: dict[int, dict[Point, _Spot]] = {}
"""Per board size, :func:`_spot` of each point asked so far (a game asks for a few hundred)."""


def zones_of(point: Point, size: int = ZONE_BOARD_SIZE) -> tuple[tuple[Corner, Point], ...]:
    """The corners whose zone holds ``point``, with the point in each zone's frame."""
    zones = ((c, Transform(c).to_zone(point, size)) for c in Corner)
    return tuple((c, z) for c, z in zones if in_zone(z))


def _spot(point: Point, size: int) -> _Spot:
    """What :func:`_join` needs of ``point``: its zones in the order of the corners' names (the tie-break),
    the empty corner it may start (zone and frame) if any, and its :func:`_near`; a corner as its place in
    :data:`_CORNERS`."""
    try:
        return _SPOTS[size][point]
    except KeyError:
        pass
    zones = zones_of(point, size)
    home = nearest_corner(point, size)
    start = next(((_CORNERS.index(c), z) for c, z in zones if c is home and can_start(z)), None)
    named = tuple((_CORNERS.index(c), z) for c, z in sorted(zones, key=lambda cz: cz[0].value))
    found = _SPOTS.setdefault(size, {})[point] = (named, start, _near(point))
    return found


def owner(point: Point, tables: dict[Corner, CornerTable], size: int = ZONE_BOARD_SIZE) -> Corner | None:
    """The corner whose table ``point`` joins, or None if it joins none (see module doc)."""
    joined = _join(point, tables, size)
    return None if joined is None else joined[0]


def _join(point: Point, tables: dict[Corner, CornerTable], size: int) -> tuple[Corner, Point] | None:
    """The corner ``point`` joins and the point in that corner's frame, or None."""
    zones, start, near = _spot(point, size)
    best, chosen = REACH + 1, None
    for number, zpoint in zones:
        bits = tables[_CORNERS[number]].bits
        if bits & near[0] and (d := _distance(bits, near)) is not None and d < best:
            best, chosen = d, (_CORNERS[number], zpoint)
    if chosen is None and start is not None and not tables[_CORNERS[start[0]]].bits:
        return _CORNERS[start[0]], start[1]
    return chosen


def add_move(tables: dict[Corner, CornerTable], number: int, colour: Colour, point: Point,
             size: int = ZONE_BOARD_SIZE) -> Corner | None:
    """Add move ``number`` to the table it joins (:func:`owner`); that table's corner, None if it joins none."""
    joined = _join(point, tables, size)
    if joined is None:
        return None
    tables[joined[0]].add(number, colour, point, joined[1])
    return joined[0]


class GameCorners:
    """Every corner's step table of a move sequence, read as far as asked: :meth:`read_to` goes on from where
    the last call stopped, so a caller that needs only the start of each corner (where it leaves the book) reads
    no further (:func:`joseki.games.credit.credit_game`)."""

    def __init__(self, moves: Sequence[tuple[Colour, Point | None]], size: int = ZONE_BOARD_SIZE) -> None:
        check_zone_size(size)
        self.moves, self.size = moves, size
        self.tables = {c: CornerTable(c) for c in _CORNERS}
        self.read = 0
        """How many of the moves have been read."""

    def read_to(self, stop: int) -> dict[Corner, CornerTable]:
        """The tables after the first ``stop`` moves (all of them when ``stop`` is past the end)."""
        tables, size = self.tables, self.size
        order = list(tables.values())  # in the order of _CORNERS, whose places a spot names
        bits = [t.bits for t in order]
        local: tuple[list[tuple[Colour, Point]], ...] = ([], [], [], [])
        # each corner's local moves in its frame, fed to its builder at the end: the joins read only the bits
        played: tuple[list[tuple[int, Colour, Point]], ...] = ([], [], [], [])
        spots = _SPOTS.setdefault(size, {})
        start_at = self.read
        number = start_at
        for colour, point in self.moves[start_at:stop]:
            number += 1
            if point is None:
                continue
            spot = spots.get(point)
            zones, start, near = spot if spot is not None else _spot(point, size)
            # _join, inline (a game's few hundred moves each pay for its calls otherwise)
            within, chosen, rivals = near[0], None, False
            for zone in zones:
                if bits[zone[0]] & within:
                    if chosen is None:
                        chosen = zone
                    else:
                        rivals = True
            if rivals:  # corners with a stone within reach: the nearest stone decides, then the name
                chosen = _nearest(bits, zones, near)
            elif chosen is None:
                if start is None or bits[start[0]]:
                    continue
                chosen = start
            corner = chosen[0]
            local[corner].append((colour, chosen[1]))
            played[corner].append((number, colour, point))
            bits[corner] |= near[1]
        for corner, table in enumerate(order):
            if played[corner]:
                table.bits = bits[corner]
                table.moves += played[corner]
                table.builder.extend(local[corner])
        self.read = max(start_at, min(stop, len(self.moves)))
        return tables

    @property
    def finished(self) -> bool:
        """Whether every move has been read."""
        return self.read >= len(self.moves)


def corner_tables(moves: Sequence[tuple[Colour, Point | None]],
                  size: int = ZONE_BOARD_SIZE) -> dict[Corner, CornerTable]:
    """Every corner's step table after ``moves`` (colour and board point, None for a pass).

    A move that is not local to a corner is "elsewhere" for it; as only the colour of the
    game's last move matters for that (whose turn it is), it is told once, at the end.
    """
    tables = GameCorners(moves, size).read_to(len(moves))
    if moves:
        for table in tables.values():
            table.builder.elsewhere(moves[-1][0])
    return tables
