"""Mining a book from game records alone: every corner sequence, kept where enough games played it.

Two passes through the one fan-out (:mod:`joseki.games.fanout`). First, the workers read each game
and reduce it to its corners' play-step strings, and to what crediting it will need (its corners,
the moves before their first :data:`MINE_DEPTH` local moves, its facts), packed as bytes; the parent
counts, for every prefix of at most :data:`MINE_DEPTH` steps, the games that played it, and holds
each distinct game's bytes. Prefixes played in at least ``min_games`` games form the book (they are
prefix-closed, since a prefix is played at least as often as its continuations), and its leaves
become the collection's records; the moves played after them in fewer games are kept as played
beyond the book (:mod:`joseki.book.learnt.beyond`). Then, in the same transaction, the workers credit
the held games exactly as ``learn`` credits them (the same statistics,
:data:`joseki.games.signals.RESULT_STATISTICS`), against the whole book with the new collection in
it, and the games count as learnt under the profile.

A game learnt there before is moved from the book before this run to the book after it: its
credits against the old book are taken back and its credits against the new one added (they
differ where the new lines take a corner further, or give a step a line of its own where it
was in the book by transposition). So ``learn`` then ``mine`` gives the statistics ``mine``
alone gives, as does ``mine`` then ``learn`` (the games are then duplicates).
To stay within memory on tens of thousands of games, the prefixes only one game played are held as
that game's strings, once where they leave the lines other games played (:class:`PrefixCounter`),
and each held game as a few bytes a move (:meth:`HeldGame.pack`); the second pass compacts the rows it
holds every :data:`COMPACT_GAMES` games and writes them once, after the last game.
"""

from __future__ import annotations

import pickle
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from joseki.book.gamerefs.write import GameInfo
from joseki.book.importer import FileReport, import_forest
from joseki.book.learnt.beyond import beyond_moves, keep_beyond
from joseki.book.learnt.results import claim_games, learnt_keys, profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.query.walk import Book
from joseki.book.store.contents import deepest_line
from joseki.book.store.database import Store, WriteConnection
from joseki.book.store.keys import node_id
from joseki.core.context import CONTEXT_STEPS
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner
from joseki.core.movelist import SIZE
from joseki.games.credit import CornerPlay, corners_to
from joseki.games.fanout import Workers, fan_out, prepare
from joseki.games.indexing import (
    INDEX_BATCH,
    PATTERN_INDEX,
    Indexed,
    IndexWriter,
    finish_report,
    folders_of,
    index_row,
    keyed,
)
from joseki.games.pipeline import GameView, Seconds, Statistic, Writer, clock, each_game
from joseki.games.signals import (
    CONTEXTS,
    GAMES_BEHIND,
    RESULTS,
    LearnReport,
    RefsStatisticWriter,
    RefsStep,
    ResultSignal,
)
from joseki.sgf.archive import Source, expand_games, source_name, sources
from joseki.sgf.forest import Forest, Variation
from joseki.sgf.game import Game, read_game

MINE_DEPTH = 30
"""Steps of a corner's string that mining counts."""

CHUNK_GAMES = 64
"""Games a local worker reduces (or credits) per chunk."""

COMPACT_GAMES = 20000
"""Credited games after which the second pass sums what it holds (:meth:`joseki.games.pipeline.Writer.compact`),
while the workers credit the next ones: it writes once, at its end, what those sums leave."""


class Reduced(NamedTuple):
    """One game after mining's first pass: its identity, its corners cut to :data:`MINE_DEPTH` steps (for the
    counting), and what its crediting will need, packed (:class:`HeldGame`)."""

    source: str
    key: str
    result: str
    skipped: str | None
    corners: tuple[str, ...]
    held: bytes
    indexed: Indexed | None = None
    """The game's pattern index row (or why the index cannot hold it), when mining indexes too."""


