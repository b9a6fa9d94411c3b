"""Per-corner play-step tables of a whole-board move sequence (a game, or moves typed by a user).

Each move goes to at most one corner (:func:`owner`), so that a move on the edge shared by
two zones never lands in both tables: among the corners whose zone holds the point, the
one with a local stone nearest to it (Manhattan distance, at most
:data:`~joseki.zone.REACH`) takes it; with no stone that near, an empty corner whose start
square holds it (:func:`~joseki.zone.can_start`) takes it; else nobody does, and the move is
"elsewhere" for every corner (a side or centre move of the opening).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from joseki.geometry import Corner, Point, Transform, nearest_corner
from joseki.steps import Color, StepBuilder
from joseki.zone import REACH, ZONE_BOARD_SIZE, can_start, check_zone_size, in_zone


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

    def add(self, number: int, color: Color, point: Point, size: int = ZONE_BOARD_SIZE) -> None:
        """Record a local move."""
        self.builder.local(color, Transform(self.corner).to_zone(point, size))
        self.moves.append((number, color, point))
        self.points.add(point)

    def distance(self, point: Point) -> int | None:
        """Manhattan distance from ``point`` to this corner's nearest local stone, if at most REACH."""
        if not self.points:
            return None
        x, y = point
        for d, ring in enumerate(_RINGS, start=1):
            for dx, dy in ring:
                if (x + dx, y + dy) in self.points:
                    return d
        return None


_RINGS = tuple(tuple((dx, dy) for dx in range(-d, d + 1) for dy in {d - abs(dx), abs(dx) - d})
               for d in range(1, REACH + 1))
"""The offsets at each Manhattan distance 1..REACH."""


def _zone_table(size: int) -> dict[Point, tuple[tuple[Corner, Point], ...]]:
    """For each point, the corners whose zone holds it, with its zone point there."""
    table: dict[Point, tuple[tuple[Corner, Point], ...]] = {}
    for x in range(size):
        for y in range(size):
            zones = ((c, Transform(c).to_zone((x, y), size)) for c in Corner)
            table[(x, y)] = tuple((c, z) for c, z in zones if in_zone(z))
    return table


_ZONES: dict[int, dict[Point, tuple[tuple[Corner, Point], ...]]] = {}


def zones_of(point: Point, size: int = ZONE_BOARD_SIZE) -> tuple[tuple[Corner, Point], ...]:
    """The corners whose zone holds ``point``, with the point in each zone's frame."""
    if size not in _ZONES:
        _ZONES[size] = _zone_table(size)
    return _ZONES[size][point]


def owner(point: Point, tables: dict[Corner, CornerTable], size: int = ZONE_BOARD_SIZE) -> Corner | None:
    """The corner whose table ``point`` joins, or None if it joins none (see module doc)."""
    best: tuple[int, str] | None = None
    chosen: Corner | None = None
    for corner, _ in zones_of(point, size):
        d = tables[corner].distance(point)
        if d is not None and (best is None or (d, corner.value) < best):
            best, chosen = (d, corner.value), corner
    if chosen is not None:
        return chosen
    home = nearest_corner(point, size)
    if not tables[home].moves and can_start(Transform(home).to_zone(point, size)):
        return home
    return None


def corner_tables(moves: list[tuple[Color, Point | None]], size: int = ZONE_BOARD_SIZE) -> dict[Corner, CornerTable]:
    """Every corner's step table after ``moves`` (colour and board point, None for a pass)."""
    check_zone_size(size)
    tables = {c: CornerTable(c) for c in Corner}
    for number, (color, point) in enumerate(moves, start=1):
        target = None if point is None else owner(point, tables, size)
        for corner, table in tables.items():
            if corner is target and point is not None:
                table.add(number, color, point, size)
            else:
                table.builder.elsewhere(color)
    return tables
