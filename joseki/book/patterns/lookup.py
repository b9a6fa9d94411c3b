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

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from joseki.book.patterns.lazy import Blobs, Derived, Index, RecordMoves, Stored, entry_points, spread, suicides
from joseki.book.patterns.probes import SHAPE_SHIFT as _SHAPE_SHIFT
from joseki.book.patterns.probes import Images, Probes
from joseki.book.patterns.segment import (
    AGAIN,
    COLOUR_SHIFT,
    MOVE_BITS,
    NEVER,
    RECORD_BITS,
    RECORD_MASK,
    Segment,
    find_sorted,
    game_moves,
    state_at,
)
from joseki.core.movelist import CAPTURE, POINT_MASK, POINTS, SETUP, WHITE
from joseki.core.pattern import ALLOWS, LETTERS

I64 = npt.NDArray[np.int64]
ALLOWED = np.array([[state in ALLOWS[letter] for state in range(3)] for letter in LETTERS], dtype=bool)
"""Whether each letter (by its place in LETTERS) allows each state (0 empty, 1 black, 2 white)."""
_ALLOWED_BITS = (ALLOWED * (1 << np.arange(3))).sum(axis=1).astype(np.int32)
"""The states each letter allows as bits (bit ``s``: state ``s``)."""
VERIFY_CELLS = 8
"""Cells verified together before the candidates that failed are dropped (eight one-byte answers are one 64-bit
word: a candidate's eight are tested at once)."""
_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
"""The word of each number of one-byte answers tested at once."""


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
SEARCH_COST = 2.0
"""What one step of a search by point costs, in events read whole (:func:`candidates`)."""
COMMON_SHARE = 16
"""A group is common when its fewest events are more than one in this many games of a segment: its keys are
then enumerated wider (:func:`joseki.book.patterns.probes.refined`)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A segment ready to search: its four shapes' keys in one sorted array (the shape above the key), their
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
        def stored(*names: str) -> Stored:
            return Stored(blobs, [(segment_id, name) for name in names])

        whole = {name: stored(name) for name in ("game_id", "record_start", "winner", "date",
                                                 *(f"{n}{s}" for s in range(4) for n in ("keys", "starts")))}
        for array in whole.values():
            array.need(None)
        words, dense, changes = stored("words"), stored("dense"), stored("changes")
        entries = stored(*(f"entries{s}" for s in range(4)))
        keys = tuple(whole[f"keys{s}"].values.view(np.uint32) for s in range(4))
        starts = tuple(whole[f"starts{s}"].values.view(np.uint32) for s in range(4))
        sizes = np.array([int(st[-1]) for st in starts], dtype=np.int64)
        bounds = np.concatenate(([0], np.cumsum(sizes)))
        all_entries = entries.values.view(np.uint32)
        segment = Segment(whole["game_id"].values.view(np.uint32), whole["record_start"].values.view(np.uint32),
                          words.values.view(np.uint16), whole["winner"].values.view(np.uint8),
                          whole["date"].values.view(np.uint32), dense.values.view(np.uint16),
                          changes.values.view(np.int64), keys, starts,
                          tuple(all_entries[bounds[s]: bounds[s + 1]] for s in range(4)))
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

    def state(self, game: I64, point: I64, move: I64) -> I64:
        """The state (0 empty, 1 black, 2 white) of each point index in each game after each move."""
        self.need("dense", game * POINTS + point)
        self.need("changes", None)
        return state_at(self.segment.dense, self.segment.changes, game, point, move)


class Filler(Protocol):
    """A lazily read array: :meth:`need` fills it where it is about to be read."""

    def need(self, index: Index | None) -> None: ...


POINT_BLOCK = 1 << 14
"""Entries whose points are worked out together in a lazily read segment."""


def _key_table(segment: Segment) -> tuple[I64, I64]:
    """The four shapes' keys in one sorted array (the shape above the key) and their starts in one array."""
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


