"""The pattern index read lazily: a segment's arrays filled from their SQLite BLOBs a block at a time, on first use.

A search touches a small part of the index (the entries of its key ranges, the cells of its candidates, the
move lists of the games it hits), while reading all of it and deriving what the search arrays need costs
seconds. So a search in a process that has not loaded the index (``joseki search``) reads, on SQLite, only
the blocks it uses, with incremental BLOB reads (:meth:`sqlite3.Connection.blobopen`) on the store's driver
connection. Each array is a numpy buffer of its full length, left unwritten (the system gives it memory only
where it is written) and filled block by block: a caller says which elements it is about to read
(:meth:`Stored.need`), the blocks not read yet are read, and the buffer is an ordinary array for the rest.
Derived arrays (each entry's point, each record's move number) are filled the same way from the arrays they
come from. Blocks read stay: a later search in the same process reads only what is new to it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt

from joseki.book.patterns.segment import DTYPES, RECORD_MASK
from joseki.core.movelist import CAPTURE, POINT_MASK, SETUP

I64 = npt.NDArray[np.int64]
Index = npt.NDArray[np.integer[Any]]
"""Element numbers, of any integer type."""
BLOCK_SHIFT = 16
"""Bytes read at a time: 2**16."""
READ_PIECE = 1 << 20
"""Bytes one BLOB read returns at most (each read's buffer is then reused, not given fresh pages)."""
MMAP_BYTES = 2147418112
"""SQLite's memory map while a search reads the BLOBs (its default ceiling): a read then walks the BLOB's pages
in memory rather than through a read call each."""
CHUNKS = "SELECT rowid, segment_id, name, part, length(data) FROM pattern_chunk ORDER BY segment_id, name, part"


class NotReading(RuntimeError):
    """A lazily read array was asked for outside a read of its store (a bug of the caller)."""


class Blobs:
    """The index's BLOB chunks, read through a sqlite3 connection while one is bound (:meth:`bound`)."""

    def __init__(self) -> None:
        self.sizes: dict[tuple[int, str], list[int]] = {}
        self._rowids: dict[tuple[int, str], list[int]] = {}
        self._conn: sqlite3.Connection | None = None
        self._open: dict[int, sqlite3.Blob] = {}

    @contextmanager
    def bound(self, conn: sqlite3.Connection) -> Iterator[Blobs]:
        """Read through ``conn`` (in its transaction) until the block ends; the chunks' places are read again
        (a VACUUM may move them)."""
        self._rowids.clear()
        for rowid, segment_id, name, _part, size in conn.execute(CHUNKS).fetchall():
            key = (int(segment_id), str(name))
            self._rowids.setdefault(key, []).append(int(rowid))
            self.sizes.setdefault(key, [])
            if len(self.sizes[key]) < len(self._rowids[key]):
                self.sizes[key].append(int(size))
        mapped = int(conn.execute("PRAGMA mmap_size").fetchone()[0])
        conn.execute(f"PRAGMA mmap_size={max(mapped, MMAP_BYTES)}")
        self._conn = conn
        try:
            yield self
        finally:
            for blob in self._open.values():
                blob.close()
            self._open.clear()
            self._conn = None
            conn.execute(f"PRAGMA mmap_size={mapped}")

    def segments(self) -> list[int]:
        return sorted({s for s, _ in self._rowids})

    def read(self, key: tuple[int, str], part: int, offset: int, length: int) -> bytes:
        """``length`` bytes from ``offset`` of chunk ``part`` of array ``key`` (segment, name)."""
        if self._conn is None:
            raise NotReading(f"array {key[1]} of segment {key[0]} read outside a read of the store")
        rowid = self._rowids[key][part]
        blob = self._open.get(rowid)
        if blob is None:
            blob = self._open[rowid] = self._conn.blobopen("pattern_chunk", "data", rowid, readonly=True)
        blob.seek(offset)
        return blob.read(length)


def _blocks(index: Index | None, itemsize: int, filled: npt.NDArray[np.bool_]) -> I64:
    """The blocks not yet ``filled`` that elements ``index`` (of ``itemsize`` bytes; None: all) lie in."""
    if index is None:
        return np.flatnonzero(~filled)
    mark = np.zeros(len(filled), dtype=bool)
    mark[(np.asarray(index, dtype=np.int64).reshape(-1) * itemsize) >> BLOCK_SHIFT] = True
    found: I64 = np.flatnonzero(mark & ~filled)
    return found


def _span_blocks(lo: I64, hi: I64, per_block: int, filled: npt.NDArray[np.bool_]) -> I64:
    """The blocks not yet ``filled`` that the spans of elements ``[lo, hi)`` (``per_block`` elements a block)
    touch."""
    some = hi > lo
    return _unfilled(lo[some] // per_block, (hi[some] - 1) // per_block, filled)


def _unfilled(first: I64, last: I64, filled: npt.NDArray[np.bool_]) -> I64:
    """The blocks not yet ``filled`` of the runs ``first`` to ``last`` (a count that rises at each run's first
    block and falls after its last marks them all, without listing them)."""
    count = len(filled)
    inside = np.cumsum(np.bincount(first, minlength=count + 1) - np.bincount(last + 1, minlength=count + 1))[:count]
    found: I64 = np.flatnonzero((inside > 0) & ~filled)
    return found


def _runs(blocks: I64) -> list[tuple[int, int]]:
    """Sorted blocks as runs ``[first, last + 1)`` of consecutive ones."""
    if not len(blocks):
        return []
    cut = np.flatnonzero(np.diff(blocks) != 1) + 1
    firsts, lasts = np.concatenate(([0], cut)), np.concatenate((cut, [len(blocks)])) - 1
    return [(int(blocks[a]), int(blocks[b]) + 1) for a, b in zip(firsts, lasts, strict=True)]


class Stored:
    """Arrays of the index (one, or several of one type one after the other) filled from their chunks."""

    def __init__(self, blobs: Blobs, keys: Sequence[tuple[int, str]]) -> None:
        self._blobs = blobs
        self._pieces = [(key, part, size) for key in keys for part, size in enumerate(blobs.sizes[key])]
        dtype = np.dtype(DTYPES[keys[0][1]] if keys else "u1")
        self._total = sum(size for _, _, size in self._pieces)
        self.values: npt.NDArray[np.generic] = np.empty(self._total // dtype.itemsize, dtype=dtype)
        self._bytes = self.values.view(np.uint8)
        self._filled = np.zeros(-(-self._total >> BLOCK_SHIFT), dtype=bool)
        self._itemsize = dtype.itemsize
        self._done = self._total == 0

    def need(self, index: Index | None) -> None:
        """Fill the blocks holding elements ``index`` (None: every element)."""
        if not self._done:
            self._fill(_blocks(index, self._itemsize, self._filled))

    def need_spans(self, lo: I64, hi: I64) -> None:
        """Fill the blocks holding the elements of the spans ``[lo, hi)``."""
        if not self._done:
            self._fill(_span_blocks(lo, hi, (1 << BLOCK_SHIFT) // self._itemsize, self._filled))

    def need_range(self, lo: int, hi: int) -> None:
        """Fill the blocks holding elements ``[lo, hi)``."""
        if self._done or hi <= lo:
            return
        blocks = np.arange((lo * self._itemsize) >> BLOCK_SHIFT, ((hi * self._itemsize - 1) >> BLOCK_SHIFT) + 1)
        self._fill(blocks[~self._filled[blocks]])

    def _fill(self, missing: I64) -> None:
        for lo, hi in _runs(missing):
            self._read(lo << BLOCK_SHIFT, min(hi << BLOCK_SHIFT, self._total))
        self._filled[missing] = True
        self._done = bool(self._filled.all())

    def _read(self, lo: int, hi: int) -> None:
        at = 0
        for key, part, size in self._pieces:
            a, b = max(lo, at), min(hi, at + size)
            for lo_piece in range(a, b, READ_PIECE):
                hi_piece = min(b, lo_piece + READ_PIECE)
                data = self._blobs.read(key, part, lo_piece - at, hi_piece - lo_piece)
                self._bytes[lo_piece:hi_piece] = np.frombuffer(data, dtype=np.uint8)
            at += size


class Derived:
    """An array computed from others a block of elements at a time (``compute(lo, hi)``), on first use."""

    def __init__(self, length: int, dtype: type[np.generic], block: int,
                 compute: Callable[[int, int], npt.NDArray[np.generic]]) -> None:
        self.values: npt.NDArray[np.generic] = np.empty(length, dtype=dtype)
        self._block, self._compute = block, compute
        self._filled = np.zeros(-(-length // block), dtype=bool)
        self._done = length == 0

    def need(self, index: Index | None) -> None:
        if self._done:
            return
        if index is None:
            missing = np.flatnonzero(~self._filled)
        else:
            mark = np.zeros(len(self._filled), dtype=bool)
            mark[np.asarray(index, dtype=np.int64).reshape(-1) // self._block] = True
            missing = np.flatnonzero(mark & ~self._filled)
        self._fill(missing)

    def need_spans(self, lo: I64, hi: I64) -> None:
        """Fill the blocks holding the elements of the spans ``[lo, hi)``."""
        if not self._done:
            self._fill(_span_blocks(lo, hi, self._block, self._filled))

    def _fill(self, missing: I64) -> None:
        for first, last in _runs(missing):
            lo, hi = first * self._block, min(last * self._block, len(self.values))
            self.values[lo:hi] = self._compute(lo, hi)
        self._filled[missing] = True
        self._done = bool(self._filled.all())


def spread(begin: I64, end: I64) -> tuple[I64, I64]:
    """Every index of the spans ``[begin, end)`` one after the other, and the span each comes from."""
    lengths = end - begin
    offsets = np.cumsum(lengths) - lengths
    which = np.repeat(np.arange(len(begin), dtype=np.int64), lengths)
    flat: I64 = np.arange(int(lengths.sum()), dtype=np.int64) - offsets[which] + begin[which]
    return flat, which


class RecordMoves:
    """Each record's move number within its game, filled a game at a time from the move lists."""

    def __init__(self, words: Stored, record_start: npt.NDArray[np.uint32]) -> None:
        self._words, self._starts = words, record_start.astype(np.int64)
        self.values = np.empty(len(words.values), dtype=np.int32)
        self.suicide = np.zeros(len(record_start) - 1, dtype=bool)
        """Whether each game (of those filled) has a suicide (:func:`suicides`)."""
        self._filled = np.zeros(len(record_start) - 1, dtype=bool)
        self._done = len(record_start) == 1

    def need(self, records: Index | None) -> None:
        """Fill the move numbers of the games of ``records`` (None: of every game)."""
        if self._done:
            return
        if records is None or (len(records) >= len(self._filled) and not self._filled.any()):
            missing = np.flatnonzero(~self._filled)
        elif len(records) > len(self._filled) and bool((np.diff(records) >= 0).all()):
            # many, sorted: whether each game not yet filled has a record among them, sought from the games' side
            open_ = np.flatnonzero(~self._filled)
            at = np.searchsorted(records, self._starts[open_])
            missing = open_[np.searchsorted(records, self._starts[open_ + 1]) > at]
        else:
            mark = np.zeros(len(self._filled), dtype=bool)
            mark[np.searchsorted(self._starts, records, side="right") - 1] = True
            missing = np.flatnonzero(mark & ~self._filled)
        self._fill(missing)

    def need_spans(self, lo: I64, hi: I64) -> None:
        """Fill the move numbers of the games of the records of the spans ``[lo, hi)``."""
        if self._done:
            return
        some = hi > lo
        first = np.searchsorted(self._starts, lo[some], side="right") - 1
        last = np.searchsorted(self._starts, hi[some] - 1, side="right") - 1
        self._fill(_unfilled(first, last, self._filled))

    def _fill(self, missing: I64) -> None:
        if not len(missing):
            return
        if 2 * len(missing) > len(self._filled):  # most games: every one, as the move lists are
            self._words.need(None)
            words = self._words.values.view(np.uint16)
            self.values[:] = move_numbers(words, self._starts)
            self.suicide[:] = suicides(words, self._starts)
        else:
            flat, _ = spread(self._starts[missing], self._starts[missing + 1])
            self._words.need(flat)
            lengths = self._starts[missing + 1] - self._starts[missing]
            bounds = np.concatenate(([0], np.cumsum(lengths)))
            words = self._words.values.view(np.uint16)[flat]
            self.values[flat] = move_numbers(words, bounds)
            self.suicide[missing] = suicides(words, bounds)
        self._filled[missing] = True
        self._done = bool(self._filled.all())


def move_numbers(words: npt.NDArray[np.uint16], record_start: I64) -> npt.NDArray[np.int32]:
    """Each record's move number within its game (0 for setup stones), games from ``record_start``."""
    is_move = ((words & (SETUP | CAPTURE)) == 0).astype(np.int32)
    total = np.cumsum(is_move, dtype=np.int32)
    firsts = record_start[:-1][record_start[1:] > record_start[:-1]]
    before = total[firsts] - is_move[firsts]
    lengths = np.diff(record_start)
    moves: npt.NDArray[np.int32] = total - np.repeat(before, lengths[lengths > 0])
    return moves


def suicides(words: npt.NDArray[np.uint16], record_start: I64) -> npt.NDArray[np.bool_]:
    """Whether each game (from ``record_start``) has a suicide: a move whose own stone its captures take off."""
    taken = np.flatnonzero(words & CAPTURE)
    moved = np.flatnonzero((words & (SETUP | CAPTURE)) == 0)
    before = np.searchsorted(moved, taken) - 1
    by = moved[np.maximum(before, 0)] if len(moved) else np.zeros(len(taken), dtype=np.int64)
    point = words & POINT_MASK
    own = taken[(before >= 0) & (point[taken] == point[by])]
    found = np.zeros(len(record_start) - 1, dtype=bool)
    found[np.searchsorted(record_start, own, side="right") - 1] = True
    return found


def entry_points(entries: Stored, words: Stored) -> Callable[[int, int], npt.NDArray[np.generic]]:
    """``compute`` of each entry's point index, for :class:`Derived`."""
    def compute(lo: int, hi: int) -> npt.NDArray[np.generic]:
        entries.need_range(lo, hi)
        records = entries.values[lo:hi].astype(np.int64) & RECORD_MASK
        words.need(records)
        points: npt.NDArray[np.generic] = (words.values[records].astype(np.int64) & POINT_MASK).astype(np.int16)
        return points
    return compute
