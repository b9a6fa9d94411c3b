"""Pattern search over the indexed games: where a local position occurred, and what was played next.

The index (:mod:`joseki.book.patterns`) keeps each game's events (a stone placed, a stone taken off) sorted by
the look of the board around them, in segments. A search (:func:`search`) takes each image of the pattern
(:func:`joseki.core.pattern.families`: a symmetry, a colour choice, every place the placement allows), works
out the keys an event that makes it come into being may have at each of its cells
(:mod:`joseki.book.patterns.probes`), looks them up in every segment and keeps the candidates whose every
cell holds what its letter allows after that move (:mod:`joseki.book.patterns.lookup`). A hit is such a move:
the move with which the pattern came into being, as Kombilo counts it. The continuation of a hit is the first
later move on a point of the pattern's rectangle, found by stepping all hits forward together through the move
lists; it came *after a tenuki* when any move (a pass too) was played elsewhere between. Continuations are
mapped back to the pattern's own frame and merged under the pattern's own symmetries
(:func:`joseki.core.pattern.symmetry_group`).

This module imports no SQLAlchemy: it reads through :func:`joseki.book.store.bookfile.rows`, on a store or on a
read-only SQLite file.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from joseki.book.patterns import kernels
from joseki.book.patterns.lazy import Blobs
from joseki.book.patterns.lookup import (
    COMMON_SHARE,
    Loaded,
    common_groups,
    distinct,
    halves,
    hits,
    in_halves,
    move_lists,
    next_stone,
    place_table,
)
from joseki.book.patterns.probes import Images, probes, refined
from joseki.book.patterns.reads import read_segment, segment_list
from joseki.book.store.bookfile import ReadConnection, rows
from joseki.core.errors import BadInput, UserError
from joseki.core.gameinfo import rank_value
from joseki.core.geometry import Point
from joseki.core.movelist import PASS, SIZE
from joseki.core.notation import format_gtp_vertex, format_sgf_point
from joseki.core.pattern import (
    CellMap,
    Pattern,
    Placement,
    Where,
    families,
    home_point,
    symmetry_group,
)

Array = npt.NDArray[Any]
COUNT = "SELECT count(*), coalesce(max(id), 0) FROM pattern_game"
FACT_COLUMNS = ("SELECT id, game_key, root, source, black, white, black_rank, white_rank, date, result, winner, "
                "event, moves FROM pattern_game ")
READ = FACT_COLUMNS + "WHERE id > :after ORDER BY id"
READ_SOME = FACT_COLUMNS + "WHERE id IN (:ids)"
SOME_AT_ONCE = 5000
"""Games whose facts one query reads by id (a lazily read index fetches only the games it lists)."""
NOT_INDEXED = "SELECT count(*) FROM game_record WHERE game_key NOT IN (SELECT game_key FROM pattern_game)"
STAMP = "SELECT (SELECT coalesce(max(id), 0) FROM pattern_game), (SELECT coalesce(max(id), 0) FROM game_record)"
"""The last ids of the indexed games and of the learnt ones: rows are only ever added to either table."""
WINNER_CODE = {"b": 1, "w": 2, "d": 3}


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


def _fact(row: Sequence[Any]) -> tuple[int, GameFacts]:
    gid, key, root, source, black, white, brank, wrank, date, result, winner, event, moves = row
    return int(gid), GameFacts(str(key), str(root), str(source), str(black), str(white), str(brank), str(wrank),
                               str(date), str(result), str(winner), str(event), int(moves))


@dataclass(frozen=True, slots=True)
class Moves:
    """Games' moves, for stepping hits forward: game ``g``'s points and states (1 black, 2 white) from
    ``start[g]`` of ``point`` and ``state``, ``count[g]`` of them (games without: no moves)."""

    count: Array
    start: Array
    point: npt.NDArray[np.int16]
    state: npt.NDArray[np.int8]


class IndexArrays:
    """The whole index in memory: the games' facts (in the order added), their segments ready to search, and every
    game's moves: ``mv_point`` and ``mv_state`` of game ``g`` from ``mv_start[g]``, ``moves[g]`` of them."""

    def __init__(self, facts: list[GameFacts], ids: Array, segments: dict[int, Loaded]) -> None:
        self.facts = facts
        self.ids = ids
        self.last_id = int(ids[-1]) if len(ids) else 0
        self.segments = segments
        count = len(facts)
        self.winner = np.array([WINNER_CODE.get(f.winner, 0) for f in facts], dtype=np.int8)
        self.global_of = {sid: np.searchsorted(ids, seg.segment.game_id.astype(np.int64)).astype(np.int64)
                          for sid, seg in segments.items()}
        """Each segment's games as places in ``facts``."""
        self.date_code = _date_codes(count, segments, self.global_of)
        self.segment_of, self.local_of = _homes(count, self.global_of)
        """Each game's segment (its place in ``segments``) and its place in it."""
        self.moves = np.zeros(count, dtype=np.int64)
        self.mv_start = np.zeros(count, dtype=np.int64)
        points, states, base = [], [], 0
        for sid, seg in segments.items():
            where = self.global_of[sid]
            self.mv_start[where] = seg.move_start[:-1] + base
            self.moves[where] = np.diff(seg.move_start)
            points.append(seg.move_point)
            states.append(seg.move_state)
            base += len(seg.move_point)
        self.mv_point = np.concatenate(points) if points else np.zeros(0, dtype=np.int16)
        self.mv_state = np.concatenate(states) if states else np.zeros(0, dtype=np.int8)

    def __len__(self) -> int:
        return len(self.facts)

    @property
    def stored_bytes(self) -> int:
        """The bytes of the segments' arrays."""
        return sum(int(sum(a.nbytes for a in seg.segment.arrays().values())) for seg in self.segments.values())

    def moves_of(self, games: Array) -> Moves:
        """The moves of ``games`` (here: of every game)."""
        return Moves(self.moves, self.mv_start, self.mv_point, self.mv_state)

    def facts_of(self, games: Sequence[int]) -> list[GameFacts]:
        return [self.facts[g] for g in games]

    def game_words(self, g: int) -> npt.NDArray[np.uint16]:
        """Game ``g``'s move list with captures (:mod:`joseki.core.movelist`)."""
        for sid, seg in self.segments.items():
            local = np.flatnonzero(self.global_of[sid] == g)
            if len(local):
                start = seg.segment.record_start
                return seg.segment.words[int(start[local[0]]): int(start[local[0] + 1])]
        raise KeyError(g)


