"""What learning credits a game with, and the statistics that keep it: game results, and judged corners.

:class:`ResultSignal`: a finished game's result, credited to each in-book step of each corner by the
player who chose it; its statistics (:data:`RESULT_STATISTICS`) are the results per node, the same by
whole-board context, and the games behind each position. Its games are claimed in ``learnt_game``.

:class:`LocalSignal`: each corner judged where its joseki ended by a judge the caller hands in
(:class:`joseki.games.judging.JudgeMaker`; every worker makes its own), the verdict credited the same
way; a game needs no result. Its one statistic is the judged outcomes per node; its games are
claimed in ``judged_game``.

A new statistic of game results is one more entry in :data:`RESULT_STATISTICS`: its per-game step
and its writer (:class:`joseki.games.pipeline.Statistic`).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from joseki.book.gamerefs.write import GameRefs, PackedRefs, RefsWriter, game_refs, pack_refs
from joseki.book.learnt.contexts import add_context_records
from joseki.book.learnt.outcomes import add_judged, claim_judged
from joseki.book.learnt.results import add_records, claim_games, drop_empty
from joseki.book.store.database import Store, WriteConnection
from joseki.core.priority import Record
from joseki.games.credit import (
    CONTEXT_ROW,
    NODE_ROW,
    add_local,
    changed,
    context_rows,
    local_credits,
    node_rows,
)
from joseki.games.judging import CornerJudge, JudgeMaker, Verdict
from joseki.games.pipeline import GameStep, GameView, Ledger, Seconds, Signal, Statistic, Taken, Writer
from joseki.sgf.game import Game

if TYPE_CHECKING:
    from joseki.games.indexing import IndexReport

Flat = tuple[int | str, ...]


@dataclass(slots=True)
class LearnReport:
    """What a learn run did with game results."""

    files: int = 0
    learnt: int = 0
    """Games learnt (new under the profile)."""
    duplicates: int = 0
    corners: int = 0
    """Corners of the learnt games credited to at least one book move."""
    credits: int = 0
    """Book moves credited, one per corner that played each."""
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[tuple[str, str]] = field(default_factory=list)
    skips: list[tuple[str, str]] = field(default_factory=list)
    """(file, reason) of every file skipped, unreadable ones included."""
    local: JudgeReport | None = None
    """What the local signal did, when the run judged the games' corners too (or only)."""
    index: IndexReport | None = None
    """What the pattern index took in, when the run indexed the games too (``--index``)."""
    seconds: Seconds = field(default_factory=Seconds, compare=False)
    """Seconds of each step of the run (:data:`joseki.games.pipeline.Seconds`)."""

    @property
    def usable(self) -> int:
        """Games read that could be learnt (new or duplicates): none means every input was bad."""
        return self.learnt + self.duplicates

    def skip(self, source: str, reason: str) -> None:
        """Count a file skipped for ``reason`` (``error: ...`` for an unreadable file)."""
        self.skips.append((source, reason[7:] if reason.startswith("error: ") else reason))
        if reason.startswith("error: "):
            self.errors.append((source, reason[7:]))
            self.skipped["error"] += 1
        else:
            self.skipped[reason] += 1


@dataclass(slots=True)
class JudgeReport:
    """What a learn run did with judged corners."""

    files: int = 0
    judged: int = 0
    """Games judged (new under the profile)."""
    duplicates: int = 0
    corners: int = 0
    """Corners judged (with at least one book step)."""
    margin: float = 0.0
    """Sum of the judged corners' margins for the corner's first player."""
    skipped: Counter[str] = field(default_factory=Counter)
    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)
    """Each judged file's verdicts."""


Sums = tuple[list[npt.NDArray[np.int64]], npt.NDArray[np.int64]]
"""Rows as numpy columns: the key columns, and the counts (a row of counts a key)."""


