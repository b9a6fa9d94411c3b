"""Local positions: a zone's stones with captures, and a key that recognises transpositions.

A :class:`LocalBoard` holds one zone's stones on an otherwise empty 19x19 board, in the
zone's frame (the corner at (0, 0)), and plays moves with captures. Its :func:`position_key`
is a 64-bit Zobrist hash of the stones, with colours written relative to the local side to
move ("own" / "other"), minimised over the two reflections of the corner frame. So the key
is the same for the eight forms of a position and for either colour playing it, equal for
two move orders that reach the same stones with the same side to move, and (but for a hash
collision) different for different stones or a different side to move.
"""

from __future__ import annotations

import hashlib

from joseki.geometry import Point
from joseki.steps import Color, iter_points, other
from joseki.zone import ZONE_BOARD_SIZE

_MASK = (1 << 64) - 1


def _zobrist(kind: int, col: int, row: int) -> int:
    digest = hashlib.blake2b(f"{kind}:{col}:{row}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


_TABLE = [[[_zobrist(k, c, r) for r in range(ZONE_BOARD_SIZE)] for c in range(ZONE_BOARD_SIZE)] for k in (0, 1)]


class LocalBoard:
    """A zone's stones, played with captures and no suicide."""

    def __init__(self, size: int = ZONE_BOARD_SIZE) -> None:
        self.size = size
        self.stones: dict[Point, Color] = {}

    def copy(self) -> LocalBoard:
        board = LocalBoard(self.size)
        board.stones = dict(self.stones)
        return board

    def _neighbours(self, point: Point) -> list[Point]:
        x, y = point
        n = self.size
        return [(a, b) for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if 0 <= a < n and 0 <= b < n]

    def _group(self, point: Point) -> tuple[set[Point], bool]:
        """The string at ``point`` and whether it has a liberty."""
        color = self.stones[point]
        group, frontier, free = {point}, [point], False
        while frontier:
            for q in self._neighbours(frontier.pop()):
                owner = self.stones.get(q)
                if owner is None:
                    free = True
                elif owner == color and q not in group:
                    group.add(q)
                    frontier.append(q)
        return group, free

    def play(self, color: Color, point: Point) -> list[Point]:
        """Put a stone of ``color`` at ``point``; returns the captured points.

        ValueError if the point is taken or the move is suicide.
        """
        if point in self.stones:
            raise ValueError(f"point {point} is already occupied")
        self.stones[point] = color
        captured: list[Point] = []
        for q in self._neighbours(point):
            if self.stones.get(q) == other(color):
                group, free = self._group(q)
                if not free:
                    captured.extend(group)
                    for p in group:
                        del self.stones[p]
        if not captured and not self._group(point)[1]:
            del self.stones[point]
            raise ValueError(f"move at {point} is suicide")
        return captured


def position_key(stones: dict[Point, Color], to_move: Color) -> int:
    """The transposition key of zone-frame ``stones`` with ``to_move`` to play (signed 64-bit)."""
    plain = swapped = 0
    for (col, row), color in stones.items():
        kind = 0 if color == to_move else 1
        plain ^= _TABLE[kind][col][row]
        swapped ^= _TABLE[kind][row][col]
    key = min(plain, swapped)
    return key - (1 << 64) if key >= 1 << 63 else key


def replay(steps: str, first: Color = "b") -> tuple[LocalBoard, Color]:
    """The local board after a canonical step string, and the colour to move.

    Stones are placed in the zone frame; ``XX`` passes the local turn. A token on a taken
    point (a stone played back after a capture is fine) raises ValueError.
    """
    board = LocalBoard()
    color = first
    for zpoint in iter_points(steps):
        if zpoint is not None:
            board.play(color, zpoint)
        color = other(color)
    return board, color


def steps_key(steps: str) -> int:
    """The transposition key of the position a step string reaches."""
    board, to_move = replay(steps)
    return position_key(board.stones, to_move)
