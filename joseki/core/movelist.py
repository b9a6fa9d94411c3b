"""A game's compact move list with captures: what the pattern index keeps of each game (pure, no I/O).

Replaying a game needs the rules (strings, liberties, captures); searching many games must not. So each
game is replayed once, when it is indexed, and kept as a list of 16-bit records: one per setup stone,
one per move (a pass too) and one per stone that move captured, right after it. A record holds the
point's index (:func:`point_index`, ``x * 19 + y``; :data:`PASS` for a pass) in its low 9 bits, and
flags: :data:`WHITE` (the stone's colour), :data:`CAPTURE` (the point is emptied by the move before),
:data:`SETUP` (a stone on the board before the first move). Replaying the list is then setting and
clearing points, with no rule to apply. Only 19x19 boards are kept.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from joseki.core.errors import BadInput
from joseki.core.geometry import Point
from joseki.core.readboard import BLACK, EMPTY, ReadBoard
from joseki.core.readboard import WHITE as WHITE_CODE
from joseki.core.steps import Colour

SIZE = 19
POINTS = SIZE * SIZE
PASS = POINTS
"""The point index of a pass."""
POINT_MASK = 0x1FF
WHITE = 1 << 9
CAPTURE = 1 << 10
SETUP = 1 << 11
STATE = {"b": BLACK, "w": WHITE_CODE}
"""A colour's code on a board of states (``0`` empty, ``1`` black, ``2`` white)."""


def point_index(point: Point) -> int:
    """The index of a board point: ``x * 19 + y`` (columns from the left, rows from the top)."""
    return point[0] * SIZE + point[1]


def index_point(index: int) -> Point:
    """The board point of a point index (the inverse of :func:`point_index`)."""
    return divmod(index, SIZE)


@dataclass(frozen=True, slots=True)
class Move:
    """One move of a replayed game: its colour code (1 black, 2 white), point index (:data:`PASS`) and the
    point indices of the stones it removed."""

    state: int
    index: int
    captured: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MoveList:
    """A game as its setup stones (point index, colour code) and its moves with their captures."""

    setup: tuple[tuple[int, int], ...]
    moves: tuple[Move, ...]

    def boards(self) -> Iterator[list[int]]:
        """The board (a state per point index) before the first move, then after each move: one list, changed in
        place, so copy what must be kept."""
        board = [EMPTY] * POINTS
        for index, state in self.setup:
            board[index] = state
        yield board
        for move in self.moves:
            if move.index != PASS:
                board[move.index] = move.state
            for index in move.captured:
                board[index] = EMPTY
            yield board


    def overwrite(self) -> int | None:
        """The number of the first move played on a stone (a record's editor lets one replace it), None if none."""
        taken = {index for index, _ in self.setup}
        for number, move in enumerate(self.moves, 1):
            if move.index in taken:
                return number
            if move.index != PASS:
                taken.add(move.index)
            taken.difference_update(move.captured)
        return None


def replay(moves: Sequence[tuple[Colour, Point | None]], stones: Mapping[Point, Colour] | None = None) -> MoveList:
    """The game of ``moves`` (after setup ``stones``) replayed with captures on a 19x19 board.

    A move on an occupied point replaces the stone (as a record's editor would show it); a suicide removes
    the mover's own string, so every rule set's games replay. Raises BadInput for a point off the board.
    """
    board = ReadBoard({}, SIZE)
    cells = board.board
    to_board = board.index
    setup: list[tuple[int, int]] = []
    for spot, colour in (stones or {}).items():
        _check(spot)
        cells[to_board[spot]] = STATE[colour]
        setup.append((point_index(spot), STATE[colour]))
    played: list[Move] = []
    for colour, point in moves:
        state = STATE[colour]
        if point is None:
            played.append(Move(state, PASS))
            continue
        _check(point)
        i = to_board[point]
        cells[i] = EMPTY
        result = board.play(state, i, None)
        if result is None:  # a suicide: the stone takes its own string off the board
            cells[i] = state
            own = board.dead(i) or {i}
            for p in own:
                cells[p] = EMPTY
            removed = sorted(own)
        else:
            removed = result[0]
        played.append(Move(state, point_index(point), tuple(sorted(point_index(board.point(p)) for p in removed))))
    return MoveList(tuple(setup), tuple(played))


def encode_replayed(moves: Sequence[tuple[Colour, Point | None]], stones: Mapping[Point, Colour],
                    captures: Mapping[int, Sequence[Point]]) -> bytes:
    """:func:`encode` of :func:`replay` for a legal game already replayed, without a second replay:
    ``captures[n]`` the points move ``n`` (from 0) emptied (a suicide's with its own point), as
    :attr:`joseki.sgf.game.Game.captures` keeps them. Raises BadInput for a point off the board.
    """
    words = array("H")
    for spot, colour in stones.items():
        _check(spot)
        words.append(point_index(spot) | SETUP | (WHITE if colour == "w" else 0))
    for number, (colour, point) in enumerate(moves):
        flag = WHITE if colour == "w" else 0
        if point is None:
            words.append(PASS | flag)
            continue
        _check(point)
        words.append((point[0] * SIZE + point[1]) | flag)
        taken = captures.get(number)
        if taken:
            words.extend(index | CAPTURE | flag for index in sorted(p[0] * SIZE + p[1] for p in taken))
    if sys.byteorder == "big":
        words.byteswap()
    return words.tobytes()


def _check(point: Point) -> None:
    if not (0 <= point[0] < SIZE and 0 <= point[1] < SIZE):
        raise BadInput(f"point {point} is off the {SIZE}x{SIZE} board")


def encode(game: MoveList) -> bytes:
    """The records of ``game``, little-endian 16-bit words."""
    words = array("H")
    for index, state in game.setup:
        words.append(index | SETUP | (WHITE if state == WHITE_CODE else 0))
    for move in game.moves:
        colour = WHITE if move.state == WHITE_CODE else 0
        words.append(move.index | colour)
        words.extend(index | CAPTURE | colour for index in move.captured)
    if sys.byteorder == "big":
        words.byteswap()
    return words.tobytes()


def decode(data: bytes) -> MoveList:
    """The game whose records are ``data`` (:func:`encode`); ValueError for records out of order."""
    words = array("H")
    words.frombytes(data)
    if sys.byteorder == "big":
        words.byteswap()
    setup: list[tuple[int, int]] = []
    moves: list[Move] = []
    captured: list[int] = []
    for word in _records(words):
        index, state = word & POINT_MASK, WHITE_CODE if word & WHITE else BLACK
        if word & SETUP:
            if moves:
                raise ValueError("a setup stone after a move")
            setup.append((index, state))
        elif word & CAPTURE:
            if not moves:
                raise ValueError("a capture before any move")
            captured.append(index)
        else:
            if moves and captured:
                moves[-1] = Move(moves[-1].state, moves[-1].index, tuple(captured))
            captured = []
            moves.append(Move(state, index))
    if moves and captured:
        moves[-1] = Move(moves[-1].state, moves[-1].index, tuple(captured))
    return MoveList(tuple(setup), tuple(moves))


def _records(words: Iterable[int]) -> Iterator[int]:
    for word in words:
        if word & POINT_MASK > PASS:
            raise ValueError(f"bad record {word:#06x}")
        yield word