def _homes(count: int, global_of: dict[int, Array]) -> tuple[Array, Array]:
    """Each game's segment (its place in ``global_of``) and its place in that segment."""
    segment_of = np.zeros(count, dtype=np.int64)
    local_of = np.zeros(count, dtype=np.int64)
    for n, where in enumerate(global_of.values()):
        segment_of[where] = n
        local_of[where] = np.arange(len(where), dtype=np.int64)
    return segment_of, local_of


def _date_codes(count: int, segments: dict[int, Loaded], global_of: dict[int, Array]) -> Array:
    """Each game's date as ``yyyymmdd`` (:func:`joseki.book.patterns.segment.date_code`), from its segment."""
    codes = np.zeros(count, dtype=np.int64)
    for sid, seg in segments.items():
        codes[global_of[sid]] = seg.segment.date
    return codes


MOST_GAMES_MOVED = 8
"""A lazily read index works out every game's moves once a search needs those of more than one game in this many."""


class LazyIndex:
    """The index of a SQLite store read lazily (:mod:`joseki.book.patterns.lazy`): what :func:`run` needs of
    :class:`IndexArrays`, with each game's facts read only for the games a search lists (all of them once a
    filter asks), and each segment's arrays only where a search reads them, while :meth:`reading`."""

    def __init__(self, blobs: Blobs, count: int, last_id: int, segments: dict[int, Loaded]) -> None:
        self.blobs, self.count, self.last_id, self.segments = blobs, count, last_id, segments
        ids = np.sort(np.concatenate([seg.segment.game_id.astype(np.int64) for seg in segments.values()]))
        if len(ids) != count:
            raise UserError(f"the pattern index's segments hold {len(ids)} games, its table {count} (an index "
                            "written by a failed writer: build it again with joseki index)")
        self.ids = ids
        self.global_of = {sid: np.searchsorted(ids, seg.segment.game_id.astype(np.int64)).astype(np.int64)
                          for sid, seg in segments.items()}
        self.winner = np.zeros(count, dtype=np.int8)
        for sid, seg in segments.items():
            self.winner[self.global_of[sid]] = seg.segment.winner
        self.segment_of, self.local_of = _homes(count, self.global_of)
        self.date_code = _date_codes(count, segments, self.global_of)
        self._facts: list[GameFacts] | None = None
        self._all_moves: Moves | None = None
        self._conn: sqlite3.Connection | None = None

    def __len__(self) -> int:
        return self.count

    @contextmanager
    def reading(self, conn: sqlite3.Connection) -> Iterator[LazyIndex]:
        """Read what searches need through ``conn`` (in its transaction) until the block ends."""
        with self.blobs.bound(conn):
            self._conn = conn
            try:
                yield self
            finally:
                self._conn = None

    def _read(self, sql: str, params: dict[str, object] | None = None) -> list[tuple[Any, ...]]:
        if self._conn is None:
            raise UserError("the pattern index was read outside a read of its store (a bug)")
        return rows(self._conn, sql, params)

    @property
    def facts(self) -> list[GameFacts]:
        """Every game's facts, in the order of their ids (read once)."""
        if self._facts is None:
            self._facts = [f for _, f in (_fact(row) for row in self._read(READ, {"after": 0}))]
        return self._facts

    def facts_of(self, games: Sequence[int]) -> list[GameFacts]:
        if self._facts is not None or len(games) > 4 * SOME_AT_ONCE:
            return [self.facts[g] for g in games]
        by_id: dict[int, GameFacts] = {}
        wanted = [int(self.ids[g]) for g in games]
        for lo in range(0, len(wanted), SOME_AT_ONCE):
            by_id.update(_fact(row) for row in self._read(READ_SOME, {"ids": wanted[lo: lo + SOME_AT_ONCE]}))
        return [by_id[i] for i in wanted]

    def moves_of(self, games: Array) -> Moves:
        """The moves of ``games``, read from their move lists; those of every game (kept for later searches) once
        ``games`` are more than one in :data:`MOST_GAMES_MOVED`."""
        if self._all_moves is not None:
            return self._all_moves
        wanted = distinct(games.astype(np.int64))
        if len(wanted) * MOST_GAMES_MOVED > self.count:
            self._all_moves = self._moves(np.arange(self.count, dtype=np.int64))
            return self._all_moves
        return self._moves(wanted)

    def _moves(self, wanted: Array) -> Moves:
        count = np.zeros(self.count, dtype=np.int64)
        start = np.zeros(self.count, dtype=np.int64)
        points: list[npt.NDArray[np.int16]] = []
        states: list[npt.NDArray[np.int8]] = []
        base = 0
        for n, seg in enumerate(self.segments.values()):
            mine = wanted[self.segment_of[wanted] == n]
            if not len(mine):
                continue
            local = self.local_of[mine]
            order = np.argsort(local)
            mine, local = mine[order], local[order]
            counts, point, state = move_lists(seg, local)
            count[mine] = counts
            start[mine] = base + np.cumsum(counts) - counts
            points.append(point)
            states.append(state)
            base += len(point)
        none16, none8 = np.zeros(0, dtype=np.int16), np.zeros(0, dtype=np.int8)
        return Moves(count, start, np.concatenate(points) if points else none16,
                     np.concatenate(states) if states else none8)


