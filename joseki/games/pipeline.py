"""The one learning pipeline: each game read once in a worker, every signal's per-game steps, one batch writer.

In a worker (:class:`ReadGames`, a chunk task of :func:`joseki.games.fanout.fan_out`): each game is
read once; each :class:`Signal` (the game's result, a judge's verdicts on its corners) says whether
it takes the game, and if so runs the per-game step of each of its statistics (:class:`Statistic`:
results per node, by context, the games behind a position, judged outcomes, ...). What goes back to
the parent is plain rows. In the parent (:class:`BatchWriter`), each signal's games are written in
batches, each batch one transaction that claims the batch's games under the profile (a game the
profile already holds changes nothing) and hands the new games' rows to each statistic's writer. A
killed run leaves whole batches; running it again adds the rest.

Adding a statistic is one more :class:`Statistic` in a signal's list: a per-game step (a picklable
:class:`GameStep`, run in the workers: a game in, rows out) and its writer (made once a run in the
parent: rows added game by game, written in the batch's transaction). ``mine`` runs the same
statistics over the games it holds once its book is mined (:mod:`joseki.games.mine`).

Each step's and each writer's seconds (on :func:`clock`, in the process that runs it) are added up
in :class:`Seconds`, so a run can tell what each statistic costs.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from joseki.book.gamerefs.write import GameInfo
from joseki.book.learnt.results import profile_id
from joseki.book.query.walk import Book
from joseki.book.store.database import Store, WriteConnection
from joseki.core.corners import corner_tables
from joseki.core.steps import Colour
from joseki.games.credit import CornerCredit, CornerPlay, Moves, corner_plays, credit_corners, credit_game
from joseki.games.fanout import Workers, fan_out
from joseki.games.judging import Refused, Verdict
from joseki.sgf.archive import Source, source_name
from joseki.sgf.game import Game, read_game

R = TypeVar("R")

clock = time.perf_counter
"""The clock of :class:`Seconds`: a process runs one step at a time, so its wall seconds are the step's; a CPU
clock costs ten times as much a read, paid several times a game."""

class Seconds(dict[str, float]):
    """Seconds per named step (``read``, ``walk``, each statistic's name, ``claim``, ``commit``...)."""

    def add(self, name: str, seconds: float) -> None:
        self[name] = self.get(name, 0.0) + seconds

    def merge(self, other: dict[str, float]) -> None:
        for name, seconds in other.items():
            self.add(name, seconds)


@dataclass(slots=True)
class GameView:
    """One game as the per-game steps see it: its facts, its corners, and their walks through the book.

    ``game`` is the record read (None in ``mine``'s second pass, which holds only what crediting needs);
    ``before``, when set, is the book before this run: the game was credited against it once and is now
    moved onto ``book`` (:mod:`joseki.games.mine`).
    """

    source: str
    key: str
    winner: Colour | None
    moves: Moves
    book: Book
    game: Game | None = None
    plays: list[CornerPlay] | None = None
    info: GameInfo | None = None
    before: Book | None = None
    verdicts: list[Verdict] | None = None
    """The judge's verdicts on the game's corners, once the local signal has judged it."""
    _credited: list[CornerCredit] | None = None
    _credited_before: list[CornerCredit] | None = None

    def corners(self) -> list[CornerPlay]:
        """Each corner with local moves (read from the moves the first time)."""
        if self.plays is None:
            self.plays = corner_plays(corner_tables(self.moves).values())
        return self.plays

    def facts(self) -> GameInfo:
        """What the store keeps about the game (:class:`~joseki.book.gamerefs.write.GameInfo`)."""
        if self.info is None:
            assert self.game is not None
            self.info = GameInfo.of(self.game, self.key)
        return self.info

    def credited(self) -> list[CornerCredit]:
        """Each corner walked through the book, with its credits (walked once for every step)."""
        if self._credited is None:
            assert self.winner is not None
            if self.plays is None:  # read only as far as the corners are in the book
                self._credited = credit_game(self.book, self.moves, self.winner)
            else:
                self._credited = credit_corners(self.book, self.plays, self.winner)
        return self._credited

    def credited_before(self) -> list[CornerCredit]:
        """:meth:`credited` against :attr:`before`."""
        assert self.before is not None and self.winner is not None
        if self._credited_before is None:
            self._credited_before = credit_corners(self.before, self.corners(), self.winner)
        return self._credited_before


class GameStep(ABC, Generic[R]):
    """A statistic's per-game work, run in a worker: a game in, its rows out. Made in the parent, so picklable."""

    def open(self) -> None:
        """Get ready for a chunk of games in this worker."""

    def close(self) -> None:
        """The chunk is done."""

    @abstractmethod
    def rows(self, game: GameView) -> R:
        """The game's rows (plain values: they are pickled back to the parent)."""

    def finish(self, rows: list[R]) -> list[R]:
        """A chunk's :meth:`rows` of the games this step took, made ready together before they go to the parent
        (in a worker: what a statistic does faster for many games at once); by default as they are."""
        return rows

    def pack(self, rows: list[R]) -> Any:
        """A chunk of games' :meth:`rows` as one value for its writer's :meth:`Writer.add_packed` (in a worker, where
        a statistic may turn them into a few arrays, which the parent copies rather than rebuilds value by value);
        by default the list itself."""
        return rows


class Writer(ABC, Generic[R]):
    """A statistic's writer in the parent: each new game's rows added, then written in the batch's transaction."""

    @abstractmethod
    def add(self, rows: R) -> None:
        """Add one game's rows (a game new under the profile)."""

    def add_packed(self, packed: Any) -> None:
        """Add a chunk of games' rows, as its statistic's :meth:`GameStep.pack` made them (every game new under
        the profile); by default each game's in turn."""
        for rows in packed:
            self.add(rows)

    @abstractmethod
    def write(self, conn: WriteConnection, pid: int) -> None:
        """Write what was added since the last write, under profile ``pid``."""

    def compact(self, conn: WriteConnection, pid: int) -> None:
        """Between writes, in the same transaction: cut what was added since the last write to what that write
        needs, writing now what it would write unchanged (a run that writes once, at its end, then holds and
        leaves to its end no more than that); by default, nothing."""


@dataclass(frozen=True, slots=True)
class Statistic(Generic[R]):
    """One statistic learning keeps: its per-game step and how the parent makes its writer for a run."""

    name: str
    step: GameStep[R]
    writer: Callable[[Store], Writer[R]]


class Signal(ABC):
    """What a game is credited with, and the statistics that keep it (picklable: it runs in the workers)."""

    name: str
    facts_name: str
    """What :meth:`facts` does, as its seconds are named."""
    statistics: tuple[Statistic[Any], ...]

    def open(self) -> None:
        """Get ready for a chunk of games in this worker (each statistic's step too)."""
        for statistic in self.statistics:
            statistic.step.open()

    def close(self) -> None:
        for statistic in self.statistics:
            statistic.step.close()

    @abstractmethod
    def unusable(self, game: Game) -> str | None:
        """Why ``game`` gives this signal nothing (None when it gives something)."""

    def facts(self, game: GameView) -> Any:
        """What the run's report counts of the game (before its statistics' steps run); Raises Refused
        if the game cannot be credited after all."""
        return None

    @abstractmethod
    def ledger(self, store: Store) -> Ledger:
        """The parent's side of a run: its claims, its report and its statistics' writers."""


class Taken(NamedTuple):
    """One game a signal takes, as the parent gets it."""

    source: str
    key: str
    result: str
    facts: Any
    rows: tuple[Any, ...]
    """Each statistic's rows, in the signal's order."""


class Ledger(ABC):
    """A signal's parent side: which games are new under the profile, what the run's report says."""

    def __init__(self, store: Store, statistics: Sequence[Statistic[Any]]) -> None:
        self.store = store
        self.names = [s.name for s in statistics]
        self.writers = [s.writer(store) for s in statistics]

    @abstractmethod
    def skip(self, source: str, reason: str) -> None:
        """Count a game this signal does not take (``error: ...`` for an unreadable file)."""

    @abstractmethod
    def claim(self, conn: WriteConnection, pid: int, batch: Sequence[Taken]) -> list[Taken]:
        """Record the batch's games as taken in by the profile; those new under it, each once (and report them)."""

    def write(self, conn: WriteConnection, pid: int, games: Iterable[Taken], seconds: Seconds) -> None:
        """Hand ``games``'s rows to each statistic's writer, then write them."""
        for number, writer in enumerate(self.writers):
            started = clock()
            for taken in games:
                writer.add(taken.rows[number])
            writer.write(conn, pid)
            seconds.add(self.names[number], clock() - started)


class GameRows(NamedTuple):
    """What a worker hands back for one game: per signal (in order), why it was not taken or its facts and rows."""

    source: str
    key: str
    result: str
    signals: tuple[tuple[str | None, Any, tuple[Any, ...]], ...]


@dataclass(frozen=True, slots=True)
class ReadGames:
    """The chunk task of learning (runs in the workers): each game read once and handed to every signal."""

    book: Book
    signals: tuple[Signal, ...]

    def __call__(self, chunk: list[Source]) -> tuple[list[GameRows], Seconds]:
        seconds = Seconds()
        for signal in self.signals:
            signal.open()
        try:
            return self._finished([self.one(source, seconds) for source in chunk], seconds), seconds
        finally:
            for signal in self.signals:
                signal.close()

    def _finished(self, games: list[GameRows], seconds: Seconds) -> list[GameRows]:
        """``games`` with each statistic's rows of the chunk made ready together (:meth:`GameStep.finish`)."""
        finishing = [(number, i, statistic) for number, signal in enumerate(self.signals)
                     for i, statistic in enumerate(signal.statistics)
                     if type(statistic.step).finish is not GameStep.finish]
        if not finishing:
            return games
        signals = [list(g.signals) for g in games]
        for number, i, statistic in finishing:
            taken = [n for n, g in enumerate(signals) if g[number][0] is None]
            started = clock()
            done = statistic.step.finish([signals[n][number][2][i] for n in taken])
            seconds.add(statistic.name, clock() - started)
            for n, rows in zip(taken, done, strict=True):
                reason, facts, before = signals[n][number]
                signals[n][number] = (reason, facts, (*before[:i], rows, *before[i + 1:]))
        return [g._replace(signals=tuple(s)) for g, s in zip(games, signals, strict=True)]

    def one(self, source: Source, seconds: Seconds) -> GameRows:
        """One game's rows for every signal."""
        name = source_name(source)
        started = clock()
        try:
            game = read_game(source)
        except ValueError as exc:
            seconds.add("read", clock() - started)
            return GameRows(name, "", "", tuple((f"error: {exc}", None, ()) for _ in self.signals))
        reasons = [signal.unusable(game) for signal in self.signals]
        key = game.key if None in reasons else ""
        seconds.add("read", clock() - started)
        view = GameView(name, key, game.winner, game.moves, self.book, game)
        out = []
        for signal, reason in zip(self.signals, reasons, strict=True):
            out.append((reason, None, ()) if reason is not None else _taken(signal, view, seconds))
        return GameRows(name, key, game.result, tuple(out))


def _taken(signal: Signal, view: GameView, seconds: Seconds) -> tuple[str | None, Any, tuple[Any, ...]]:
    """A signal's facts and rows of a game it takes (or why not, when its judge refuses the game)."""
    started = clock()
    try:
        facts = signal.facts(view)
    except Refused as exc:
        return f"judge refused: {exc}"[:80], None, ()
    finally:
        seconds.add(signal.facts_name, clock() - started)
    rows = []
    for statistic in signal.statistics:
        started = clock()
        rows.append(statistic.step.rows(view))
        seconds.add(statistic.name, clock() - started)
    return None, facts, tuple(rows)


class BatchWriter:
    """The parent's side of learning: each signal's games in batches of ``batch_games``, one transaction a batch.

    A signal's batch fills with the games it takes; the profile is created with the first batch
    written, so a run that takes no game writes nothing.
    """

    def __init__(self, store: Store, profile: str | None, signals: Sequence[Signal], batch_games: int) -> None:
        self.store, self.profile, self.batch_games = store, profile, batch_games
        self.ledgers = [signal.ledger(store) for signal in signals]
        self.pending: list[list[Taken]] = [[] for _ in signals]
        self.seconds = Seconds()

    def add(self, game: GameRows) -> None:
        """Take one game's rows; write a signal's batch once it is full."""
        for number, (reason, facts, rows) in enumerate(game.signals):
            if reason is not None:
                self.ledgers[number].skip(game.source, reason)
                continue
            self.pending[number].append(Taken(game.source, game.key, game.result, facts, rows))
            if len(self.pending[number]) >= self.batch_games:
                self.flush(number)

    def finish(self) -> None:
        """Write every signal's last batch."""
        for number in range(len(self.ledgers)):
            self.flush(number)

    def flush(self, number: int) -> None:
        """Write signal ``number``'s pending games as one transaction."""
        batch, self.pending[number] = self.pending[number], []
        if not batch:
            return
        ledger = self.ledgers[number]
        with self.store.write() as conn:
            started = clock()
            pid = profile_id(conn, self.store, self.profile, create=True)
            assert pid is not None
            claimed = ledger.claim(conn, pid, batch)
            self.seconds.add("claim", clock() - started)
            ledger.write(conn, pid, claimed, self.seconds)
            started = clock()
        self.seconds.add("commit", clock() - started)


CHUNK_GAMES = 32
"""Games a local worker reads per chunk."""


def learn_games(sources: Iterable[Source], games: int, task: ReadGames, writer: BatchWriter, workers: Workers,
                progress: Callable[[int, int], None] | None = None) -> Seconds:
    """Run ``task`` over ``sources`` (``games`` of them) and hand every game to ``writer``: the seconds each
    step took, in the workers and here (``parent``: handing games on, batches written included)."""
    seconds = Seconds()
    for done, game in enumerate(each_game(fan_out(task, sources, games, workers, CHUNK_GAMES), seconds), start=1):
        started = clock()
        writer.add(game)
        if progress is not None:
            progress(done, games)
        seconds.add("parent", clock() - started)
    started = clock()
    writer.finish()
    seconds.add("parent", clock() - started)
    seconds.merge(writer.seconds)
    return seconds


def each_game(chunks: Iterator[tuple[list[R], Seconds]], seconds: Seconds) -> Iterator[R]:
    """The games of a fan-out's chunk results, the chunks' seconds added to ``seconds``."""
    for chunk, spent in chunks:
        seconds.merge(spent)
        yield from chunk
