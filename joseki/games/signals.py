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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from joseki.book.gamerefs.write import GameRefs, RefsWriter, game_refs
from joseki.book.learnt.contexts import ContextKey, add_context_records
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


def add_flat(total: dict[Any, list[int]], flat: Flat, width: int, keyed: int) -> None:
    """Add each row of ``flat`` (``width`` values, the first ``keyed`` its key, then four counts) into ``total``."""
    keys = flat[0::width] if keyed == 1 else zip(*[flat[k::width] for k in range(keyed)], strict=True)
    counts = cast("tuple[int, ...]", flat)
    get = total.get
    for key, games, wins, losses, draws in zip(keys, counts[keyed::width], counts[keyed + 1::width],
                                               counts[keyed + 2::width], counts[keyed + 3::width], strict=True):
        kept = get(key)
        if kept is None:
            total[key] = [games, wins, losses, draws]
        else:
            kept[0] += games
            kept[1] += wins
            kept[2] += losses
            kept[3] += draws


class ResultsStep(GameStep[Flat]):
    """A game's record at each node its corners were credited to (moved from the book before, when it has one)."""

    def rows(self, game: GameView) -> Flat:
        new = node_rows(game.credited())
        if game.before is None:
            return new
        return changed(node_rows(game.credited_before()), new, NODE_ROW)


class ContextsStep(GameStep[Flat]):
    """A game's credits by whole-board context (moved from the book before, when it has one)."""

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
        moves = [(c.play.corner, c.play.token_moves(len(c.credits) if self.depth is None else self.depth))
                 for c in credited]
        return game_refs(game.facts(), moves, [[nid for nid, _ in c.credits] for c in credited])


class NodeWriter(Writer[Flat]):
    """Sums the games' records per node, writes them (``node_stats``) and drops rows taken back to nothing."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.total: dict[int, list[int]] = {}

    def add(self, rows: Flat) -> None:
        add_flat(self.total, rows, NODE_ROW, 1)

    def write(self, conn: WriteConnection, pid: int) -> None:
        records = {nid: Record(*row) for nid, row in self.total.items()}
        self.total = {}
        add_records(conn, self.store, pid, records)
        taken_back = [nid for nid, r in records.items() if min(r.games, r.wins, r.losses, r.draws) < 0]
        if taken_back:
            drop_empty(conn, self.store, pid, taken_back)


class ContextWriter(Writer[Flat]):
    """Sums the games' credits per (book line, context, move) and writes them (``context_stats``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.total: dict[ContextKey, list[int]] = {}

    def add(self, rows: Flat) -> None:
        add_flat(self.total, rows, CONTEXT_ROW, 3)  # (parent, context, move, four counts) a row

    def write(self, conn: WriteConnection, pid: int) -> None:
        records = {key: Record(*row) for key, row in self.total.items() if any(row)}
        self.total = {}
        add_context_records(conn, self.store, pid, records)


class RefsStatisticWriter(Writer["GameRefs | None"]):
    """The games behind each position (:class:`joseki.book.gamerefs.write.RefsWriter`)."""

    def __init__(self, store: Store) -> None:
        self.refs = RefsWriter(store)

    def add(self, rows: GameRefs | None) -> None:
        self.refs.add(rows)

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
