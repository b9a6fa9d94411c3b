"""Pattern search over the indexed games: where a local position occurred, and what was played next.

The index (:mod:`joseki.book.patternindex`) keeps each game's move list with captures. Loaded, it becomes
one *timeline* for the whole collection: every change of every point (a stone placed, a stone captured),
sorted by point, game and move, with the state it leaves (:class:`IndexArrays`). The state of point ``q``
in game ``g`` after move ``t`` is the last change at or before ``t``: one binary search.

A search (:func:`search`) takes each image of the pattern (:func:`joseki.core.pattern.families`: a symmetry,
a colour choice, every place the placement allows) and works on *intervals*: the moves ``[s, e)`` of a game
after which the image may still match. It starts from the stretches in which the pattern's rarest stone is on
its point, then cuts them by each other point in turn (stones first, rarest first; then empty points), all
images and games at once, with numpy: a point's changes inside an interval split it, and the pieces whose
state the point's letter does not allow are dropped. What is left are the stretches in which the image
matches; a hit is the first move of each (the move with which the pattern came into being, as Kombilo
counts it). The continuation of a hit is the first later move on a point of the pattern's rectangle, found by
stepping all hits forward together through the move lists; it came *after a tenuki* when any move (a pass
too) was played elsewhere between. Continuations are mapped back to the pattern's own frame and merged under
the pattern's own symmetries (:func:`joseki.core.pattern.symmetry_group`).

This module imports no SQLAlchemy: it reads through :func:`joseki.book.store.bookfile.rows`, on a store or on a
read-only SQLite file.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from joseki.book.store.bookfile import ReadConnection, rows
from joseki.core.errors import BadInput, UserError
from joseki.core.gameinfo import rank_value
from joseki.core.geometry import Point
from joseki.core.movelist import CAPTURE, PASS, POINT_MASK, POINTS, SETUP, SIZE, WHITE
from joseki.core.notation import format_gtp_vertex, format_sgf_point
from joseki.core.pattern import (
    ALLOWS,
    LETTERS,
    CellMap,
    Family,
    Pattern,
    Placement,
    Where,
    families,
    home_point,
    symmetry_group,
)

Array = npt.NDArray[Any]
NEVER = 60000
"""An interval end after every move (game records stop at :data:`joseki.core.limits.MAX_LINE_MOVES`)."""
_TIME_BITS, _GAME_BITS = 16, 32
COUNT = "SELECT count(*), coalesce(max(id), 0) FROM pattern_game"
READ = ("SELECT id, game_key, root, source, black, white, black_rank, white_rank, date, result, winner, event, "
        "moves, record FROM pattern_game WHERE id > :after ORDER BY id")
NOT_INDEXED = "SELECT count(*) FROM game_record WHERE game_key NOT IN (SELECT game_key FROM pattern_game)"
WINNER_CODE = {"b": 1, "w": 2, "d": 3}
_ALLOWED = np.array([[state in ALLOWS[letter] for state in range(3)] for letter in LETTERS], dtype=bool)
"""Whether each letter (by its place in LETTERS) allows each state (0 empty, 1 black, 2 white)."""
_STONE = {"X": 1, "O": 2}


class Readable(Protocol):
    """A store or a read-only SQLite book: anything with a ``read()`` transaction and a ``url``."""

    url: str

    def read(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the index knows about one game."""

    key: str
    root: str
    source: str
    black: str
    white: str
    black_rank: str
    white_rank: str
    date: str
    result: str
    winner: str
    event: str
    moves: int

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "source": self.source, "root": self.root, "black": self.black, "white": self.white,
                "black_rank": self.black_rank, "white_rank": self.white_rank, "date": self.date,
                "result": self.result, "event": self.event, "moves": self.moves}