@dataclass(frozen=True, slots=True)
class HeldGame:
    """What crediting a mined game needs, held by the parent between the passes as :meth:`pack`'s bytes."""

    winner: str
    plays: tuple[CornerPlay, ...]
    moves: list[tuple[str, tuple[int, int] | None]]
    """The game's moves up to its corners' last local move whose context may be credited."""
    info: tuple[Any, ...]
    """:meth:`joseki.book.gamerefs.write.GameInfo.row`."""

    def pack(self) -> bytes:
        """The game as few bytes: tens of thousands of them wait in the parent between the passes (each move and
        each local move number two bytes)."""
        plays = tuple((p.corner, p.steps, p.first, p.swap, array("H", p.local).tobytes()) for p in self.plays)
        moves = array("H", map(_CODES.__getitem__, self.moves)).tobytes()
        return pickle.dumps((self.winner, plays, moves, self.info), pickle.HIGHEST_PROTOCOL)

    @classmethod
    def unpack(cls, data: bytes) -> HeldGame:
        """The game :meth:`pack` made ``data`` of."""
        winner, plays, moves, info = pickle.loads(data)
        codes = array("H")
        codes.frombytes(moves)
        return cls(winner, tuple(CornerPlay(c, steps, first, swap, tuple(_numbers(local)))
                                 for c, steps, first, swap, local in plays),
                   list(map(_MOVES.__getitem__, codes)), info)


def _move_code(colour: str, point: tuple[int, int] | None) -> int:
    """A move as one number below 2**16: 0 a pass, else 1 + x * 64 + y; white's with 2**15 added."""
    return (0 if point is None else 1 + point[0] * 64 + point[1]) + (1 << 15 if colour == "w" else 0)


_MOVES: dict[int, tuple[str, tuple[int, int] | None]] = {
    _move_code(colour, point): (colour, point)
    for colour in ("b", "w") for point in [None, *((x, y) for x in range(52) for y in range(52))]}
"""Each :func:`_move_code` back to its move (boards up to 52 lines)."""
_CODES = {move: code for code, move in _MOVES.items()}


def _numbers(data: bytes) -> array[int]:
    numbers = array("H")
    numbers.frombytes(data)
    return numbers


def _read(source: Source) -> Game | Reduced:
    """The game at ``source``, or what mining keeps of a file it cannot read."""
    try:
        return read_game(source)
    except ValueError as exc:
        return Reduced(source_name(source), "", "", f"error: {exc}", (), b"")


def reduced(name: str, game: Game, steps: int = MINE_DEPTH) -> Reduced:
    """What mining keeps of ``game`` (read from ``name``), its corners read as far as the first ``steps`` steps of
    each (:func:`joseki.games.credit.corners_to`): crediting it against a book whose lines are at most ``steps``
    steps long reads no further."""
    skipped = game.unusable()
    if skipped is not None:
        return Reduced(name, "", game.result, skipped, (), b"")
    assert game.winner is not None
    key = game.key
    plays = tuple(corners_to(game.moves, steps + 1))
    last = max((p.local[min(len(p.local), CONTEXT_STEPS) - 1] for p in plays), default=0)
    held = HeldGame(game.winner, plays, game.moves[:last], GameInfo.of(game, key).row())
    return Reduced(name, key, game.result, None, tuple(p.steps[: 2 * MINE_DEPTH] for p in plays), held.pack())


@dataclass(frozen=True, slots=True)
class ReduceChunk:
    """Mining's first-pass chunk task (runs in a worker): each game's corners read as far as ``steps`` steps
    (:func:`reduced`); with ``folders``, each 19x19 game's pattern index row too
    (:func:`joseki.games.indexing.index_row`)."""

    folders: tuple[str, ...] | None = None
    steps: int = MINE_DEPTH

    def __call__(self, chunk: list[Source]) -> tuple[list[Reduced], Seconds]:
        seconds = Seconds()
        out = []
        for source in chunk:
            started = clock()
            game = _read(source)
            if isinstance(game, Reduced):
                out.append(game)
                seconds.add("read and reduce", clock() - started)
                continue
            name = source_name(source)
            one = reduced(name, game, self.steps)
            done = clock()
            seconds.add("read and reduce", done - started)
            if self.folders is not None and game.size == SIZE:
                one = one._replace(indexed=index_row(game, name, self.folders))
                seconds.add(PATTERN_INDEX, clock() - done)
            out.append(one)
        if self.folders is not None:
            started = clock()
            rows = iter(keyed([r.indexed for r in out if r.indexed is not None]))
            out = [r if r.indexed is None else r._replace(indexed=next(rows)) for r in out]
            seconds.add(PATTERN_INDEX, clock() - started)
        return out, seconds


