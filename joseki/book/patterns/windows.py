"""The window keys of a game's events: what the pattern index sorts events by (numpy, one game at a time).

An *event* is a change of one point: a stone placed (a setup stone too, at move 0) or a stone taken off by
a capture. Each event has five *shapes*. Four are one per diagonal direction: the 3x3 square with the
event's point at its corner in that direction, the three points just behind the point across one axis, and,
as one bit each, whether the seven points that make the square 4x4 hold a stone. The fifth is centred on the
point: its eight neighbours and three points two lines away, and seven more such points as bits. The 24-bit
*key* of a shape is the event's kind (:data:`PLACED_BLACK` ... :data:`EMPTIED_WHITE`) and the state of its
eleven key points after the move (:data:`EMPTY`, :data:`BLACK`, :data:`WHITE`, :data:`OFF` the board); the
seven *band* bits sit above it (:func:`pack`).

Why these: a pattern comes into being with some event at one of its points, so the index is looked up at
every point a pattern could be triggered from. A point on the pattern's edge or corner sees the pattern
only on one side; one of the four squares lies on that side, the points behind extend it along the edge,
and the band reaches one line further, so every trigger point of a pattern of 3x3 and more has a key that
lies mostly inside it. A point in the middle of a small pattern sees a quarter of it from each square, and
all of a 3x3 pattern from the centred shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from joseki.core.movelist import CAPTURE, PASS, POINT_MASK, SETUP, SIZE, WHITE

Array = npt.NDArray[np.int64]

EMPTY, BLACK, WHITE_STONE, OFF = 0, 1, 2, 3
"""A key point's state."""
PLACED_BLACK, PLACED_WHITE, EMPTIED_BLACK, EMPTIED_WHITE = 0, 1, 2, 3
"""An event's kind: a stone of that colour placed, or one of that colour taken off."""
KEY_CELLS = 11
KIND_SHIFT = 2 * KEY_CELLS
KEY_BITS = KIND_SHIFT + 2
KEY_MASK = (1 << KEY_BITS) - 1
BAND_CELLS = 7


@dataclass(frozen=True, slots=True)
class Shape:
    """One shape's key points and band points, as board steps ``(dx, dy)`` from the event's point (``direction``:
    its square's diagonal, ``(0, 0)`` for the centred shape).

    Key point ``i`` takes bits ``2i`` and ``2i + 1`` of the key: the points behind are the lowest, the square's
    nearest the highest, so keys that differ only behind the point are neighbours in sorted order."""

    direction: tuple[int, int]
    key: tuple[tuple[int, int], ...]
    band: tuple[tuple[int, int], ...]


def _shape(sx: int, sy: int) -> Shape:
    near = tuple((a * sx, b * sy) for a, b in ((0, 1), (1, 1), (1, 0)))
    far = tuple((a * sx, b * sy) for a, b in ((0, 2), (1, 2), (2, 2), (2, 1), (2, 0)))
    behind = tuple((-sx, b * sy) for b in range(3)) if sx == sy else tuple((a * sx, -sy) for a in range(3))
    band = tuple((3 * sx, b * sy) for b in range(4)) + tuple((a * sx, 3 * sy) for a in range(3))
    return Shape((sx, sy), behind + far + near, band)


def _centred() -> Shape:
    near = ((-1, -1), (1, -1), (-1, 1), (1, 1), (-1, 0), (0, -1), (1, 0), (0, 1))
    far = ((0, -2), (2, 0), (0, 2))
    band = ((-2, 0), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2), (-1, 2))
    return Shape((0, 0), far + near, band)


SHAPES: tuple[Shape, ...] = (*(_shape(sx, sy) for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1))), _centred())
"""The five shapes, in the order their arrays are kept."""
CENTRED = len(SHAPES) - 1
"""The shape centred on the event's point."""


def pack(kind: int, states: list[int], band: list[int]) -> int:
    """The packed key of an event of ``kind`` whose key points hold ``states`` and band points ``band`` (0/1)."""
    key = kind << KIND_SHIFT
    for i, state in enumerate(states):
        key |= state << (2 * i)
    for j, bit in enumerate(band):
        key |= bit << (KEY_BITS + j)
    return key


def _offsets() -> tuple[Array, Array]:
    steps = sorted({d for shape in SHAPES for d in shape.key + shape.band})
    return np.array([d[0] for d in steps], dtype=np.int64), np.array([d[1] for d in steps], dtype=np.int64)


