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
from typing import Any

from joseki.book.patterns.reads import stored_bytes
from joseki.book.patterns.storage import IndexedGame, compact, with_keys, write_games
from joseki.book.store.database import Store, WriteConnection
from joseki.core.errors import BadInput
from joseki.core.movelist import SIZE, encode, encode_replayed, replay
from joseki.games.fanout import Workers, fan_out, prepare
from joseki.games.pipeline import GameStep, GameView, Ledger, Signal, Statistic, Taken, Writer
from joseki.games.pool import chunks
from joseki.sgf.archive import Source, expand_games, source_name, sources
from joseki.sgf.game import Game, read_game


def index_game(game: Game, root: str, event: str | None = None) -> IndexedGame:
    """The index row of ``game``: its facts, its file relative to folder ``root``, its moves with captures.

    ``event``: the event to record (default: the game's own ``EV``). Raises BadInput for a board other than
    19x19 or a stone placed on another.
    """
    if game.size != SIZE:
        raise BadInput(f"board size {game.size} (the pattern index holds 19x19 games)")
    if game.captures is not None:  # replayed when read, with its captures: a legal game
        record = encode_replayed(game.moves, game.stones, game.captures)
    else:
        moves = replay(game.moves, game.stones)
        overwritten = moves.overwrite()
        if overwritten is not None:
            raise BadInput(f"move {overwritten} is played on a stone (the pattern index needs legal moves)")
        record = encode(moves)
    source = relative_source(game.source, root)
    winner = game.winner or ""
    return IndexedGame(game.key, root, source, game.black, game.white, game.black_rank, game.white_rank, game.date,
                       game.result, winner, game.event if event is None else event, len(game.moves), record)


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
        return name, index_game(read_game(source), root), None
    except ValueError as exc:
        return name, None, str(exc)


INDEX_BATCH = 2000
"""Games the index adds in one transaction."""
INDEX_CHUNK = 64
"""Games a worker indexes at a time."""


def index_chunk(part: list[tuple[Source, str]]) -> list[Outcome]:
    """Worker: :func:`index_source` of each game of a chunk, with their keys (the task
    :func:`~joseki.games.fanout.fan_out` runs)."""
    outcomes = [index_source(item) for item in part]
    keyed = iter(with_keys([g for _, g, _ in outcomes if g is not None]))
    return [(name, None if g is None else next(keyed), why) for name, g, why in outcomes]


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


def index_games(store: Store, paths: Sequence[Path | str], *, workers: int | None = None, batch: int = INDEX_BATCH,
                progress: Callable[[int, int], None] | None = None, cluster: str | None = None,
                compacted: bool = True) -> IndexReport:
    """Index the games of ``paths`` (files, archives, folders) into ``store``'s pattern index.

    ``workers``: processes (1: in this one). ``cluster``: the address of a Dask scheduler to read and replay
    the games on instead (:mod:`joseki.games.cluster`; the batches are written here, in the same order).
    ``progress(done, total)`` is told after each batch. ``compacted``: merge the segments into one at the end
    when they fit (:func:`joseki.book.patterns.storage.compact`).
    """
    where = Workers(processes=None if cluster is not None else workers, cluster=cluster)
    prepare(where)
    named = roots_of(paths)
    report = IndexReport(files=len(named))
    roots = dict(named)
    items: Iterable[tuple[Source, str]] = ((s, roots[source_name(s)]) for s in sources([n for n, _ in named]))
    outcomes = (o for part in fan_out(index_chunk, items, len(named), where, INDEX_CHUNK) for o in part)
    done = _write(store, outcomes, report, batch, len(named), progress)
    assert done == len(named)
    return finish_report(store, report, len(named), compacted)


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


# The index as learning keeps it: ``learn --index`` and ``mine --index`` add their games to the index on the
# learning pipeline, as one more signal (every game of 19x19 is indexed, whatever its result).

def folders_of(paths: Sequence[Path | str]) -> tuple[str, ...]:
    """The folders games of ``paths`` are kept relative to in the index: a folder given, or a file's own."""
    return tuple(sorted({os.path.abspath(p if Path(p).is_dir() else Path(p).parent) for p in paths},
                        key=len, reverse=True))