reduce_chunk = ReduceChunk()
"""Mining's first-pass chunk task, without the index, into a store without a book."""


class Credited(NamedTuple):
    """A chunk of held games credited (:class:`CreditHeld`)."""

    games: list[tuple[int, int]]
    """Each game's corners and credits (for the run's report)."""
    rows: tuple[Any, ...]
    """Each statistic's rows of the whole chunk, packed (:meth:`joseki.games.pipeline.GameStep.pack`)."""


@dataclass(frozen=True, slots=True)
class CreditHeld:
    """Mining's second-pass chunk task: held games credited against the mined book (runs in a worker).

    A game given with ``moved`` was learnt before against ``before``: its rows are what moves it onto ``book``.
    """

    book: Book
    before: Book | None
    statistics: tuple[Statistic[Any], ...]

    def __call__(self, chunk: list[tuple[str, str, bytes, bool]]) -> tuple[Credited, Seconds]:
        seconds = Seconds()
        signal = ResultSignal(self.statistics)
        out = []
        rows: list[list[Any]] = [[] for _ in self.statistics]
        for source, key, held, moved in chunk:
            started = clock()
            game = HeldGame.unpack(held)
            view = GameView(source, key, game.winner, game.moves, self.book, plays=list(game.plays),
                            info=GameInfo(*game.info), before=self.before if moved else None)
            corners, credits = signal.facts(view)
            if moved:
                corners, credits = 0, credits - sum(len(c.credits) for c in view.credited_before())
            seconds.add("walk", clock() - started)
            for statistic, kept in zip(self.statistics, rows, strict=True):
                started = clock()
                kept.append(statistic.step.rows(view))
                seconds.add(statistic.name, clock() - started)
            out.append((corners, credits))
        packed = []
        for statistic, kept in zip(self.statistics, rows, strict=True):
            started = clock()
            packed.append(statistic.step.pack(kept))
            seconds.add(statistic.name, clock() - started)
        return Credited(out, tuple(packed)), seconds


class PrefixCounter:
    """Games per prefix, exact, with the prefixes of one game only held as that game's strings.

    A prefix played in two games or more is a key of ``many``. Each prefix played in one game only
    lies on a tail: ``tails`` maps a head (a prefix played in one game only, whose line before it is
    played in more, or is empty) to the strings of that game that pass through it, and every prefix
    of those strings from the head on was played in that game alone. A game's corners thus cost one
    entry where they leave the lines other games played, not one a prefix.
    """

    def __init__(self) -> None:
        self.many: dict[str, int] = {}
        self.tails: dict[str, tuple[str, ...]] = {}

    def add_game(self, corners: Iterable[str]) -> None:
        """Count one game: each distinct prefix (at most :data:`MINE_DEPTH` steps) of its corners once.

        The strings are taken in sorted order, each from the step where it leaves the one before it, so
        every distinct prefix is met once, after the prefix one step shorter; a string is left where it
        enters this game's own tail.
        """
        strings = sorted({steps[: 2 * MINE_DEPTH] for steps in corners})
        many, tails = self.many, self.tails
        before = ""
        for steps in strings:
            shared = 0
            limit = min(len(before), len(steps))
            while shared < limit and steps[shared : shared + 2] == before[shared : shared + 2]:
                shared += 2
            before = steps
            for end in range(shared + 2, len(steps) + 1, 2):
                prefix = steps[:end]
                games = many.get(prefix)
                if games is not None:
                    many[prefix] = games + 1
                    continue
                other = tails.pop(prefix, None)
                if other is not None:  # the one game before this one: its strings go on from the next step
                    many[prefix] = 2
                    for step in {steps[: end + 2] for steps in other if len(steps) > end}:
                        tails[step] = tuple(steps for steps in other if steps.startswith(step))
                    continue
                if end == 2 or prefix[:-2] in many:  # the first prefix of this game's own tail
                    tails[prefix] = tuple(s for s in strings if s.startswith(prefix))
                break  # the rest of the string lies on this game's tail: played in no other game

    def frequent(self, min_games: int) -> set[str]:
        """Prefixes played in at least ``min_games`` games."""
        out = {prefix for prefix, games in self.many.items() if games >= min_games}
        if min_games <= 1:
            for head, strings in self.tails.items():
                out.update(steps[:end] for steps in strings for end in range(len(head), len(steps) + 1, 2))
        return out

    def counts(self) -> Iterator[tuple[str, int]]:
        """Each prefix played in two games or more, with its games."""
        return iter(self.many.items())


