"""What to look up in the index for a pattern: at each point that could trigger it, the keys its letters allow.

A pattern comes into being at the move of some event at one of its points (:mod:`joseki.book.patterns.windows`):
a stone placed on an ``X`` or ``O`` point, or a stone taken off a point whose letter does not allow that colour
(``.``, ``x``, ``o``). So the candidates of an image (:class:`Images`) are the events, at any of its trigger
points, whose key agrees with the pattern's letters around that point. For every image family, trigger point,
kind of event and shape, a :class:`Probes` row holds the key ranges those letters allow and the band bits they
require; points outside the pattern allow any state, off the board only :data:`~windows.OFF` (for every place
of the family, or for some places only: then both). Keys are enumerated from their most significant point
down; when that would give more than :data:`MAX_KEYS` keys, the points left are free and the row's keys are
ranges. Nothing here depends on the games: a search computes its probes once and looks them up in every
segment.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from joseki.book.patterns.windows import (
    BAND_CELLS,
    CENTRED,
    EMPTIED_BLACK,
    EMPTIED_WHITE,
    KEY_CELLS,
    KIND_SHIFT,
    PLACED_BLACK,
    PLACED_WHITE,
    SHAPES,
)
from joseki.core.movelist import SIZE
from joseki.core.pattern import LETTERS, Family, Pattern

I64 = npt.NDArray[np.int64]
MAX_KEYS = 27
"""Keys a row enumerates at most before leaving its remaining points free."""
WIDE_KEYS = 729
"""Keys a row of a common group enumerates at most (:func:`refined`)."""
_PLACE_BITS = 24
"""The bits of a range end's place beside it while the ends are sorted."""
SHAPE_SHIFT = KIND_SHIFT + 2
"""Where a segment's key table puts an event key's shape (above its kind)."""
OUTSIDE = len(LETTERS)
"""The letter code of a point outside the pattern."""
KINDS: dict[str, tuple[int, ...]] = {"X": (PLACED_BLACK,), "O": (PLACED_WHITE,), ".": (EMPTIED_BLACK, EMPTIED_WHITE),
                                     "x": (EMPTIED_WHITE,), "o": (EMPTIED_BLACK,), "*": ()}
"""The events that can make a point's letter hold when it did not."""
OPTIONS: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,), (3,), (0, 1), (0, 2), (0, 1, 2), (0, 1, 2, 3))
"""The states a key point may hold, by option code: a letter's, off the board, unknown, unknown or off."""
_LETTER_OPTION = np.array([0, 1, 2, 4, 5, 6], dtype=np.int64)
"""The option code of each letter of LETTERS."""
_LETTER_BAND = np.array([0, 1, 1, -1, -1, -1], dtype=np.int64)
"""The band bit each letter requires (-1: none)."""
ON, OFF_ALL, MIXED = 0, 1, 2


class Images:
    """The families of a query as arrays: for each *place* (a family at one offset) the board index of each cell,
    its letter, and the place's rectangle."""

    def __init__(self, pattern: Pattern, fams: list[Family]) -> None:
        self.fams = fams
        self.width, self.height = pattern.width, pattern.height
        offsets = [np.array(fam.offsets, dtype=np.int64).reshape(-1, 2) for fam in fams]
        self.family = np.repeat(np.arange(len(fams), dtype=np.int64), [len(o) for o in offsets])
        step = np.array([[fam.step_x, fam.step_y] for fam in fams], dtype=np.int64).reshape(-1, 2, 2)
        shift = np.concatenate([o @ step[f] for f, o in enumerate(offsets)]).reshape(-1, 2)
        base_x = np.array([[x for x, _ in fam.points] for fam in fams], dtype=np.int64)
        base_y = np.array([[y for _, y in fam.points] for fam in fams], dtype=np.int64)
        self.x = base_x[self.family] + shift[:, :1]
        self.y = base_y[self.family] + shift[:, 1:]
        self.index = self.x * SIZE + self.y
        """Board index of each cell (column) at each place (row)."""
        codes = np.array([[LETTERS.index(ch) for ch in fam.letters] for fam in fams], dtype=np.int64)
        self.letter = codes[self.family]
        self.x0, self.x1 = self.x.min(axis=1), self.x.max(axis=1)
        self.y0, self.y1 = self.y.min(axis=1), self.y.max(axis=1)
        self.swapped = np.array([fam.swapped for fam in fams], dtype=bool)[self.family]
        self.first_place = np.searchsorted(self.family, np.arange(len(fams) + 1))
        """Family ``f``'s places are ``first_place[f]`` to ``first_place[f + 1]``."""

    def __len__(self) -> int:
        return len(self.family)

    def cell_of(self, place: I64, point: I64) -> I64:
        """The cell number (``dy * width + dx``) of board index ``point`` at each ``place`` (it must be inside)."""
        px, py = point // SIZE, point % SIZE
        found = (self.x[place] == px[:, None]) & (self.y[place] == py[:, None])
        cells: I64 = np.argmax(found, axis=1)
        return cells


