"""Finding where an image of a pattern came into being in one segment: events looked up by key, then verified.

A search's :class:`~joseki.book.patterns.probes.Probes` say, for each image family, trigger cell and kind of
event, which keys an event there may have. In a segment (:class:`Loaded`) each group takes the shape whose
key ranges hold the fewest events; the events of those ranges whose band bits agree and whose point is the
trigger cell's point at some place of the family are the *candidates*: (place, game, move). Every hit is a
candidate (a pattern comes into being with an event at one of its cells), and a candidate is a hit when
every cell of its place holds what its letter allows after its move (:func:`verify`, a few cells at a time on
the ``dense`` table, the points that changed more than once on ``changes``).

A pattern without ``X`` or ``O`` may hold before the first move, with no event: every game is then a
candidate at move 0 as well.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from joseki.book.patterns import kernels
from joseki.book.patterns.lazy import Blobs, Derived, Index, RecordMoves, Stored, entry_points, spread, suicides
from joseki.book.patterns.probes import SHAPE_SHIFT as _SHAPE_SHIFT
from joseki.book.patterns.probes import Images, Probes
from joseki.book.patterns.reads import layout_error
from joseki.book.patterns.segment import (
    COLOUR_SHIFT,
    MOVE_BITS,
    NEVER,
    RECORD_MASK,
    Segment,
    game_moves,
    state_at,
)
from joseki.book.patterns.windows import SHAPES
from joseki.core.movelist import CAPTURE, POINT_MASK, POINTS, SETUP, WHITE
from joseki.core.pattern import ALLOWS, LETTERS

I64 = npt.NDArray[np.int64]
T = TypeVar("T")
ALLOWED = np.array([[state in ALLOWS[letter] for state in range(3)] for letter in LETTERS], dtype=bool)
"""Whether each letter (by its place in LETTERS) allows each state (0 empty, 1 black, 2 white)."""
_ALLOWED_BITS = (ALLOWED * (1 << np.arange(3))).sum(axis=1).astype(np.int32)
"""The states each letter allows as bits (bit ``s``: state ``s``)."""
ANY_STATE = 7
"""The bits of a letter that allows every state."""
def _verdicts() -> npt.NDArray[np.uint8]:
    """What a cell's dense value says of its letter, by ``allowed bits << 4 | placed by then << 3 | again << 2 |
    colour``: bit 0 that it holds (or may), bit 1 that the point changed again after it was first placed, so the
    state then is read from the changes (unless the letter allows every state)."""
    table = np.zeros(128, dtype=np.uint8)
    for code in range(128):
        allowed, placed, again, colour = code >> 4, (code >> 3) & 1, (code >> 2) & 1, code & 3
        if placed and again and allowed != 7:
            table[code] = 3
        else:
            table[code] = (allowed >> (colour if placed else 0)) & 1
    return table


_VERDICT = _verdicts()
SEARCH_COST = 8.0
"""What one step of a search by point costs, in events read whole (:func:`candidates`)."""
COMMON_SHARE = 16
"""A group is common when its fewest events are more than one in this many games of a segment: its keys are
then enumerated wider (:func:`joseki.book.patterns.probes.refined`)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A segment ready to search: its shapes' keys in one sorted array (the shape above the key), their
    starts in one array of entries, each record's move number, and its moves for the continuations."""

    segment: Segment
    keys: I64
    starts: I64
    entries: npt.NDArray[np.uint32]
    entry_point: npt.NDArray[np.int16]
    """Each entry's point index (within a key, entries are sorted by point)."""
    record_move: npt.NDArray[np.int32]
    suicide: npt.NDArray[np.bool_]
    """Whether each game has a suicide (a move the dense table does not see: :func:`next_stone`)."""
    move_point: npt.NDArray[np.int16]
    move_state: npt.NDArray[np.int8]
    move_start: I64
    """Game ``g``'s moves begin at ``move_start[g]`` of ``move_point``; ``move_start[g + 1] - move_start[g]``
    (empty in a lazily read segment: :func:`joseki.book.patterns.lazy.game_move_lists` gives them)."""
    lazy: dict[str, Filler] | None = field(default=None)
    """A lazily read segment's arrays by name, to fill before reading them (:meth:`need`); None: all read."""
    _change_start: list[I64] = field(default_factory=list)

    def change_start(self) -> I64:
        """Where each game's changes begin in ``segment.changes`` (and the end): a point's changes are then sought
        among its game's few. Fills the changes."""
        if not self._change_start:
            self.need("changes", None)
            bounds = np.arange(self.segment.games + 1, dtype=np.int64) * POINTS << (MOVE_BITS + 2)
            self._change_start.append(np.searchsorted(self.segment.changes, bounds).astype(np.int64))
        return self._change_start[0]

    @classmethod
    def of(cls, segment: Segment) -> Loaded:
        keys, starts = _key_table(segment)
        entries = np.concatenate(segment.entries) if segment.entries else np.zeros(0, dtype=np.uint32)
        words = segment.words.astype(np.int64)
        is_move = (words & (SETUP | CAPTURE)) == 0
        record_start = segment.record_start.astype(np.int64)
        game = np.repeat(np.arange(segment.games, dtype=np.int64), record_start[1:] - record_start[:-1])
        per_game = np.bincount(game[is_move], minlength=segment.games)
        point = (segment.words[entries & RECORD_MASK] & POINT_MASK).astype(np.int16)
        moves = game_moves(segment.words, segment.record_start).astype(np.int32)
        return cls(segment, keys, starts, entries, point, moves, suicides(segment.words, record_start),
                   (words[is_move] & POINT_MASK).astype(np.int16),
                   np.where(words[is_move] & WHITE, 2, 1).astype(np.int8),
                   np.concatenate(([0], np.cumsum(per_game))).astype(np.int64))

    @classmethod
    def read_lazily(cls, blobs: Blobs, segment_id: int) -> Loaded:
        """Segment ``segment_id`` of ``blobs``, its small arrays and keys read now, the rest when needed."""
        error = layout_error(segment_id, (name for sid, name in blobs.sizes if sid == segment_id))
        if error is not None:
            raise error

        def stored(*names: str) -> Stored:
            return Stored(blobs, [(segment_id, name) for name in names])

        whole = {name: stored(name) for name in ("game_id", "record_start", "winner", "date",
                                                 *(f"{n}{s}" for s in range(len(SHAPES)) for n in ("keys", "starts")))}
        for array in whole.values():
            array.need(None)
        words, dense, changes = stored("words"), stored("dense"), stored("changes")
        entries = stored(*(f"entries{s}" for s in range(len(SHAPES))))
        keys = tuple(whole[f"keys{s}"].values.view(np.uint32) for s in range(len(SHAPES)))
        starts = tuple(whole[f"starts{s}"].values.view(np.uint32) for s in range(len(SHAPES)))
        sizes = np.array([int(st[-1]) for st in starts], dtype=np.int64)
        bounds = np.concatenate(([0], np.cumsum(sizes)))
        all_entries = entries.values.view(np.uint32)
        segment = Segment(whole["game_id"].values.view(np.uint32), whole["record_start"].values.view(np.uint32),
                          words.values.view(np.uint16), whole["winner"].values.view(np.uint8),
                          whole["date"].values.view(np.uint32), dense.values.view(np.uint16),
                          changes.values.view(np.int64), keys, starts,
                          tuple(all_entries[bounds[s]: bounds[s + 1]] for s in range(len(SHAPES))))
        points = Derived(len(all_entries), np.int16, POINT_BLOCK, entry_points(entries, words))
        moves = RecordMoves(words, segment.record_start)
        none = np.zeros(0, dtype=np.int64)
        return cls(segment, *_key_table(segment), all_entries, points.values.view(np.int16),
                   moves.values, moves.suicide, none.astype(np.int16), none.astype(np.int8), none,
                   {"words": words, "dense": dense, "changes": changes, "entries": entries,
                    "entry_point": points, "record_move": moves})

    def need(self, name: str, index: Index | None) -> None:
        """Fill array ``name`` where ``index`` (None: everywhere) before reading it, in a lazily read segment."""
        if self.lazy is not None:
            self.lazy[name].need(index)

    def need_spans(self, name: str, lo: I64, hi: I64) -> None:
        """Fill array ``name`` over the spans ``[lo, hi)`` before reading them, in a lazily read segment."""
        if self.lazy is not None:
            self.lazy[name].need_spans(lo, hi)

    def state(self, game: I64, point: I64, move: I64) -> I64:
        """The state (0 empty, 1 black, 2 white) of each point index in each game after each move."""
        self.need("dense", game * POINTS + point)
        self.need("changes", None)
        return state_at(self.segment.dense, self.segment.changes, game, point, move)


