"""A segment of the pattern index: the sorted arrays of a batch of games, built once, merged, never changed.

Each batch of games the index or the learning pipeline adds becomes one :class:`Segment`; small segments are
merged into bigger ones (:mod:`joseki.book.patterns.merging`). A segment holds, for its games in the order they
were added:

* ``words``: their move lists with captures (:mod:`joseki.core.movelist`), one after the other, game ``g``'s
  records from ``record_start[g]``. A *record number* is a place in ``words``.
* ``dense``: per game and point the move that first put a stone there (:data:`NEVER` when none did), that
  stone's colour and whether the point changed again (:func:`dense_value`); ``changes``: every change of the
  points that changed more than once, sorted (:func:`change_value`). Together they give the state of any
  point after any move (:meth:`Segment.state`).
* per shape of :mod:`joseki.book.patterns.windows`: the events sorted by (key, point, record); ``keys`` the
  distinct keys, ``starts`` where each key's events begin in ``entries``, and each entry the event's record
  number with its band bits above (:data:`RECORD_BITS`).
* ``game_id`` (the ``pattern_game`` row), ``winner`` (0 unknown, 1 Black, 2 White, 3 a draw) and ``date``
  (``yyyymmdd``, 0 for unknown parts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from joseki.book.patterns.windows import KEY_BITS, KEY_MASK, SHAPES, event_keys, events, record_states
from joseki.core.movelist import POINT_MASK, POINTS

U8 = npt.NDArray[np.uint8]
U16 = npt.NDArray[np.uint16]
U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]

RECORD_BITS = 25
"""An entry's record number takes the low bits, its band bits the seven above."""
RECORD_MASK = (1 << RECORD_BITS) - 1
MAX_RECORDS = 1 << RECORD_BITS
"""Records a segment may hold."""
MOVE_BITS = 12
NEVER = (1 << MOVE_BITS) - 1
"""A first move after every move (game records stop at :data:`joseki.core.limits.MAX_LINE_MOVES`)."""
COLOUR_SHIFT = MOVE_BITS
AGAIN = 1 << (MOVE_BITS + 2)
"""The flag of a point that changed more than once in that game."""
WINNER_CODE = {"b": 1, "w": 2, "d": 3}


def dense_value(first: I64, colour: I64, again: npt.NDArray[np.bool_]) -> U16:
    """A ``dense`` value: the first move on the point, that stone's colour (1, 2), whether it changed again."""
    return (first | (colour << COLOUR_SHIFT) | np.where(again, AGAIN, 0)).astype(np.uint16)


def change_value(game: I64, point: I64, move: I64, state: I64) -> I64:
    """A ``changes`` value: ordered by game, point and move, with the state the change leaves in the low bits."""
    return (((game * POINTS + point) << MOVE_BITS | move) << 2) | state


def date_code(date: str) -> int:
    """``yyyymmdd`` of an ISO date or its beginning (``2011``, ``2011-05``), 0 for what is missing."""
    parts = [*date.split("-"), "0", "0"][:3]
    try:
        year, month, day = (int(p or 0) for p in parts)
    except ValueError:
        return 0
    return year * 10000 + month * 100 + day


@dataclass(frozen=True, slots=True)
class GameArrays:
    """One game as a segment takes it: its ``pattern_game`` id, records, winner code and date code."""

    game_id: int
    words: U16
    winner: int
    date: int
    keys: U32 | None = None
    """Its events' packed keys in every shape (:func:`game_keys`), when they were worked out before the batch."""


ARRAY_NAMES = ("game_id", "record_start", "words", "winner", "date", "dense", "changes",
               *(f"{name}{s}" for s in range(len(SHAPES)) for name in ("keys", "starts", "entries")))
"""The arrays a segment is stored as, each under its name."""


