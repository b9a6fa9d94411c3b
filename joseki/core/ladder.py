"""Ladders read on the whole board: does a chain chased by successive ataris get captured?

A ladder (shicho) is the chase in which the chaser keeps the prey in atari: each time the
prey extends to two liberties the chaser takes one of them, until the prey is captured or
escapes. :func:`read_ladder` reads it out with captures on a :class:`~joseki.core.position.LocalBoard`
of any size (the whole board, not one corner): the chaser tries both ataris, the prey both
extending and capturing any chaser string in atari next to it (the counter-atari), with the
basic ko rule. The answer says whether the ladder works, and why:

- ``captured``: the prey is taken (``point``: the last atari; at the edge when it is on the first line);
- ``breaker``: the prey ran into a stone of its own colour (``point``) and got three liberties;
- ``counter-capture``: the prey captured a chaser string (``point``, a stone of it) and got out;
- ``escape``: the prey got three liberties in the open (``point``: where; the chaser could not
  keep it in atari, as near the edge where the atari would have to come from off the board);
- ``unread``: the reading went past :data:`MAX_NODES` positions (the verdict is None).

A prey with one liberty and the prey's side to move reads the escape; with two liberties and
the chaser to move, the chase. The verdict is the same in the eight symmetries of the board and
with the colours swapped (the tests check it): the search is exhaustive, and where several
lines fail the one reported is the chaser's longest try (the ladder players mean), and among
escapes at one move the kind (a breaker before a counter-capture before the open), never the
order moves are tried in.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from joseki.core.errors import BadInput
from joseki.core.geometry import Point
from joseki.core.position import LocalBoard, neighbour_table
from joseki.core.readboard import CODE, EMPTY, ReadBoard
from joseki.core.steps import Colour, other

MAX_NODES = 10000
"""Positions read before the answer is ``unread``: a ladder is a narrow search, this is generous."""

WORKS, FAILS, UNKNOWN = "works", "fails", "unknown"
REASONS = ("captured", "breaker", "counter-capture", "escape", "unread")
_FAIL_RANK = {"breaker": 0, "counter-capture": 1, "escape": 2}
"""Which failure to report when several lines fail: a breaker first (what players name), then a counter-capture."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A ladder read out: whether it works (None: not read to the end), why, where, and the line read."""

    works: bool | None
    reason: str
    point: Point | None = None
    line: tuple[Point, ...] = ()

    @property
    def verdict(self) -> str:
        """``works``, ``fails`` or ``unknown``."""
        return UNKNOWN if self.works is None else WORKS if self.works else FAILS

    edge: bool = False
    """Whether the prey was captured on the first line (driven to the edge)."""


class _Budget(Exception):
    """The reading went past MAX_NODES."""


def string_at(board: LocalBoard, point: Point) -> tuple[set[Point], set[Point]]:
    """The string at ``point`` (which must hold a stone) and its liberties."""
    stones, near = board.stones, neighbour_table(board.size)
    colour = stones[point]
    string, libs, frontier = {point}, set(), [point]
    while frontier:
        for q in near[frontier.pop()]:
            owner = stones.get(q)
            if owner is None:
                libs.add(q)
            elif owner == colour and q not in string:
                string.add(q)
                frontier.append(q)
    return string, libs


