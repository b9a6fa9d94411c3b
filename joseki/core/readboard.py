"""A whole board for reading out fights fast: one list with a border, moves played and taken back, a Zobrist hash.

:mod:`joseki.core.ladder` reads hundreds of positions a ladder. On a :class:`~joseki.core.position.LocalBoard`
(stones in a dict keyed by points) flooding strings and remembering each position by the set of all its stones
cost the most. Here a point is an index into one list with a border of :data:`EDGE` around the board, so a
neighbour is an index away and an off-board test is a colour; colours are small ints; and the position's
Zobrist hash is kept as moves are played and taken back (:meth:`ReadBoard.play`, :meth:`ReadBoard.undo`). The
rules are :meth:`~joseki.core.position.LocalBoard.play`'s: captures, no suicide; and the basic ko.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from joseki.core.geometry import Point
from joseki.core.position import OCCUPIED, SUICIDE
from joseki.core.steps import Colour

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
CODE = {"b": BLACK, "w": WHITE}
"""A colour's code on the board (the other colour's is ``3 - code``)."""


@lru_cache(maxsize=8)
def grid(size: int) -> tuple[list[Point | None], dict[Point, int], list[list[int]]]:
    """A ``size`` board as one list with a border: each index's point (None on the border), each point's index, and
    a Zobrist number per colour code and index.

    A point's index is ``(x + 1) * (size + 2) + (y + 1)``, so indices sort as the points do (by x, then y): a
    reader tries moves in the same order on either."""
    width = size + 2
    points: list[Point | None] = [None] * (width * width)
    index: dict[Point, int] = {}
    for x in range(size):
        for y in range(size):
            i = (x + 1) * width + y + 1
            points[i], index[(x, y)] = (x, y), i
    rng = random.Random(size)
    zobrist = [[0] * (width * width)] + [[rng.getrandbits(64) for _ in range(width * width)] for _ in (BLACK, WHITE)]
    return points, index, zobrist


@lru_cache(maxsize=8)
def neighbours(size: int) -> list[tuple[int, int, int, int]]:
    """Each index of a ``size`` board (:func:`grid`) and its four neighbours' indices (the border's own are
    meaningless): one look-up instead of four sums a visit, where strings are flooded."""
    width = size + 2
    return [(i - width, i + width, i - 1, i + 1) for i in range(width * width)]


class ReadBoard:
    """``stones`` on a ``size`` board (:func:`grid`): ``board`` the colour codes by index, ``key`` the position's
    Zobrist hash."""

    __slots__ = ("around", "board", "index", "key", "points", "size", "zobrist")

    def __init__(self, stones: dict[Point, Colour], size: int) -> None:
        self.size = size
        self.points, self.index, self.zobrist = grid(size)
        self.around = neighbours(size)
        board = bordered(stones, size)
        key = 0
        for point, c in stones.items():
            key ^= self.zobrist[CODE[c]][self.index[point]]
        self.board, self.key = board, key

    def string(self, i: int) -> tuple[set[int], set[int]]:
        """The string at index ``i`` and its liberties."""
        board, around = self.board, self.around
        colour = board[i]
        string, libs, frontier = {i}, set(), [i]
        while frontier:
            for q in around[frontier.pop()]:
                v = board[q]
                if v == EMPTY:
                    libs.add(q)
                elif v == colour and q not in string:
                    string.add(q)
                    frontier.append(q)
        return string, libs

    def in_atari(self, i: int) -> tuple[set[int], int] | None:
        """The string at index ``i`` and its one liberty, if it has one only (None as soon as a second shows)."""
        board, around = self.board, self.around
        colour = board[i]
        string, frontier = {i}, [i]
        lib: int | None = None
        while frontier:
            for q in around[frontier.pop()]:
                v = board[q]
                if v == EMPTY:
                    if lib is None:
                        lib = q
                    elif q != lib:
                        return None
                elif v == colour and q not in string:
                    string.add(q)
                    frontier.append(q)
        return None if lib is None else (string, lib)

    def dead(self, i: int) -> set[int] | None:
        """The string at index ``i`` if it has no liberty; None as soon as one is found."""
        return _dead(self.board, i, self.around)

    def play(self, colour: int, i: int, ko: int | None) -> tuple[list[int], int | None] | None:
        """Play code ``colour`` at index ``i`` if legal (not occupied, not suicide, not retaking the ko at ``ko``); the
        stones it removed (of the other colour) and the ko point it leaves."""
        board, around = self.board, self.around
        if board[i] != EMPTY or i == ko:
            return None
        board[i] = colour
        enemy = 3 - colour
        free = False
        removed: list[int] = []
        for q in around[i]:
            v = board[q]
            if v == EMPTY:
                free = True
            elif v == enemy:
                a, b, c, d = around[q]
                if not (board[a] and board[b] and board[c] and board[d]):
                    continue
                dead = _dead(board, q, around)
                if dead is not None:
                    for p in dead:
                        board[p] = EMPTY
                    removed.extend(dead)
        if not free and not removed and self.dead(i) is not None:
            board[i] = EMPTY
            return None
        zobrist = self.zobrist
        key = self.key ^ zobrist[colour][i]
        for p in removed:
            key ^= zobrist[enemy][p]
        self.key = key
        new_ko = None
        if len(removed) == 1:
            a, b, c, d = around[i]
            near = (board[a], board[b], board[c], board[d])
            if colour not in near and near.count(EMPTY) == 1:
                new_ko = removed[0]
        return removed, new_ko

    def undo(self, i: int, removed: list[int]) -> None:
        """Take back :meth:`play` at ``i`` that removed ``removed``."""
        board, zobrist = self.board, self.zobrist
        colour = board[i]
        enemy = 3 - colour
        board[i] = EMPTY
        key = self.key ^ zobrist[colour][i]
        for p in removed:
            board[p] = enemy
            key ^= zobrist[enemy][p]
        self.key = key

    def point(self, i: int) -> Point:
        point = self.points[i]
        assert point is not None
        return point


def bordered(stones: dict[Point, Colour], size: int) -> list[int]:
    """``stones`` as the colour codes of a ``size`` board with its border (:func:`grid`'s indices)."""
    width = size + 2
    cells = [EDGE] * (width * width)
    _, index, _ = grid(size)
    for i in index.values():
        cells[i] = EMPTY
    for point, colour in stones.items():
        cells[index[point]] = CODE[colour]
    return cells


def stones_of(cells: list[int], size: int) -> dict[Point, Colour]:
    """The stones of :func:`bordered` ``cells``."""
    points = grid(size)[0]
    return {point: "b" if code == BLACK else "w" for point, code in zip(points, cells, strict=True)
            if point is not None and code in (BLACK, WHITE)}


def play_line(cells: list[int], size: int, moves: Sequence[tuple[Colour, Point | None]], start: int, stop: int,
              suicide: bool) -> tuple[dict[int, list[Point]], tuple[int, str] | None]:
    """Play ``moves[start:stop]`` on :func:`bordered` ``cells`` (changed in place) with captures: the points each
    move that emptied some emptied (by move number; a suicide's own string with its point), and the first illegal
    move's number and reason (:data:`~joseki.core.position.OCCUPIED`, :data:`~joseki.core.position.SUICIDE`), None
    when all are legal.

    The rules are :meth:`~joseki.core.position.LocalBoard.play`'s, suicide only where ``suicide`` allows it; a
    game record's replay is one call, not a call a move, which is what reading many records costs.
    """
    points, index, _ = grid(size)
    around = neighbours(size)
    captures: dict[int, list[Point]] = {}
    number = start - 1
    for colour, point in moves[start:stop]:
        number += 1
        if point is None:
            continue
        i = index[point]
        if cells[i] != EMPTY:
            return captures, (number, OCCUPIED)
        if colour == "b":
            own, enemy = BLACK, WHITE
        else:
            own, enemy = WHITE, BLACK
        cells[i] = own
        free = False
        removed: list[int] | None = None
        for q in around[i]:
            v = cells[q]
            if v == EMPTY:
                free = True
            elif v == enemy:
                a, b, c, d = around[q]
                va, vb, vc, vd = cells[a], cells[b], cells[c], cells[d]
                if va and vb and vc and vd:  # no liberty beside it (EMPTY is 0): its string may have none
                    if va != enemy and vb != enemy and vc != enemy and vd != enemy:  # a lone stone
                        cells[q] = EMPTY
                        if removed is None:
                            removed = [q]
                        else:
                            removed.append(q)
                    elif (dead := _dead(cells, q, around)) is not None:
                        for p in dead:
                            cells[p] = EMPTY
                        if removed is None:
                            removed = list(dead)
                        else:
                            removed.extend(dead)
        if removed is not None:
            captures[number] = [points[p] for p in removed]  # type: ignore[misc]
        elif not free and (string := _dead(cells, i, around)) is not None:
            if not suicide:
                cells[i] = EMPTY
                return captures, (number, SUICIDE)
            for p in string:
                cells[p] = EMPTY
            captures[number] = [points[p] for p in string]  # type: ignore[misc]
    return captures, None


def _dead(cells: list[int], i: int, around: list[tuple[int, int, int, int]]) -> set[int] | None:
    """The string at index ``i`` if it has no liberty; None as soon as one is found (``around``: :func:`neighbours`)."""
    colour = cells[i]
    string, frontier = {i}, [i]
    while frontier:
        for q in around[frontier.pop()]:
            v = cells[q]
            if v == EMPTY:
                return None
            if v == colour and q not in string:
                string.add(q)
                frontier.append(q)
    return string
