"""Merging segments of the pattern index piece by piece, so that a merge never holds the merged segment (pure).

A merged segment holds its parts' games one after the other (:mod:`joseki.book.patterns.segment`): its
per-game arrays are the parts' arrays one after the other, with the record numbers of ``record_start``
and the game numbers of ``changes`` moved on by the parts before; each shape's event index is the parts'
entries (their record numbers moved on) sorted again by key, point and record. :func:`pieces` yields
every array of the merged segment in pieces, in order, and asks each part for one array at a time
(:class:`Part`): the per-game arrays part by part, then each shape's events a range of keys at a time (about
:data:`SLICE_ENTRIES` entries of all parts a range, sorted alone, since a key's entries never cross a range's
end). So a merge holds the parts' ``words`` (a point per entry), one shape's index of the parts and one range's
sort; the store writes the pieces out as they come (:func:`joseki.book.patterns.storage.merge_segments`).
:func:`merge` collects them in memory.

What a merge takes for granted of a segment's arrays (a change to them changes it too; an array of
:data:`~joseki.book.patterns.segment.ARRAY_NAMES` it does not make leaves the store's writer refusing the
segment, and ``tests/test_pattern_merge.py`` failing): :data:`GAME_ARRAYS` hold nothing that points into the
segment; ``record_start`` is the records before each game, then all of them; ``changes`` are ordered by game
first, their game number ``POINTS << (MOVE_BITS + 2)`` a unit (:func:`~joseki.book.patterns.segment.change_value`);
each shape's ``keys`` are distinct and ascending, ``starts`` where each key's entries begin (then their
count), and each entry a record number below :data:`~joseki.book.patterns.segment.RECORD_BITS` with the bits
above kept as they are, a key's entries ordered by the point of their record in ``words``, then by record.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from joseki.book.patterns.segment import (
    ARRAY_NAMES,
    DTYPES,
    MAX_RECORDS,
    MOVE_BITS,
    RECORD_BITS,
    RECORD_MASK,
    Segment,
)
from joseki.book.patterns.windows import SHAPES
from joseki.core.movelist import POINT_MASK, POINTS

Array = npt.NDArray[np.generic]
I64 = npt.NDArray[np.int64]

SLICE_ENTRIES = 1 << 20
"""About how many entries of all parts one range of keys of a merge sorts at a time."""
GAME_ARRAYS = ("game_id", "words", "winner", "date", "dense")
"""The per-game arrays a merge puts one after the other as they are."""


class Part(Protocol):
    """A segment to merge: its counts, and each of its arrays when asked (read then, and let go after)."""

    @property
    def games(self) -> int: ...

    @property
    def records(self) -> int: ...

    def array(self, name: str) -> Array:
        """The array ``name`` of :data:`~joseki.book.patterns.segment.ARRAY_NAMES`."""
        ...


class InMemory:
    """A :class:`~joseki.book.patterns.segment.Segment` as a :class:`Part`."""

    def __init__(self, segment: Segment) -> None:
        self.segment = segment
        self.games, self.records = segment.games, segment.records

    def array(self, name: str) -> Array:
        return self.segment.arrays()[name]


Piece = tuple[str, Array | None]
"""A piece of array ``name`` of a merged segment, or None: that array is whole."""


def pieces(parts: Sequence[Part], slice_entries: int | None = None) -> Iterator[Piece]:
    """Each array of the segment merged of ``parts`` (their games in order) in pieces, in order, then ``(name,
    None)``; each shape's events sorted about ``slice_entries`` (default :data:`SLICE_ENTRIES`) at a time.
    Raises ValueError beyond :data:`~joseki.book.patterns.segment.MAX_RECORDS` records."""
    size = SLICE_ENTRIES if slice_entries is None else slice_entries
    records = sum(p.records for p in parts)
    if records > MAX_RECORDS:
        raise ValueError(f"{records} records are more than a segment holds ({MAX_RECORDS})")
    record_base = [int(b) for b in np.cumsum([0] + [p.records for p in parts])]
    game_base = [int(b) for b in np.cumsum([0] + [p.games for p in parts])]
    for name in GAME_ARRAYS:
        for part in parts:
            yield name, part.array(name)
        yield name, None
    yield "record_start", np.zeros(1, dtype=np.int64)
    for part, base in zip(parts, record_base, strict=False):
        yield "record_start", part.array("record_start")[1:].astype(np.int64) + base
    yield "record_start", None
    for part, base in zip(parts, game_base, strict=False):
        yield "changes", part.array("changes").view(np.int64) + (base * POINTS << (MOVE_BITS + 2))
    yield "changes", None
    words = [part.array("words").view(np.uint16) for part in parts]
    for s in range(len(SHAPES)):
        yield from _shape_pieces(s, parts, words, record_base, size)


def _shape_pieces(s: int, parts: Sequence[Part], words: list[npt.NDArray[np.uint16]], record_base: list[int],
                  slice_entries: int) -> Iterator[Piece]:
    """Shape ``s``'s ``keys``, ``starts`` and ``entries`` of the merged segment, a range of keys at a time."""
    keys = [p.array(f"keys{s}").view(np.uint32) for p in parts]
    starts = [p.array(f"starts{s}").view(np.uint32).astype(np.int64) for p in parts]
    entries = [p.array(f"entries{s}").view(np.uint32) for p in parts]
    bounds = _bounds(keys, starts, slice_entries)
    cuts = [np.concatenate(([0], np.searchsorted(k, bounds), [len(k)])) for k in keys]
    sizes = [np.diff(b) for b in starts]
    written = 0
    for r in range(len(bounds) + 1):
        order_parts: list[I64] = []
        entry_parts: list[npt.NDArray[np.uint32]] = []
        for p in range(len(parts)):
            lo, hi = int(cuts[p][r]), int(cuts[p][r + 1])
            local = entries[p][int(starts[p][lo]):int(starts[p][hi])]
            record = local & np.uint32(RECORD_MASK)
            key = np.repeat(keys[p][lo:hi], sizes[p][lo:hi]).astype(np.int64)
            point = (words[p][record] & POINT_MASK).astype(np.int64)
            order_parts.append(key << 34 | point << RECORD_BITS | (record + np.uint32(record_base[p])))
            entry_parts.append(local + np.uint32(record_base[p]))
        ordered = np.concatenate(order_parts) if order_parts else np.zeros(0, np.int64)
        order = np.argsort(ordered, kind="stable")
        key, entry = ordered[order] >> 34, (np.concatenate(entry_parts) if entry_parts else ordered)[order]
        head = np.ones(len(key), dtype=bool)
        head[1:] = key[1:] != key[:-1]
        firsts = np.flatnonzero(head)
        yield f"keys{s}", key[firsts]
        yield f"starts{s}", firsts + written
        yield f"entries{s}", entry
        written += len(entry)
    yield f"starts{s}", np.array([written], dtype=np.int64)
    for name in ("keys", "starts", "entries"):
        yield f"{name}{s}", None