def _choose(loaded: Loaded, probes: Probes) -> tuple[I64, I64, I64]:
    """For each group, the rows of the shape with the fewest events: each chosen range's row and its key indices
    ``[first, last)`` in ``loaded.keys``."""
    a, b, count = _counts(loaded, probes)
    order = np.lexsort((count, probes.group))
    head = np.ones(len(order), dtype=bool)
    head[1:] = probes.group[order][1:] != probes.group[order][:-1]
    chosen = order[head]
    bounds = probes.pair_ranges()
    pair = probes.pair[chosen]
    ranges, which = _spread(bounds[pair], bounds[pair + 1])
    row, first, last = chosen[which], a[ranges], b[ranges]
    keep = last > first
    return row[keep], first[keep], last[keep]


_spread = spread


def _at_points(loaded: Loaded, images: Images, probes: Probes, row: I64, first: I64,
               last: I64) -> tuple[I64, I64]:
    """The places and records of the ranges' events at their family's places with the band bits their row asks,
    by binary search on the points (a key's events are sorted by point)."""
    key, which = _spread(first, last)
    family = probes.family[row[which]]
    lo_place, hi_place = images.first_place[family], images.first_place[family + 1]
    place, pair = _spread(lo_place, hi_place)
    key = key[pair]
    target = images.index[place, probes.cell[row[which[pair]]]]
    keys = len(distinct(key)) if loaded.lazy is None and len(key) else 0
    if keys and keys <= KEYS_ONE_BY_ONE and len(key) >= LANES_A_KEY * keys:
        lo, hi = _by_key(loaded, key, target)
    else:
        begin, end = loaded.starts[key], loaded.starts[key + 1]
        lo = _bisect(loaded, begin, end, target)
        hi = _bisect(loaded, lo, end, target + 1)
    row = row[which[pair]]
    return _banded_spans(loaded, lo, hi, place, probes.band_mask[row], probes.band_value[row])


def _banded_spans(loaded: Loaded, lo: I64, hi: I64, place: I64, mask: I64, value: I64) -> tuple[I64, I64]:
    """The places and records of the entries of the spans ``[lo, hi)`` whose band bits under ``mask`` are
    ``value`` (a place, mask and value a span), the span of each entry found only for those kept."""
    lengths = hi - lo
    span = np.repeat(np.arange(len(lo), dtype=np.int32), lengths)
    entry = np.arange(len(span), dtype=np.int32)
    entry += np.repeat((lo - (np.cumsum(lengths) - lengths)).astype(np.int32), lengths)
    loaded.need("entries", entry)
    found = loaded.entries[entry]
    band = (found >> RECORD_BITS).astype(np.uint8)
    band &= np.repeat(mask.astype(np.uint8), lengths)
    keep = np.flatnonzero(band == np.repeat(value.astype(np.uint8), lengths))
    return place[span[keep]], (found[keep] & RECORD_MASK).astype(np.int64)


KEYS_ONE_BY_ONE = 20000
"""Keys searched by point one at a time (numpy's binary search on each key's events) at most; beyond, or in a
lazily read segment (where that would read every event of those keys), a binary search of all at once."""
LANES_A_KEY = 16
"""Points sought in a key, on average, for the keys to be searched one at a time (a call a key pays then)."""


def _by_key(loaded: Loaded, key: I64, target: I64) -> tuple[I64, I64]:
    """For each (key, target point): the entries of that key at that point, ``[lo, hi)``, one key at a time."""
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    cut = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
    lo, hi = np.empty(len(key), dtype=np.int64), np.empty(len(key), dtype=np.int64)
    points, starts = loaded.entry_point, loaded.starts
    for a, b in zip(np.concatenate(([0], cut)).tolist(), np.concatenate((cut, [len(key)])).tolist(), strict=True):
        k = int(ordered[a])
        begin, end = int(starts[k]), int(starts[k + 1])
        lanes = order[a:b]
        events = points[begin:end]
        wanted = target[lanes].astype(np.int16)
        lo[lanes] = np.searchsorted(events, wanted, side="left") + begin
        hi[lanes] = np.searchsorted(events, wanted, side="right") + begin
    return lo, hi


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