@dataclass(frozen=True, slots=True)
class Probes:
    """The rows to look up: each a family, trigger cell, kind of event and shape, with its band requirement
    (``band_mask`` bits that must equal ``band_value``) and its key ranges. A row's *group* is its family, cell
    and kind: one shape of a group is enough.

    Rows whose key points allow the same (the same *signature*: kind and options) in the same shape have the
    same ranges (a pattern's symmetric images, its empty points away from the stones): each such *pair* has its
    ranges ``[low, high)`` once (``range_pair`` says whose; sorted by pair), and ``pair`` says each row's; a
    pair's kind and options are kept to enumerate its keys again (:func:`refined`)."""

    family: I64
    cell: I64
    kind: I64
    shape: I64
    group: I64
    band_mask: I64
    band_value: I64
    pair: I64
    pair_shape: I64
    pair_kind: I64
    pair_options: I64
    range_pair: I64
    low: I64
    high: I64
    _lookups: tuple[I64, I64] | None = field(init=False, default=None, repr=False, compare=False)

    def lookups(self) -> tuple[I64, I64]:
        """The distinct ends of the ranges with their shape above (as a segment's key table holds keys), sorted
        (they are looked up in sorted order), and for each range end (``low`` then ``high``) which of them it is;
        worked out once."""
        if self._lookups is not None:
            return self._lookups
        base = self.pair_shape[self.range_pair] << SHAPE_SHIFT
        ends = np.concatenate([self.low + base, self.high + base])
        if len(ends) < 1 << _PLACE_BITS:
            packed = np.sort(ends << _PLACE_BITS | np.arange(len(ends), dtype=np.int64))
            value, where = packed >> _PLACE_BITS, packed & ((1 << _PLACE_BITS) - 1)
        else:
            where = np.argsort(ends, kind="stable")
            value = ends[where]
        head = np.ones(len(value), dtype=bool)
        head[1:] = value[1:] != value[:-1]
        which = np.empty(len(value), dtype=np.int64)
        which[where] = np.cumsum(head) - 1
        found = (value[head], which)
        object.__setattr__(self, "_lookups", found)
        return found

    def pair_ranges(self) -> I64:
        """Where each pair's ranges begin (and the last ends)."""
        found: I64 = np.searchsorted(self.range_pair, np.arange(len(self.pair_shape) + 1))
        return found

    def __len__(self) -> int:
        return len(self.family)


def _steps(cells: str) -> tuple[I64, I64]:
    chosen = [d for shape in SHAPES for d in (shape.key if cells == "key" else shape.band)]
    return np.array([d[0] for d in chosen], dtype=np.int64), np.array([d[1] for d in chosen], dtype=np.int64)


_KEY_DX, _KEY_DY = _steps("key")
_BAND_DX, _BAND_DY = _steps("band")


def _around(images: Images, dx: I64, dy: I64) -> tuple[I64, I64]:
    """For each family, cell and step: the letter code there (:data:`OUTSIDE` if none) and whether that point is
    on the board (:data:`ON`), off it at every place of the family (:data:`OFF_ALL`) or at some (:data:`MIXED`;
    also where that cannot be told from the places' extent, which only widens the keys)."""
    heads = images.first_place[:-1]
    xs, ys = images.x[heads], images.y[heads]
    families = np.arange(len(heads), dtype=np.int64)[:, None, None]
    canvas = np.full((len(heads), SIZE + 8, SIZE + 8), OUTSIDE, dtype=np.int64)
    canvas[families[:, :, 0], xs + 4, ys + 4] = images.letter[heads]
    letter = canvas[families, xs[:, :, None] + dx + 4, ys[:, :, None] + dy + 4]
    xmin = np.minimum.reduceat(images.x, heads, axis=0)[:, :, None] + dx
    xmax = np.maximum.reduceat(images.x, heads, axis=0)[:, :, None] + dx
    ymin = np.minimum.reduceat(images.y, heads, axis=0)[:, :, None] + dy
    ymax = np.maximum.reduceat(images.y, heads, axis=0)[:, :, None] + dy
    all_off = (xmax < 0) | (xmin >= SIZE) | (ymax < 0) | (ymin >= SIZE)
    all_on = (xmin >= 0) & (xmax < SIZE) & (ymin >= 0) & (ymax < SIZE)
    return letter, np.where(all_on, ON, np.where(all_off, OFF_ALL, MIXED))


