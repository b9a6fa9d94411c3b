"""Board geometry: the eight forms of a corner joseki.

A board point is ``(x, y)``: ``x`` the column counted from the left edge, ``y`` the row
counted from the top edge, both from 0 (the SGF convention). A *zone point* is
``(col, row)`` in a corner zone's own frame: ``col`` counted from the corner's vertical
edge, ``row`` from its horizontal edge, both from 0 (A = first line).

A :class:`Transform` is a corner plus an optional reflection across that corner's
diagonal. The eight transforms are the eight symmetries of the square board: every
board point has one zone point under each transform, and back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from joseki.core.errors import BadInput

Point = tuple[int, int]

MIN_SIZE = 7
MAX_SIZE = 25


class Corner(StrEnum):
    """A corner of the board, named as in the JSON output."""

    TOP_LEFT = "top-left"
    TOP_RIGHT = "top-right"
    BOTTOM_LEFT = "bottom-left"
    BOTTOM_RIGHT = "bottom-right"

    @property
    def right(self) -> bool:
        return self in (Corner.TOP_RIGHT, Corner.BOTTOM_RIGHT)

    @property
    def bottom(self) -> bool:
        return self in (Corner.BOTTOM_LEFT, Corner.BOTTOM_RIGHT)

    @classmethod
    def parse(cls, text: str) -> Corner:
        """The corner named ``text`` (``top-right``, ``tr``, ...); BadInput if none."""
        key = text.strip().lower().replace("_", "-")
        aliases = {"tl": "top-left", "tr": "top-right", "bl": "bottom-left", "br": "bottom-right"}
        key = aliases.get(key, key)
        for corner in cls:
            if corner.value == key:
                return corner
        raise BadInput(f"unknown corner {text!r} (expected top-left, top-right, bottom-left or bottom-right)")


def check_size(size: int) -> int:
    """Return ``size`` if the geometry supports it, else raise BadInput."""
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise BadInput(f"board size {size!r} not supported (expected {MIN_SIZE} to {MAX_SIZE})")
    return size


def check_point(point: Point, size: int) -> Point:
    """Return ``point`` if it lies on a board of ``size``, else raise BadInput."""
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise BadInput(f"point {point!r} is off a {size}x{size} board")
    return point


@dataclass(frozen=True, slots=True)
class Transform:
    """One of the eight forms: a corner, reflected across its diagonal when ``swap``."""

    corner: Corner
    swap: bool = False

    def to_zone(self, point: Point, size: int) -> Point:
        """The zone point of board ``point`` in this corner's (reflected) frame."""
        x, y = check_point(point, size)
        col = size - 1 - x if self.corner.right else x
        row = size - 1 - y if self.corner.bottom else y
        return (row, col) if self.swap else (col, row)

    def to_board(self, zpoint: Point, size: int) -> Point:
        """The board point of zone point ``zpoint``; the exact inverse of :meth:`to_zone`."""
        col, row = check_point(zpoint, size)
        if self.swap:
            col, row = row, col
        x = size - 1 - col if self.corner.right else col
        y = size - 1 - row if self.corner.bottom else row
        return (x, y)

    def reflected(self) -> Transform:
        """The same corner with the other reflection."""
        return Transform(self.corner, not self.swap)


ALL_TRANSFORMS: tuple[Transform, ...] = tuple(
    Transform(corner, swap) for corner in Corner for swap in (False, True)
)


def nearest_corner(point: Point, size: int) -> Corner:
    """The corner whose quadrant holds ``point``; centre lines go to the top and the right."""
    x, y = check_point(point, size)
    half = (size - 1) / 2
    right = x >= half
    bottom = y > half
    if bottom:
        return Corner.BOTTOM_RIGHT if right else Corner.BOTTOM_LEFT
    return Corner.TOP_RIGHT if right else Corner.TOP_LEFT
