"""Zone extent: which points belong to a corner zone (the one place this rule lives).

A point belongs to a corner's zone when, in that corner's frame, it lies within
:data:`NEAR` lines of one of the corner's edges and within :data:`FAR` lines of the other:
the 10x10 corner square plus two strips of two lines along each side, towards which joseki
develop; docs/performance.md ("Zone extent") gives how much of each real collection lies
outside the square and outside this shape.

Zones are defined for 19x19 only: the books are 19x19, and on smaller boards the four
zones would cover the whole board.
"""

from __future__ import annotations

from joseki.core.errors import BadInput
from joseki.core.geometry import Point

ZONE_BOARD_SIZE = 19
NEAR = 10
FAR = 12
START = 9
"""A game's move starts an empty corner only inside the corner's 9x9 square (off the centre lines)."""
REACH = 5
"""In a game, a move joins a started corner only within this Manhattan distance of one of its stones."""


def check_zone_size(size: int) -> None:
    """Raise BadInput unless corner zones are defined for boards of ``size``."""
    if size != ZONE_BOARD_SIZE:
        raise BadInput(f"corner zones are defined for 19x19 boards only, not {size}x{size}")


def can_start(zpoint: Point) -> bool:
    """True if a move at the zone point may be the first local move of an empty corner in a game."""
    return max(zpoint) < START


def in_zone(zpoint: Point) -> bool:
    """True if the zone point (either reflection) belongs to the corner zone."""
    col, row = zpoint
    return min(col, row) < NEAR and max(col, row) < FAR