def candidates(loaded: Loaded, images: Images, probes: Probes, place_of: I64) -> tuple[I64, I64]:
    """The candidates' places and records (an event's record: its game and move) in ``loaded``.

    A range whose keys are few for its events is searched by point in each key (:func:`_at_points`), the others
    read whole and kept where their point is a place's (``place_of``, :func:`place_table`)."""
    none = np.zeros(0, dtype=np.int64)
    if not len(probes):
        return none, none
    row, first, last = _choose(loaded, probes)
    if not len(row):
        return none, none
    begin, end = loaded.starts[first], loaded.starts[last]
    places = (images.first_place[probes.family + 1] - images.first_place[probes.family])[row]
    searches = (last - first) * places
    by_point = searches * SEARCH_COST * (1 + np.log2(1 + (end - begin) / np.maximum(searches, 1))) < end - begin
    searched = _at_points(loaded, images, probes, row[by_point], first[by_point], last[by_point])
    read = _read_whole(loaded, images, probes, place_of, row[~by_point], begin[~by_point], end[~by_point])
    return np.concatenate([searched[0], read[0]]), np.concatenate([searched[1], read[1]])


def _read_whole(loaded: Loaded, images: Images, probes: Probes, place_of: I64, row: I64, begin: I64,
                end: I64) -> tuple[I64, I64]:
    """The places and records of the ranges' events whose point is a place's of the row's family, with the band
    bits their row asks (each distinct span read once; the band tested first, as bytes, the place looked up for
    the events kept)."""
    if not len(row):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    spans, inverse = np.unique(np.column_stack([begin, end]), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    flat, _ = _spread(spans[:, 0], spans[:, 1])
    lengths = spans[:, 1] - spans[:, 0]
    offsets = np.cumsum(lengths) - lengths
    loaded.need("entries", flat)
    loaded.need("entry_point", flat)
    entry = loaded.entries[flat]
    band = (entry >> RECORD_BITS).astype(np.uint8)
    point = loaded.entry_point[flat]
    each = lengths[inverse]
    at = np.arange(int(each.sum()), dtype=np.int64)
    at += np.repeat(offsets[inverse] - (np.cumsum(each) - each), each)
    test = band[at]
    test &= np.repeat(probes.band_mask[row].astype(np.uint8), each)
    kept = np.flatnonzero(test == np.repeat(probes.band_value[row].astype(np.uint8), each))
    at = at[kept]
    use = np.repeat(np.arange(len(row), dtype=np.int32), each)[kept]
    cells = images.index.shape[1]
    place = place_of.reshape(-1)[(probes.family[row] * cells + probes.cell[row])[use] * place_of.shape[1]
                                 + point[at]]
    ok = place >= 0
    return place[ok], (entry[at[ok]] & RECORD_MASK).astype(np.int64)


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


def _plan(loaded: Loaded, images: Images, order: list[int], place: I64, game: I64,
          move: I64) -> tuple[list[int], list[int]]:
    """The cells to test in :func:`verify` and how many each round tests.

    With many candidates, a sample of them is read whole: the cells that turn most of them away go first (each
    chosen for the candidates the ones before it let through), and the first round tests as few of them as a word
    holds if that reads the fewest cells in all (a candidate's own event already holds most cells around it, so
    a pattern's far stone turns away more than its nearest points). Otherwise ``order``, eight at a time."""
    width = max(VERIFY_CELLS, -(-len(order) // VERIFY_CELLS) * VERIFY_CELLS)
    plain = [VERIFY_CELLS] * (width // VERIFY_CELLS)
    if len(place) < 8 * PLAN_SAMPLE or len(order) < 2:
        return order, plain
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
    ranked = first + left
    through = np.cumprod(holds[:, ranked], axis=1).mean(axis=0)  # the share holding every cell up to each one
    best_cost, widths = np.inf, plain
    for step in (1, 2, 4, 8):
        rounds = [step] + [VERIFY_CELLS] * -(-(len(cells) - step) // VERIFY_CELLS) if len(cells) > step else [step]
        ends = np.cumsum(rounds)
        cost = rounds[0] + sum(w * through[min(e, len(cells)) - 1] for w, e in zip(rounds[1:], ends[:-1], strict=True))
        if cost < best_cost:
            best_cost, widths = cost, rounds
    return [order[k] for k in ranked], widths


def verify(loaded: Loaded, images: Images, order: list[int], place: I64, game: I64, move: I64) -> npt.NDArray[np.bool_]:
    """Which candidates hold every cell's letter after their move (cells tested in the order and rounds
    :func:`_plan` gives, the candidates that failed dropped as they go; the cells whose point changed more than once
    are read from the changes last, for the candidates left). Candidates in game order read the dense table in its
    order."""
    seg = loaded.segment
    order, widths = _plan(loaded, images, order, place, game, move)
    width = sum(widths)
    cells = np.array(order, dtype=np.int64)
    slots = np.zeros((len(images), width), dtype=np.int32)
    slots[:, : len(cells)] = images.index[:, cells]
    codes = np.full((len(images), width), 7 << 4, dtype=np.uint8)
    codes[:, : len(cells)] = _ALLOWED_BITS[images.letter[:, cells]] << 4
    alive = np.arange(len(place))
    at = place
    base = (game * POINTS).astype(np.int32)[:, None]
    when = move.astype(np.uint16)[:, None]
    unsure: list[tuple[I64, I64, I64]] = []
    lo = 0
    for step in widths:
        if not len(alive):
            break
        part = slice(lo, lo + step)
        slot = slots[at, part]
        slot += base
        loaded.need("dense", slot)
        value = seg.dense[slot]
        code = (value >> COLOUR_SHIFT).astype(np.uint8)
        code |= codes[at, part]
        code |= ((value & NEVER) <= when).view(np.uint8) << 3
        word = _WORDS[step]
        verdict = _VERDICT[code].view(word).reshape(-1)
        ones = int.from_bytes(b"\x01" * step, "little")
        good = (verdict & word(ones)) == word(ones)
        again = np.flatnonzero(good & ((verdict & word(ones << 1)) != 0))
        if len(again):
            row, column = np.nonzero(_VERDICT[code[again]] & 2)
            unsure.append((alive[again[row]], slot[again[row], column].astype(np.int64),
                           codes[at[again[row]], lo + column].astype(np.int64) >> 4))
        alive = alive[good]
        lo += step
        if lo < width:
            at, base, when = at[good], base[good], when[good]
    held = np.zeros(len(place), dtype=bool)
    held[alive] = True
    if unsure:
        who, slot_, allowed = (np.concatenate([u[i] for u in unsure]) for i in range(3))
        left = held[who]
        who, slot_, allowed = who[left], slot_[left], allowed[left]
        loaded.need("changes", None)
        point = slot_ % POINTS
        state = state_at(seg.dense, seg.changes, slot_ // POINTS, point, move[who].astype(np.int64))
        held[who[((allowed >> state) & 1) == 0]] = False
    return held


def hits(loaded: Loaded, images: Images, probes: Probes, place_of: I64, order: list[int], stoneless: bool,
         games: I64 | None) -> tuple[I64, I64, I64]:
    """Every (place, game, move) of ``loaded`` where an image came into being, one each, sorted by game, move and
    place; ``games``: only these local games (None: all).

    The candidates are sorted by record first (a record number is in game and move order: each game's candidates
    are then found by a binary search of its first record, and their moves read in order), then by game, move and
    place without the copies (two records of one move at the same place)."""
    seg = loaded.segment
    place, record = candidates(loaded, images, probes, place_of)
    bits = max(len(images), 1).bit_length()
    packed = np.sort(record << bits | place)
    record, place = packed >> bits, packed & ((1 << bits) - 1)
    ends = np.searchsorted(record, seg.record_start.astype(np.int64))
    game = np.repeat(np.arange(seg.games, dtype=np.int64), np.diff(ends))
    loaded.need("record_move", record)
    move = loaded.record_move[record].astype(np.int64)
    if stoneless:
        every = np.arange(seg.games, dtype=np.int64)
        place = np.concatenate([place, np.repeat(np.arange(len(images), dtype=np.int64), seg.games)])
        game = np.concatenate([game, np.tile(every, len(images))])
        move = np.concatenate([move, np.zeros(len(images) * seg.games, dtype=np.int64)])
    if games is not None:
        wanted = np.zeros(seg.games, dtype=bool)
        wanted[games] = True
        keep = wanted[game]
        place, game, move = place[keep], game[keep], move[keep]
    key = distinct((game << MOVE_BITS | move) << bits | place, nearly_sorted=True)
    place, move, game = key & ((1 << bits) - 1), (key >> bits) & NEVER, key >> (bits + MOVE_BITS)
    held = verify(loaded, images, order, place, game, move)
    return place[held], game[held], move[held]


def move_lists(loaded: Loaded, games: I64) -> tuple[I64, npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """The moves of local ``games`` (sorted, distinct), one game after the other, from their move lists: each
    game's count, and every move's point index and state (1 black, 2 white)."""
    starts = loaded.segment.record_start.astype(np.int64)
    flat, which = spread(starts[games], starts[games + 1])
    loaded.need("words", flat)
    w = loaded.segment.words[flat].astype(np.int64)
    is_move = (w & (SETUP | CAPTURE)) == 0
    counts: I64 = np.bincount(which[is_move], minlength=len(games)).astype(np.int64)
    return counts, (w[is_move] & POINT_MASK).astype(np.int16), np.where(w[is_move] & WHITE, 2, 1).astype(np.int8)


NEXT_ROWS = 1 << 16
"""Hits whose next stones are sought together (bounds the temporary arrays)."""


def next_stone(loaded: Loaded, index: I64, place: I64, game: I64, after: I64) -> tuple[I64, I64]:
    """For each hit (its ``place``, local ``game`` and move ``after``), the first later move that put a stone on
    one of the place's cells (``index``: the board index of each cell at each place), from the dense table and
    the changes, and which of its cells; -1 for both when none did.

    A cell's first stone is its next one when it came after the hit; a cell that had a stone by then gets another
    only if it changed again (the changes say when). A suicide's own stone changes no point, so a game with one
    (``loaded.suicide``) is not answered here."""
    seg = loaded.segment
    table = index.astype(np.int32)
    found = np.full(len(game), -1, dtype=np.int64)
    column = np.full(len(game), -1, dtype=np.int64)
    for lo in range(0, len(game), NEXT_ROWS):
        part = slice(lo, lo + NEXT_ROWS)
        slot = table[place[part]]
        slot += (game[part] * POINTS).astype(np.int32)[:, None]
        loaded.need("dense", slot)
        value = seg.dense[slot]
        soonest = (after[part] + 1).astype(np.uint16)[:, None]
        gap = (value & NEVER) - soonest  # how long after the hit each cell's first stone came (beyond NEVER: before)
        again = np.flatnonzero(value.reshape(-1) >= AGAIN)
        again = again[gap.reshape(-1)[again] > NEVER]
        if len(again):
            loaded.need("changes", None)
            changes = seg.changes
            row = again // slot.shape[1]
            s, when = slot.reshape(-1)[again].astype(np.int64), after[part][row]
            at = find_sorted(changes, ((s << MOVE_BITS | when) << 2) | 3, side="right")
            move = np.full(len(s), NEVER, dtype=np.int64)
            for step in (0, 1):
                probe = np.minimum(at + step, len(changes) - 1)
                value_at = changes[probe]
                placed = ((at + step) < len(changes)) & ((value_at >> (MOVE_BITS + 2)) == s) & ((value_at & 3) != 0)
                move = np.where((move == NEVER) & placed, (value_at >> 2) & NEVER, move)
            gap.reshape(-1)[again] = np.where(move == NEVER, 0xFFFF, move - when - 1)
        which = np.argmin(gap, axis=1)
        nearest = np.take_along_axis(gap, which[:, None], axis=1)[:, 0] + after[part] + 1
        none = nearest >= NEVER
        found[part] = np.where(none, -1, nearest)
        column[part] = np.where(none, -1, which)
    return found, column