_LAZY: dict[str, LazyIndex] = {}


def _lazily(url: str, conn: sqlite3.Connection, count: int, last: int) -> LazyIndex:
    """The lazily read index of the SQLite store at ``url`` (kept per URL; the segments it already knows, with
    what was read of them, are kept)."""
    cached = _LAZY.get(url)
    if cached is not None and cached.count == count and cached.last_id == last:
        with cached.blobs.bound(conn) as blobs:
            if blobs.segments() == sorted(cached.segments):
                return cached
    blobs = cached.blobs if cached is not None else Blobs()
    known = cached.segments if cached is not None else {}
    with blobs.bound(conn):
        segments = {sid: known[sid] if sid in known else Loaded.read_lazily(blobs, sid)
                    for sid, _level, _records in segment_list(conn)}
    made = LazyIndex(blobs, count, last, segments)
    _LAZY[url] = made
    return made


def _driver(conn: Any) -> sqlite3.Connection | None:
    """The sqlite3 connection under a read's connection (None: not SQLite)."""
    if isinstance(conn, sqlite3.Connection):
        return conn
    raw = getattr(getattr(conn, "connection", None), "driver_connection", None)
    return raw if isinstance(raw, sqlite3.Connection) else None


def load(conn: ReadConnection, previous: IndexArrays | None = None) -> IndexArrays:
    """The index on ``conn`` in memory; the games and segments of ``previous`` (an earlier load) are not read again
    (a segment never changes; merged ones are dropped)."""
    facts = list(previous.facts) if previous else []
    ids = [int(i) for i in previous.ids] if previous else []
    last = previous.last_id if previous else 0
    for row in rows(conn, READ, {"after": last}):
        gid, fact = _fact(row)
        facts.append(fact)
        ids.append(gid)
    known = previous.segments if previous else {}
    segments = {sid: known[sid] if sid in known else Loaded.of(read_segment(conn, sid))
                for sid, _level, _records in segment_list(conn)}
    return IndexArrays(facts, np.array(ids, dtype=np.int64), segments)