@dataclass(frozen=True, slots=True)
class Segment:
    """The arrays of a batch of games (see the module's docstring)."""

    game_id: U32
    record_start: U32
    words: U16
    winner: U8
    date: U32
    dense: U16
    changes: I64
    keys: tuple[U32, ...]
    starts: tuple[U32, ...]
    entries: tuple[U32, ...]

    @property
    def games(self) -> int:
        return len(self.game_id)

    @property
    def records(self) -> int:
        return len(self.words)

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """Every array under its name in :data:`ARRAY_NAMES`."""
        found: dict[str, npt.NDArray[np.generic]] = {
            "game_id": self.game_id, "record_start": self.record_start, "words": self.words,
            "winner": self.winner, "date": self.date, "dense": self.dense, "changes": self.changes}
        for s in range(len(SHAPES)):
            found[f"keys{s}"], found[f"starts{s}"], found[f"entries{s}"] = self.keys[s], self.starts[s], self.entries[s]
        return found

    @classmethod
    def from_arrays(cls, arrays: dict[str, npt.NDArray[np.generic]]) -> Segment:
        """The segment of :meth:`arrays`."""
        shapes = range(len(SHAPES))
        return cls(arrays["game_id"].view(np.uint32), arrays["record_start"].view(np.uint32),
                   arrays["words"].view(np.uint16), arrays["winner"].view(np.uint8), arrays["date"].view(np.uint32),
                   arrays["dense"].view(np.uint16), arrays["changes"].view(np.int64),
                   tuple(arrays[f"keys{s}"].view(np.uint32) for s in shapes),
                   tuple(arrays[f"starts{s}"].view(np.uint32) for s in shapes),
                   tuple(arrays[f"entries{s}"].view(np.uint32) for s in shapes))


DTYPES: dict[str, str] = {"game_id": "<u4", "record_start": "<u4", "words": "<u2", "winner": "u1", "date": "<u4",
                          "dense": "<u2", "changes": "<i8",
                          **{f"{n}{s}": "<u4" for s in range(len(SHAPES)) for n in ("keys", "starts", "entries")}}
"""Each array's type as stored (little-endian)."""


def build(games: Sequence[GameArrays]) -> Segment:
    """The segment of ``games`` (in the order given). Raises ValueError beyond :data:`MAX_RECORDS` records."""
    lengths = np.array([len(g.words) for g in games], dtype=np.int64)
    if int(lengths.sum()) > MAX_RECORDS:
        raise ValueError(f"{int(lengths.sum())} records are more than a segment holds ({MAX_RECORDS})")
    known = [g.keys for g in games if g.keys is not None]
    given = bool(known) and len(known) == len(games)
    words, record_start, record, dense, changes, packed = _events([g.words for g in games], not given)
    if packed is None:
        packed = np.concatenate(known, axis=1).astype(np.int64)
    keys, starts, entries = zip(*(_shape_index(words, record, packed[s]) for s in range(len(SHAPES))), strict=True)
    return Segment(np.array([g.game_id for g in games], dtype=np.uint32), record_start, words,
                   np.array([g.winner for g in games], dtype=np.uint8),
                   np.array([g.date for g in games], dtype=np.uint32), dense, changes, keys, starts, entries)


def game_keys(records: Sequence[U16]) -> list[U32]:
    """Each game's events' packed keys in every shape (``[len(SHAPES), events]``, in record order), worked out for
    all of ``records`` (the games' move lists) at once.

    A key depends on its own game only, so :func:`build` takes these in place of its own: a worker that read a
    chunk of games does this, the largest share of building a segment, instead of the one process that writes.
    """
    if not records:
        return []
    _, _, record, _, _, packed = _events(records, True)
    assert packed is not None
    lengths = np.array([len(w) for w in records], dtype=np.int64)
    game = np.repeat(np.arange(len(records), dtype=np.int64), lengths)[record]
    ends = np.cumsum(np.bincount(game, minlength=len(records)))[:-1]
    return np.split(packed.astype(np.uint32), ends, axis=1)  # a packed key is below 2**32 (KEY_BITS + seven bits)


def _events(records: Sequence[U16], keyed: bool) -> tuple[U16, U32, I64, U16, I64, I64 | None]:
    """The games' words, record starts, event records, ``dense`` table and ``changes``; with ``keyed``, the events'
    packed keys (:func:`joseki.book.patterns.windows.event_keys`)."""
    lengths = np.array([len(w) for w in records], dtype=np.int64)
    words = np.concatenate(records).astype(np.uint16) if len(records) else np.zeros(0, np.uint16)
    record_start = np.concatenate(([0], np.cumsum(lengths))).astype(np.uint32)
    game = np.repeat(np.arange(len(records), dtype=np.int64), lengths)
    move = game_moves(words, record_start)
    change = events(words)
    dense, changes = _timeline(words, move, game, change, len(records))
    record = np.flatnonzero(change).astype(np.int64)
    packed = (event_keys(words, record, game[record], move[record],
                         lambda g, q, t: state_at(dense, changes, g, q, t)) if keyed else None)
    return words, record_start, record, dense, changes, packed