def _options(letter: I64, where: I64) -> I64:
    inside = letter < OUTSIDE
    outside = np.where(where == OFF_ALL, 3, np.where(where == MIXED, 7, 6))
    return np.where(inside, _LETTER_OPTION[np.minimum(letter, OUTSIDE - 1)], outside)


def _band(letter: I64, where: I64) -> I64:
    inside = letter < OUTSIDE
    return np.where(inside, _LETTER_BAND[np.minimum(letter, OUTSIDE - 1)], np.where(where == OFF_ALL, 0, -1))


_STATE_COUNT = np.array([len(o) for o in OPTIONS], dtype=np.int64)
_STATE_TABLE = np.array([list(o) + [0] * (4 - len(o)) for o in OPTIONS], dtype=np.int64)


def _tightest(options: I64) -> I64:
    """For each family and cell, the shape whose key points allow the fewest states (most inside the pattern).

    A stone taken off is a rare event: a group of that kind looks up this shape only, rather than counting the
    events of every shape to take the fewest (which costs more than it saves)."""
    allowed: I64 = _STATE_COUNT[options].sum(axis=3)
    found: I64 = np.argmin(allowed, axis=2)
    return found


def _centred_sees_more(options: I64, asked: I64) -> npt.NDArray[np.bool_]:
    """For each family and cell, whether the centred shape holds more of the pattern (key points allowing fewer
    than every state, band bits asked) than every other: only then are its events of a stone placed worth
    counting, their band bits saying less than a square's lying inside the pattern."""
    held = (_STATE_COUNT[options] < 3).sum(axis=3) + asked
    found: npt.NDArray[np.bool_] = held[:, :, CENTRED] > np.delete(held, CENTRED, axis=2).max(axis=2)
    return found


def key_ranges(kind: I64, options: I64, max_keys: int = MAX_KEYS) -> tuple[I64, I64, I64]:
    """The key ranges ``[low, high)`` of events of ``kind[s]`` whose key points may hold
    ``OPTIONS[options[s, i]]``, for every signature ``s`` at once: (signature, low, high), by signature and low.

    Keys are enumerated from the most significant point down while there are at most ``max_keys`` of them and
    some point left is not free; the points left make each key a range. Neighbouring ranges are joined."""
    count = len(kind)
    sig = np.arange(count, dtype=np.int64)
    value = kind.astype(np.int64)
    keys = np.ones(count, dtype=np.int64)
    level = np.full(count, -1, dtype=np.int64)
    states = _STATE_COUNT[options]
    free_below = np.cumprod(states == 4, axis=1).astype(bool)
    """Whether every point from 0 up to ``i`` is free."""
    open_ = np.ones(count, dtype=bool)
    for i in range(KEY_CELLS - 1, -1, -1):
        stop = open_ & ((keys * states[:, i] > max_keys) | free_below[:, i])
        level[stop] = i
        open_ &= ~stop
        grow = open_[sig]
        reps = np.where(grow, states[sig, i], 1)
        within = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(np.cumsum(reps) - reps, reps)
        sig, value, grown = np.repeat(sig, reps), np.repeat(value, reps), np.repeat(grow, reps)
        value = np.where(grown, value << 2 | _STATE_TABLE[options[sig, i], within], value)
        keys = np.where(open_, keys * states[:, i], keys)
    width = np.int64(1) << (2 * (level[sig] + 1))
    low, high = value * width, (value + 1) * width
    head = np.ones(len(sig), dtype=bool)
    head[1:] = (sig[1:] != sig[:-1]) | (low[1:] != high[:-1])
    last = np.flatnonzero(np.append(head[1:], True))
    return sig[head], low[head], high[last]


_EMPTY = np.zeros(0, dtype=np.int64)
_NONE = Probes(_EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY,
               np.zeros((0, KEY_CELLS), dtype=np.int64), _EMPTY, _EMPTY, _EMPTY)


_KIND_TABLE = np.array([list(KINDS[letter]) + [-1] * (2 - len(KINDS[letter])) for letter in LETTERS],
                       dtype=np.int64)
"""The kinds of event that can make each letter hold (-1: none)."""


