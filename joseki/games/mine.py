"""Mining a book from game records alone: every corner sequence, kept where enough games played it.

Worker processes reduce each game to its corners' play-step strings (at most
:data:`MINE_DEPTH` steps); the parent counts, for every prefix, the games that played it and
the results of its last move for the player who chose it. Prefixes played in at least
``min_games`` games form the book (they are prefix-closed, since a prefix is played at least
as often as its continuations); its leaves become the collection's records, and the counts
become the statistics of the profile, and the games count as learnt there (a game learnt
under the profile before adds to the book's counts but not again to its statistics). To stay within
memory on tens of thousands of games, a prefix seen once is held as its hash and its first
result only; its text is kept from its second sighting (or at once when ``min_games`` is 1).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from joseki.book.importer import FileReport, expand_paths, import_forest
from joseki.book.stats import add_records, claim_games, profile_id
from joseki.book.store import Store, node_id
from joseki.core.corners import corner_tables
from joseki.core.geometry import Corner
from joseki.core.priority import Record
from joseki.core.steps import Color
from joseki.games.credit import outcome
from joseki.games.learn import LearnReport
from joseki.games.pool import worker_pool
from joseki.sgf.forest import Forest, Variation
from joseki.sgf.game import read_learnable
from joseki.sgf.gcpause import paused_gc

MINE_DEPTH = 30
"""Steps of a corner's string that mining looks at."""


@dataclass(slots=True)
class MinedGame:
    source: str
    key: str | None = None
    result: str = ""
    skipped: str | None = None
    corners: list[tuple[str, Color, str | None]] = field(default_factory=list)
    """(play-step string, first colour, first player's outcome) of each corner with local moves."""


def reduce_game(path: str) -> MinedGame:
    """One game's corner strings (runs in a worker)."""
    out = MinedGame(path)
    game, out.skipped = read_learnable(path)
    if game is None or out.skipped is not None:
        out.result = game.result if game else ""
        return out
    out.result = game.result
    tables = corner_tables(game.moves)
    out.key = game.key
    for table in tables.values():
        b = table.builder
        if b.first_color is not None:
            out.corners.append((b.steps[: 2 * MINE_DEPTH], b.first_color, outcome(b.first_color, game.winner)))
    return out


def _reduce_all(files: list[str], workers: int | None) -> Iterator[MinedGame]:
    if (workers or multiprocessing.cpu_count()) <= 1 or len(files) < 50:
        yield from map(reduce_game, files)
        return
    with worker_pool(workers) as pool:
        yield from pool.imap(reduce_game, files, chunksize=64)


_CODE = {"win": 0, "loss": 1, "draw": 2, None: 3}
_FLIP_CODE = (1, 0, 2, 3)
"""Result codes (win, loss, draw, unknown) and the code of the same game for the other player."""


class PrefixCounter:
    """Games and results per prefix, compact for prefixes seen once."""

    def __init__(self, keep_singles: bool) -> None:
        self.keep_singles = keep_singles
        self.once: dict[int, int] = {}
        self.once_text: dict[int, str] = {}
        self.many: dict[int, list[Any]] = {}

    def add_game(self, corners: list[tuple[str, Color, str | None]]) -> None:
        """Count one game: each distinct prefix of its corners once, with its mover's result."""
        seen: dict[str, int] = {}
        for steps, _first, first_outcome in corners:
            first_code = _CODE[first_outcome]
            codes = (first_code, _FLIP_CODE[first_code])
            for end in range(2, len(steps) + 1, 2):
                prefix = steps[:end]
                if prefix not in seen:
                    seen[prefix] = codes[(end // 2 + 1) % 2]
        once, many = self.once, self.many
        for prefix, code in seen.items():
            h = hash(prefix)
            entry = many.get(h)
            if entry is None:
                first = once.pop(h, None)
                if first is None:
                    once[h] = code
                    if self.keep_singles:
                        self.once_text[h] = prefix
                    continue
                self.once_text.pop(h, None)
                entry = many[h] = [prefix, 1, 0, 0, 0]
                if first < 3:
                    entry[2 + first] += 1
            entry[1] += 1
            if code < 3:
                entry[2 + code] += 1

    def kept(self, min_games: int) -> dict[str, Record]:
        """Prefixes played in at least ``min_games`` games, with their movers' records."""
        out: dict[str, Record] = {}
        for entry in self.many.values():
            prefix, games, wins, losses, draws = entry
            if games >= min_games:
                out[prefix] = Record(wins + losses + draws, wins, losses, draws)
        if min_games <= 1:
            for h, code in self.once.items():
                counts = [0, 0, 0]
                if code < 3:
                    counts[code] = 1
                out[self.once_text[h]] = Record(sum(counts), *counts)
        return out


def mine(store: Store, paths: Iterable[Path | str], min_games: int, collection: str = "mined",
         profile: str | None = None, workers: int | None = None,
         progress: Callable[[int, int], None] | None = None) -> tuple[LearnReport, FileReport]:
    """Build collection ``collection`` from the games in ``paths``; their results go to ``profile``."""
    if min_games < 1:
        raise ValueError("--min-games must be at least 1")
    files = [str(p) for p in expand_paths(paths)]
    report = LearnReport(files=len(files))
    counter = PrefixCounter(keep_singles=min_games <= 1)
    games: dict[str, tuple[str, str]] = {}
    with store.read() as conn:
        pid = profile_id(conn, store, profile)
        learnt = set() if pid is None else set(conn.execute(
            select(store.tables["learnt_game"].c.game_key).where(store.tables["learnt_game"].c.profile_id == pid))
            .scalars())
    with paused_gc():
        for done, mined in enumerate(_reduce_all(files, workers), start=1):
            if mined.skipped is not None:
                key = "error" if mined.skipped.startswith("error: ") else mined.skipped
                report.skipped[key] += 1
                if key == "error":
                    report.errors.append((mined.source, mined.skipped[7:]))
            elif mined.key in games:
                report.duplicates += 1
            else:
                assert mined.key is not None
                if mined.key in learnt:
                    report.duplicates += 1
                    mined.corners = [(steps, first, None) for steps, first, _ in mined.corners]
                else:
                    games[mined.key] = (mined.source, mined.result)
                counter.add_game(mined.corners)
            if progress is not None:
                progress(done, len(files))
        kept = counter.kept(min_games)
    has_child = {p[:-2] for p in kept}
    forest = Forest(source=f"mined from {len(games)} games", encoding="utf-8")
    forest.variations = [Variation(p, "b", Corner.TOP_RIGHT, False, 0, "", (), False)
                         for p in sorted(kept) if p not in has_child]
    book = FileReport(forest.source, collection)
    digest = f"mined:{min_games}:" + node_id("".join(sorted(games))).to_bytes(8, "big", signed=True).hex()
    with store.write() as conn:
        import_forest(conn, store, forest, collection, digest, True, book)
        pid = profile_id(conn, store, profile, create=True)
        assert pid is not None
        claimed = claim_games(conn, store, pid, [(k, s, r) for k, (s, r) in games.items()])
        add_records(conn, store, pid, {node_id(p): r for p, r in kept.items() if r.games})
    report.learnt = len(claimed)
    report.credits = sum(r.games for r in kept.values())
    return report, book