_LOADED: dict[str, IndexArrays] = {}


def loaded(book: Readable) -> IndexArrays:
    """The index of ``book``, kept in memory per URL for the process and brought up to date when games were added.

    Raises UserError when the store holds learnt or mined games that the index does not (an index older
    than the store's games), or when nothing is indexed.
    """
    with _lock(book.url), book.read() as conn:
        count, last = _indexed(conn, book.url)
        cached = _LOADED.get(book.url)
        if cached is not None and (len(cached) > count or cached.last_id > last):
            cached = None
        if cached is None or cached.last_id != last:
            cached = load(conn, cached)
            _LOADED[book.url] = cached
    return cached


_LOCKS: dict[str, threading.RLock] = {}
_LOCKS_LOCK = threading.Lock()


def _lock(url: str) -> threading.RLock:
    """The lock of ``url``'s index kept in memory: one thread at a time loads it, brings it up to date or searches
    it read lazily (whose reads go through the one connection it is bound to, into arrays it fills). Reentrant: a
    search that finds no sqlite3 connection under a SQLite URL loads the index, taking it again."""
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(url, threading.RLock())


_CHECKED: dict[str, tuple[int, int, int]] = {}
"""Per URL, the last checked :data:`STAMP` and the games indexed then."""


def _indexed(conn: ReadConnection, url: str) -> tuple[int, int]:
    """The games indexed and their last id; UserError for an index older than the store's games or an empty one.

    Counted and compared only when either table's last id moved since the last check of ``url`` (the counts cost
    a scan of both tables, the stamp two index reads)."""
    stamp = tuple(int(v) for v in rows(conn, STAMP)[0])
    known = _CHECKED.get(url)
    if known is not None and known[:2] == stamp:
        return known[2], stamp[0]
    count, last = (int(v) for v in rows(conn, COUNT)[0])
    behind = int(rows(conn, NOT_INDEXED)[0][0])
    if behind:
        raise UserError(f"the pattern index is older than the store's games: {behind} learnt game"
                        f"{'s are' if behind != 1 else ' is'} not indexed (run joseki index on their files)")
    if count == 0:
        raise UserError("no games indexed for pattern search (run joseki index GAMES...)")
    _CHECKED[url] = (stamp[0], stamp[1], count)
    return count, last


def forget(url: str | None = None) -> None:
    """Drop the index kept in memory for ``url``, loaded or read lazily, and its last check (every one when None)."""
    for kept in (_LOADED, _LAZY, _CHECKED):
        if url is None:
            kept.clear()
        else:
            kept.pop(url, None)


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