def probes(images: Images, max_keys: int = MAX_KEYS) -> Probes:
    """Every row to look up for the images' families (see the module's docstring)."""
    shapes = len(SHAPES)
    key_letter, key_where = _around(images, _KEY_DX, _KEY_DY)
    band_letter, band_where = _around(images, _BAND_DX, _BAND_DY)
    fams, cells = key_letter.shape[:2]
    options = _options(key_letter, key_where).reshape(fams, cells, shapes, KEY_CELLS)
    band = _band(band_letter, band_where).reshape(fams, cells, shapes, BAND_CELLS)
    bits = np.int64(1) << np.arange(BAND_CELLS, dtype=np.int64)
    masks = ((band >= 0) * bits).sum(axis=3)
    values = ((band == 1) * bits).sum(axis=3)
    kinds = _KIND_TABLE[images.letter[images.first_place[:-1]]]
    f, k, j = np.nonzero(kinds >= 0)
    if not len(f):
        return _NONE
    family, cell = np.repeat(f, shapes), np.repeat(k, shapes)
    kind = np.repeat(kinds[f, k, j], shapes)
    shape = np.tile(np.arange(shapes, dtype=np.int64), len(f))
    counted = (shape != CENTRED) | _centred_sees_more(options, (band >= 0).sum(axis=3))[family, cell]
    keep = np.where(kind < EMPTIED_BLACK, counted, shape == _tightest(options)[family, cell])
    family, cell, kind, shape = family[keep], cell[keep], kind[keep], shape[keep]
    group = (family * 10000 + cell) * 4 + kind
    mask, value = masks[family, cell, shape], values[family, cell, shape]
    options = options[family, cell, shape]
    code = kind.copy()
    for i in range(KEY_CELLS):
        code = code << 3 | options[:, i]
    signatures, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    sig, low, high = key_ranges(kind[first], options[first], max_keys)
    pairs, head, pair = np.unique(inverse * len(SHAPES) + shape, return_index=True, return_inverse=True)
    range_pair, low, high = _per_pair(pairs // len(SHAPES), len(signatures), sig, low, high)
    return Probes(family, cell, kind, shape, group, mask, value, pair.reshape(-1), pairs % len(SHAPES), kind[head],
                  options[head], range_pair, low, high)


def _per_pair(pair_sig: I64, signatures: int, sig: I64, low: I64, high: I64) -> tuple[I64, I64, I64]:
    """The ranges of each pair (its signature's ``sig``, ``low``, ``high``), pair after pair."""
    counts = np.bincount(sig, minlength=signatures)
    offsets = np.cumsum(counts) - counts
    per_pair = counts[pair_sig]
    range_pair = np.repeat(np.arange(len(pair_sig), dtype=np.int64), per_pair)
    within = np.arange(len(range_pair)) - np.repeat(np.cumsum(per_pair) - per_pair, per_pair)
    chosen = np.repeat(offsets[pair_sig], per_pair) + within
    return range_pair, low[chosen], high[chosen]


def refined(found: Probes, common: I64) -> Probes:
    """``found`` with the rows of groups ``common`` enumerated up to :data:`WIDE_KEYS` keys: more ranges, fewer
    events for the groups whose narrow ranges hold too many (their pairs' keys enumerated again, as new pairs)."""
    if not len(common):
        return found
    wide = np.isin(found.group, common)
    narrow = np.zeros(len(found.pair_shape), dtype=bool)
    narrow[found.pair[~wide]] = True
    again = np.zeros(len(found.pair_shape), dtype=bool)
    again[found.pair[wide]] = True
    old = np.flatnonzero(again)
    sig, low, high = key_ranges(found.pair_kind[old], found.pair_options[old], WIDE_KEYS)
    wide_range_pair, wide_low, wide_high = _per_pair(np.arange(len(old), dtype=np.int64), len(old), sig, low, high)
    kept = int(narrow.sum())
    renumber = np.cumsum(narrow) - 1
    renumber_wide = np.cumsum(again) - 1 + kept
    pair = np.where(wide, renumber_wide[found.pair], renumber[found.pair])
    in_narrow = narrow[found.range_pair]
    return Probes(found.family, found.cell, found.kind, found.shape, found.group, found.band_mask, found.band_value,
                  pair, np.concatenate([found.pair_shape[narrow], found.pair_shape[old]]),
                  np.concatenate([found.pair_kind[narrow], found.pair_kind[old]]),
                  np.concatenate([found.pair_options[narrow], found.pair_options[old]]),
                  np.concatenate([renumber[found.range_pair[in_narrow]], wide_range_pair + kept]),
                  np.concatenate([found.low[in_narrow], wide_low]), np.concatenate([found.high[in_narrow], wide_high]))
