"""Mining a book from game records alone: every corner sequence, kept where enough games played it.

Worker processes reduce each game to its corners' play-step strings; the parent counts, for
every prefix of at most :data:`MINE_DEPTH` steps, the games that played it. Prefixes played in
at least ``min_games`` games form the book (they are prefix-closed, since a prefix is played
at least as often as its continuations), and its leaves become the collection's records; the
moves played after them in fewer games are kept as played beyond the book (:mod:`joseki.book.learnt.beyond`).
Then the games are credited exactly as ``learn`` credits them (:mod:`joseki.games.credit`),
against the whole book with the new collection in it (and by context, :mod:`joseki.games.context`),
and count as learnt under the profile.
A game learnt there before is moved from the book before this run to the book after it: its
credits against the old book are taken back and its credits against the new one added (they
differ where the new lines take a corner further, or give a step a line of its own where it
was in the book by transposition). So ``learn`` then ``mine`` gives the statistics ``mine``
alone gives, as does ``mine`` then ``learn`` (the games are then duplicates).
To stay within memory on tens of thousands of games, a prefix seen once is held as its hash
only; its text is kept from its second sighting (or at once when ``min_games`` is 1).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Connection, select

from joseki.book.gamerefs.write import CornerMoves, GameInfo, GameRefs, corner_moves, game_refs, record_games
from joseki.book.importer import FileReport, import_forest
from joseki.book.learnt.beyond import beyond_moves, write_beyond
from joseki.book.learnt.contexts import ContextKey, add_context_records
from joseki.book.learnt.results import add_records, claim_games, drop_empty, profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.store.database import Store
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.corners import corner_tables
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner
from joseki.core.priority import Record, summed
from joseki.core.steps import Colour
from joseki.games.context import add_counts, as_records, table_contexts
from joseki.games.credit import game_records, table_corners
from joseki.games.learn import LearnReport
from joseki.games.pool import imap_bounded, worker_pool
from joseki.sgf.archive import Source, expand_games, source_name, sources
from joseki.sgf.forest import Forest, Variation
from joseki.sgf.game import read_learnable

MINE_DEPTH = 30
"""Steps of a corner's string that mining counts."""


@dataclass(slots=True)
class MinedGame:
    source: str
    key: str | None = None
    result: str = ""
    winner: Colour | None = None
    skipped: str | None = None
    corners: list[tuple[str, Colour]] = field(default_factory=list)
    """(play-step string, first colour) of each corner with local moves."""
    contexts: list[str] = field(default_factory=list)
    """Each of those corners' context before each step (:func:`joseki.games.context.table_contexts`)."""
    info: GameInfo | None = None
    moves: list[CornerMoves] = field(default_factory=list)
    """The game move of each step of ``corners``, for the games behind a position
    (:mod:`joseki.book.gamerefs.write`)."""


def reduce_game(path: Source) -> MinedGame:
    """One game's corner strings (runs in a worker)."""
    out = MinedGame(source_name(path))
    game, out.skipped = read_learnable(path)
    if game is None or out.skipped is not None:
        out.result = game.result if game else ""
        return out
    out.result, out.winner, out.key = game.result, game.winner, game.key
    tables = corner_tables(game.moves).values()
    out.corners = table_corners(tables)
    out.contexts = table_contexts(game.moves, tables)
    out.info, out.moves = GameInfo.of(game, out.key), corner_moves(tables, MINE_DEPTH)
    return out


def _reduce_all(files: list[str], workers: int | None, cluster: str | None = None) -> Iterator[MinedGame]:
    if cluster is not None:
        from joseki.games.cluster import map_games

        yield from map_games(cluster, reduce_game, sources(files))
        return
    if (workers or multiprocessing.cpu_count()) <= 1 or len(files) < 50:
        yield from map(reduce_game, sources(files))
        return
    with worker_pool(workers) as pool:
        yield from imap_bounded(pool, reduce_game, sources(files), chunksize=64)


class PrefixCounter:
    """Games per prefix, compact for prefixes seen once."""

    def __init__(self, keep_singles: bool) -> None:
        self.keep_singles = keep_singles
        self.once: set[int] = set()
        self.once_text: dict[int, str] = {}
        self.many: dict[int, list[str | int]] = {}

    def add_game(self, corners: Iterable[str]) -> None:
        """Count one game: each distinct prefix (at most :data:`MINE_DEPTH` steps) of its corners once."""
        seen = {steps[:end] for steps in corners for end in range(2, min(len(steps), 2 * MINE_DEPTH) + 1, 2)}
        once, many = self.once, self.many
        for prefix in seen:
            h = hash(prefix)
            entry = many.get(h)
            if entry is None:
                if h not in once:
                    once.add(h)
                    if self.keep_singles:
                        self.once_text[h] = prefix
                    continue
                once.discard(h)
                self.once_text.pop(h, None)
                entry = many[h] = [prefix, 1]
            entry[1] = int(entry[1]) + 1

    def frequent(self, min_games: int) -> set[str]:
        """Prefixes played in at least ``min_games`` games."""
        out = {str(prefix) for prefix, games in self.many.values() if int(games) >= min_games}
        if min_games <= 1:
            out.update(self.once_text[h] for h in self.once)
        return out

    def counts(self) -> Iterator[tuple[str, int]]:
        """Each prefix played in two games or more, with its games."""
        return ((str(prefix), int(games)) for prefix, games in self.many.values())