def _cell_order(pattern: Pattern) -> list[int]:
    """The cells to verify: the stones first, then the other restricted cells nearest the stones first."""
    letters = [ch for _, ch in pattern.cells()]
    cells = [cell for cell, _ in pattern.cells()]
    stones = [k for k, ch in enumerate(letters) if ch in "XO"]
    others = [k for k, ch in enumerate(letters) if ch in ".xo"]

    def distance(k: int) -> int:
        if not stones:
            return 0
        return min(abs(cells[k][0] - cells[s][0]) + abs(cells[k][1] - cells[s][1]) for s in stones)

    others.sort(key=lambda k: (distance(k), letters[k] != "."))
    return stones + others


Searchable = IndexArrays | LazyIndex
"""An index :func:`run` searches: loaded whole, or read lazily."""


def find_hits(arrays: Searchable, pattern: Pattern, images: Images, mask: Array | None) -> tuple[Array, Array, Array]:
    """Every hit: (place, game, move) where an image of the pattern came into being, a segment's hits in the order of
    its games (the order its tables are read in fastest)."""
    found = probes(images)
    if arrays.segments:
        biggest = max(arrays.segments.values(), key=lambda seg: seg.segment.games)
        found = refined(found, common_groups(biggest, found, biggest.segment.games // COMMON_SHARE))
    place_of = place_table(images)
    order = _cell_order(pattern)
    stoneless = pattern.stones == 0
    parts = []
    for sid, seg in arrays.segments.items():
        where = arrays.global_of[sid]
        local = None if mask is None else np.flatnonzero(mask[where]).astype(np.int64)
        if local is not None and not len(local):
            continue
        place, game, move = hits(seg, images, found, place_of, order, stoneless, local)
        parts.append((place, where[game], move))
    if not parts:
        return tuple(np.zeros(0, dtype=np.int64) for _ in range(3))  # type: ignore[return-value]
    if len(parts) == 1:
        return parts[0]
    place, game, move = (np.concatenate([p[i] for p in parts]) for i in range(3))
    return place, game, move


STEP_BLOCK = 4
"""Moves looked at together for each hit at first while seeking its next move inside the pattern (doubled each
round, up to :data:`MAX_BLOCK`)."""
MAX_BLOCK = 64


def next_in_region(arrays: Searchable, moves: Moves, images: Images, place: Array, game: Array,
                   after: Array) -> tuple[Array, Array, Array]:
    """For each hit, the first move after move ``after`` played inside its place's rectangle: its move number,
    index into ``moves`` and cell of the place (:meth:`Images.cell_of`); -1 for all three when none was.

    It is the first stone put on one of the rectangle's points, read from each segment's dense table
    (:func:`~joseki.book.patterns.lookup.next_stone`); the hits in games with a suicide step through the moves."""
    found = np.full(len(place), -1, dtype=np.int64)
    cell = np.full(len(place), -1, dtype=np.int64)
    stepped = np.zeros(len(place), dtype=bool)
    local = arrays.local_of[game]
    whole = len(arrays.segments) == 1
    segment = None if whole else arrays.segment_of[game]
    for n, seg in enumerate(arrays.segments.values()):
        mine = np.arange(len(place)) if segment is None else np.flatnonzero(segment == n)
        if not len(mine):
            continue
        here = local if segment is None else local[mine]
        if seg.lazy is not None:
            seg.need("record_move", seg.segment.record_start[here].astype(np.int64))
        odd = seg.suicide[here]
        if not odd.any() and segment is None:  # every hit, in one segment
            found, cell = next_stone(seg, images.index, place, local, after.astype(np.int64))
            break
        stepped[mine[odd]] = True
        easy = mine[~odd]
        found[easy], cell[easy] = next_stone(seg, images.index, place[easy], here[~odd], after[easy].astype(np.int64))
    index = np.where(found > 0, moves.start[game] + found - 1, -1)
    hard = np.flatnonzero(stepped)
    if len(hard):
        found[hard], index[hard] = _step_forward(moves, images, place[hard], game[hard], after[hard])
        some = hard[index[hard] >= 0]
        cell[some] = images.cell_of(place[some], moves.point[index[some]].astype(np.int64))
    return found, index, cell


def _step_forward(moves: Moves, images: Images, place: Array, game: Array, after: Array) -> tuple[Array, Array]:
    """:func:`next_in_region` by stepping through the moves (a block of them at a time)."""
    count = len(place)
    found_move = np.full(count, -1, dtype=np.int64)
    found_index = np.full(count, -1, dtype=np.int64)
    active = np.arange(count)
    move = after.astype(np.int64) + 1
    x0, x1, y0, y1 = images.x0[place], images.x1[place], images.y0[place], images.y1[place]
    limit = moves.count[game].astype(np.int64)
    start = moves.start[game]
    block = STEP_BLOCK
    last = len(moves.point) - 1
    while len(active):
        steps = np.arange(block, dtype=np.int64)
        active = active[move[active] <= limit[active]]
        if not len(active):
            break
        number = move[active][:, None] + steps
        idx = start[active][:, None] + number - 1
        point = moves.point[np.minimum(idx, last)].astype(np.int64)
        px, py = point // SIZE, point % SIZE
        a = active[:, None]
        inside = ((number <= limit[a]) & (point != PASS) & (px >= x0[a]) & (px <= x1[a]) & (py >= y0[a])
                  & (py <= y1[a]))
        hit = inside.any(axis=1)
        first = np.argmax(inside, axis=1)
        done = np.flatnonzero(hit)
        found_move[active[done]] = number[done, first[done]]
        found_index[active[done]] = idx[done, first[done]]
        active = active[~hit]
        move[active] += block
        block = min(2 * block, MAX_BLOCK)
    return found_move, found_index


def _follow(arrays: Searchable, moves: Moves, images: Images, hits: tuple[Array, Array, Array],
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
            nxt, idx, _ = next_in_region(arrays, moves, images, place[alive], game[alive], at[alive])
            ok = (idx >= 0)
            safe = np.maximum(idx, 0)
            ok &= (moves.point[safe] == want_point) & (moves.state[safe] == want_state_arr)
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
    if book.url in _LOADED or not book.url.startswith("sqlite"):
        return run(loaded(book), query, started)
    with _lock(book.url), book.read() as conn:
        raw = _driver(conn)
        if raw is None:
            return run(loaded(book), query, started)
        count, last = _indexed(conn, book.url)
        arrays = _lazily(book.url, raw, count, last)
        with arrays.reading(raw):
            return run(arrays, query, started)


def run(arrays: Searchable, query: Query, started: float | None = None) -> SearchResult:
    """:func:`search` on an index already in memory (or read lazily, while :meth:`LazyIndex.reading`)."""
    started = time.perf_counter() if started is None else started
    pattern = query.pattern
    fams = families(pattern, query.placement, fixed_orientation=query.fixed_orientation,
                    fixed_colour=query.fixed_colour)
    images = Images(pattern, fams)
    mask = None if query.games == GameFilter() else query.games.mask(arrays.facts)
    place, game, move = find_hits(arrays, pattern, images, mask)
    group = symmetry_group(pattern, query.placement)
    if query.fixed_orientation or query.fixed_colour:
        group = [g for g in group if (not query.fixed_colour or not g.swapped)]
        if query.fixed_orientation:
            group = group[:1]
    moves = arrays.moves_of(game)
    if query.sequence:
        hit, end, sym_of = _follow(arrays, moves, images, (place, game, move), query.sequence, group, pattern)
        place, game, move = place[hit], game[hit], move[hit]
        after = end
    else:
        sym_of = np.zeros(len(place), dtype=np.int64)
        after = move
    nxt, idx, next_cell = next_in_region(arrays, moves, images, place, game, after)
    conts, cells = _continuations(arrays, moves, images, query, group, place, game, after, nxt, idx, next_cell,
                                  sym_of)
    with_hits = distinct(game, nearly_sorted=True)
    results = _results(arrays, images, query, place, game, move, nxt, cells, with_hits)
    return SearchResult(query, len(arrays), len(with_hits), len(place), conts, results,
                        time.perf_counter() - started)


def _continuations(arrays: Searchable, moves: Moves, images: Images, query: Query, group: list[CellMap], place: Array,
                   game: Array, after: Array, nxt: Array, idx: Array, next_cell: Array,
                   sym_of: Array) -> tuple[tuple[Continuation, ...], Array]:
    """The continuations counted and lettered, and each hit's continuation cell in the pattern's frame (-1: none)."""
    pattern = query.pattern
    cells_count = pattern.width * pattern.height
    if query.sequence and len(group) > 1:
        inverse = np.array([_inverse(g).cells for g in group], dtype=np.int64)
        swaps = np.array([g.swapped for g in group], dtype=bool)
    else:
        inverse, swaps = np.arange(cells_count, dtype=np.int64)[None, :], np.zeros(1, dtype=bool)
    merge = _stabiliser(group, query.sequence, pattern.width)
    rep_cell, rep_state = _canonical(merge, cells_count)
    cell = np.empty(len(place), dtype=np.int64)
    after = after.astype(np.int64)

    def count(part: slice) -> tuple[Array, Array]:
        """By cell, colour and whether the mover won; the tenukis by cell."""
        counts, tenukis = np.zeros(cells_count * 6, dtype=np.int64), np.zeros(cells_count, dtype=np.int64)
        kernels.counted(idx[part], next_cell[part], moves.state, images.swapped, place[part], arrays.winner,
                        game[part], nxt[part], after[part], sym_of[part], inverse, swaps, rep_cell.reshape(-1),
                        rep_state.reshape(-1), counts, tenukis, cell[part])
        return counts, tenukis

    parts = in_halves(count, halves(len(place)))
    counts, tenukis = np.sum([c for c, _ in parts], axis=0), np.sum([t for _, t in parts], axis=0)
    conts: list[Continuation] = []
    if counts.any():
        by = counts.reshape(cells_count, 3, 2)
        black, white = by[:, 1].sum(axis=1), by[:, 2].sum(axis=1)
        totals = black + white
        ranked = sorted((k for k in range(cells_count) if totals[k]), key=lambda k: (-int(totals[k]), k))
        for n, k in enumerate(ranked):
            label = _LABELS[n] if n < len(_LABELS) else "?"
            home = home_point(pattern, query.placement, (k % pattern.width, k // pattern.width))
            conts.append(Continuation(label, home, int(black[k]), int(white[k]), int(by[k, 1, 1]), int(by[k, 2, 1]),
                                      int(tenukis[k])))
    return tuple(conts), cell


def _results(arrays: Searchable, images: Images, query: Query, place: Array, game: Array, move: Array,
             nxt: Array, cells: Array, with_hits: Array) -> tuple[GameResult, ...]:
    """The games with hits (``with_hits``), newest first, at most ``query.limit`` of them, each with its hits in move
    order."""
    if not len(game):
        return ()
    games, facts = _newest(arrays, with_hits, query.limit)
    chosen = np.zeros(len(arrays), dtype=bool)
    chosen[games] = True
    per: dict[int, list[Hit]] = {g: [] for g in games}
    width = query.pattern.width
    picked = np.flatnonzero(chosen[game])
    for i in picked[np.lexsort((move[picked], game[picked]))]:
        g = int(game[i])
        fam = images.fams[int(images.family[place[i]])]
        cell = int(cells[i])
        point = None if cell < 0 else home_point(query.pattern, query.placement, (cell % width, cell // width))
        per[g].append(Hit(int(move[i]), fam.symmetry.name, fam.swapped, None if nxt[i] < 0 else int(nxt[i]), point))
    return tuple(GameResult(f, tuple(per[g])) for g, f in zip(games, facts, strict=True))


def _newest(arrays: Searchable, found: Array, limit: int) -> tuple[list[int], list[GameFacts]]:
    """The games of ``found`` to list, newest first (by date code, then date, then key), at most ``limit`` (0: all),
    and their facts; only the games that may be among them are read."""
    code = arrays.date_code[found]
    if limit and len(found) > limit:
        cut = np.partition(code, len(code) - limit)[len(code) - limit]
        found = found[code >= cut]
    facts = arrays.facts_of([int(g) for g in found])
    order = sorted(range(len(found)), key=lambda i: (int(arrays.date_code[found[i]]), facts[i].date, facts[i].key),
                   reverse=True)
    order = order[:limit] if limit else order
    return [int(found[i]) for i in order], [facts[i] for i in order]