def _bounds(keys: list[npt.NDArray[np.uint32]], starts: list[I64], size: int) -> npt.NDArray[np.uint32]:
    """Keys that cut the keys of all parts into ranges of about ``size`` entries (a range ends before its bound;
    a key's entries stay in one range)."""
    every = np.concatenate([k.astype(np.int64) for k in keys]) if keys else np.zeros(0, np.int64)
    counts = np.concatenate([np.diff(b) for b in starts]) if starts else np.zeros(0, np.int64)
    order = np.argsort(every, kind="stable")
    every, total = every[order], np.cumsum(counts[order])
    if not len(total):
        return np.zeros(0, dtype=np.uint32)
    at = np.searchsorted(total, np.arange(size, int(total[-1]), size), side="right")
    return np.unique(every[at[at < len(every)]]).astype(np.uint32)


def merge(parts: Sequence[Segment], slice_entries: int | None = None) -> Segment:
    """One segment of ``parts``' games, in order, in memory (:func:`pieces` collected). Raises ValueError beyond
    :data:`~joseki.book.patterns.segment.MAX_RECORDS` records."""
    collected: dict[str, list[Array]] = {name: [] for name in ARRAY_NAMES}
    for name, piece in pieces([InMemory(p) for p in parts], slice_entries):
        if piece is not None:
            collected[name].append(np.asarray(piece, dtype=DTYPES[name]))
    return Segment.from_arrays({name: np.concatenate(found) if found else np.zeros(0, DTYPES[name])
                                for name, found in collected.items()})
