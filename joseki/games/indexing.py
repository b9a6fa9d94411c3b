"""Building the pattern index: each game read and replayed in a worker, the rows written in batches by the parent.

:func:`index_game` is the pure per-game step (a game in, its index row out) and
:func:`joseki.book.patterns.storage.write_games` the batch writer; a learning pipeline calls the two.
:func:`index_games` runs them for ``joseki index``: the games read and replayed in a pool of spawned
workers (:mod:`joseki.games.pool`), one transaction per batch, so a killed run keeps whole batches only
and a second run adds only what is missing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from joseki.book.patterns.reads import stored_bytes
from joseki.book.patterns.storage import IndexedGame, compact, write_games
from joseki.book.store.database import Store
from joseki.core.errors import BadInput
from joseki.core.movelist import SIZE, encode, replay
from joseki.games.fanout import Workers, fan_out
from joseki.games.pool import chunks
from joseki.sgf.archive import Source, expand_games, source_name, sources
from joseki.sgf.game import Game
from joseki.sgf.gameevent import read_with_event


def index_game(game: Game, root: str, event: str = "") -> IndexedGame:
    """The index row of ``game``: its facts, its file relative to folder ``root``, its moves with captures.

    Raises BadInput for a board other than 19x19 or a stone placed on another.
    """
    if game.size != SIZE:
        raise BadInput(f"board size {game.size} (the pattern index holds 19x19 games)")
    moves = replay(game.moves, game.stones)
    overwritten = moves.overwrite()
    if overwritten is not None:
        raise BadInput(f"move {overwritten} is played on a stone (the pattern index needs legal moves)")
    record = encode(moves)
    source = relative_source(game.source, root)
    winner = game.winner or ""
    return IndexedGame(game.key, root, source, game.black, game.white, game.black_rank, game.white_rank, game.date,
                       game.result, winner, event, len(game.moves), record)


def relative_source(name: str, root: str) -> str:
    """``name`` relative to folder ``root`` when inside it (archive members too), else as given."""
    full = os.path.abspath(name)
    try:
        rel = os.path.relpath(full, root)
    except ValueError:
        return full
    return full if rel.startswith("..") else rel.replace(os.sep, "/")


Outcome = tuple[str, IndexedGame | None, str | None]
"""A game's name, its row, and why it has none."""


def index_source(item: tuple[Source, str]) -> Outcome:
    """Worker: read the game at ``item``'s source and index it against ``item``'s root folder."""
    source, root = item
    name = source_name(source)
    try:
        game, event = read_with_event(source)
        return name, index_game(game, root, event), None
    except ValueError as exc:
        return name, None, str(exc)


INDEX_CHUNK = 64
"""Games a worker indexes at a time."""


def index_chunk(part: list[tuple[Source, str]]) -> list[Outcome]:
    """Worker: :func:`index_source` of each game of a chunk (the task :func:`~joseki.games.fanout.fan_out` runs)."""
    return [index_source(item) for item in part]


@dataclass(slots=True)
class IndexReport:
    """What ``joseki index`` did: files read, games added, already there, skipped (with why), and the index's games
    and bytes (its segments' arrays) after it."""

    files: int = 0
    added: int = 0
    known: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    indexed: int = 0
    index_bytes: int = 0

    def as_json(self) -> dict[str, object]:
        return {"files": self.files, "added": self.added, "already_indexed": self.known,
                "skipped": [{"file": f, "reason": r} for f, r in self.skipped],
                "indexed": self.indexed, "index_bytes_per_game": round(self.index_bytes / max(1, self.indexed), 1)}


def roots_of(paths: Sequence[Path | str]) -> list[tuple[str, str]]:
    """Each game of ``paths`` with the folder its source is kept relative to: a folder given, or a file's own."""
    found: list[tuple[str, str]] = []
    for path in paths:
        p = Path(path)
        if not p.exists():
            raise BadInput(f"{path}: no such file or folder")
        root = os.path.abspath(p if p.is_dir() else p.parent)
        found.extend((name, root) for name in expand_games([p]))
    return found


def index_games(store: Store, paths: Sequence[Path | str], *, workers: int | None = None, batch: int = 2000,
                progress: Callable[[int, int], None] | None = None, cluster: str | None = None,
                compacted: bool = True) -> IndexReport:
    """Index the games of ``paths`` (files, archives, folders) into ``store``'s pattern index.

    ``workers``: processes (1: in this one). ``cluster``: the address of a Dask scheduler to read and replay
    the games on instead (:mod:`joseki.games.cluster`; the batches are written here, in the same order).
    ``progress(done, total)`` is told after each batch. ``compacted``: merge the segments into one at the end
    when they fit (:func:`joseki.book.patterns.storage.compact`).
    """
    named = roots_of(paths)
    report = IndexReport(files=len(named))
    roots = dict(named)
    items: Iterable[tuple[Source, str]] = ((s, roots[source_name(s)]) for s in sources([n for n, _ in named]))
    where = Workers(processes=None if cluster is not None else workers, cluster=cluster)
    outcomes = (o for part in fan_out(index_chunk, items, len(named), where, INDEX_CHUNK) for o in part)
    done = _write(store, outcomes, report, batch, len(named), progress)
    assert done == len(named)
    if compacted and report.added:
        with store.write() as conn:
            compact(conn)
    with store.read() as conn:
        report.indexed, report.index_bytes = stored_bytes(conn)
    return report


def _write(store: Store, outcomes: Iterable[Outcome], report: IndexReport, batch: int, total: int,
           progress: Callable[[int, int], None] | None) -> int:
    done = 0
    for part in chunks(outcomes, batch):
        games = [g for _, g, _ in part if g is not None]
        report.skipped.extend((name, why) for name, g, why in part if g is None and why is not None)
        with store.write() as conn:
            added = write_games(conn, store, games)
        report.added += added
        report.known += len({g.key for g in games}) - added
        done += len(part)
        if progress is not None:
            progress(done, total)
    return done