def _change(old: dict[int, Record], new: dict[int, Record]) -> dict[int, Record]:
    """What to add to move one game's credits from ``old`` to ``new`` (counts may be negative)."""
    out: dict[int, Record] = {}
    for nid in old.keys() | new.keys():
        a, b = old.get(nid, Record()), new.get(nid, Record())
        delta = Record(b.games - a.games, b.wins - a.wins, b.losses - a.losses, b.draws - a.draws)
        if delta != Record():
            out[nid] = delta
    return out


def _keep_beyond(conn: Connection, store: Store, collection: str, moves: dict[tuple[str, str], int]) -> None:
    c = store.tables["collection"]
    cid = conn.execute(select(c.c.id).where(c.c.name == collection)).scalar_one()
    write_beyond(conn, store, cid, {(node_id(line) if line else ROOT_ID, move): n for (line, move), n in moves.items()})


def mine(store: Store, paths: Iterable[Path | str], min_games: int, collection: str = "mined",
         profile: str | None = None, workers: int | None = None,
         progress: Callable[[int, int], None] | None = None,
         refs: bool = True, cluster: str | None = None) -> tuple[LearnReport, FileReport | None]:
    """Build collection ``collection`` from the games in ``paths``; their results go to ``profile``.

    ``refs``: also keep the games behind each position (:mod:`joseki.book.gamerefs.read`). ``cluster``: the
    address of a Dask scheduler to read the games on (:mod:`joseki.games.cluster`); the crediting is
    done here, as in a local run.

    Nothing is written when no file holds a usable game (the book report is then None), nor a
    collection when no sequence was played in ``min_games`` games.
    """
    if min_games < 1:
        raise BadInput("--min-games must be at least 1")
    files = expand_games(paths)
    report = LearnReport(files=len(files))
    counter = PrefixCounter(keep_singles=min_games <= 1)
    games: dict[str, MinedGame] = {}
    for done, mined in enumerate(_reduce_all(files, workers, cluster), start=1):
        if mined.skipped is not None:
            report.skip(mined.source, mined.skipped)
        elif mined.key in games:
            report.duplicates += 1
        else:
            assert mined.key is not None
            games[mined.key] = mined
            counter.add_game(steps for steps, _ in mined.corners)
        if progress is not None:
            progress(done, len(files))
    frequent = counter.frequent(min_games)
    if not games:
        return report, None
    has_child = {p[:-2] for p in frequent}
    forest = Forest(source=f"mined from {len(games)} games", encoding="utf-8")
    forest.variations = [Variation(p, "b", Corner.TOP_RIGHT, False, 0, "", (), False)
                         for p in sorted(frequent) if p not in has_child]
    book = FileReport(forest.source, collection)
    digest = f"mined:{min_games}:" + node_id("".join(sorted(games))).to_bytes(8, "big", signed=True).hex()
    with store.write() as conn:
        pid = profile_id(conn, store, profile, create=True)
        assert pid is not None
        lg = store.tables["learnt_game"]
        learnt = set(conn.execute(select(lg.c.game_key).where(lg.c.profile_id == pid)).scalars())
        before = InMemoryBook.load(store, conn) if not learnt.isdisjoint(games) else None
        if forest.variations:
            import_forest(conn, store, forest, collection, digest, True, book)
            _keep_beyond(conn, store, collection, beyond_moves(counter.counts(), frequent, min_games))
        claimed = claim_games(conn, store, pid, [(k, g.source, g.result) for k, g in games.items()
                                                 if k not in learnt])
        index = InMemoryBook.load(store, conn)
        records: list[dict[int, Record]] = []
        by_context: dict[ContextKey, list[int]] = {}
        behind: list[GameRefs] = []
        for key, game in games.items():
            reached: list[list[int]] = []
            game_context: dict[ContextKey, list[int]] = {}
            found, corners = game_records(index, game.corners, game.winner, reached, game.contexts, game_context)
            if key in claimed:
                report.corners += corners
            elif before is not None:  # learnt before, against the book without this run's lines
                old_context: dict[ContextKey, list[int]] = {}
                old = game_records(before, game.corners, game.winner, None, game.contexts, old_context)[0]
                found = _change(old, found)
                add_counts(by_context, old_context, -1)
            else:  # claimed by a concurrent learner meanwhile: its credits are its own
                found, reached, game_context = {}, [], {}
            add_counts(by_context, game_context)
            records.append(found)
            if refs and reached and game.info is not None:
                behind.append(game_refs(game.info, game.moves, reached))
        total = summed(records)
        add_records(conn, store, pid, total)
        add_context_records(conn, store, pid, as_records(by_context))
        record_games(conn, store, pid, sorted(behind, key=lambda r: r.info.key),
                     replace=[r.info.key for r in behind if r.info.key not in claimed])
        drop_empty(conn, store, pid, [nid for nid, r in total.items() if min(r.games, r.wins, r.losses, r.draws) < 0])
    report.learnt = len(claimed)
    report.duplicates += len(games) - len(claimed)
    report.credits = sum(r.corners for r in total.values())
    return report, book