def root_of(name: str, folders: Sequence[str]) -> str:
    """The folder of ``folders`` (longest first) that holds game ``name``; its own folder if none does."""
    full = os.path.abspath(name)
    for folder in folders:
        if full.startswith(folder.rstrip(os.sep) + os.sep):
            return folder
    return os.path.dirname(full)


Indexed = IndexedGame | tuple[str, str]
"""A game's index row, or (its name, why the index cannot hold it)."""


def index_row(game: Game, name: str, folders: Sequence[str]) -> Indexed:
    """:func:`index_game` of ``game`` (read from ``name``), or why the index cannot hold it."""
    try:
        return index_game(game, root_of(name, folders))
    except BadInput as exc:
        return name, str(exc)


def keyed(rows: Sequence[Indexed]) -> list[Indexed]:
    """A chunk's ``rows`` with each game's keys worked out (:func:`~joseki.book.patterns.storage.with_keys`)."""
    done = iter(with_keys([r for r in rows if isinstance(r, IndexedGame)]))
    return [next(done) if isinstance(r, IndexedGame) else r for r in rows]


@dataclass(frozen=True, slots=True)
class IndexStep(GameStep[Indexed]):
    """The index's per-game step: the game's row, kept relative to the first of ``folders`` holding it."""

    folders: tuple[str, ...]

    def rows(self, game: GameView) -> Indexed:
        assert game.game is not None
        return index_row(game.game, game.source, self.folders)

    def finish(self, rows: list[Indexed]) -> list[Indexed]:
        return keyed(rows)


class IndexWriter(Writer[Indexed]):
    """Adds each batch's games to the index (:func:`~joseki.book.patterns.storage.write_games`), counting them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: list[IndexedGame] = []
        self.report = IndexReport()

    def add(self, rows: Indexed) -> None:
        if isinstance(rows, IndexedGame):
            self.games.append(rows)
        else:
            self.report.skipped.append(rows)

    def write(self, conn: WriteConnection, pid: int = 0) -> None:
        games, self.games = self.games, []
        added = write_games(conn, self.store, games)
        self.report.added += added
        self.report.known += len({g.key for g in games}) - added


PATTERN_INDEX = "pattern index"
"""The name the index's seconds are counted under."""


@dataclass(frozen=True, slots=True)
class IndexSignal(Signal):
    """Every 19x19 game read goes into the pattern index (whether or not it has a result)."""

    statistics: tuple[Statistic[Any], ...]
    name: str = "index"
    facts_name: str = PATTERN_INDEX

    def unusable(self, game: Game) -> str | None:
        return None if game.size == SIZE else f"board size {game.size} (the pattern index holds 19x19 games)"

    def ledger(self, store: Store) -> IndexLedger:
        return IndexLedger(store, self.statistics)


def index_signal(folders: tuple[str, ...]) -> IndexSignal:
    """The index's signal for games kept relative to ``folders`` (:func:`folders_of`)."""
    return IndexSignal((Statistic(PATTERN_INDEX, IndexStep(folders), IndexWriter),))


class IndexLedger(Ledger):
    """The index's side of a learning run: every game is handed on (the index keeps a game it has as it is)."""

    def __init__(self, store: Store, statistics: Sequence[Statistic[Any]]) -> None:
        super().__init__(store, statistics)
        writer = self.writers[0]
        assert isinstance(writer, IndexWriter)
        self.report = writer.report

    def skip(self, source: str, reason: str) -> None:
        if not reason.startswith("error:"):  # an unreadable file is the run's own report's
            self.report.skipped.append((source, reason))

    def claim(self, conn: WriteConnection, pid: int, batch: Sequence[Taken]) -> list[Taken]:
        return list(batch)


def finish_report(store: Store, report: IndexReport, files: int, compacted: bool = True) -> IndexReport:
    """``report`` with the run's files and the index's games and bytes after it; ``compacted``: the segments first
    merged into one when there are several (games added, or an index of an earlier layout brought up to date) and
    they fit (:func:`joseki.book.patterns.storage.compact`)."""
    report.files = files
    if compacted:
        with store.write() as conn:
            compact(conn)
    with store.read() as conn:
        report.indexed, report.index_bytes = stored_bytes(conn)
    return report