_DX, _DY = _offsets()
_STEP = {(int(x), int(y)): i for i, (x, y) in enumerate(zip(_DX, _DY, strict=True))}
_KEY_COLUMNS = np.array([[_STEP[d] for d in shape.key] for shape in SHAPES], dtype=np.int64)
_BAND_COLUMNS = np.array([[_STEP[d] for d in shape.band] for shape in SHAPES], dtype=np.int64)


def record_states(words: npt.NDArray[np.uint16]) -> tuple[Array, Array, Array]:
    """Each record's point index, move number (0 for setup stones) and the state it leaves (0 empty, 1, 2)."""
    w = words.astype(np.int64)
    point = w & POINT_MASK
    is_move = (w & (SETUP | CAPTURE)) == 0
    move = np.cumsum(is_move)
    state = np.where(w & CAPTURE, 0, np.where(w & WHITE, 2, 1))
    return point, move, state


def events(words: npt.NDArray[np.uint16]) -> npt.NDArray[np.bool_]:
    """Which records change a point: all but passes and a suicide's own stone (put down and taken off in one move)."""
    w = words.astype(np.int64)
    point = w & POINT_MASK
    is_move = (w & (SETUP | CAPTURE)) == 0
    mover = np.maximum.accumulate(np.where(is_move, np.arange(len(w)), -1)) if len(w) else np.zeros(0, np.int64)
    own = ((w & CAPTURE) != 0) & (mover >= 0) & (point == point[np.maximum(mover, 0)])
    noop = own.copy()
    noop[mover[own]] = True
    found: npt.NDArray[np.bool_] = (point != PASS) & ~noop
    return found


StateAt = Callable[[Array, Array, Array], Array]
"""The state of each point index in each game after each move (0 empty, 1 black, 2 white)."""
CHUNK = 1 << 16
"""Events keyed at a time (bounds the temporary arrays)."""


def event_keys(words: npt.NDArray[np.uint16], record: Array, game: Array, move: Array, state: StateAt) -> Array:
    """The packed key (:func:`pack`) of each event ``record`` (of ``game``, at ``move``) in every shape:
    ``[len(SHAPES), len(record)]``.

    A captured stone's record keys what its point looks like after the move (empty, the capturing stone
    beside it); a setup stone's, the board after all setup stones.
    """
    packed = np.zeros((len(SHAPES), len(record)), dtype=np.int64)
    for lo in range(0, len(record), CHUNK):
        part = slice(lo, lo + CHUNK)
        packed[:, part] = _keys(words[record[part]].astype(np.int64), game[part], move[part], state)
    return packed


def _keys(w: Array, game: Array, move: Array, state: StateAt) -> Array:
    """The packed keys of records ``w`` (events) in every shape, one row of neighbours at a time (column-major)."""
    point = w & POINT_MASK
    x, y = point // SIZE, point % SIZE
    nx, ny = _DX[:, None] + x[None, :], _DY[:, None] + y[None, :]
    on = (nx >= 0) & (nx < SIZE) & (ny >= 0) & (ny < SIZE)
    spot = np.minimum(np.maximum(nx, 0), SIZE - 1) * SIZE + np.minimum(np.maximum(ny, 0), SIZE - 1)
    steps = len(_DX)
    found = state(np.tile(game, steps), spot.ravel(), np.tile(move, steps)).reshape(spot.shape)
    around = np.where(on, found, OFF)
    kind = np.where(w & WHITE, PLACED_WHITE, PLACED_BLACK)
    taken = np.flatnonzero(w & CAPTURE)
    if len(taken):
        before = state(game[taken], point[taken], move[taken] - 1)
        kind[taken] = np.where(before == WHITE_STONE, EMPTIED_WHITE, EMPTIED_BLACK)
    stone = (around == BLACK) | (around == WHITE_STONE)
    packed = np.empty((len(SHAPES), len(w)), dtype=np.int64)
    for s in range(len(SHAPES)):
        value = kind << KIND_SHIFT
        for i, column in enumerate(_KEY_COLUMNS[s]):
            value |= around[column] << (2 * i)
        for j, column in enumerate(_BAND_COLUMNS[s]):
            value |= stone[column].astype(np.int64) << (KEY_BITS + j)
        packed[s] = value
    return packed
