"""The search's per-event, per-candidate and per-hit loops, compiled (numba): keeping the events of key ranges
whose band bits and point agree (the candidates), verifying a candidate's cells, finding a hit's next stone and
counting the continuations, one at a time with an early exit, where numpy would make an array of every step.

The verifying and the next stone read a segment's ``dense`` table as
:func:`~joseki.book.patterns.segment.state_at` does, and for a point that changed again its game's ``changes``
(``change_start``: where each game's begin). Compiled on first use and cached beside this module (or in numba's
cache folder where that is not writable).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from joseki.book.patterns.segment import AGAIN, COLOUR_SHIFT, MOVE_BITS, NEVER, RECORD_BITS, RECORD_MASK
from joseki.core.movelist import POINTS

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]


def _bisect_right(changes: I64, lo: int, hi: int, wanted: int) -> int:
    """``numpy.searchsorted(changes[lo:hi], wanted, side="right") + lo`` for one value."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if changes[mid] <= wanted:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _changed_state(changes: I64, change_start: I64, g: int, slot: int, m: int) -> int:
    """The state of ``slot`` of game ``g`` after move ``m``, from its game's changes."""
    lo = change_start[g]
    at = _bisect(changes, lo, change_start[g + 1], ((slot << MOVE_BITS | m) << 2) | 3) - 1
    if at >= lo and (changes[at] >> (MOVE_BITS + 2)) == slot:
        return int(changes[at] & 3)
    return 0


def _verify(dense: npt.NDArray[np.uint16], changes: I64, change_start: I64, slots: npt.NDArray[np.int32],
            allowed: U8, place: I64, game: I64, move: I64) -> int:
    # The cells in the plan's order (the best at turning candidates away first) until one fails; a cell's state
    # from the dense table, unless its point had a stone by then and changed again (then from its game's changes).
    kept = 0
    for i in range(len(place)):
        p, g, m = place[i], game[i], move[i]
        base = g * POINTS
        ok = np.int64(1)
        for c in range(slots.shape[1]):
            slot = base + slots[p, c]
            value = np.int64(dense[slot])
            if value & AGAIN and m >= (value & NEVER):
                state = np.int64(_changed(changes, change_start, g, slot, m))
            else:
                state = ((value >> COLOUR_SHIFT) & 3) * np.int64(m >= (value & NEVER))
            ok = allowed[p, c] >> state & 1
            if not ok:
                break
        if ok:
            place[kept], game[kept], move[kept] = p, g, m
            kept += 1
    return kept


def _next_change(changes: I64, change_start: I64, g: int, slot: int, a: int) -> int:
    """The move of the next stone put on ``slot`` of game ``g`` after move ``a`` (NEVER: none), from its game's
    changes (the next change after ``a`` takes off the stone there, or puts one)."""
    hi = change_start[g + 1]
    lo = _bisect(changes, change_start[g], hi, ((slot << MOVE_BITS | a) << 2) | 3)
    for at in range(lo, min(lo + 2, hi)):
        change = changes[at]
        if (change >> (MOVE_BITS + 2)) == slot and (change & 3) != 0:
            return int((change >> 2) & NEVER)
    return NEVER


def _next_stone(dense: npt.NDArray[np.uint16], changes: I64, change_start: I64, slots: npt.NDArray[np.int32],
                place: I64, game: I64, after: I64, found: I64, column: I64) -> None:
    # A cell's first stone when it came after the hit; when its point had a stone by then, none unless the point
    # changed again (then from the game's changes); the soonest without a branch.
    for i in range(len(place)):
        p, g, a = place[i], game[i], after[i]
        base = g * POINTS
        best, which = np.int64(NEVER), np.int64(-1)
        for c in range(slots.shape[1]):
            slot = base + slots[p, c]
            value = np.int64(dense[slot])
            first = value & NEVER
            nxt = first if first > a else np.int64(NEVER)
            if value & AGAIN and first <= a:
                nxt = np.int64(_after(changes, change_start, g, slot, a))
            sooner = nxt < best
            which = np.int64(c) if sooner else which
            best = nxt if sooner else best
        if best >= NEVER:
            found[i], column[i] = -1, -1
        else:
            found[i], column[i] = best, which


def _point_spans(points: npt.NDArray[np.int16], begin: I64, end: I64, target: I64, lo: I64, hi: I64) -> None:
    for i in range(len(begin)):
        a, b, t = begin[i], end[i], target[i]
        while a < b:  # the first at least t
            mid = (a + b) >> 1
            if points[mid] < t:
                a = mid + 1
            else:
                b = mid
        lo[i] = a
        b = end[i]
        while a < b:  # the first beyond t
            mid = (a + b) >> 1
            if points[mid] <= t:
                a = mid + 1
            else:
                b = mid
        hi[i] = a


def _banded(entries: npt.NDArray[np.uint32], lo: I64, hi: I64, place: I64, mask: U8, value: U8, bits: int,
            out: I64) -> int:
    k = 0
    for s in range(len(lo)):
        m, v, p = mask[s], value[s], place[s]
        for e in range(lo[s], hi[s]):
            entry = np.int64(entries[e])
            if ((entry >> RECORD_BITS) & m) == v:
                out[k] = ((entry & RECORD_MASK) << bits) | p
                k += 1
    return k


