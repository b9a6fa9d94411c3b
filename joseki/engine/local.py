"""Learning local outcomes: judge each game's corners with an engine and credit the verdicts to a profile.

The counterpart of :func:`joseki.games.learn.learn` for the local signal (:mod:`joseki.engine.judge`).
A game needs no result to be judged, only 19x19 and no handicap or setup stones. Each batch
is one transaction that also records its games as judged, so a second run over the same games
(same moves, :attr:`joseki.sgf.game.Game.key`) changes nothing, and a killed run leaves whole
batches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from joseki.book.importer import expand_paths
from joseki.book.learnt.outcomes import add_judged, claim_judged
from joseki.book.learnt.results import profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.store.database import Store
from joseki.core.errors import BadInput
from joseki.engine.gtp import EngineDied, EngineError, GtpError
from joseki.engine.judge import Judge, Verdict, local_credits
from joseki.games.learn import LearnReport, learn
from joseki.sgf.game import read_game

BATCH_GAMES = 200
SIGNALS = ("result", "local", "both")
"""What ``learn`` and ``match --learn`` credit: game results, local outcomes, or both."""


def check_signal(signal: str) -> str:
    """``signal`` if it is one of :data:`SIGNALS`, else ValueError."""
    if signal not in SIGNALS:
        raise BadInput(f"unknown signal {signal!r} (expected {', '.join(SIGNALS)})")
    return signal


@dataclass(slots=True)
class JudgeReport:
    """What a judging run did."""

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


def learn_local(store: Store, paths: Iterable[Path | str], profile: str | None = None,
                judge_command: str | None = None, progress: Callable[[int, int], None] | None = None,
                batch_games: int = BATCH_GAMES) -> JudgeReport:
    """Judge the corners of the games in ``paths`` and add the verdicts to ``profile`` (global when None).

    EngineError if the judge cannot start or dies.
    """
    files = [str(p) for p in expand_paths(paths)]
    report = JudgeReport(files=len(files))
    book = InMemoryBook.load(store)
    batch: list[tuple[str, str, list[Verdict]]] = []
    with Judge(judge_command) as judge:
        for done, path in enumerate(files, start=1):
            try:
                game = read_game(path)
            except ValueError:
                report.skipped["error"] += 1
                continue
            if game.size != 19 or game.handicap >= 2 or game.setup:
                report.skipped["board size" if game.size != 19 else "handicap"] += 1
                continue
            try:
                verdicts = judge.judge(book, game.moves)
            except EngineDied:
                raise
            except (EngineError, GtpError) as exc:
                report.skipped[f"judge refused: {exc}"[:80]] += 1
                continue
            batch.append((game.key, path, verdicts))
            if len(batch) >= batch_games:
                _write(store, profile, book, batch, report)
                batch = []
            if progress is not None:
                progress(done, len(files))
    _write(store, profile, book, batch, report)
    return report


def _write(store: Store, profile: str | None, book: InMemoryBook, batch: list[tuple[str, str, list[Verdict]]],
           report: JudgeReport) -> None:
    if not batch:
        return
    with store.write() as conn:
        pid = profile_id(conn, store, profile, create=True)
        assert pid is not None
        claimed = claim_judged(conn, store, pid, [(key, source) for key, source, _ in batch])
        fresh = [(key, source, verdicts) for key, source, verdicts in batch if key in claimed]
        seen: set[str] = set()
        chosen = []
        for key, source, verdicts in fresh:
            if key not in seen:
                seen.add(key)
                chosen.append((source, verdicts))
        add_judged(conn, store, pid, local_credits(book, [v for _, verdicts in chosen for v in verdicts]))
    report.duplicates += len(batch) - len(chosen)
    report.judged += len(chosen)
    for source, verdicts in chosen:
        report.verdicts[source] = verdicts
        report.corners += len(verdicts)
        report.margin += sum(v.margin for v in verdicts)


def learn_signals(store: Store, paths: Iterable[Path | str], profile: str | None, signal: str = "result",
                  workers: int | None = None, judge_command: str | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  batch_games: int = 500, cluster: str | None = None) -> tuple[LearnReport | None, JudgeReport | None]:
    """Learn game results, local outcomes, or both (:data:`SIGNALS`) from ``paths`` into ``profile``.

    ``cluster``: a Dask scheduler for learning the results (the judging runs here).
    """
    check_signal(signal)
    paths = list(paths)
    results = local = None
    if signal != "local":
        results = learn(store, paths, profile, workers, progress, batch_games, cluster=cluster)
    if signal != "result":
        local = learn_local(store, paths, profile, judge_command, progress, batch_games)
    return results, local


def local_json(r: JudgeReport) -> dict[str, object]:
    """A judging run's figures: games judged, corners judged, their mean margin for the corner's first player."""
    return {"files": r.files, "judged": r.judged, "duplicates": r.duplicates, "skipped": dict(r.skipped),
            "corners": r.corners, "mean_margin": round(r.margin / r.corners, 2) if r.corners else None}