class _Reader:
    """The search, on a :class:`~joseki.core.readboard.ReadBoard`: positions remembered by its Zobrist hash."""

    def __init__(self, stones: dict[Point, Colour], size: int, prey: Point, chaser: Colour) -> None:
        self.b = b = ReadBoard(stones, size)
        self.size = size
        self.prey = b.index[prey]
        self.chaser = CODE[chaser]
        self.initial = frozenset(b.index[p] for p in stones)
        self.nodes = 0
        self.memo: dict[tuple[int, int | None, bool], Reading] = {}
        self.path: set[tuple[int, int | None, bool]] = set()

    def _remembered(self, attacking: bool, ko: int | None, depth: int) -> Reading:
        """:meth:`_attack` or :meth:`_defend`, read once per position (transpositions are common once strings merge)."""
        key = (self.b.key, ko, attacking)
        found = self.memo.get(key)
        if found is not None:
            return found
        if key in self.path:  # a cycle of captures: the chaser cannot force it
            return Reading(False, "escape", self.b.point(self.prey))
        self.path.add(key)
        try:
            result = self._attack(ko, depth) if attacking else self._defend(ko, depth)
        finally:
            self.path.discard(key)
        self.memo[key] = result
        return result

    def attack(self, ko: int | None, depth: int) -> Reading:
        return self._remembered(True, ko, depth)

    def defend(self, ko: int | None, depth: int) -> Reading:
        return self._remembered(False, ko, depth)

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Budget

    def _attack(self, ko: int | None, depth: int) -> Reading:
        """The chaser to move, the prey with two liberties: try both ataris."""
        self._tick()
        b, prey, chaser = self.b, self.prey, self.chaser
        board = b.board
        libs = b.string(prey)[1]
        if len(libs) == 1:
            (lib,) = libs
            point = b.point(lib)
            return Reading(True, "captured", point, (point,), edge=self._on_edge(point))
        if len(libs) > 2:
            return Reading(False, "escape", b.point(prey))
        failures: list[Reading] = []
        for lib in sorted(libs):
            played = b.play(chaser, lib, ko)
            if played is None:
                continue
            removed, new_ko = played
            point = b.point(lib)
            try:
                if board[prey] == EMPTY:
                    result = Reading(True, "captured", point, edge=self._on_edge(point))
                elif removed and len(b.string(prey)[1]) != 1:  # nothing taken: one liberty left
                    continue  # not an atari (the chaser's stone was taken back at once)
                else:
                    result = self.defend(new_ko, depth + 1)
            finally:
                b.undo(lib, removed)
            if result.works:
                return Reading(True, result.reason, result.point, (point, *result.line), edge=result.edge)
            failures.append(Reading(result.works, result.reason, result.point, (point, *result.line)))
        if not failures:
            return Reading(False, "escape", b.point(prey))  # no atari can be played
        if any(f.works is None for f in failures):
            return next(f for f in failures if f.works is None)
        return _main(failures)

    def _defend(self, ko: int | None, depth: int) -> Reading:
        """The prey in atari, its side to move: extend, or capture a chaser string in atari next to it.

        A move that gets three liberties at once is an escape, reported by kind (a breaker before a
        counter-capture before the open); else the moves that leave two liberties are read on, and
        the ladder works only if every one of them is captured (its line: the prey's longest run).
        A capture that two chaser strings in atari offer names the lower-placed one's stone.
        """
        self._tick()
        b, prey, chaser = self.b, self.prey, self.chaser
        board, around = b.board, b.around
        string, libs = b.string(prey)
        prey_colour = 3 - chaser
        moves: dict[int, int | None] = {}
        seen: set[int] = set()
        for stone in string:
            for q in around[stone]:
                if q not in seen and board[q] == chaser:
                    atari = b.in_atari(q)
                    if atari is None:
                        seen.add(q)
                    else:
                        taken, lib = atari
                        seen |= taken
                        lowest = min(taken)
                        known = moves.get(lib)
                        moves[lib] = lowest if known is None else min(known, lowest)
        for lib in libs:
            moves.setdefault(lib, None)
        escapes: list[Reading] = []
        onward: list[int] = []
        for i in sorted(moves):
            played = b.play(prey_colour, i, ko)
            if played is None:
                continue
            removed, _ = played
            now, now_libs = b.string(prey)
            if len(now_libs) >= 3:
                point = b.point(i)
                joined = sorted(p for p in now - string if p != i and p in self.initial)  # a stone there before
                escapes.append(Reading(False, "counter-capture", b.point(min(removed)), (point,)) if removed
                               else Reading(False, "breaker", b.point(joined[0]), (point,)) if joined
                               else Reading(False, "escape", point, (point,)))
            elif len(now_libs) == 2:
                onward.append(i)
            b.undo(i, removed)
        if escapes:
            return self._pick(escapes)
        longest: Reading | None = None
        fails: list[Reading] = []
        onward.sort(key=lambda move: moves[move] is None)  # captures before the extension, in any frame
        for i in onward:
            kind = moves[i]
            removed, new_ko = b.play(prey_colour, i, ko) or ([], None)
            try:
                deeper = self.attack(new_ko, depth + 1)
            finally:
                b.undo(i, removed)
            result = Reading(deeper.works, deeper.reason, deeper.point, (b.point(i), *deeper.line),
                             edge=deeper.edge)
            if result.works is None:
                return result
            if not result.works:
                if kind is not None and deeper.reason == "escape":
                    result = Reading(False, "counter-capture", b.point(kind), result.line)
                fails.append(result)
                continue
            if longest is None or len(result.line) > len(longest.line):
                longest = result
        if fails:
            return _main(fails)  # one way out is enough; which one is named does not depend on the frame
        if longest is not None:
            return longest  # the prey's longest run before the capture
        point = b.point(min(libs))
        return Reading(True, "captured", point, (point,), edge=self._on_edge(point))

    def _on_edge(self, point: Point) -> bool:
        x, y = point
        return min(x, y) == 0 or max(x, y) == self.size - 1

    @staticmethod
    def _pick(failures: list[Reading]) -> Reading:
        """The escape to report: by kind (:data:`_FAIL_RANK`), then the shortest line."""
        return min(failures, key=lambda r: (_FAIL_RANK.get(r.reason, 9), len(r.line)))