class Filler(Protocol):
    """A lazily read array: :meth:`need` fills it where it is about to be read."""

    def need(self, index: Index | None) -> None: ...

    def need_spans(self, lo: I64, hi: I64) -> None: ...


POINT_BLOCK = 1 << 14
"""Entries whose points are worked out together in a lazily read segment."""


def _key_table(segment: Segment) -> tuple[I64, I64]:
    """The shapes' keys in one sorted array (the shape above the key) and their starts in one array."""
    sizes = [int(st[-1]) for st in segment.starts]
    base = np.concatenate(([0], np.cumsum(sizes)))
    keys = np.concatenate([k.astype(np.int64) | (s << _SHAPE_SHIFT) for s, k in enumerate(segment.keys)])
    starts = np.concatenate([st[:-1].astype(np.int64) + base[s] for s, st in enumerate(segment.starts)]
                            + [np.array([base[-1]], dtype=np.int64)])
    return keys, starts


def distinct(values: I64, nearly_sorted: bool = False) -> I64:
    """The distinct values, sorted (``numpy.unique`` by sorting: its hash table is far slower on millions);
    ``nearly_sorted``: in long sorted runs already, which numpy's stable sort merges rather than sorting afresh."""
    ordered = np.sort(values, kind="stable" if nearly_sorted else None)
    keep = np.ones(len(ordered), dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    found: I64 = ordered[keep]
    return found


def _counts(loaded: Loaded, probes: Probes) -> tuple[I64, I64, npt.NDArray[np.float64]]:
    """Each range's key indices ``[first, last)`` in ``loaded.keys``, and each row's events."""
    queries, which = probes.lookups()
    found = np.searchsorted(loaded.keys, queries)[which]
    a, b = found[: len(probes.low)], found[len(probes.low):]
    count = np.bincount(probes.range_pair, weights=loaded.starts[b] - loaded.starts[a],
                        minlength=len(probes.pair_shape))
    return a, b, count[probes.pair].astype(np.float64)


def common_groups(loaded: Loaded, probes: Probes, most: int) -> I64:
    """The groups whose fewest events in ``loaded`` (over their shapes) are more than ``most``."""
    if not len(probes):
        return np.zeros(0, dtype=np.int64)
    _, _, count = _counts(loaded, probes)
    groups, inverse = np.unique(probes.group, return_inverse=True)
    fewest = np.full(len(groups), np.inf)
    np.minimum.at(fewest, inverse.reshape(-1), count)
    found: I64 = groups[fewest > most]
    return found


def _choose(count: npt.NDArray[np.float64], probes: Probes) -> I64:
    """For each group, its row of the shape with the fewest events (``count``: each row's)."""
    order = np.lexsort((count, probes.group))
    group = probes.group[order]
    head = np.ones(len(order), dtype=bool)
    head[1:] = group[1:] != group[:-1]
    chosen: I64 = order[head]
    return chosen


def _ranges(a: I64, b: I64, probes: Probes, chosen: I64) -> tuple[I64, I64, I64]:
    """The key ranges of rows ``chosen`` (``a``, ``b``: each range's key indices, :func:`_counts`): each range's row
    and its key indices ``[first, last)`` in the key table, the empty ones left out."""
    bounds = probes.pair_ranges()
    pair = probes.pair[chosen]
    ranges, which = _spread(bounds[pair], bounds[pair + 1])
    row, first, last = chosen[which], a[ranges], b[ranges]
    keep = last > first
    return row[keep], first[keep], last[keep]


_spread = spread


def _at_points(loaded: Loaded, images: Images, probes: Probes, row: I64, first: I64, last: I64, bits: int) -> I64:
    """The candidates (``record << bits | place``) of the ranges' events at their family's places with the band
    bits their row asks, by binary search on the points (a key's events are sorted by point)."""
    key, which = _spread(first, last)
    family = probes.family[row[which]]
    lo_place, hi_place = images.first_place[family], images.first_place[family + 1]
    place, pair = _spread(lo_place, hi_place)
    key = key[pair]
    target = images.index[place, probes.cell[row[which[pair]]]]
    begin, end = loaded.starts[key], loaded.starts[key + 1]
    if loaded.lazy is None:
        lo, hi = np.empty(len(key), dtype=np.int64), np.empty(len(key), dtype=np.int64)
        kernels.point_spans(loaded.entry_point, begin, end, target, lo, hi)
    else:  # filling the blocks each step reads
        lo = _bisect(loaded, begin, end, target)
        hi = _bisect(loaded, lo, end, target + 1)
    row = row[which[pair]]
    return _banded_spans(loaded, lo, hi, place, probes.band_mask[row], probes.band_value[row], bits)


def _banded_spans(loaded: Loaded, lo: I64, hi: I64, place: I64, mask: I64, value: I64, bits: int) -> I64:
    """The entries of the spans ``[lo, hi)`` whose band bits under ``mask`` are ``value`` (a place, mask and value
    a span), as ``record << bits | place`` (:data:`kernels.banded`)."""
    loaded.need_spans("entries", lo, hi)
    out = np.empty(int((hi - lo).sum()), dtype=np.int64)
    count = kernels.banded(loaded.entries, lo, hi, place, mask.astype(np.uint8), value.astype(np.uint8), bits, out)
    return out[:count]


def _bisect(loaded: Loaded, lo: I64, hi: I64, target: I64) -> I64:
    """For each ``[lo, hi)`` of the entries' sorted points, the first index whose point is at least ``target``."""
    values = loaded.entry_point
    found = lo.copy()
    lane = np.flatnonzero(lo < hi)
    lo, hi, target = lo[lane], hi[lane], target[lane]
    while len(lane):
        mid = (lo + hi) >> 1
        loaded.need("entry_point", mid)
        below = values[mid] < target
        lo = np.where(below, mid + 1, lo)
        hi = np.where(below, hi, mid)
        open_ = lo < hi
        found[lane[~open_]] = lo[~open_]
        lane, lo, hi, target = lane[open_], lo[open_], hi[open_], target[open_]
    return found


def candidates(loaded: Loaded, images: Images, probes: Probes, place_of: I64, bits: int) -> I64:
    """The candidates in ``loaded``: ``record << bits | place`` (an event's record: its game and move), the events
    of each group's shape with the fewest (:func:`_gathered`)."""
    if not len(probes):
        return np.zeros(0, dtype=np.int64)
    a, b, count = _counts(loaded, probes)
    return _gathered(loaded, images, probes, place_of, *_ranges(a, b, probes, _choose(count, probes)), bits)


def _gathered(loaded: Loaded, images: Images, probes: Probes, place_of: I64, row: I64, first: I64, last: I64,
              bits: int) -> I64:
    """The candidates of the ranges (each one's row and key indices): a range whose keys are few for its events
    searched by point in each key (:func:`_at_points`), the others read whole and kept where their point is a
    place's (``place_of``, :func:`place_table`)."""
    begin, end = loaded.starts[first], loaded.starts[last]
    places = (images.first_place[probes.family + 1] - images.first_place[probes.family])[row]
    searches = (last - first) * places
    by_point = searches * SEARCH_COST * (1 + np.log2(1 + (end - begin) / np.maximum(searches, 1))) < end - begin
    searched = _at_points(loaded, images, probes, row[by_point], first[by_point], last[by_point], bits)
    read = _read_whole(loaded, images, probes, place_of, row[~by_point], begin[~by_point], end[~by_point], bits)
    return np.concatenate([searched, read])


def _read_whole(loaded: Loaded, images: Images, probes: Probes, place_of: I64, row: I64, begin: I64,
                end: I64, bits: int) -> I64:
    """The candidates (``record << bits | place``) of the ranges' events whose point is a place's of the row's
    family, with the band bits their row asks (:data:`kernels.placed`)."""
    if not len(row):
        return np.zeros(0, dtype=np.int64)
    loaded.need_spans("entries", begin, end)
    loaded.need_spans("entry_point", begin, end)
    cells = images.index.shape[1]
    base = (probes.family[row] * cells + probes.cell[row]) * place_of.shape[1]
    out = np.empty(int((end - begin).sum()), dtype=np.int64)
    count = kernels.placed(loaded.entries, loaded.entry_point, begin, end, base, place_of.reshape(-1),
                           probes.band_mask[row].astype(np.uint8), probes.band_value[row].astype(np.uint8), bits, out)
    return out[:count]


def place_table(images: Images) -> I64:
    """``place_of`` for :func:`candidates`: for each family and cell (row ``family * cells + cell``), the place of
    the family whose cell lies on each point (-1: none)."""
    cells = images.index.shape[1]
    table = np.full((len(images.fams) * cells, POINTS + 1), -1, dtype=np.int64)
    rows = images.family[:, None] * cells + np.arange(cells, dtype=np.int64)[None, :]
    table[rows, images.index] = np.arange(len(images), dtype=np.int64)[:, None]
    return table


PLAN_SAMPLE = 2048
"""Candidates whose every cell is read first to choose the order the others are tested in (:func:`_plan`)."""
PLAN_CELLS = 8
"""Cells put first by how many candidates of the sample they turn away."""


def _plan(loaded: Loaded, images: Images, order: list[int], place: I64, game: I64, move: I64) -> list[int]:
    """The order :func:`verify` tests the cells in.

    With many candidates, a sample of them is read whole and the cells that turn most of them away go first (each
    chosen for the candidates the ones before it let through): a candidate's own event already holds most cells
    around it, so a pattern's far stone turns away more than its nearest points. Otherwise ``order``."""
    if len(place) < 8 * PLAN_SAMPLE or len(order) < 2:
        return order
    pick = np.linspace(0, len(place) - 1, PLAN_SAMPLE).astype(np.int64)
    cells = np.array(order, dtype=np.int64)
    slot = images.index[place[pick]][:, cells] + (game[pick] * POINTS)[:, None]
    loaded.need("dense", slot)
    value = loaded.segment.dense[slot]
    code = (value >> COLOUR_SHIFT).astype(np.uint8) | (_ALLOWED_BITS[images.letter[place[pick]][:, cells]] << 4).astype(
        np.uint8)
    code |= ((value & NEVER) <= move[pick][:, None]).view(np.uint8) << 3
    holds = (_VERDICT[code] & 1).astype(bool)
    alive = np.ones(len(pick), dtype=bool)
    first: list[int] = []
    left = list(range(len(cells)))
    for _ in range(min(PLAN_CELLS, len(cells))):
        turned = (~holds[alive][:, left]).sum(axis=0)
        best = left.pop(int(np.argmax(turned)))
        first.append(best)
        alive &= holds[:, best]
    return [order[k] for k in first + left]


def _need_games(loaded: Loaded, game: I64) -> None:
    """Fill the dense table of local ``game`` in a lazily read segment."""
    if loaded.lazy is not None and len(game):
        mark = np.zeros(loaded.segment.games, dtype=bool)
        mark[game] = True
        one = np.flatnonzero(mark).astype(np.int64) * POINTS
        loaded.need("dense", np.concatenate([one, one + POINTS - 1]))


def verify(loaded: Loaded, images: Images, order: list[int], place: I64, game: I64, move: I64) -> int:
    """The candidates that hold every cell's letter after their move, moved to the front of ``place``, ``game`` and
    ``move`` (int64, in game order) in their order; how many (:data:`kernels.verify`: each candidate's cells in the
    order :func:`_plan` gives, until one fails). Candidates in game order read the dense table in its order."""
    seg = loaded.segment
    cells = np.array(_plan(loaded, images, order, place, game, move), dtype=np.int64)
    allowed = np.ascontiguousarray(_ALLOWED_BITS[images.letter[:, cells]], dtype=np.uint8)
    some = (allowed != ANY_STATE).any(axis=0)  # a cell whose letter allows every state is not read
    if not some.any():
        return len(place)
    cells, allowed = cells[some], np.ascontiguousarray(allowed[:, some])
    slots = np.ascontiguousarray(images.index[:, cells], dtype=np.int32)
    _need_games(loaded, game)
    change_start = loaded.change_start()

    def kept(part: slice) -> int:
        found: int = kernels.verify(seg.dense, seg.changes, change_start, slots, allowed, place[part], game[part],
                                    move[part])
        return found

    parts = halves(len(place))
    return _gather_front(in_halves(kept, parts), parts, place, game, move)


def _gather_front(counts: list[int], parts: list[slice], *arrays: I64) -> int:
    """How many each of ``parts`` wrote at its start (``counts``), moved up to follow the first's in ``arrays``; how
    many in all."""
    count = counts[0]
    for part, more in zip(parts[1:], counts[1:], strict=True):
        for values in arrays:
            values[count:count + more] = values[part.start:part.start + more]
        count += more
    return count


def _at_moves(parts: list[slice], packed: I64, bits: int, record_start: npt.NDArray[np.uint32],
              record_move: npt.NDArray[np.int32]) -> list[slice]:
    """``parts`` of the sorted candidates ``packed`` with the second begun at a move's first candidate (a move's
    candidates are one run, read together by :data:`kernels.unpacked`)."""
    if len(parts) < 2:
        return parts
    at = parts[1].start

    def move_of(i: int) -> tuple[int, int]:
        record = int(packed[i]) >> bits
        return int(np.searchsorted(record_start, record, side="right")), int(record_move[record])

    while at < len(packed) and move_of(at) == move_of(at - 1):
        at += 1
    return [slice(0, at), slice(at, len(packed))]


HALVED = 1 << 14
"""Candidates or hits that a compiled loop takes half each in two threads, from this many (the loops release the
GIL)."""
_POOL: list[ThreadPoolExecutor] = []
os.register_at_fork(after_in_child=_POOL.clear)  # a forked child has not the thread: it makes its own


def _pool() -> ThreadPoolExecutor:
    """The thread that takes the second half (made on first use)."""
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="joseki-search"))
    return _POOL[0]


