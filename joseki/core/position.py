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
from collections.abc import Iterable
from functools import cache

from joseki.core.errors import BadInput
from joseki.core.geometry import Point
from joseki.core.notation import TENUKI, format_zone_point
from joseki.core.steps import Colour, iter_points, other
from joseki.core.zone import ZONE_BOARD_SIZE

_MASK = (1 << 64) - 1


def _zobrist(kind: int, col: int, row: int) -> int:
    digest = hashlib.blake2b(f"{kind}:{col}:{row}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


_TABLE = [[[_zobrist(k, c, r) for r in range(ZONE_BOARD_SIZE)] for c in range(ZONE_BOARD_SIZE)] for k in (0, 1)]


@cache
def neighbour_table(size: int) -> dict[Point, tuple[Point, ...]]:
    """Each point's orthogonal neighbours on a ``size`` board."""
    return {(x, y): tuple((a, b) for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                          if 0 <= a < size and 0 <= b < size)
            for x in range(size) for y in range(size)}


_OTHER = {"b": "w", "w": "b"}

OCCUPIED = "is on an occupied point"
SUICIDE = "is suicide"


class IllegalMoveError(BadInput):
    """A move on an occupied point or a suicide; ``reason`` (:data:`OCCUPIED`, :data:`SUICIDE`) says which;
    ``message`` names the move as its caller knows it (default: by its point)."""

    def __init__(self, point: Point, reason: str, message: str | None = None) -> None:
        super().__init__(message or f"move at {point} {reason}")
        self.point, self.reason = point, reason

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[Point, str, str]]:
        """Pickled with its three arguments (a worker process's error reaches the caller whole)."""
        return IllegalMoveError, (self.point, self.reason, str(self))


class LocalBoard:
    """A zone's stones (or a whole board's), played with captures; suicide only where the rules allow it."""

    def __init__(self, size: int = ZONE_BOARD_SIZE) -> None:
        self.size = size
        self.stones: dict[Point, Colour] = {}
        self._table = neighbour_table(size)

    def copy(self) -> LocalBoard:
        board = LocalBoard(self.size)
        board.stones = dict(self.stones)
        return board

    def _dead_string(self, point: Point) -> set[Point] | None:
        """The string at ``point`` if it has no liberty; None as soon as one is found."""
        stones, table = self.stones, self._table
        colour = stones[point]
        string, frontier = {point}, [point]
        while frontier:
            for q in table[frontier.pop()]:
                owner = stones.get(q)
                if owner is None:
                    return None
                if owner == colour and q not in string:
                    string.add(q)
                    frontier.append(q)
        return string

    def remove(self, point: Point, removed: list[tuple[Point, Colour]]) -> None:
        """Undo :meth:`play` at ``point`` that removed ``removed``."""
        del self.stones[point]
        for p, colour in removed:
            self.stones[p] = colour

    def play(self, colour: Colour, point: Point, lenient: bool = False,
             suicide: bool = False) -> list[tuple[Point, Colour]]:
        """Put a stone of ``colour`` at ``point``; returns the stones it removed, with their colours.

        IllegalMoveError if the point is taken or the move is suicide, unless ``lenient``: a book
        line whose zone lost stones to moves outside it may play on a point the local board
        still holds (the stone there is replaced) or seem to commit suicide (the stone stays).
        With ``suicide`` (rules that allow it, see :func:`allows_suicide`) a suicide removes
        the mover's own string.
        """
        stones, table = self.stones, self._table
        removed: list[tuple[Point, Colour]] = []
        if point in stones:
            if not lenient:
                raise IllegalMoveError(point, OCCUPIED)
            removed.append((point, stones[point]))
        stones[point] = colour
        enemy = _OTHER[colour]
        free = False
        for q in table[point]:
            owner = stones.get(q)
            if owner is None:
                free = True
            elif owner == enemy:
                for r in table[q]:  # most strings have a liberty next to the stone: no search
                    if r not in stones:
                        break
                else:
                    dead = self._dead_string(q)
                    if dead is not None:
                        removed.extend((p, stones.pop(p)) for p in dead)
        if not lenient and not free and not removed and (own := self._dead_string(point)) is not None:
            if not suicide:
                del stones[point]
                raise IllegalMoveError(point, SUICIDE)
            removed.extend((p, stones.pop(p)) for p in own if p != point)
            del stones[point]
        return removed