def _main(failures: list[Reading]) -> Reading:
    """The failure to report of several: the longest line (the chase players mean), then by kind."""
    return min(failures, key=lambda r: (-len(r.line), _FAIL_RANK.get(r.reason, 9)))


def read_ladder(board: LocalBoard, prey: Point, chaser: Colour | None = None) -> Reading:
    """Whether the ladder on the string at ``prey`` works, on ``board`` (left as it was).

    The string must have one liberty (its side to move: can it escape?) or two (the chaser,
    ``chaser`` or else the other colour, to move: can an atari capture it?). BadInput for an
    empty point or a string with more liberties.
    """
    if prey not in board.stones:
        raise BadInput(f"no stone at {prey} to ladder")
    prey_colour = board.stones[prey]
    chaser = chaser or other(prey_colour)
    if chaser == prey_colour:
        raise BadInput(f"the chaser ({chaser}) is the prey's own colour")
    _, libs = string_at(board, prey)
    if len(libs) not in (1, 2):
        raise BadInput(f"the string at {prey} has {len(libs)} liberties (a ladder needs one or two)")
    return _read(board.size, frozenset(board.stones.items()), prey, chaser, len(libs) == 1)


@lru_cache(maxsize=1024)
def _read(size: int, stones: frozenset[tuple[Point, Colour]], prey: Point, chaser: Colour, escape: bool) -> Reading:
    """:func:`read_ladder`'s reading, remembered: the same corners come back under many boards (a reading is a
    pure function of the stones)."""
    reader = _Reader(dict(stones), size, prey, chaser)
    try:
        return reader.defend(None, 0) if escape else reader.attack(None, 0)
    except _Budget:
        return Reading(None, "unread", prey)


def ladder_from(board: LocalBoard, atari: Point, chaser: Colour) -> Reading | None:
    """Whether ``chaser``'s atari at ``atari`` starts a ladder that works (Pachi's ``ladder_own = F4``).

    The prey is the string next to ``atari`` of the other colour with two liberties; None when
    there is none or the point is taken or illegal.
    """
    if atari in board.stones:
        return None
    prey_colour = other(chaser)
    prey = next((q for q in sorted(neighbour_table(board.size)[atari]) if board.stones.get(q) == prey_colour
                 and len(string_at(board, q)[1]) == 2), None)
    if prey is None:
        return None
    after = board.copy()
    try:
        removed = after.play(chaser, atari)
    except ValueError:
        return None
    if prey not in after.stones:
        return Reading(True, "captured", atari, (atari,))
    if any(c == prey_colour for _, c in removed) or len(string_at(after, prey)[1]) != 1:
        return None
    reader = _Reader(after.stones, after.size, prey, chaser)
    try:
        result = reader.defend(None, 1)
    except _Budget:
        return Reading(None, "unread", prey)
    return Reading(result.works, result.reason, result.point, (atari, *result.line), edge=result.edge)


def board_of(stones: dict[Point, Colour], size: int = 19) -> LocalBoard:
    """A board holding ``stones`` as they are (no captures: they are a real position)."""
    board = LocalBoard(size)
    board.stones = dict(stones)
    return board
