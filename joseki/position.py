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


def _neighbour_table(size: int) -> dict[Point, tuple[Point, ...]]:
    return {(x, y): tuple((a, b) for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                          if 0 <= a < size and 0 <= b < size)
            for x in range(size) for y in range(size)}


_NEIGHBOURS: dict[int, dict[Point, tuple[Point, ...]]] = {}
_OTHER = {"b": "w", "w": "b"}


class LocalBoard:
    """A zone's stones, played with captures and no suicide."""

    def __init__(self, size: int = ZONE_BOARD_SIZE) -> None:
        self.size = size
        self.stones: dict[Point, Color] = {}

    def copy(self) -> LocalBoard:
        board = LocalBoard(self.size)
        board.stones = dict(self.stones)
        return board

    def _neighbours(self, point: Point) -> tuple[Point, ...]:
        table = _NEIGHBOURS.get(self.size)
        if table is None:
            table = _NEIGHBOURS[self.size] = _neighbour_table(self.size)
        return table[point]

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

    def remove(self, point: Point, removed: list[tuple[Point, Color]]) -> None:
        """Undo :meth:`play` at ``point`` that removed ``removed``."""
        del self.stones[point]
        for p, color in removed:
            self.stones[p] = color

    def play(self, color: Color, point: Point, lenient: bool = False) -> list[tuple[Point, Color]]:
        """Put a stone of ``color`` at ``point``; returns the stones it removed, with their colours.

        ValueError if the point is taken or the move is suicide, unless ``lenient``: a book
        line whose zone lost stones to moves outside it may play on a point the local board
        still holds (the stone there is replaced) or seem to commit suicide (the stone stays).
        """
        removed: list[tuple[Point, Color]] = []
        if point in self.stones:
            if not lenient:
                raise ValueError(f"point {point} is already occupied")
            removed.append((point, self.stones[point]))
        self.stones[point] = color
        enemy = _OTHER[color]
        for q in self._neighbours(point):
            if self.stones.get(q) == enemy:
                group, free = self._group(q)
                if not free:
                    for p in group:
                        removed.append((p, self.stones.pop(p)))
        if not lenient and len(removed) == 0 and not self._group(point)[1]:
            del self.stones[point]
            raise ValueError(f"move at {point} is suicide")
        return removed


def position_key(stones: dict[Point, Color], to_move: Color) -> int:
    """The transposition key of zone-frame ``stones`` with ``to_move`` to play (signed 64-bit)."""
    plain = swapped = 0
    for (col, row), color in stones.items():
        kind = 0 if color == to_move else 1
        plain ^= _TABLE[kind][col][row]
        swapped ^= _TABLE[kind][row][col]
    return _signed(min(plain, swapped))


def replay(steps: str, first: Color = "b") -> tuple[LocalBoard, Color]:
    """The local board after a canonical step string, and the colour to move.

    Stones are placed in the zone frame; ``XX`` passes the local turn. Book lines are
    replayed leniently (see :meth:`LocalBoard.play`).
    """
    board = LocalBoard()
    color = first
    for zpoint in iter_points(steps):
        if zpoint is not None:
            board.play(color, zpoint, lenient=True)
        color = other(color)
    return board, color


def steps_key(steps: str) -> int:
    """The transposition key of the position a step string reaches."""
    board, to_move = replay(steps)
    return position_key(board.stones, to_move)


def _signed(key: int) -> int:
    return key - (1 << 64) if key >= 1 << 63 else key


def keys_along(prefixes: list[str]) -> dict[str, int]:
    """Position keys of every string of a prefix-closed set, in one depth-first walk.

    Sorted, the strings come in depth-first order of their trie; the walk plays and undoes
    one move at a time and keeps the Zobrist hashes up to date by XOR, so each key costs one
    move instead of a replay. Equal to :func:`steps_key` of each string.
    """
    board = LocalBoard()
    hashes = [0, 0, 0, 0]  # plain/first-is-own, plain/second-is-own, reflected/first, reflected/second
    stack: list[tuple[str, Point | None, list[tuple[Point, Color]], Color]] = []
    keys: dict[str, int] = {}

    def toggle(point: Point, color: Color) -> None:
        col, row = point
        own, their = (_TABLE[0], _TABLE[1]) if color == "b" else (_TABLE[1], _TABLE[0])
        hashes[0] ^= own[col][row]
        hashes[1] ^= their[col][row]
        hashes[2] ^= own[row][col]
        hashes[3] ^= their[row][col]

    for steps in sorted(prefixes):
        while stack and not steps.startswith(stack[-1][0]):
            _, point, removed, color = stack.pop()
            if point is not None:
                toggle(point, color)
                for p, c in removed:
                    toggle(p, c)
                board.remove(point, removed)
        parent = stack[-1][0] if stack else ""
        if len(steps) != len(parent) + 2:
            raise ValueError(f"prefix set is not closed: {steps!r} without its parent")
        color = "b" if (len(steps) // 2) % 2 == 1 else "w"
        token = steps[-2:]
        if token == "XX":
            stack.append((steps, None, [], color))
        else:
            point = (ord(token[0]) - 65, ord(token[1]) - 65)
            removed = board.play(color, point, lenient=True)
            for p, c in removed:
                toggle(p, c)
            toggle(point, color)
            stack.append((steps, point, removed, color))
        first_to_move = color == "w"
        keys[steps] = _signed(min(hashes[0], hashes[2]) if first_to_move else min(hashes[1], hashes[3]))
    return keys