SUICIDE_RULES = frozenset({"nz", "newzealand", "tromptaylor", "tt", "ing", "goe", "ings"})
"""SGF ``RU`` values (lower case, letters only) of the rules that allow suicide."""


def allows_suicide(rules: str) -> bool:
    """Whether an SGF ``RU`` value names rules that allow suicide (New Zealand, Tromp-Taylor, Ing)."""
    return "".join(c for c in rules.lower() if c.isalpha()) in SUICIDE_RULES


def position_key(stones: dict[Point, Colour], to_move: Colour) -> int:
    """The transposition key of zone-frame ``stones`` with ``to_move`` to play (signed 64-bit)."""
    plain = swapped = 0
    for (col, row), colour in stones.items():
        kind = 0 if colour == to_move else 1
        plain ^= _TABLE[kind][col][row]
        swapped ^= _TABLE[kind][row][col]
    return _signed(min(plain, swapped))


def replay(steps: str, first: Colour = "b") -> tuple[LocalBoard, Colour]:
    """The local board after a canonical step string, and the colour to move.

    Stones are placed in the zone frame; ``XX`` passes the local turn. Book lines are
    replayed leniently (see :meth:`LocalBoard.play`).
    """
    board = LocalBoard()
    colour = first
    for zpoint in iter_points(steps):
        if zpoint is not None:
            board.play(colour, zpoint, lenient=True)
        colour = other(colour)
    return board, colour


def steps_key(steps: str) -> int:
    """The transposition key of the position a step string reaches."""
    board, to_move = replay(steps)
    return position_key(board.stones, to_move)


_TWO_64 = 1 << 64


def _signed(key: int) -> int:
    return key - _TWO_64 if key >> 63 else key


def _wide_table(colour: Colour) -> dict[Point, int]:
    """Each point's Zobrist values for a ``colour`` stone, packed in one 256-bit integer.

    From the low end, 64 bits each: the plain frame with Black as "own", plain with White as
    "own", then the reflected frame with Black, then with White as "own".
    """
    own, their = (_TABLE[0], _TABLE[1]) if colour == "b" else (_TABLE[1], _TABLE[0])
    return {(c, r): own[c][r] | their[c][r] << 64 | own[r][c] << 128 | their[r][c] << 192
            for c in range(ZONE_BOARD_SIZE) for r in range(ZONE_BOARD_SIZE)}


_WIDE = {"b": _wide_table("b"), "w": _wide_table("w")}
_TOKEN_POINTS = {format_zone_point(p): p for p in _WIDE["b"]}


def keys_along(strings: Iterable[str]) -> dict[str, int]:
    """Position keys of every non-empty prefix of ``strings``, in one depth-first walk of their trie.

    Sorted, the strings come in depth-first order; the walk plays and undoes one move at a
    time and keeps the four Zobrist hashes of :func:`position_key` (two frames x two colours
    to move) up to date by XOR, so each key costs one move instead of a replay. Equal to
    :func:`steps_key` of each prefix. The keys come in sorted order of their prefixes.
    """
    board = LocalBoard()
    wide = 0
    path = ""
    stack: list[tuple[Point | None, list[tuple[Point, Colour]], int]] = []  # move, its captures, hash before
    keys: dict[str, int] = {}
    for steps in sorted(set(strings)):
        while not steps.startswith(path):
            point, removed, wide = stack.pop()
            if point is not None:
                board.remove(point, removed)
            path = path[:-2]
        for end in range(len(path) + 2, len(steps) + 1, 2):
            token = steps[end - 2 : end]
            point = _TOKEN_POINTS.get(token)
            if point is None:
                if token != TENUKI:
                    raise BadInput(f"bad step {token!r} in {steps!r}")
                stack.append((None, [], wide))
            else:
                colour: Colour = "b" if end % 4 == 2 else "w"
                removed = board.play(colour, point, True)  # lenient
                stack.append((point, removed, wide))
                for p, c in removed:
                    wide ^= _WIDE[c][p]
                wide ^= _WIDE[colour][point]
            key = (min(wide & _MASK, wide >> 128 & _MASK) if end % 4 == 0  # Black to move
                   else min(wide >> 64 & _MASK, wide >> 192))
            keys[steps[:end]] = key - _TWO_64 if key >> 63 else key
        path = steps
    return keys