def _placed(entries: npt.NDArray[np.uint32], points: npt.NDArray[np.int16], begin: I64, end: I64, base: I64,
            place_of: I64, mask: U8, value: U8, bits: int, out: I64) -> int:
    k = 0
    for r in range(len(begin)):
        m, v, b = mask[r], value[r], base[r]
        for e in range(begin[r], end[r]):
            entry = np.int64(entries[e])
            if ((entry >> RECORD_BITS) & m) == v:
                p = place_of[b + points[e]]
                if p >= 0:
                    out[k] = ((entry & RECORD_MASK) << bits) | p
                    k += 1
    return k


def _unpacked(packed: I64, bits: int, record_start: npt.NDArray[np.uint32], record_move: npt.NDArray[np.int32],
              place: I64, game: I64, move: I64) -> int:
    mask = (1 << bits) - 1
    g, k, first = 0, 0, 0
    run_game, run_move = -1, -1
    for i in range(len(packed)):
        record = packed[i] >> bits
        while record >= record_start[g + 1]:
            g += 1
        m = int(record_move[record])
        if g != run_game or m != run_move:  # a new move: its records come one after the other
            first, run_game, run_move = k, g, m
        p = packed[i] & mask
        if k == first or p > place[k - 1]:
            j = k
        else:  # a later record of the move: its place goes in order among the move's, once
            j = k - 1
            while j > first and place[j - 1] >= p:
                j -= 1
            if place[j] == p:
                continue
            for t in range(k, j, -1):
                place[t] = place[t - 1]
        place[j], game[k], move[k] = p, g, m
        k += 1
    return k


def _counted(index: I64, next_cell: I64, move_state: npt.NDArray[np.int8], swapped: npt.NDArray[np.bool_],
             place: I64, winner: npt.NDArray[np.int8], game: I64, nxt: I64, after: I64, symmetry: I64,
             inverse: I64, swaps: npt.NDArray[np.bool_], rep_cell: I64, rep_state: I64, counts: I64, tenukis: I64,
             cell: I64) -> None:
    for i in range(len(index)):
        j = index[i]
        if j < 0:
            cell[i] = -1
            continue
        mover = np.int64(move_state[j])
        state = 3 - mover if swapped[place[i]] else mover
        k = symmetry[i]
        if swaps[k]:
            state = 3 - state
        at = inverse[k, next_cell[i]] * 3 + state
        c = rep_cell[at]
        counts[(c * 3 + rep_state[at]) * 2 + np.int64(winner[game[i]] == mover)] += 1
        if nxt[i] > after[i] + 1:
            tenukis[c] += 1
        cell[i] = c


_bisect: Any = njit(cache=True, nogil=True)(_bisect_right)
_changed: Any = njit(cache=True, nogil=True)(_changed_state)
_after: Any = njit(cache=True, nogil=True)(_next_change)
verify: Any = njit(cache=True, nogil=True)(_verify)
"""``verify(dense, changes, change_start, slots, allowed, place, game, move) -> count``: the candidates (their
``place``, local ``game`` and ``move``) whose every cell (``slots``: the board index of each cell at each place, in
the order to test them; ``allowed``: the states each cell's letter allows, as bits) holds after the move, moved to
the front of the three arrays in their order; how many."""
next_stone: Any = njit(cache=True, nogil=True)(_next_stone)
"""``next_stone(dense, changes, change_start, slots, place, game, after, found, column)``: for each hit (its
``place``, local ``game`` and move ``after``), the first later move that put a stone on a cell of the place and
that cell's column of ``slots``, written to ``found`` and ``column`` (-1 for both when none did)."""
banded: Any = njit(cache=True, nogil=True)(_banded)
"""``banded(entries, lo, hi, place, mask, value, bits, out) -> count``: the entries of each span ``[lo, hi)``
whose band bits under the span's ``mask`` are its ``value``, written to ``out`` as ``record << bits | place``
(the span's place); how many."""
placed: Any = njit(cache=True, nogil=True)(_placed)
"""``placed(entries, points, begin, end, base, place_of, mask, value, bits, out) -> count``: the entries of each
range ``[begin, end)`` whose band bits agree (as :data:`banded`) and whose point is a place's
(``place_of[base + point]`` at least 0), written to ``out`` as ``record << bits | place``; how many."""
unpacked: Any = njit(cache=True, nogil=True)(_unpacked)
"""``unpacked(packed, bits, record_start, record_move, place, game, move) -> count``: the candidates ``packed``
(``record << bits | place``, sorted) as (place, game, move) sorted by game, move and place without the copies
(two records of one move at the same place), written to the three arrays; how many."""
point_spans: Any = njit(cache=True, nogil=True)(_point_spans)
"""``point_spans(points, begin, end, target, lo, hi)``: for each ``[begin, end)`` of the entries' sorted
``points``, the entries at point ``target``: ``[lo, hi)``."""
counted: Any = njit(cache=True, nogil=True)(_counted)
"""``counted(index, next_cell, move_state, swapped, place, winner, game, nxt, after, symmetry, inverse, swaps,
rep_cell, rep_state, counts, tenukis, cell)``: each hit's continuation (its move's ``index`` into the moves, -1:
none; its cell of the place) in the pattern's frame (the colour swapped back for a swapped place; the cell and
colour through the ``inverse`` of the hit's ``symmetry``, the colour swapped again where ``swaps`` says), as the
representative of its orbit (``rep_cell``, ``rep_state`` by ``cell * 3 + colour``), written to ``cell`` (-1:
none) and counted: ``counts`` by ``(cell * 3 + colour) * 2 + whether the mover won``, ``tenukis`` by cell where
the continuation came after a move elsewhere (``nxt`` beyond ``after + 1``)."""
