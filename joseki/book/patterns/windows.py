"""The window keys of a game's events: what the pattern index sorts events by (numpy, one game at a time).

An *event* is a change of one point: a stone placed (a setup stone too, at move 0) or a stone taken off by
a capture. Each event has four *shapes*, one per diagonal direction: the 3x3 square with the event's point
at its corner in that direction, the three points just behind the point across one axis, and, as one bit
each, whether the seven points that make the square 4x4 hold a stone. The 24-bit *key* of a shape is the
event's kind (:data:`PLACED_BLACK` ... :data:`EMPTIED_WHITE`) and the state of its eleven key points after
the move (:data:`EMPTY`, :data:`BLACK`, :data:`WHITE`, :data:`OFF` the board); the seven *band* bits sit
above it (:func:`pack`).

Why these: a pattern comes into being with some event at one of its points, so the index is looked up at
every point a pattern could be triggered from. A point on the pattern's edge or corner sees the pattern
only on one side; one of the four squares lies on that side, the points behind extend it along the edge,
and the band reaches one line further, so every trigger point of a pattern of 3x3 and more has a key that
lies mostly inside it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from joseki.core.errors import BadInput
from joseki.core.movelist import CAPTURE, PASS, POINT_MASK, POINTS, SETUP, SIZE, WHITE

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
_MOVE_BITS = 12
NO_EVENT = 0xFFFFFFFF
"""The packed key of a record that changes nothing (a pass, a stone put back on its own colour)."""


@dataclass(frozen=True, slots=True)
class Shape:
    """One direction's key points and band points, as board steps ``(dx, dy)`` from the event's point.

    Key point ``i`` takes bits ``2i`` and ``2i + 1`` of the key: the points behind are the lowest, the square's
    nearest the highest, so keys that differ only behind the point are neighbours in sorted order."""

    direction: tuple[int, int]
    key: tuple[tuple[int, int], ...]
    band: tuple[tuple[int, int], ...]


def _shape(sx: int, sy: int) -> Shape:
    near = tuple((a * sx, b * sy) for a, b in ((0, 1), (1, 1), (1, 0)))
    far = tuple((a * sx, b * sy) for a, b in ((0, 2), (1, 2), (2, 2), (2, 1), (2, 0)))
    if sx == sy:
        behind = tuple((-sx, b * sy) for b in range(3))
    else:
        behind = tuple((a * sx, -sy) for a in range(3))
    band = tuple((3 * sx, b * sy) for b in range(4)) + tuple((a * sx, 3 * sy) for a in range(3))
    return Shape((sx, sy), behind + far + near, band)


SHAPES: tuple[Shape, ...] = tuple(_shape(sx, sy) for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)))
"""The four shapes, in the order their arrays are kept."""


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
_KEY_WEIGHTS = (np.int64(1) << (2 * np.arange(KEY_CELLS, dtype=np.int64)))
_BAND_WEIGHTS = (np.int64(1) << (KEY_BITS + np.arange(BAND_CELLS, dtype=np.int64)))


def record_states(words: npt.NDArray[np.uint16]) -> tuple[Array, Array, Array]:
    """Each record's point index, move number (0 for setup stones) and the state it leaves (0 empty, 1, 2)."""
    w = words.astype(np.int64)
    point = w & POINT_MASK
    is_move = (w & (SETUP | CAPTURE)) == 0
    move = np.cumsum(is_move)
    state = np.where(w & CAPTURE, 0, np.where(w & WHITE, 2, 1))
    return point, move, state


class Timeline:
    """One game's changes sorted by point and move, to read the state of any point after any move."""

    def __init__(self, words: npt.NDArray[np.uint16]) -> None:
        point, move, state = record_states(words)
        real = point != PASS
        order = np.argsort(point[real] << _MOVE_BITS | move[real], kind="stable")
        self.keys = (point[real] << _MOVE_BITS | move[real])[order]
        self.states = state[real][order]

    def state(self, point: Array, move: Array) -> Array:
        """The state of each point index after the move of the same place (0 before any change)."""
        wanted = point << _MOVE_BITS | move
        at = np.searchsorted(self.keys, wanted, side="right") - 1
        safe = np.maximum(at, 0)
        known = (at >= 0) & ((self.keys[safe] >> _MOVE_BITS) == point) if len(self.keys) else at >= 0
        return np.where(known, self.states[safe] if len(self.keys) else 0, 0)


def game_keys(words: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint32]:
    """The packed key of every record of one game in every shape: ``[len(SHAPES), records]``, :data:`NO_EVENT`
    for a record that changes nothing (a pass, a suicide's own stone).

    A captured stone's record keys what its point looks like after the move (empty, the capturing stone
    beside it); a setup stone's, the board after all setup stones. Raises BadInput for a stone placed on
    another (a record :func:`joseki.sgf.game.read_game` refuses).
    """
    packed = np.full((len(SHAPES), len(words)), NO_EVENT, dtype=np.uint32)
    if len(words) == 0:
        return packed
    point, move, state = record_states(words)
    timeline = Timeline(words)
    spot = np.minimum(point, POINTS - 1)
    after = timeline.state(spot, move)
    setup = (words.astype(np.int64) & SETUP) != 0
    before = np.where(setup, 0, timeline.state(spot, move - 1))
    event = (point != PASS) & (after == state) & (after != before)
    if np.any(event & (state != 0) & (before != 0)):
        raise BadInput("a stone placed on another stone (the pattern index needs legal moves)")
    x, y = point[event] // SIZE, point[event] % SIZE
    nx, ny = x[:, None] + _DX[None, :], y[:, None] + _DY[None, :]
    on = (nx >= 0) & (nx < SIZE) & (ny >= 0) & (ny < SIZE)
    when = np.broadcast_to(move[event][:, None], nx.shape)
    around = np.where(on, timeline.state(np.where(on, nx * SIZE + ny, 0), when), OFF)
    kind = np.where(state[event] == 0, np.where(before[event] == WHITE_STONE, EMPTIED_WHITE, EMPTIED_BLACK),
                    np.where(state[event] == WHITE_STONE, PLACED_WHITE, PLACED_BLACK))
    stone = ((around == BLACK) | (around == WHITE_STONE)).astype(np.int64)
    keys = around[:, _KEY_COLUMNS] @ _KEY_WEIGHTS | (kind << KIND_SHIFT)[:, None]
    bands = stone[:, _BAND_COLUMNS] @ _BAND_WEIGHTS
    packed[:, event] = (keys | bands).T.astype(np.uint32)
    return packed
