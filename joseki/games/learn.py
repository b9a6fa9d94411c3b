"""Learning from finished games: credit each in-book step of each corner to the player who chose it.

Worker processes read the games and find their credits (:mod:`joseki.games.credit`) against an
in-memory index of the book; the parent writes them in batches, one transaction per batch
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

from sqlalchemy import select

from joseki.book.importer import expand_paths
from joseki.book.stats import add_records, aggregate, claim_games, profile_id
from joseki.book.store import Store
from joseki.core.corners import corner_tables
from joseki.games.credit import game_credits
from joseki.games.pool import worker_pool
from joseki.sgf.game import read_learnable
from joseki.sgf.gcpause import paused_gc

BATCH_GAMES = 500


@dataclass(slots=True)
class BookIndex:
    """The book in memory, for fast membership tests: node ids, and position keys to node ids."""

    ids: set[int] = field(default_factory=set)
    by_key: dict[int, int] = field(default_factory=dict)

    @classmethod
    def load(cls, store: Store) -> BookIndex:
        n, nb = store.tables["node"], store.tables["node_book"]
        index = cls()
        query = (select(n.c.id, n.c.position_key).where(select(nb.c.node_id).where(nb.c.node_id == n.c.id).exists())
                 .order_by(n.c.depth.desc(), n.c.id))
        with store.read() as conn:
            for nid, key in conn.execute(query):
                index.ids.add(nid)
                if key is not None:
                    index.by_key[key] = nid
        return index


@dataclass(slots=True)
class GameOutcome:
    """What a worker found in one file."""

    source: str
    key: str | None = None
    result: str = ""
    skipped: str | None = None
    credits: list[tuple[int, str]] = field(default_factory=list)


@dataclass(slots=True)
class LearnReport:
    """What a learn run did."""

    files: int = 0
    learnt: int = 0
    duplicates: int = 0
    credits: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[tuple[str, str]] = field(default_factory=list)


_INDEX: BookIndex | None = None


def _init_worker(url: str) -> None:
    global _INDEX
    store = Store(url, upgrade=False)
    _INDEX = BookIndex.load(store)
    store.close()


def examine(path: str, index: BookIndex | None = None) -> GameOutcome:
    """Read one game and find its credits (runs in a worker)."""
    index = index or _INDEX
    assert index is not None
    out = GameOutcome(path)
    game, out.skipped = read_learnable(path)
    if game is None or out.skipped is not None:
        out.result = game.result if game else ""
        return out
    out.result = game.result
    tables = corner_tables(game.moves).values()
    out.key = game.key
    out.credits = game_credits(tables, game.winner, index.ids.__contains__, index.by_key.get)
    return out


def examine_all(store: Store, files: list[str], workers: int | None = None,
                index: BookIndex | None = None) -> Iterator[GameOutcome]:
    """Examine ``files`` with worker processes (in this process when there are few files)."""
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(files) < 50:
        index = index or BookIndex.load(store)
        for f in files:
            yield examine(f, index)
        return
    with worker_pool(workers, _init_worker, (store.url,)) as pool:
        yield from pool.imap(examine, files, chunksize=32)


def learn(store: Store, paths: Iterable[Path | str], profile: str | None = None, workers: int | None = None,
          progress: Callable[[int, int], None] | None = None, batch_games: int = BATCH_GAMES) -> LearnReport:
    """Learn the results of the games in ``paths`` into ``profile`` (the global statistics when None)."""
    files = [str(p) for p in expand_paths(paths)]
    report = LearnReport(files=len(files))
    with store.write() as conn:
        pid = profile_id(conn, store, profile, create=True)
    assert pid is not None
    batch: list[GameOutcome] = []
    done = 0
    with paused_gc():
        for outcome in examine_all(store, files, workers):
            done += 1
            if outcome.skipped is not None:
                if outcome.skipped.startswith("error: "):
                    report.errors.append((outcome.source, outcome.skipped[7:]))
                    report.skipped["error"] += 1
                else:
                    report.skipped[outcome.skipped] += 1
            else:
                batch.append(outcome)
            if len(batch) >= batch_games:
                _write(store, pid, batch, report)
                batch = []
            if progress is not None:
                progress(done, len(files))
        _write(store, pid, batch, report)
    return report


def _write(store: Store, pid: int, batch: list[GameOutcome], report: LearnReport) -> None:
    """One transaction: claim the batch's games, add the credits of those not learnt before."""
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
        claimed = claim_games(conn, store, pid, [(k, o.source, o.result) for k, o in unique.items()])
        credits = [c for k in claimed for c in unique[k].credits]
        add_records(conn, store, pid, aggregate(credits))
    report.duplicates += len(unique) - len(claimed)
    report.learnt += len(claimed)
    report.credits += len(credits)