def summed(keys: Sequence[npt.NDArray[np.int64]], counts: npt.NDArray[np.int64], drop_empty: bool) -> Sums:
    """Rows with the same key summed: the columns ``keys`` of each distinct key and the sums of its rows of
    ``counts`` (four a row), in key order; with ``drop_empty``, the keys whose sums are all zero left out.

    Done at once with numpy when a batch is written or compacted: a run adds millions of rows, and a dict update
    a row was the parent's largest cost."""
    if not len(counts):
        return [column[:0] for column in keys], counts
    order = np.lexsort(tuple(reversed(keys)))
    ordered = [column[order] for column in keys]
    starts = np.zeros(len(order), np.bool_)
    starts[0] = True
    for column in ordered:
        starts[1:] |= column[1:] != column[:-1]
    first = np.flatnonzero(starts)
    sums = np.add.reduceat(counts[order], first, axis=0)
    if drop_empty:
        kept = sums.any(axis=1)
        first, sums = first[kept], sums[kept]
    return [column[first] for column in ordered], sums


def _with(held: Sums | None, keys: list[npt.NDArray[np.int64]], counts: npt.NDArray[np.int64]) -> Sums:
    """The rows ``keys`` and ``counts`` after the sums ``held`` (when some are)."""
    if held is None:
        return keys, counts
    return ([np.concatenate((a, b)) for a, b in zip(held[0], keys, strict=True)],
            np.concatenate((held[1], counts)))


def _flat(rows: Sequence[Flat]) -> list[int | str]:
    """A chunk of games' flat rows as one flat list."""
    return [value for game in rows for value in game]


class ResultsStep(GameStep[Flat]):
    """A game's record at each node its corners were credited to (moved from the book before, when it has one)."""

    def pack(self, rows: list[Flat]) -> list[array[int]]:
        return NodeWriter.pack(rows)

    def rows(self, game: GameView) -> Flat:
        new = node_rows(game.credited())
        if game.before is None:
            return new
        return changed(node_rows(game.credited_before()), new, NODE_ROW)


class ContextsStep(GameStep[Flat]):
    """A game's credits by whole-board context (moved from the book before, when it has one)."""

    def pack(self, rows: list[Flat]) -> tuple[list[str], list[array[int]]]:
        return ContextWriter.pack(rows)

    def rows(self, game: GameView) -> Flat:
        new = context_rows(game.credited(), game.moves)
        if game.before is None:
            return new
        return changed(context_rows(game.credited_before(), game.moves), new, CONTEXT_ROW)


@dataclass(frozen=True, slots=True)
class RefsStep(GameStep["GameRefs | None"]):
    """A game's facts and the nodes it reached, with the move that reached each.

    ``depth``: only the first this many steps of a corner are listed; ``always``: a game whose
    corners reached nothing still gets its facts written.
    """

    depth: int | None = None
    always: bool = True

    def rows(self, game: GameView) -> GameRefs | None:
        credited = game.credited()
        if not credited and not self.always:
            return None
        moves = [(c.play.corner, c.play.token_moves(len(c.credits) if self.depth is None
                                                    else min(self.depth, len(c.credits))))
                 for c in credited]
        return game_refs(game.facts(), moves, [[nid for nid, _ in c.credits] for c in credited])

    def pack(self, rows: list[GameRefs | None]) -> PackedRefs:
        return pack_refs(rows)


WORD_COLUMNS = (1, 2)
"""The columns of :class:`ContextWriter` that hold a context or a move, as its number in the writer's list of them."""
COUNT_TYPE = "h"
"""The array type a writer holds a game's counts in until written: a game counts a few corners at most."""


def _counts(columns: Sequence[array[int]]) -> npt.NDArray[np.int64]:
    """The four count columns as rows."""
    return np.stack([np.frombuffer(column, COUNT_TYPE) for column in columns], axis=1).astype(np.int64)


