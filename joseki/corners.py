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

    @property
    def transform(self) -> Transform:
        """The frame the string is written in: this corner, reflected when the string needed it."""
        return Transform(self.corner, bool(self.builder.swap))

    def distance(self, point: Point) -> int | None:
        """Manhattan distance from ``point`` to this corner's nearest local stone; None when empty."""
        if not self.moves:
            return None
        x, y = point
        return min(abs(x - px) + abs(y - py) for _, _, (px, py) in self.moves)


def owner(point: Point, tables: dict[Corner, CornerTable], size: int = ZONE_BOARD_SIZE) -> Corner | None:
    """The corner whose table ``point`` joins, or None if it joins none (see module doc)."""
    near: list[tuple[int, str, Corner]] = []
    for corner in Corner:
        d = tables[corner].distance(point)
        if d is not None and d <= REACH and in_zone(Transform(corner).to_zone(point, size)):
            near.append((d, corner.value, corner))
    if near:
        return min(near)[2]
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
                table.builder.local(color, Transform(corner).to_zone(point, size))
                table.moves.append((number, color, point))
            else:
                table.builder.elsewhere(color)
    return tables