def halves(count: int) -> list[slice]:
    """``[0, count)`` in two halves from :data:`HALVED` on (with two cores or more), else whole."""
    if count < HALVED or (os.cpu_count() or 1) < 2:
        return [slice(0, count)]
    return [slice(0, count // 2), slice(count // 2, count)]


def in_halves(work: Callable[[slice], T], parts: list[slice]) -> list[T]:
    """``work`` of each of ``parts`` (:func:`halves`), the second in another thread at once; the results in order."""
    later = [_pool().submit(work, part) for part in parts[1:]]
    return [work(parts[0]), *(done.result() for done in later)]


def hits(loaded: Loaded, images: Images, probes: Probes, place_of: I64, order: list[int], stoneless: bool,
         games: I64 | None) -> tuple[I64, I64, I64]:
    """Every (place, game, move) of ``loaded`` where an image came into being, one each, sorted by game, move and
    place; ``games``: only these local games (None: all).

    The candidates are sorted by record (a record number is in game and move order), then read in that order
    (:data:`kernels.unpacked`) for their games and moves, the copies dropped (two records of one move at the
    same place)."""
    seg = loaded.segment
    bits = max(len(images), 1).bit_length()
    packed = np.sort(candidates(loaded, images, probes, place_of, bits))
    if loaded.lazy is not None:
        loaded.need("record_move", packed >> bits)
    place, game, move = (np.empty(len(packed), dtype=np.int64) for _ in range(3))

    def unpack(part: slice) -> int:
        found: int = kernels.unpacked(packed[part], bits, seg.record_start, loaded.record_move, place[part],
                                      game[part], move[part])
        return found

    parts = _at_moves(halves(len(packed)), packed, bits, seg.record_start, loaded.record_move)
    count = _gather_front(in_halves(unpack, parts), parts, place, game, move)
    place, game, move = place[:count], game[:count], move[:count]
    if stoneless:
        every = np.arange(seg.games, dtype=np.int64)
        place = np.concatenate([place, np.repeat(np.arange(len(images), dtype=np.int64), seg.games)])
        game = np.concatenate([game, np.tile(every, len(images))])
        move = np.concatenate([move, np.zeros(len(images) * seg.games, dtype=np.int64)])
        key = distinct((game << MOVE_BITS | move) << bits | place)
        place, move, game = key & ((1 << bits) - 1), (key >> bits) & NEVER, key >> (bits + MOVE_BITS)
    if games is not None:
        wanted = np.zeros(seg.games, dtype=bool)
        wanted[games] = True
        keep = wanted[game]
        place, game, move = place[keep], game[keep], move[keep]
    count = verify(loaded, images, order, place, game, move)
    return place[:count], game[:count], move[:count]


def move_lists(loaded: Loaded, games: I64) -> tuple[I64, npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """The moves of local ``games`` (sorted, distinct), one game after the other, from their move lists: each
    game's count, and every move's point index and state (1 black, 2 white)."""
    starts = loaded.segment.record_start.astype(np.int64)
    if len(games) == loaded.segment.games:  # every game: the move lists as they are
        loaded.need("words", None)
        words, bounds = loaded.segment.words, starts
    else:
        flat, _ = spread(starts[games], starts[games + 1])
        loaded.need("words", flat)
        words = loaded.segment.words[flat]
        bounds = np.concatenate(([0], np.cumsum(starts[games + 1] - starts[games])))
    is_move = (words & (SETUP | CAPTURE)) == 0
    before = np.concatenate(([0], np.cumsum(is_move, dtype=np.int64)))
    counts: I64 = before[bounds[1:]] - before[bounds[:-1]]
    moved = words[is_move]
    return counts, (moved & POINT_MASK).astype(np.int16), np.where(moved & WHITE, 2, 1).astype(np.int8)


def next_stone(loaded: Loaded, index: I64, place: I64, game: I64, after: I64) -> tuple[I64, I64]:
    """For each hit (its ``place``, local ``game`` and move ``after``), the first later move that put a stone on
    one of the place's cells (``index``: the board index of each cell at each place), from the dense table and
    the changes (:data:`kernels.next_stone`), and which of its cells; -1 for both when none did.

    A cell's first stone is its next one when it came after the hit; a cell that had a stone by then gets another
    only if it changed again (the changes say when). A suicide's own stone changes no point, so a game with one
    (``loaded.suicide``) is not answered here."""
    seg = loaded.segment
    slots = np.ascontiguousarray(index, dtype=np.int32)
    place, game, after = (np.ascontiguousarray(a, dtype=np.int64) for a in (place, game, after))
    found = np.empty(len(game), dtype=np.int64)
    column = np.empty(len(game), dtype=np.int64)
    _need_games(loaded, game)
    change_start = loaded.change_start()

    def nearest(part: slice) -> None:
        kernels.next_stone(seg.dense, seg.changes, change_start, slots, place[part], game[part], after[part],
                           found[part], column[part])

    in_halves(nearest, halves(len(place)))
    return found, column
