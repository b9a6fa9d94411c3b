"""Learning from finished games: credit each in-book step of each corner to the player who chose it.

Worker processes read the games and find their credits (:mod:`joseki.games.credit`) against an
in-memory index of the book (also by each corner's whole-board context, :mod:`joseki.games.context`);
the parent writes them in batches, one transaction per batch
that also records the batch's games as learnt. A killed run therefore leaves whole batches
learnt and nothing half-written, and running it again learns the rest. A game already learnt
under the profile (same moves and result, :attr:`joseki.sgf.game.Game.key`) is a duplicate and
changes nothing.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from joseki.book.gamerefs.write import GameInfo, GameRefs, corner_moves, game_refs, record_games
from joseki.book.learnt.contexts import ContextKey, add_context_records
from joseki.book.learnt.results import add_records, claim_games, profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.store.database import Store
from joseki.core.corners import corner_tables
from joseki.core.priority import Record, summed
from joseki.games.context import as_records, table_contexts
from joseki.games.credit import game_records, table_corners
from joseki.games.pool import imap_bounded, worker_pool
from joseki.sgf.archive import Source, expand_games, source_name, sources
from joseki.sgf.game import read_learnable

BATCH_GAMES = 500


@dataclass(slots=True)
class GameOutcome:
    """What a worker found in one file."""

    source: str
    key: str | None = None
    result: str = ""
    skipped: str | None = None
    records: dict[int, Record] = field(default_factory=dict)
    """Each credited node's record from this game (:func:`joseki.games.credit.game_records`)."""
    corners: int = 0
    """Corners of the game with at least one step in the book."""
    context_records: dict[ContextKey, Record] = field(default_factory=dict)
    """The same credits by whole-board context (:mod:`joseki.games.context`)."""
    refs: GameRefs | None = None
    """The game's facts and the nodes it reached, for the games behind a position
    (:mod:`joseki.book.gamerefs.write`)."""


@dataclass(slots=True)
class LearnReport:
    """What a learn run did."""

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


_INDEX: InMemoryBook | None = None
_REFS = True


def _init_worker(url: str, refs: bool = True) -> None:
    global _INDEX, _REFS
    _REFS = refs
    store = Store(url, upgrade=False)
    _INDEX = InMemoryBook.load(store)
    store.close()


def examine(path: Source, index: InMemoryBook | None = None, refs: bool | None = None) -> GameOutcome:
    """Read one game and find its credits, and with ``refs`` the nodes it reached (runs in a worker)."""
    index = index or _INDEX
    refs = _REFS if refs is None else refs
    assert index is not None
    out = GameOutcome(source_name(path))
    game, out.skipped = read_learnable(path)
    if game is None or out.skipped is not None:
        out.result = game.result if game else ""
        return out
    out.result = game.result
    out.key = game.key
    tables = corner_tables(game.moves).values()
    reached: list[list[int]] | None = [] if refs else None
    by_context: dict[ContextKey, list[int]] = {}
    out.records, out.corners = game_records(index, table_corners(tables), game.winner, reached,
                                            table_contexts(game.moves, tables), by_context)
    out.context_records = as_records(by_context)
    if reached is not None:
        out.refs = game_refs(GameInfo.of(game, out.key), corner_moves(tables, [len(r) for r in reached]), reached)
    return out


def examine_all(store: Store, files: list[str], workers: int | None = None,
                index: InMemoryBook | None = None, refs: bool = True,
                cluster: str | None = None) -> Iterator[GameOutcome]:
    """Examine ``files`` with worker processes (in this process when there are few files), or on a Dask cluster."""
    if cluster is not None:
        from joseki.games.cluster import map_games

        yield from map_games(cluster, examine, sources(files), index or InMemoryBook.load(store), refs)
        return
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(files) < 50:
        index = index or InMemoryBook.load(store)
        for f in sources(files):
            yield examine(f, index, refs)
        return
    with worker_pool(workers, _init_worker, (store.url, refs)) as pool:
        yield from imap_bounded(pool, examine, sources(files), chunksize=32)


def learn(store: Store, paths: Iterable[Path | str], profile: str | None = None, workers: int | None = None,
          progress: Callable[[int, int], None] | None = None, batch_games: int = BATCH_GAMES,
          refs: bool = True, cluster: str | None = None) -> LearnReport:
    """Learn the results of the games in ``paths`` into ``profile`` (the global statistics when None).

    ``refs``: also keep the games behind each position (:mod:`joseki.book.gamerefs.read`). ``cluster``: the
    address of a Dask scheduler to run the per-game work on (:mod:`joseki.games.cluster`).
    """
    files = expand_games(paths)
    report = LearnReport(files=len(files))
    batch: list[GameOutcome] = []
    for done, outcome in enumerate(examine_all(store, files, workers, refs=refs, cluster=cluster), start=1):
        if outcome.skipped is not None:
            report.skip(outcome.source, outcome.skipped)
        else:
            batch.append(outcome)
        if len(batch) >= batch_games:
            _write(store, profile, batch, report)
            batch = []
        if progress is not None:
            progress(done, len(files))
    _write(store, profile, batch, report)
    return report


def _write(store: Store, profile: str | None, batch: list[GameOutcome], report: LearnReport) -> None:
    """One transaction: claim the batch's games, add the credits of those not learnt before.

    The profile is created with the first batch, so a run that reads no usable game writes nothing.
    """
    if not batch:
        return
    unique: dict[str, GameOutcome] = {}
    for o in batch:
        assert o.key is not None
        if o.key in unique:
            report.duplicates += 1
        else:
            unique[o.key] = o
    with store.write() as conn:
        pid = profile_id(conn, store, profile, create=True)
        assert pid is not None
        claimed = claim_games(conn, store, pid, [(k, o.source, o.result) for k, o in unique.items()])
        add_records(conn, store, pid, summed(unique[k].records for k in claimed))
        add_context_records(conn, store, pid, summed(unique[k].context_records for k in claimed))
        record_games(conn, store, pid, [r for k in sorted(claimed) if (r := unique[k].refs) is not None])
    report.duplicates += len(unique) - len(claimed)
    report.learnt += len(claimed)
    report.corners += sum(unique[k].corners for k in claimed)
    report.credits += sum(r.corners for k in claimed for r in unique[k].records.values())