@dataclass(slots=True)
class Held:
    """A distinct game of the first pass: its file, its result and its packed crediting."""

    source: str
    result: str
    held: bytes


def _first_pass(files: list[str], where: Workers, report: LearnReport, counter: PrefixCounter,
                progress: Callable[[int, int], None] | None, index: IndexWriter | None,
                folders: tuple[str, ...] | None, steps: int) -> dict[str, Held]:
    """Each distinct usable game of ``files``, its prefixes counted (and each game indexed, with ``index``); its
    corners read as far as ``steps`` steps, the longest line of the book it will be credited against."""
    games: dict[str, Held] = {}
    seconds = report.seconds
    task = ReduceChunk(folders, steps)
    pending = 0
    for done, reduced in enumerate(each_game(fan_out(task, sources(files), len(files), where, CHUNK_GAMES),
                                             seconds), start=1):
        if index is not None and reduced.indexed is not None:
            index.add(reduced.indexed)
            pending += 1
            if pending >= INDEX_BATCH:
                _write_index(index, seconds)
                pending = 0
        started = clock()
        if reduced.skipped is not None:
            report.skip(reduced.source, reduced.skipped)
        elif reduced.key in games:
            report.duplicates += 1
        else:
            games[reduced.key] = Held(reduced.source, reduced.result, reduced.held)
            counter.add_game(reduced.corners)
        seconds.add("counting", clock() - started)
        if progress is not None:
            progress(done, len(files))
    if index is not None and pending:
        _write_index(index, seconds)
    return games


def _write_index(index: IndexWriter, seconds: Seconds) -> None:
    """Add the games ``index`` holds to the pattern index, in a transaction of their own."""
    started = clock()
    with index.store.write() as conn:
        index.write(conn)
    seconds.add(PATTERN_INDEX, clock() - started)


def _mined_forest(frequent: set[str], games: int) -> Forest:
    """The book of the ``frequent`` prefixes: one variation per leaf."""
    has_child = {p[:-2] for p in frequent}
    forest = Forest(source=f"mined from {games} games", encoding="utf-8")
    forest.variations = [Variation(p, "b", Corner.TOP_RIGHT, False, 0, "", (), False)
                         for p in sorted(frequent) if p not in has_child]
    return forest


