"""Per-corner play-step tables of a whole-board move sequence (a game, or moves typed by a user).

Each move goes to at most one corner (:func:`owner`), so that a move on the edge shared by
two zones never lands in both tables: among the corners whose zone holds the point, the
one with a local stone nearest to it (Manhattan distance, at most
:data:`~joseki.core.zone.REACH`) takes it; with no stone that near, an empty corner whose start
square holds it (:func:`~joseki.core.zone.can_start`) takes it; else nobody does, and the move is
"elsewhere" for every corner (a side or centre move of the opening).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from joseki.core.geometry import Corner, Point, Transform, nearest_corner
from joseki.core.steps import Color, StepBuilder
from joseki.core.zone import REACH, ZONE_BOARD_SIZE, can_start, check_zone_size, in_zone


@dataclass(slots=True)
class CornerTable:
    """One corner's local moves in game order and its play-step string."""

    corner: Corner
    builder: StepBuilder = field(default_factory=StepBuilder)
    moves: list[tuple[int, Color, Point]] = field(default_factory=list)
    """(move number from 1, colour, board point) of each local move."""
    points: set[Point] = field(default_factory=set)

    @property
    def transform(self) -> Transform:
        """The frame the string is written in: this corner, reflected when the string needed it."""
        return Transform(self.corner, bool(self.builder.swap))

    def add(self, number: int, color: Color, point: Point, zpoint: Point) -> None:
        """Record a local move at board ``point`` (``zpoint`` in this corner's unreflected frame)."""
        self.builder.local(color, zpoint)
        self.moves.append((number, color, point))
        self.points.add(point)

    def distance(self, point: Point) -> int | None:
        """Manhattan distance from ``point`` to this corner's nearest local stone, if at most REACH."""
        if not self.points:
            return None
        if point in self.points:
            return 0  # a stone played again where one of this corner's stones was captured
        x, y = point
        for d, ring in enumerate(_RINGS, start=1):
            for dx, dy in ring:
                if (x + dx, y + dy) in self.points:
                    return d
        return None


_RINGS = tuple(tuple((dx, dy) for dx in range(-d, d + 1) for dy in {d - abs(dx), abs(dx) - d})
               for d in range(1, REACH + 1))
"""The offsets at each Manhattan distance 1..REACH."""


def _zones_at(point: Point, size: int) -> tuple[tuple[Corner, Point], ...]:
    zones = ((c, Transform(c).to_zone(point, size)) for c in Corner)
    return tuple((c, z) for c, z in zones if in_zone(z))


_ZONES: dict[int, dict[Point, tuple[tuple[Corner, Point], ...]]] = {}
"""Per board size, :func:`zones_of` of each point asked so far (a game asks for a few hundred)."""


def zones_of(point: Point, size: int = ZONE_BOARD_SIZE) -> tuple[tuple[Corner, Point], ...]:
    """The corners whose zone holds ``point``, with the point in each zone's frame."""
    try:
        return _ZONES[size][point]
    except KeyError:
        found = _ZONES.setdefault(size, {})[point] = _zones_at(point, size)
        return found


def owner(point: Point, tables: dict[Corner, CornerTable], size: int = ZONE_BOARD_SIZE) -> Corner | None:
    """The corner whose table ``point`` joins, or None if it joins none (see module doc)."""
    joined = _join(point, tables, size)
    return None if joined is None else joined[0]


def _join(point: Point, tables: dict[Corner, CornerTable], size: int) -> tuple[Corner, Point] | None:
    """The corner ``point`` joins and the point in that corner's frame, or None."""
    best: tuple[int, str] | None = None
    chosen: tuple[Corner, Point] | None = None
    zones = zones_of(point, size)
    for corner, zpoint in zones:
        d = tables[corner].distance(point)
        if d is not None and (best is None or (d, corner.value) < best):
            best, chosen = (d, corner.value), (corner, zpoint)
    if chosen is not None:
        return chosen
    home = nearest_corner(point, size)
    for corner, zpoint in zones:
        if corner is home and not tables[home].points and can_start(zpoint):
            return corner, zpoint
    return None


def corner_tables(moves: list[tuple[Color, Point | None]], size: int = ZONE_BOARD_SIZE) -> dict[Corner, CornerTable]:
    """Every corner's step table after ``moves`` (colour and board point, None for a pass).

    A move that is not local to a corner is "elsewhere" for it; as only the colour of the
    game's last move matters for that (whose turn it is), it is told once, at the end.
    """
    check_zone_size(size)
    tables = {c: CornerTable(c) for c in Corner}
    for number, (color, point) in enumerate(moves, start=1):
        if point is not None:
            joined = _join(point, tables, size)
            if joined is not None:
                tables[joined[0]].add(number, color, point, joined[1])
    if moves:
        for table in tables.values():
            table.builder.elsewhere(moves[-1][0])
    return tables