class IndexArrays:
    """The whole index in memory: the games' facts, their moves, and the timeline of every point's changes.

    ``tl_key`` holds ``point << 48 | game << 16 | move`` for each change, sorted; ``tl_state`` the state it
    leaves (0 empty, 1 black, 2 white), ``tl_time`` its move and ``tl_end`` the move of the next change of
    that point in that game (:data:`NEVER` if none). ``mv_point`` and ``mv_state`` are every game's moves
    in order, game ``g``'s from ``mv_start[g]``."""

    def __init__(self, facts: list[GameFacts], records: list[bytes], last_id: int) -> None:
        self.facts = facts
        self.last_id = last_id
        self.records = records
        count = len(facts)
        self.moves = np.array([f.moves for f in facts], dtype=np.int32)
        self.winner = np.array([WINNER_CODE.get(f.winner, 0) for f in facts], dtype=np.int8)
        words = np.frombuffer(b"".join(records), dtype="<u2").astype(np.int32)
        lengths = np.array([len(r) // 2 for r in records], dtype=np.int64)
        game = np.repeat(np.arange(count, dtype=np.int64), lengths)
        is_move = (words & (SETUP | CAPTURE)) == 0
        moved = np.cumsum(is_move, dtype=np.int64)
        ends = np.cumsum(lengths)
        before = np.concatenate(([0], moved[ends[:-1] - 1])) if count else np.zeros(0, dtype=np.int64)
        when = moved - before[game] if count else moved
        point = words & POINT_MASK
        state = np.where(words & CAPTURE, 0, np.where(words & WHITE, 2, 1)).astype(np.int8)
        self.mv_point = point[is_move].astype(np.int16)
        self.mv_state = state[is_move]
        self.mv_start = np.concatenate(([0], np.cumsum(self.moves)[:-1])).astype(np.int64) if count else \
            np.zeros(0, dtype=np.int64)
        change = point != PASS
        order = np.argsort(point[change].astype(np.int16), kind="stable")
        self.tl_time = when[change][order].astype(np.int32)
        self.tl_state = state[change][order]
        tl_game = game[change][order]
        tl_point = point[change][order].astype(np.int64)
        self.tl_key = (tl_point << (_GAME_BITS + _TIME_BITS)) | (tl_game << _TIME_BITS) | self.tl_time
        same = (self.tl_key[1:] >> _TIME_BITS) == (self.tl_key[:-1] >> _TIME_BITS)
        self.tl_end = np.append(np.where(same, self.tl_time[1:], NEVER), NEVER).astype(np.int32)
        self.by_state: list[Array] = []
        self.state_start: list[Array] = []
        for s in range(3):
            picked = np.flatnonzero(self.tl_state == s)
            self.by_state.append(picked)
            self.state_start.append(np.searchsorted(tl_point[picked], np.arange(POINTS + 1)))
        self.counts = np.array([np.diff(starts) for starts in self.state_start])
        """Changes per state and point: how rare a stone is there."""
        group = self.tl_key >> _TIME_BITS
        head = np.ones(len(group), dtype=bool)
        head[1:] = group[1:] != group[:-1]
        firsts = np.flatnonzero(head)
        sizes = np.diff(np.append(firsts, len(group)))
        self.first = np.full((count, POINTS), NEVER, dtype=np.uint16)
        """The move that first put a stone on each point of each game (:data:`NEVER`: none did)."""
        self.colour = np.zeros((count, POINTS), dtype=np.int8)
        """That stone's colour."""
        self.multi = np.zeros((count, POINTS), dtype=bool)
        """Whether the point changed again after (a capture): then only the timeline tells its states."""
        self.first[tl_game[firsts], tl_point[firsts]] = self.tl_time[firsts]
        self.colour[tl_game[firsts], tl_point[firsts]] = self.tl_state[firsts]
        self.multi[tl_game[firsts], tl_point[firsts]] = sizes > 1

    def __len__(self) -> int:
        return len(self.facts)

    @property
    def record_bytes(self) -> int:
        return sum(len(r) for r in self.records)


def load(conn: ReadConnection, previous: IndexArrays | None = None) -> IndexArrays:
    """The index on ``conn`` in memory; the games of ``previous`` (an earlier load) are not read again."""
    facts = list(previous.facts) if previous else []
    records = list(previous.records) if previous else []
    last = previous.last_id if previous else 0
    for row in rows(conn, READ, {"after": last}):
        gid, key, root, source, black, white, brank, wrank, date, result, winner, event, moves, record = row
        facts.append(GameFacts(str(key), str(root), str(source), str(black), str(white), str(brank), str(wrank),
                               str(date), str(result), str(winner), str(event), int(moves)))
        records.append(bytes(record))
        last = int(gid)
    return IndexArrays(facts, records, last)


_LOADED: dict[str, IndexArrays] = {}


def loaded(book: Readable) -> IndexArrays:
    """The index of ``book``, kept in memory per URL for the process and brought up to date when games were added.

    Raises UserError when the store holds learnt or mined games that the index does not (an index older
    than the store's games), or when nothing is indexed.
    """
    with book.read() as conn:
        count, last = (int(v) for v in rows(conn, COUNT)[0])
        behind = int(rows(conn, NOT_INDEXED)[0][0])
        if behind:
            raise UserError(f"the pattern index is older than the store's games: {behind} learnt game"
                             f"{'s are' if behind != 1 else ' is'} not indexed (run joseki index on their files)")
        if count == 0:
            raise UserError("no games indexed for pattern search (run joseki index GAMES...)")
        cached = _LOADED.get(book.url)
        if cached is None or len(cached) > count or cached.last_id > last:
            cached = None
        if cached is None or cached.last_id != last:
            cached = load(conn, cached)
            _LOADED[book.url] = cached
    return cached


def forget(url: str | None = None) -> None:
    """Drop the index kept in memory for ``url`` (every one when None)."""
    if url is None:
        _LOADED.clear()
    else:
        _LOADED.pop(url, None)


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games to search: every field that is set must hold."""

    player: str = ""
    """A name (part of it, any case) that either player's must contain."""
    min_rank: str = ""
    """Each player with a known rank at least this one, and at least one known (``7d``, ``1p``)."""
    date_from: str = ""
    date_to: str = ""
    """ISO dates (or their starts: ``2011``, ``2011-05``), both ends included."""
    winner: str = ""
    """``b``, ``w`` or ``d``."""
    event: str = ""
    """Part of the event's name (any case)."""
    keys: frozenset[str] | None = None
    """Only these games (a previous search's)."""

    def __post_init__(self) -> None:
        if self.min_rank and rank_value(self.min_rank) is None:
            raise BadInput(f"--min-rank {self.min_rank!r}: expected a rank such as 7d, 2k or 1p")
        if self.winner not in ("", "b", "w", "d"):
            raise BadInput(f"result {self.winner!r}: expected B, W or D")

    def mask(self, facts: Sequence[GameFacts]) -> Array | None:
        """Which of ``facts`` pass (None: all of them)."""
        if self == GameFilter():
            return None
        return np.array([self.passes(f) for f in facts], dtype=bool)

    def passes(self, f: GameFacts) -> bool:
        if self.keys is not None and f.key not in self.keys:
            return False
        if self.player and self.player.lower() not in f.black.lower() and self.player.lower() not in f.white.lower():
            return False
        if self.min_rank and not _strong_enough(f, self.min_rank):
            return False
        if self.date_from and (not f.date or f.date[: len(self.date_from)] < self.date_from):
            return False
        if self.date_to and (not f.date or f.date[: len(self.date_to)] > self.date_to):
            return False
        if self.winner and f.winner != self.winner:
            return False
        return not self.event or self.event.lower() in f.event.lower()


def _strong_enough(f: GameFacts, rank: str) -> bool:
    bound = rank_value(rank)
    values = [v for v in (rank_value(f.black_rank), rank_value(f.white_rank)) if v is not None]
    return bool(values) and bound is not None and min(values) >= bound


@dataclass(frozen=True, slots=True)
class Query:
    """A pattern search: the pattern, where it may lie, which images count, which games, and a sequence after it.

    ``sequence``: moves (colour ``b``/``w`` as in the pattern, cell) that must be the next moves played
    inside the pattern's rectangle after a hit, in order; the continuations are then those after them."""

    pattern: Pattern
    placement: Placement
    fixed_orientation: bool = False
    fixed_colour: bool = False
    games: GameFilter = field(default_factory=GameFilter)
    sequence: tuple[tuple[str, Point], ...] = ()
    limit: int = 50
    """Games listed in the result (0: all); the counts are always over every game."""

    def __post_init__(self) -> None:
        if self.placement.where is Where.ANYWHERE and self.pattern.stones == 0:
            raise BadInput("pattern: with --anywhere a pattern needs at least one stone (X or O)")
        self.placement.home(self.pattern)
        for _colour, (dx, dy) in self.sequence:
            if not (0 <= dx < self.pattern.width and 0 <= dy < self.pattern.height):
                raise BadInput(f"--next: a move outside the {self.pattern.width}x{self.pattern.height} pattern")


@dataclass(frozen=True, slots=True)
class Continuation:
    """A next move in the pattern's frame: how often each colour played it, their wins after it, and how often it
    came after a tenuki."""

    label: str
    point: Point
    """The board point with the pattern at home (a sliding pattern at its first place)."""
    black: int
    white: int
    black_wins: int
    white_wins: int
    after_tenuki: int

    @property
    def count(self) -> int:
        return self.black + self.white

    def as_json(self) -> dict[str, object]:
        move = {"sgf": format_sgf_point(self.point), "gtp": format_gtp_vertex(self.point)}
        return {"label": self.label, "move": move,
                "black": self.black, "white": self.white, "black_wins": self.black_wins,
                "white_wins": self.white_wins, "after_tenuki": self.after_tenuki}


@dataclass(frozen=True, slots=True)
class Hit:
    """Where the pattern came into being in a game: after move ``move_number`` (0: before the first move), in
    ``orientation`` (:attr:`joseki.core.pattern.Symmetry.name`), with the colours exchanged when ``swapped``;
    ``next_move`` is the game move of the continuation (None: nothing more was played in the pattern)."""

    move_number: int
    orientation: str
    swapped: bool
    next_move: int | None = None
    next_point: Point | None = None
    """The continuation in the pattern's frame."""

    def as_json(self) -> dict[str, object]:
        nxt = self.next_point
        return {"move_number": self.move_number, "orientation": self.orientation, "swapped": self.swapped,
                "next_move": self.next_move, "next": None if nxt is None else format_gtp_vertex(nxt)}


@dataclass(frozen=True, slots=True)
class GameResult:
    facts: GameFacts
    hits: tuple[Hit, ...]

    def as_json(self) -> dict[str, object]:
        return {**self.facts.as_json(), "hits": [h.as_json() for h in self.hits]}


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: ``games`` with a hit, ``hits`` in all, the continuations (most played first), and the
    games listed (newest first, at most the query's limit)."""

    query: Query
    searched: int
    games: int
    hits: int
    continuations: tuple[Continuation, ...]
    results: tuple[GameResult, ...]
    seconds: float

    def as_json(self) -> dict[str, object]:
        p = self.query.placement
        where: dict[str, object] = {"where": p.where.value}
        if p.where is Where.CORNER:
            where["corner"] = p.corner.value
        elif p.where is Where.SIDE:
            where["side"] = p.side.value
        elif p.where is Where.FIXED:
            where["at"] = format_gtp_vertex(p.at)
        return {"pattern": list(self.query.pattern.rows), "placement": where,
                "fixed_orientation": self.query.fixed_orientation, "fixed_colour": self.query.fixed_colour,
                "sequence": [{"colour": c.upper(), "move": format_gtp_vertex(home_point(self.query.pattern, p, cell))}
                             for c, cell in self.query.sequence],
                "searched": self.searched, "games": self.games, "hits": self.hits,
                "continuations": [c.as_json() for c in self.continuations],
                "results": [r.as_json() for r in self.results], "seconds": round(self.seconds, 4)}


class Images:
    """The families of a query as arrays: for each *place* (a family at one offset) the board index of each cell,
    its letter, and the place's rectangle."""

    def __init__(self, pattern: Pattern, fams: list[Family]) -> None:
        self.fams = fams
        self.width, self.height = pattern.width, pattern.height
        place_family, shifts = [], []
        for f, fam in enumerate(fams):
            (ax, ay), (bx, by) = fam.step_x, fam.step_y
            for ox, oy in fam.offsets:
                place_family.append(f)
                shifts.append((ox * ax + oy * bx, ox * ay + oy * by))
        self.family = np.array(place_family, dtype=np.int64)
        shift = np.array(shifts, dtype=np.int64).reshape(-1, 2)
        base = np.array([[x for x, _ in fam.points] for fam in fams], dtype=np.int64)
        base_y = np.array([[y for _, y in fam.points] for fam in fams], dtype=np.int64)
        self.x = base[self.family] + shift[:, :1]
        self.y = base_y[self.family] + shift[:, 1:]
        self.index = self.x * SIZE + self.y
        """Board index of each cell (column) at each place (row)."""
        codes = np.array([[LETTERS.index(ch) for ch in fam.letters] for fam in fams], dtype=np.int64)
        self.letter = codes[self.family]
        self.x0, self.x1 = self.x.min(axis=1), self.x.max(axis=1)
        self.y0, self.y1 = self.y.min(axis=1), self.y.max(axis=1)
        self.swapped = np.array([fam.swapped for fam in fams], dtype=bool)[self.family]

    def __len__(self) -> int:
        return len(self.family)

    def cell_of(self, place: Array, point: Array) -> Array:
        """The cell number (``dy * width + dx``) of board index ``point`` at each ``place`` (it must be inside)."""
        px, py = point // SIZE, point % SIZE
        found = (self.x[place] == px[:, None]) & (self.y[place] == py[:, None])
        cells: Array = np.argmax(found, axis=1)
        return cells


def _cell_order(pattern: Pattern, images: Images, arrays: IndexArrays) -> list[int]:
    """The cells to test, rarest stone first, then the other restricted cells nearest the stones first."""
    letters = [ch for _, ch in pattern.cells()]
    cells = [cell for cell, _ in pattern.cells()]

    sample = range(len(images)) if len(images) <= 64 else range(0, len(images), max(1, len(images) // 64))
    stones = [k for k, ch in enumerate(letters) if ch in "XO"]
    weight = {k: sum(int(arrays.counts[_STONE.get(LETTERS[int(images.letter[p, k])], 0), images.index[p, k]])
                     for p in sample) for k in stones}
    stones.sort(key=lambda k: weight[k])
    others = [k for k, ch in enumerate(letters) if ch in ".xo"]

    def distance(k: int) -> int:
        if not stones:
            return 0
        return min(abs(cells[k][0] - cells[s][0]) + abs(cells[k][1] - cells[s][1]) for s in stones)

    others.sort(key=lambda k: (distance(k), letters[k] != "."))
    return stones + others


def _start(arrays: IndexArrays, images: Images, k: int, mask: Array | None) -> tuple[Array, ...]:
    """The intervals in which cell ``k`` (a stone) is on its point, at every place: (place, game, start, end)."""
    parts, places = [], []
    for place in range(len(images)):
        state = _STONE[LETTERS[int(images.letter[place, k])]]
        q = int(images.index[place, k])
        lo, hi = arrays.state_start[state][q], arrays.state_start[state][q + 1]
        if hi > lo:
            parts.append(arrays.by_state[state][lo:hi])
            places.append(np.full(hi - lo, place, dtype=np.int64))
    if not parts:
        return tuple(np.zeros(0, dtype=np.int64) for _ in range(4))
    entry = np.concatenate(parts)
    place_of = np.concatenate(places)
    game = (arrays.tl_key[entry] >> _TIME_BITS) & ((1 << _GAME_BITS) - 1)
    start, end = arrays.tl_time[entry].astype(np.int64), arrays.tl_end[entry].astype(np.int64)
    keep = end > start
    if mask is not None:
        keep &= mask[game]
    return place_of[keep], game[keep], start[keep], end[keep]


def _everything(arrays: IndexArrays, images: Images, mask: Array | None) -> tuple[Array, ...]:
    """Every game's whole length at every place (a pattern without stones)."""
    games = np.arange(len(arrays), dtype=np.int64) if mask is None else np.flatnonzero(mask).astype(np.int64)
    place = np.repeat(np.arange(len(images), dtype=np.int64), len(games))
    game = np.tile(games, len(images))
    return place, game, np.zeros(len(game), dtype=np.int64), np.full(len(game), NEVER, dtype=np.int64)


def _restrict(arrays: IndexArrays, images: Images, k: int, cands: tuple[Array, ...]) -> tuple[Array, ...]:
    """The parts of the intervals ``cands`` in which cell ``k``'s point holds what its letter allows."""
    place, game, start, end = cands
    if len(place) == 0:
        return cands
    q = images.index[place, k]
    letter = images.letter[place, k]
    prefix = (q << (_GAME_BITS + _TIME_BITS)) | (game << _TIME_BITS)
    key = arrays.tl_key
    lo = np.searchsorted(key, prefix | start, side="right") - 1
    hi = np.searchsorted(key, prefix | end, side="left")
    lo_safe = np.maximum(lo, 0)
    here = (lo >= 0) & ((key[lo_safe] >> _TIME_BITS) == (prefix >> _TIME_BITS))
    state0 = np.where(here, arrays.tl_state[lo_safe], 0)
    inside = hi - lo - 1
    plain = inside == 0
    keep = plain & _ALLOWED[letter, state0]
    out = [(place[keep], game[keep], start[keep], end[keep])]
    split = np.flatnonzero(~plain)
    if len(split):
        pieces = inside[split] + 1
        which = np.repeat(split, pieces)
        first = np.cumsum(pieces) - pieces
        j = np.arange(len(which)) - np.repeat(first, pieces)
        entry = lo[which] + j
        last = j == inside[which]
        head = j == 0
        p_start = np.where(head, start[which], arrays.tl_time[np.maximum(entry, 0)])
        p_end = np.where(last, end[which], arrays.tl_time[np.minimum(entry + 1, len(key) - 1)])
        p_state = np.where(head, state0[which], arrays.tl_state[np.maximum(entry, 0)])
        ok = _ALLOWED[letter[which], p_state] & (p_end > p_start)
        out.append((place[which][ok], game[which][ok], p_start[ok], p_end[ok]))
    return tuple(np.concatenate(parts) for parts in zip(*out, strict=True))


DENSE_CELLS = 8
"""Cells tested together on the dense tables (a table of candidates by cells at a time)."""


def _dense(arrays: IndexArrays, images: Images, cells: Sequence[int], cands: tuple[Array, ...]) -> tuple[Array, ...]:
    """The parts of the intervals ``cands`` in which each of ``cells`` holds what its letter allows.

    A point that changed once in a game (a stone placed, never taken) is empty before its first move and holds
    that stone after: its letter bounds the interval from below (the stone must be there) or above (the point
    must still be empty), or rules it out, so all such cells are applied at once. The few points that changed
    again are read from the timeline, cell by cell (:func:`_restrict`).
    """
    place, game, start, end = cands
    if len(place) == 0:
        return cands
    columns = np.array(cells, dtype=np.int64)
    q = images.index[place[:, None], columns]
    g = game[:, None]
    first = arrays.first[g, q].astype(np.int64)
    colour = arrays.colour[g, q]
    multi = arrays.multi[g, q]
    letter = images.letter[place[:, None], columns]
    empty_ok = _ALLOWED[letter, 0]
    stone_ok = _ALLOWED[letter, colour]
    single = ~multi
    never = single & ~empty_ok & ~stone_ok
    lower = np.where(single & ~empty_ok & stone_ok, first, 0).max(axis=1)
    upper = np.where(single & empty_ok & ~stone_ok, first, NEVER).min(axis=1)
    start, end = np.maximum(start, lower), np.minimum(end, upper)
    keep = ~never.any(axis=1) & (start < end)
    cands = (place[keep], game[keep], start[keep], end[keep])
    if not multi[keep].any():
        return cands
    for k in cells:
        again = arrays.multi[cands[1], images.index[cands[0], k]]
        if not again.any():
            continue
        rest = tuple(a[~again] for a in cands)
        cut = _restrict(arrays, images, k, tuple(a[again] for a in cands))
        cands = tuple(np.concatenate(pair) for pair in zip(rest, cut, strict=True))
    return cands


def find_hits(arrays: IndexArrays, pattern: Pattern, images: Images, mask: Array | None) -> tuple[Array, Array, Array]:
    """Every hit: (place, game, move) where an image of the pattern came into being, sorted."""
    order = _cell_order(pattern, images, arrays)
    letters = [ch for _, ch in pattern.cells()]
    if order and letters[order[0]] in "XO":
        cands = _start(arrays, images, order[0], mask)
        order = order[1:]
    else:
        cands = _everything(arrays, images, mask)
    for group in range(0, len(order), DENSE_CELLS):
        cands = _dense(arrays, images, order[group: group + DENSE_CELLS], cands)
        if len(cands[0]) == 0:
            break
    place, game, start, end = cands
    key = (place << (_GAME_BITS + _TIME_BITS)) | (game << _TIME_BITS) | start
    sort = np.argsort(key, kind="stable")
    place, game, start, end, key = place[sort], game[sort], start[sort], end[sort], key[sort]
    fresh = np.ones(len(key), dtype=bool)
    if len(key) > 1:
        fresh[1:] = ((key[1:] >> _TIME_BITS) != (key[:-1] >> _TIME_BITS)) | (start[1:] != end[:-1])
    return place[fresh], game[fresh], start[fresh]


def next_in_region(arrays: IndexArrays, images: Images, place: Array, game: Array, after: Array) -> tuple[Array, Array]:
    """For each hit, the first move after move ``after`` played inside its place's rectangle: its move number and
    index into the move arrays (-1 for both when none was)."""
    count = len(place)
    found_move = np.full(count, -1, dtype=np.int64)
    found_index = np.full(count, -1, dtype=np.int64)
    active = np.arange(count)
    move = after.astype(np.int64) + 1
    x0, x1, y0, y1 = images.x0[place], images.x1[place], images.y0[place], images.y1[place]
    limit = arrays.moves[game].astype(np.int64)
    start = arrays.mv_start[game]
    while len(active):
        alive = move[active] <= limit[active]
        active = active[alive]
        if not len(active):
            break
        idx = start[active] + move[active] - 1
        point = arrays.mv_point[idx].astype(np.int64)
        px, py = point // SIZE, point % SIZE
        inside = (point != PASS) & (px >= x0[active]) & (px <= x1[active]) & (py >= y0[active]) & (py <= y1[active])
        done = active[inside]
        found_move[done] = move[done]
        found_index[done] = idx[inside]
        active = active[~inside]
        move[active] += 1
    return found_move, found_index


def _follow(arrays: IndexArrays, images: Images, hits: tuple[Array, Array, Array],
            sequence: Sequence[tuple[str, Point]], group: list[CellMap],
            pattern: Pattern) -> tuple[Array, Array, Array]:
    """The hits whose next moves inside the pattern were ``sequence`` (under some symmetry of the pattern):
    their numbers, the move the sequence ended on, and the symmetry (its place in ``group``) it was played in."""
    place, game, move = hits
    width = pattern.width
    kept_hit, kept_end, kept_sym = [], [], []
    for s, sym in enumerate(group):
        alive = np.arange(len(place))
        at = move.astype(np.int64)
        for colour, (dx, dy) in sequence:
            cell = sym.cells[dy * width + dx]
            want_point = images.index[place[alive], cell]
            want_state = 1 if colour == "b" else 2
            flip = images.swapped[place[alive]] ^ sym.swapped
            want_state_arr = np.where(flip, 3 - want_state, want_state)
            nxt, idx = next_in_region(arrays, images, place[alive], game[alive], at[alive])
            ok = (idx >= 0)
            safe = np.maximum(idx, 0)
            ok &= (arrays.mv_point[safe] == want_point) & (arrays.mv_state[safe] == want_state_arr)
            at[alive[ok]] = nxt[ok]
            alive = alive[ok]
        kept_hit.append(alive)
        kept_end.append(at[alive])
        kept_sym.append(np.full(len(alive), s, dtype=np.int64))
    hit = np.concatenate(kept_hit)
    end = np.concatenate(kept_end)
    sym_of = np.concatenate(kept_sym)
    _, first = np.unique(hit, return_index=True)
    return hit[first], end[first], sym_of[first]


def _stabiliser(group: list[CellMap], sequence: Sequence[tuple[str, Point]], width: int) -> list[CellMap]:
    """The symmetries of the pattern that leave every move of ``sequence`` where it is, with its colour."""
    def fixed(sym: CellMap) -> bool:
        return all(sym.cells[dy * width + dx] == dy * width + dx and not sym.swapped for _, (dx, dy) in sequence)
    return [sym for sym in group if fixed(sym)] if sequence else group


def _canonical(group: list[CellMap], cells: int) -> tuple[Array, Array]:
    """For each cell and colour (1, 2): the representative of its orbit under ``group`` (cell, colour)."""
    rep_cell = np.zeros((cells, 3), dtype=np.int64)
    rep_state = np.zeros((cells, 3), dtype=np.int64)
    for k in range(cells):
        for state in (1, 2):
            orbit = [(sym.cells[k], 3 - state if sym.swapped else state) for sym in group]
            best = min(orbit)
            rep_cell[k, state], rep_state[k, state] = best
    return rep_cell, rep_state


def _inverse(sym: CellMap) -> CellMap:
    cells = [0] * len(sym.cells)
    for k, c in enumerate(sym.cells):
        cells[c] = k
    return CellMap(tuple(cells), sym.swapped)


_LABELS = "abcdefghijklmnopqrstuvwxyz"


def search(book: Readable, query: Query) -> SearchResult:
    """The games of ``book``'s pattern index where ``query``'s pattern occurred, and what came next.

    Raises UserError for an index older than the store's games or an empty one.
    """
    started = time.perf_counter()
    arrays = loaded(book)
    return run(arrays, query, started)


def run(arrays: IndexArrays, query: Query, started: float | None = None) -> SearchResult:
    """:func:`search` on an index already in memory."""
    started = time.perf_counter() if started is None else started
    pattern = query.pattern
    fams = families(pattern, query.placement, fixed_orientation=query.fixed_orientation,
                    fixed_colour=query.fixed_colour)
    images = Images(pattern, fams)
    mask = query.games.mask(arrays.facts)
    place, game, move = find_hits(arrays, pattern, images, mask)
    group = symmetry_group(pattern, query.placement)
    if query.fixed_orientation or query.fixed_colour:
        group = [g for g in group if (not query.fixed_colour or not g.swapped)]
        if query.fixed_orientation:
            group = group[:1]
    if query.sequence:
        hit, end, sym_of = _follow(arrays, images, (place, game, move), query.sequence, group, pattern)
        place, game, move = place[hit], game[hit], move[hit]
        after = end
    else:
        sym_of = np.zeros(len(place), dtype=np.int64)
        after = move
    nxt, idx = next_in_region(arrays, images, place, game, after)
    conts, cells = _continuations(arrays, images, query, group, place, game, after, nxt, idx, sym_of)
    results = _results(arrays, images, query, place, game, move, nxt, cells)
    return SearchResult(query, len(arrays), len(np.unique(game)), len(place), conts, results,
                        time.perf_counter() - started)


def _continuations(arrays: IndexArrays, images: Images, query: Query, group: list[CellMap], place: Array,
                   game: Array, after: Array, nxt: Array, idx: Array,
                   sym_of: Array) -> tuple[tuple[Continuation, ...], Array]:
    """The continuations counted and lettered, and each hit's continuation cell in the pattern's frame (-1: none)."""
    pattern = query.pattern
    cells_count = pattern.width * pattern.height
    cell = np.full(len(place), -1, dtype=np.int64)
    state = np.zeros(len(place), dtype=np.int64)
    some = np.flatnonzero(idx >= 0)
    if len(some):
        point = arrays.mv_point[idx[some]].astype(np.int64)
        raw = images.cell_of(place[some], point)
        game_state = arrays.mv_state[idx[some]].astype(np.int64)
        flip = images.swapped[place[some]]
        st = np.where(flip, 3 - game_state, game_state)
        if query.sequence and len(group) > 1:
            inverses = np.array([_inverse(g).cells for g in group], dtype=np.int64)
            swaps = np.array([g.swapped for g in group], dtype=bool)
            raw = inverses[sym_of[some], raw]
            st = np.where(swaps[sym_of[some]], 3 - st, st)
        cell[some], state[some] = raw, st
    merge = _stabiliser(group, query.sequence, pattern.width)
    rep_cell, rep_state = _canonical(merge, cells_count)
    conts: list[Continuation] = []
    if len(some):
        c, s = rep_cell[cell[some], state[some]], rep_state[cell[some], state[some]]
        game_state = arrays.mv_state[idx[some]].astype(np.int64)
        won = arrays.winner[game[some]].astype(np.int64) == game_state
        tenuki = nxt[some] > after[some] + 1
        code = c * 3 + s
        size = cells_count * 3
        black = np.bincount(code[s == 1], minlength=size)
        white = np.bincount(code[s == 2], minlength=size)
        black_wins = np.bincount(code[(s == 1) & won], minlength=size)
        white_wins = np.bincount(code[(s == 2) & won], minlength=size)
        tenukis = np.bincount(c[tenuki], minlength=cells_count)
        totals = black.reshape(-1, 3).sum(axis=1) + white.reshape(-1, 3).sum(axis=1)
        ranked = sorted((k for k in range(cells_count) if totals[k]), key=lambda k: (-int(totals[k]), k))
        for n, k in enumerate(ranked):
            label = _LABELS[n] if n < len(_LABELS) else "?"
            point = home_point(pattern, query.placement, (k % pattern.width, k // pattern.width))
            conts.append(Continuation(label, point, int(black[k * 3 + 1]), int(white[k * 3 + 2]),
                                      int(black_wins[k * 3 + 1]), int(white_wins[k * 3 + 2]), int(tenukis[k])))
        rep = np.full(len(place), -1, dtype=np.int64)
        rep[some] = c
        cell = rep
    return tuple(conts), cell


def _results(arrays: IndexArrays, images: Images, query: Query, place: Array, game: Array, move: Array,
             nxt: Array, cells: Array) -> tuple[GameResult, ...]:
    """The games with hits, newest first, at most ``query.limit`` of them, each with its hits in move order."""
    if not len(game):
        return ()
    facts = arrays.facts
    games = sorted({int(g) for g in np.unique(game)}, key=lambda g: (facts[g].date, facts[g].key), reverse=True)
    if query.limit:
        games = games[: query.limit]
    wanted = set(games)
    per: dict[int, list[Hit]] = {g: [] for g in games}
    width = query.pattern.width
    order = np.lexsort((move, game))
    for i in order:
        g = int(game[i])
        if g not in wanted:
            continue
        fam = images.fams[int(images.family[place[i]])]
        cell = int(cells[i])
        point = None if cell < 0 else home_point(query.pattern, query.placement, (cell % width, cell // width))
        per[g].append(Hit(int(move[i]), fam.symmetry.name, fam.swapped, None if nxt[i] < 0 else int(nxt[i]), point))
    return tuple(GameResult(facts[g], tuple(per[g])) for g in games)

