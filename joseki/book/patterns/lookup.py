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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from joseki.book.patterns.probes import Images, Probes
from joseki.book.patterns.segment import RECORD_BITS, RECORD_MASK, Segment, game_moves, state_at
from joseki.book.patterns.windows import KIND_SHIFT
from joseki.core.movelist import CAPTURE, POINT_MASK, POINTS, SETUP, WHITE
from joseki.core.pattern import ALLOWS, LETTERS

I64 = npt.NDArray[np.int64]
ALLOWED = np.array([[state in ALLOWS[letter] for state in range(3)] for letter in LETTERS], dtype=bool)
"""Whether each letter (by its place in LETTERS) allows each state (0 empty, 1 black, 2 white)."""
_SHAPE_SHIFT = KIND_SHIFT + 2
VERIFY_CELLS = 6
"""Cells verified together before the candidates that failed are dropped."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A segment ready to search: its four shapes' keys in one sorted array (the shape above the key), their
    starts in one array of entries, each record's move number, and its moves for the continuations."""

    segment: Segment
    keys: I64
    starts: I64
    entries: npt.NDArray[np.uint32]
    record_move: npt.NDArray[np.int32]
    move_point: npt.NDArray[np.int16]
    move_state: npt.NDArray[np.int8]
    move_start: I64
    """Game ``g``'s moves begin at ``move_start[g]`` of ``move_point``; ``move_start[g + 1] - move_start[g]``."""

    @classmethod
    def of(cls, segment: Segment) -> Loaded:
        sizes = [len(e) for e in segment.entries]
        base = np.concatenate(([0], np.cumsum(sizes)))
        keys = np.concatenate([k.astype(np.int64) | (s << _SHAPE_SHIFT) for s, k in enumerate(segment.keys)])
        starts = np.concatenate([st[:-1].astype(np.int64) + base[s] for s, st in enumerate(segment.starts)]
                                + [np.array([base[-1]], dtype=np.int64)])
        entries = np.concatenate(segment.entries) if segment.entries else np.zeros(0, dtype=np.uint32)
        words = segment.words.astype(np.int64)
        is_move = (words & (SETUP | CAPTURE)) == 0
        record_start = segment.record_start.astype(np.int64)
        per_game = np.add.reduceat(is_move.astype(np.int64), record_start[:-1]) if len(words) else \
            np.zeros(segment.games, dtype=np.int64)
        per_game = np.where(np.diff(record_start) > 0, per_game, 0)
        return cls(segment, keys, starts, entries, game_moves(segment.words, segment.record_start).astype(np.int32),
                   (words[is_move] & POINT_MASK).astype(np.int16),
                   np.where(words[is_move] & WHITE, 2, 1).astype(np.int8),
                   np.concatenate(([0], np.cumsum(per_game))).astype(np.int64))

    def state(self, game: I64, point: I64, move: I64) -> I64:
        """The state (0 empty, 1 black, 2 white) of each point index in each game after each move."""
        return state_at(self.segment.dense, self.segment.changes, game, point, move)


def _choose(loaded: Loaded, probes: Probes) -> tuple[I64, I64, I64]:
    """For each group, the rows of the shape with the fewest events: each chosen range's row and entry span."""
    base = probes.shape[probes.range_row] << _SHAPE_SHIFT
    low, high = probes.low + base, probes.high + base
    a = np.searchsorted(loaded.keys, low)
    b = np.searchsorted(loaded.keys, high)
    begin, end = loaded.starts[a], loaded.starts[b]
    count = np.bincount(probes.range_row, weights=end - begin, minlength=len(probes))
    order = np.lexsort((count, probes.group))
    head = np.ones(len(order), dtype=bool)
    head[1:] = probes.group[order][1:] != probes.group[order][:-1]
    chosen = np.zeros(len(probes), dtype=bool)
    chosen[order[head]] = True
    keep = chosen[probes.range_row] & (end > begin)
    return probes.range_row[keep], begin[keep], end[keep]


def candidates(loaded: Loaded, images: Images, probes: Probes, place_of: I64) -> tuple[I64, I64]:
    """The candidates' places and records (an event's record: its game and move) in ``loaded``.

    ``place_of`` is :func:`place_table`'s."""
    if not len(probes):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    row, begin, end = _choose(loaded, probes)
    if not len(row):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    spans, inverse = np.unique(np.column_stack([begin, end]), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    lengths = spans[:, 1] - spans[:, 0]
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    flat = np.repeat(spans[:, 0] - offsets[:-1], lengths) + np.arange(offsets[-1])
    entry = loaded.entries[flat].astype(np.int64)
    record = entry & RECORD_MASK
    band = entry >> RECORD_BITS
    point = loaded.segment.words[record].astype(np.int64) & POINT_MASK
    uses = lengths[inverse]
    use_base = np.repeat(offsets[inverse], uses)
    at = use_base + np.arange(int(uses.sum())) - np.repeat(np.cumsum(uses) - uses, uses)
    use_row = np.repeat(row, uses)
    cells = images.index.shape[1]
    place = place_of[probes.family[use_row] * cells + probes.cell[use_row], point[at]]
    ok = (place >= 0) & ((band[at] & probes.band_mask[use_row]) == probes.band_value[use_row])
    return place[ok], record[at][ok]


def place_table(images: Images) -> I64:
    """``place_of`` for :func:`candidates`: for each family and cell (row ``family * cells + cell``), the place of
    the family whose cell lies on each point (-1: none)."""
    cells = images.index.shape[1]
    table = np.full((len(images.fams) * cells, POINTS + 1), -1, dtype=np.int64)
    rows = images.family[:, None] * cells + np.arange(cells, dtype=np.int64)[None, :]
    table[rows, images.index] = np.arange(len(images), dtype=np.int64)[:, None]
    return table


def verify(loaded: Loaded, images: Images, order: list[int], place: I64, game: I64, move: I64) -> npt.NDArray[np.bool_]:
    """Which candidates hold every cell's letter after their move (cells tested in ``order``)."""
    alive = np.arange(len(place))
    for lo in range(0, len(order), VERIFY_CELLS):
        if not len(alive):
            break
        cells = np.array(order[lo: lo + VERIFY_CELLS], dtype=np.int64)
        p, g, t = place[alive][:, None], game[alive][:, None], move[alive][:, None]
        q = images.index[p, cells]
        state = loaded.state(np.broadcast_to(g, q.shape).ravel(), q.ravel(),
                             np.broadcast_to(t, q.shape).ravel()).reshape(q.shape)
        good = ALLOWED[images.letter[p, cells], state].all(axis=1)
        alive = alive[good]
    held = np.zeros(len(place), dtype=bool)
    held[alive] = True
    return held


def hits(loaded: Loaded, images: Images, probes: Probes, place_of: I64, order: list[int], stoneless: bool,
         games: I64 | None) -> tuple[I64, I64, I64]:
    """Every (place, game, move) of ``loaded`` where an image came into being, sorted, one each; ``games``: only
    these local games (None: all)."""
    seg = loaded.segment
    place, record = candidates(loaded, images, probes, place_of)
    game = np.searchsorted(seg.record_start, record, side="right").astype(np.int64) - 1
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
    key = np.unique((place * seg.games + game) << 12 | move)
    move = key & 0xFFF
    place, game = np.divmod(key >> 12, max(seg.games, 1))
    held = verify(loaded, images, order, place, game, move)
    return place[held], game[held], move[held]

