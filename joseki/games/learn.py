"""Learning from games: credit each in-book step of each corner to the player who chose it, by each signal.

``signal``: ``result`` credits the game's result (:class:`joseki.games.signals.ResultSignal`), ``local``
each corner's verdict from a judge the caller hands in (:class:`joseki.games.signals.LocalSignal`; the
command line hands in GNU Go's, :class:`joseki.engine.judge.JudgeCommand`), ``both`` both, from one
reading of each game. The games are read in the fan-out's workers (:mod:`joseki.games.fanout`: this
process, local worker processes, or a Dask cluster) against an in-memory index of the book; the
parent writes them in batches, one transaction per batch that also records the batch's games as
learnt (or judged). A killed run therefore leaves whole batches learnt and nothing half-written, and
running it again learns the rest. A game already learnt under the profile (same moves and result,
:attr:`joseki.sgf.game.Game.key`) is a duplicate and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from joseki.book.query.inmemory import InMemoryBook
from joseki.book.store.database import Store
from joseki.core.errors import BadInput
from joseki.games.fanout import Workers, prepare
from joseki.games.indexing import IndexLedger, finish_report, folders_of, index_signal
from joseki.games.judging import JudgeMaker
from joseki.games.pipeline import BatchWriter, ReadGames, Signal, learn_games
from joseki.games.signals import (
    CONTEXTS,
    RESULT_STATISTICS,
    RESULTS,
    JudgedLedger,
    JudgeReport,
    LearnReport,
    LocalSignal,
    ResultLedger,
    ResultSignal,
)
from joseki.sgf.archive import expand_games, sources

BATCH_GAMES = 5000
"""Games a batch of learning writes in one transaction: fewer, larger batches sum more rows before writing (the
same book lines and contexts come back in every batch), and a killed run loses at most one batch."""
SIGNALS = ("result", "local", "both")
"""What ``learn`` and ``match --learn`` credit: game results, local outcomes, or both."""


def check_signal(signal: str) -> str:
    """``signal`` if it is one of :data:`SIGNALS`; Raises BadInput if not."""
    if signal not in SIGNALS:
        raise BadInput(f"unknown signal {signal!r} (expected {', '.join(SIGNALS)})")
    return signal


def signals_for(signal: str, judge: JudgeMaker | None, refs: bool = True) -> tuple[Signal, ...]:
    """The signals a run credits; Raises BadInput for an unknown signal, or a local one without a judge."""
    check_signal(signal)
    chosen: list[Signal] = []
    if signal != "local":
        chosen.append(ResultSignal(RESULT_STATISTICS if refs else (RESULTS, CONTEXTS)))
    if signal != "result":
        if judge is None:
            raise BadInput(f"--signal {signal} needs a judge")
        chosen.append(LocalSignal(judge))
    return tuple(chosen)


def learn(store: Store, paths: Iterable[Path | str], profile: str | None = None, workers: int | None = None,
          progress: Callable[[int, int], None] | None = None, batch_games: int | None = None,
          refs: bool = True, cluster: str | None = None, *, signal: str = "result",
          judge: JudgeMaker | None = None, index: bool = False) -> LearnReport:
    """Learn the games in ``paths`` (files, folders, archives) into ``profile`` (the global statistics when None).

    ``batch_games``: games a transaction writes (:data:`BATCH_GAMES` when None). ``signal``: what to credit
    (:data:`SIGNALS`; ``local`` and ``both`` need ``judge``, and their report is the result's
    :attr:`~joseki.games.signals.LearnReport.local`). ``refs``: also keep the games behind each
    position (:mod:`joseki.book.gamerefs.read`). ``workers``: local worker processes (all cores when None);
    ``cluster``: the address of a Dask scheduler to run the per-game work on instead (:mod:`joseki.games.cluster`).
    ``index``: also add every 19x19 game read to the pattern index (:mod:`joseki.games.indexing`; its report is
    the result's :attr:`~joseki.games.signals.LearnReport.index`).
    Raises BadInput for an unknown signal, a local one without a judge, or both ``workers`` and ``cluster``;
    a judge's own error if it cannot start or dies.
    """
    paths = list(paths)
    chosen = signals_for(signal, judge, refs)
    if index:
        chosen = (*chosen, index_signal(folders_of(paths)))
    where = Workers(workers, cluster)
    prepare(where)
    files = expand_games(paths)
    writer = BatchWriter(store, profile, chosen, batch_games or BATCH_GAMES)
    task = ReadGames(InMemoryBook.load(store), chosen)
    seconds = learn_games(sources(files), len(files), task, writer, where, progress)
    report = LearnReport(files=len(files))
    for ledger in writer.ledgers:
        if isinstance(ledger, ResultLedger):
            report = ledger.report
            report.files = len(files)
        elif isinstance(ledger, JudgedLedger):
            ledger.report.files = len(files)
            report.local = ledger.report
    for ledger in writer.ledgers:
        if isinstance(ledger, IndexLedger):
            report.index = finish_report(store, ledger.report, len(files))
    report.seconds = seconds
    return report


def local_json(r: JudgeReport) -> dict[str, object]:
    """A judging run's figures: games judged, corners judged, their mean margin for the corner's first player."""
    return {"files": r.files, "judged": r.judged, "duplicates": r.duplicates, "skipped": dict(r.skipped),
            "corners": r.corners, "mean_margin": round(r.margin / r.corners, 2) if r.corners else None}