class NodeWriter(Writer[Flat]):
    """Sums the games' records per node, writes them (``node_stats``) and drops rows taken back to nothing.

    The rows are held as columns until written: the node ids, and the counts as :data:`COUNT_TYPE`; between
    writes, :meth:`compact` sums them (:attr:`held`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.columns = self.empty()
        self.held: Sums | None = None
        """The sums of the rows compacted since the last write."""

    @staticmethod
    def empty() -> list[array[int]]:
        """The columns, empty: node ids, then the counts."""
        return [array("q"), *(array(COUNT_TYPE) for _ in range(NODE_ROW - 1))]

    def add(self, rows: Flat) -> None:
        flat = cast("tuple[int, ...]", rows)
        for at, column in enumerate(self.columns):
            column.extend(flat[at::NODE_ROW])

    @staticmethod
    def pack(rows: Sequence[Flat]) -> list[array[int]]:
        """A chunk of games' rows as the writer's columns (in a worker: :meth:`add_packed` copies them)."""
        flat = _flat(rows)
        return [array(column.typecode, cast("list[int]", flat[at::NODE_ROW]))
                for at, column in enumerate(NodeWriter.empty())]

    def add_packed(self, packed: list[array[int]]) -> None:
        for column, part in zip(self.columns, packed, strict=True):
            column.extend(part)

    def _sums(self) -> Sums:
        """Every row since the last write, summed; the writer then holds none."""
        keys, counts = _with(self.held, [np.frombuffer(self.columns[0], np.int64)], _counts(self.columns[1:]))
        self.columns, self.held = self.empty(), None
        return summed(keys, counts, drop_empty=False)

    def compact(self, conn: WriteConnection, pid: int) -> None:
        self.held = self._sums()

    def write(self, conn: WriteConnection, pid: int) -> None:
        (nodes,), sums = self._sums()
        records = {nid: Record(*row) for nid, *row in zip(nodes.tolist(), *(c.tolist() for c in sums.T),
                                                          strict=True)}
        add_records(conn, self.store, pid, records)
        taken_back = [nid for nid, r in records.items() if min(r.games, r.wins, r.losses, r.draws) < 0]
        if taken_back:
            drop_empty(conn, self.store, pid, taken_back)


class ContextWriter(Writer[Flat]):
    """Sums the games' credits per (book line, context, move) and writes them (``context_stats``).

    The rows are held as columns until written: the parent ids, each context and move as a number
    (:attr:`words`), and the counts as :data:`COUNT_TYPE`; between writes, :meth:`compact` sums them
    (:attr:`held`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.words: dict[str, int] = {}
        """Each context and move met in the run, and its number."""
        self.names: list[str] = []
        """Each number's context or move."""
        self.columns = self.empty()
        self.held: Sums | None = None
        """The sums of the rows compacted since the last write, the (context, move) numbers as one key column."""

    @staticmethod
    def empty() -> list[array[int]]:
        """The columns, empty: parent ids, context and move numbers (:data:`WORD_COLUMNS`), then the counts."""
        return [array("q"), array("i"), array("i"), *(array(COUNT_TYPE) for _ in range(CONTEXT_ROW - 3))]

    def _number(self, word: str) -> int:
        number = self.words[word] = len(self.names)
        self.names.append(word)
        return number

    def add(self, rows: Flat) -> None:
        # (parent, context, move, four counts) a row
        words, number = self.words, self._number
        for at, column in enumerate(self.columns):
            if at in WORD_COLUMNS:
                column.extend([words[w] if w in words else number(w)
                               for w in cast("tuple[str, ...]", rows[at::CONTEXT_ROW])])
            else:
                column.extend(cast("tuple[int, ...]", rows[at::CONTEXT_ROW]))

    @staticmethod
    def pack(rows: Sequence[Flat]) -> tuple[list[str], list[array[int]]]:
        """A chunk of games' rows as the writer's columns (in a worker: :meth:`add_packed` copies them), each context
        and move as its number in the chunk's own list of them (given first)."""
        flat = _flat(rows)
        words: dict[str, int] = {}
        columns = []
        for at, column in enumerate(ContextWriter.empty()):
            values = flat[at::CONTEXT_ROW]
            if at in WORD_COLUMNS:
                values = [words.setdefault(cast(str, word), len(words)) for word in values]
            columns.append(array(column.typecode, cast("list[int]", values)))
        return list(words), columns

    def add_packed(self, packed: tuple[list[str], list[array[int]]]) -> None:
        names, columns = packed
        words, number = self.words, self._number
        ours = np.array([words[w] if w in words else number(w) for w in names], np.int32)
        for at, (column, part) in enumerate(zip(self.columns, columns, strict=True)):
            if at in WORD_COLUMNS:
                column.frombytes(ours[np.frombuffer(part, np.int32)].tobytes())
            else:
                column.extend(part)

    def _sums(self) -> Sums:
        """Every row since the last write, summed; the writer then holds none."""
        contexts = np.frombuffer(self.columns[1], np.int32).astype(np.int64)
        pairs = contexts << 32 | np.frombuffer(self.columns[2], np.int32)  # (context, move) as one key column
        keys, counts = _with(self.held, [np.frombuffer(self.columns[0], np.int64), pairs], _counts(self.columns[3:]))
        self.columns, self.held = self.empty(), None
        return summed(keys, counts, drop_empty=True)

    def compact(self, conn: WriteConnection, pid: int) -> None:
        self.held = self._sums()

    def write(self, conn: WriteConnection, pid: int) -> None:
        (parents, pairs), sums = self._sums()
        # in the order of the table's key (parent, context, move): SQLite's tree then takes them in sequence
        rank = np.empty(len(self.names), np.int64)
        rank[sorted(range(len(self.names)), key=self.names.__getitem__)] = np.arange(len(self.names))
        order = np.lexsort((rank[pairs & 0xFFFFFFFF], rank[pairs >> 32], parents))
        parents, pairs, sums = parents[order], pairs[order], sums[order]
        names, both = self.names, pairs.tolist()
        add_context_records(conn, self.store, pid, list(zip(parents.tolist(), [names[w >> 32] for w in both],
                                                            [names[w & 0xFFFFFFFF] for w in both],
                                                            *(c.tolist() for c in sums.T), strict=True)))


class RefsStatisticWriter(Writer["GameRefs | None"]):
    """The games behind each position (:class:`joseki.book.gamerefs.write.RefsWriter`)."""

    def __init__(self, store: Store) -> None:
        self.refs = RefsWriter(store)

    def add(self, rows: GameRefs | None) -> None:
        self.refs.add(rows)

    def add_packed(self, packed: PackedRefs) -> None:
        self.refs.add_packed(packed)

    def compact(self, conn: WriteConnection, pid: int) -> None:
        self.refs.prune(conn)

    def write(self, conn: WriteConnection, pid: int) -> None:
        self.refs.write(conn, pid)


RESULTS = Statistic("results", ResultsStep(), NodeWriter)
CONTEXTS = Statistic("contexts", ContextsStep(), ContextWriter)
GAMES_BEHIND = Statistic("games behind", RefsStep(), RefsStatisticWriter)
RESULT_STATISTICS: tuple[Statistic[Any], ...] = (RESULTS, CONTEXTS, GAMES_BEHIND)
"""What learning keeps of a game's result, in the order written: each entry a per-game step and its writer."""


@dataclass(frozen=True, slots=True)
class ResultSignal(Signal):
    """A finished game's result (module docstring)."""

    statistics: tuple[Statistic[Any], ...] = RESULT_STATISTICS
    name: str = "result"
    facts_name: str = "walk"

    def unusable(self, game: Game) -> str | None:
        return game.unusable()

    def facts(self, game: GameView) -> tuple[int, int]:
        """How many corners were credited, and how many book moves (one per corner that played each)."""
        credited = game.credited()
        return sum(bool(c.credits) for c in credited), sum(len(c.credits) for c in credited)

    def ledger(self, store: Store) -> ResultLedger:
        return ResultLedger(store, self.statistics)


class ResultLedger(Ledger):
    """Games learnt (``learnt_game``) and the report of a run's game results."""

    def __init__(self, store: Store, statistics: Sequence[Statistic[Any]]) -> None:
        super().__init__(store, statistics)
        self.report = LearnReport()

    def skip(self, source: str, reason: str) -> None:
        self.report.skip(source, reason)

    def claim(self, conn: WriteConnection, pid: int, batch: Sequence[Taken]) -> list[Taken]:
        unique: dict[str, Taken] = {}
        for taken in batch:
            if taken.key in unique:
                self.report.duplicates += 1
            else:
                unique[taken.key] = taken
        claimed = claim_games(conn, self.store, pid, [(k, t.source, t.result) for k, t in unique.items()])
        new = [t for k, t in unique.items() if k in claimed]
        self.report.duplicates += len(unique) - len(new)
        self.report.learnt += len(new)
        self.report.corners += sum(t.facts[0] for t in new)
        self.report.credits += sum(t.facts[1] for t in new)
        return new


class JudgedStep(GameStep["tuple[list[Verdict], list[tuple[int, ...]]]"]):
    """A game's verdicts and, for each, the node of each of its corner's in-book steps."""

    def rows(self, game: GameView) -> tuple[list[Verdict], list[tuple[int, ...]]]:
        assert game.verdicts is not None
        return game.verdicts, local_credits(game.book, game.verdicts)


class JudgedWriter(Writer["tuple[list[Verdict], list[tuple[int, ...]]]"]):
    """Adds the judged corners up per node, in the order judged, and writes them (``node_local``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.total: dict[int, list[float]] = {}

    def add(self, rows: tuple[list[Verdict], list[tuple[int, ...]]]) -> None:
        for verdict, nodes in zip(*rows, strict=True):
            add_local(self.total, verdict, nodes)

    def write(self, conn: WriteConnection, pid: int) -> None:
        total, self.total = self.total, {}
        add_judged(conn, self.store, pid, total)


JUDGED = Statistic("local outcomes", JudgedStep(), JudgedWriter)


@dataclass(slots=True)
class LocalSignal(Signal):
    """Each corner judged where its joseki ended (module docstring); its facts are the game's verdicts.

    ``judge`` makes the worker's judge, which runs for a chunk of games at a time.
    """

    judge: JudgeMaker
    statistics: tuple[Statistic[Any], ...] = (JUDGED,)
    name: str = "local"
    facts_name: str = "judge"
    running: CornerJudge | None = None
    """The worker's judge while a chunk is read (None when the signal is pickled, before any chunk)."""

    def open(self) -> None:
        Signal.open(self)  # a slotted dataclass is a new class: no argument-less super()
        self.running = self.judge()

    def close(self) -> None:
        if self.running is not None:
            self.running.close()
            self.running = None
        Signal.close(self)

    def unusable(self, game: Game) -> str | None:
        if game.size != 19:
            return "board size"
        if game.handicap >= 2 or game.setup:
            return "handicap"
        return None

    def facts(self, game: GameView) -> list[Verdict]:
        assert self.running is not None
        game.verdicts = self.running.judge(game.book, game.moves)
        return game.verdicts

    def ledger(self, store: Store) -> JudgedLedger:
        return JudgedLedger(store, self.statistics)


class JudgedLedger(Ledger):
    """Games judged (``judged_game``) and the report of a run's judged corners."""

    def __init__(self, store: Store, statistics: Sequence[Statistic[Any]]) -> None:
        super().__init__(store, statistics)
        self.report = JudgeReport()

    def skip(self, source: str, reason: str) -> None:
        self.report.skipped["error" if reason.startswith("error: ") else reason] += 1

    def claim(self, conn: WriteConnection, pid: int, batch: Sequence[Taken]) -> list[Taken]:
        claimed = claim_judged(conn, self.store, pid, [(t.key, t.source) for t in batch])
        seen: set[str] = set()
        new = []
        for taken in batch:
            if taken.key in claimed and taken.key not in seen:
                seen.add(taken.key)
                new.append(taken)
        self.report.duplicates += len(batch) - len(new)
        self.report.judged += len(new)
        for taken in new:
            self.report.verdicts[taken.source] = taken.facts
            self.report.corners += len(taken.facts)
            self.report.margin += sum(v.margin for v in taken.facts)
        return new