def _credit(conn: WriteConnection, store: Store, pid: int, games: dict[str, Held], claimed: set[str],
            before: InMemoryBook | None, statistics: tuple[Statistic[Any], ...], where: Workers,
            report: LearnReport) -> None:
    """The second pass: the claimed games (and those moved from ``before``) credited, their rows written."""
    index = InMemoryBook.load(store, conn)
    writers: list[Writer[Any]] = [s.writer(store) for s in statistics]
    items = [(g.source, key, g.held, key not in claimed) for key, g in games.items()
             if key in claimed or before is not None]
    moved = [key for _, key, _, is_moved in items if is_moved]
    for writer in writers:
        if isinstance(writer, RefsStatisticWriter):
            writer.refs.replacing(moved)
    task = CreditHeld(index, before, statistics)
    seconds = report.seconds

    games_done = 0
    for credited, spent in fan_out(task, items, len(items), where, CHUNK_GAMES):
        seconds.merge(spent)
        for corners, credits in credited.games:
            report.corners += corners
            report.credits += credits
        started = clock()
        for writer, packed in zip(writers, credited.rows, strict=True):
            writer.add_packed(packed)
        seconds.add("adding rows", clock() - started)
        done_before, games_done = games_done, games_done + len(credited.games)
        if games_done // COMPACT_GAMES > done_before // COMPACT_GAMES:
            for statistic, writer in zip(statistics, writers, strict=True):
                started = clock()
                writer.compact(conn, pid)
                seconds.add(statistic.name, clock() - started)
    for statistic, writer in zip(statistics, writers, strict=True):
        started = clock()
        writer.write(conn, pid)
        seconds.add(statistic.name, clock() - started)


def mine(store: Store, paths: Iterable[Path | str], min_games: int, collection: str = "mined",
         profile: str | None = None, workers: int | None = None,
         progress: Callable[[int, int], None] | None = None,
         refs: bool = True, cluster: str | None = None, index: bool = False) -> tuple[LearnReport, FileReport | None]:
    """Build collection ``collection`` from the games in ``paths``; their results go to ``profile``.

    ``refs``: also keep the games behind each position (:mod:`joseki.book.gamerefs.read`). ``workers``:
    local worker processes (all cores when None); ``cluster``: the address of a Dask scheduler to run
    both passes on instead (:mod:`joseki.games.cluster`). ``index``: also add every 19x19 game read to the pattern
    index during the first pass (its report is the result's :attr:`~joseki.games.signals.LearnReport.index`).

    Nothing is written when no file holds a usable game (the book report is then None), nor a
    collection when no sequence was played in ``min_games`` games. Raises BadInput if ``min_games`` is
    below 1, or for both ``workers`` and ``cluster``.
    """
    if min_games < 1:
        raise BadInput("--min-games must be at least 1")
    where = Workers(workers, cluster)
    prepare(where)
    paths = list(paths)
    files = expand_games(paths)
    report = LearnReport(files=len(files))
    counter = PrefixCounter()
    indexer = IndexWriter(store) if index else None
    games = _first_pass(files, where, report, counter, progress, indexer, folders_of(paths) if index else None,
                        max(MINE_DEPTH, deepest_line(store)))
    if indexer is not None:
        report.index = finish_report(store, indexer.report, len(files))
    if not games:
        return report, None
    started = clock()
    frequent = counter.frequent(min_games)
    forest = _mined_forest(frequent, len(games))
    book = FileReport(forest.source, collection)
    digest = f"mined:{min_games}:" + node_id("".join(sorted(games))).to_bytes(8, "big", signed=True).hex()
    statistics = (RESULTS, CONTEXTS, *((Statistic(GAMES_BEHIND.name, RefsStep(MINE_DEPTH, always=False),
                                                  GAMES_BEHIND.writer),) if refs else ()))
    with store.write() as conn:
        pid = profile_id(conn, store, profile, create=True)
        assert pid is not None
        learnt = learnt_keys(conn, store, pid)
        before = InMemoryBook.load(store, conn) if not learnt.isdisjoint(games) else None
        if forest.variations:
            import_forest(conn, store, forest, collection, digest, True, book)
            keep_beyond(conn, store, collection, beyond_moves(counter.counts(), frequent, min_games))
        del counter, frequent
        claimed = claim_games(conn, store, pid, [(k, g.source, g.result) for k, g in games.items() if k not in learnt])
        report.seconds.add("book", clock() - started)
        _credit(conn, store, pid, games, claimed, before, statistics, where, report)
    report.learnt = len(claimed)
    report.duplicates += len(games) - len(claimed)
    return report, book