def find_sorted(values: I64, wanted: I64, side: str = "left") -> I64:
    """``numpy.searchsorted(values, wanted, side)``, the ``wanted`` looked up in sorted order: many lookups in a
    big array then walk nearby paths, several times faster than in random order."""
    if len(wanted) < 64:
        return np.searchsorted(values, wanted, side=side)  # type: ignore[call-overload, no-any-return]
    order = np.argsort(wanted, kind="stable")
    found = np.empty(len(wanted), dtype=np.int64)
    found[order] = np.searchsorted(values, wanted[order], side=side)  # type: ignore[call-overload]
    return found


def state_at(dense: U16, changes: I64, game: I64, point: I64, move: I64) -> I64:
    """The state (0 empty, 1 black, 2 white) of each point index in each game after each move, from a segment's
    ``dense`` table and ``changes``."""
    slot = game * POINTS + point
    value = dense[slot].astype(np.int32)
    state: I64 = np.where(move >= (value & NEVER), (value >> COLOUR_SHIFT) & 3, 0)
    again = np.flatnonzero(value & AGAIN)
    if len(again):
        wanted = ((slot[again].astype(np.int64) << MOVE_BITS | move[again]) << 2) | 3
        at = find_sorted(changes, wanted, side="right") - 1
        found = changes[np.maximum(at, 0)]
        same = (at >= 0) & ((found >> (MOVE_BITS + 2)) == slot[again])
        state[again] = np.where(same, found & 3, 0)
    return state


def game_moves(words: U16, record_start: U32) -> I64:
    """Each record's move number within its game (0 for setup stones)."""
    _, move, _ = record_states(words)
    before = np.concatenate(([0], move))[record_start[:-1].astype(np.int64)]
    bounds = record_start.astype(np.int64)
    lengths = bounds[1:] - bounds[:-1]
    fixed: I64 = move - np.repeat(before, lengths)
    return fixed


def _timeline(words: U16, move: I64, game: I64, change: npt.NDArray[np.bool_], count: int) -> tuple[U16, I64]:
    """The ``dense`` table and the ``changes`` of the points that changed more than once (``change``: the records
    that change a point)."""
    point, _, state = record_states(words)
    g, q, m, s = game[change], point[change], move[change], state[change]
    slot = g * POINTS + q
    order = np.argsort(slot, kind="stable")
    g, q, m, s, slot = g[order], q[order], m[order], s[order], slot[order]
    head = np.ones(len(slot), dtype=bool)
    head[1:] = slot[1:] != slot[:-1]
    firsts = np.flatnonzero(head)
    sizes = np.diff(np.append(firsts, len(slot)))
    table = np.full((count, POINTS), NEVER, dtype=np.uint16)
    table.reshape(-1)[slot[firsts]] = dense_value(m[firsts], s[firsts], sizes > 1)
    again = np.repeat(sizes > 1, sizes)
    return table.reshape(-1), change_value(g[again], q[again], m[again], s[again])


def _shape_index(words: U16, event: I64, packed: I64) -> tuple[U32, U32, U32]:
    """One shape's distinct keys, their starts and the entries, sorted by key, point and record (``packed``: the
    packed key of each record of ``event``)."""
    key = packed & KEY_MASK
    band = packed >> KEY_BITS
    point = words[event].astype(np.int64) & POINT_MASK
    order = np.argsort(key << 34 | point << RECORD_BITS | event, kind="stable")
    key, band, event = key[order], band[order], event[order]
    return _csr(key, (band << RECORD_BITS | event).astype(np.uint32))


def _csr(key: I64, entries: U32) -> tuple[U32, U32, U32]:
    head = np.ones(len(key), dtype=bool)
    head[1:] = key[1:] != key[:-1]
    firsts = np.flatnonzero(head)
    starts = np.append(firsts, len(key)).astype(np.uint32)
    return key[firsts].astype(np.uint32), starts, entries
