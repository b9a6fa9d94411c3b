"""The adaptation loop, measured: proxy(GNU Go) against GNU Go, learn, play again.

Plays ``--games`` games of the book proxy wrapping GNU Go against plain GNU Go (colours
alternating, Kogo's dictionary as the book, a fresh profile), learns them into the profile,
plays ``--games`` more, and reports the proxy's win rate before and after with 95% Wilson
intervals, and the share of the proxy's corners that stayed in book (their first
``--in-book-steps`` local steps all book moves).

Usage: python benchmarks/bench_adapt.py [--games 40] [--max-moves 250] [--level 1]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from common import CACHE, KOGO, need, report

from joseki.book.importer import import_file
from joseki.book.lookup import Lookup
from joseki.book.store import Store
from joseki.book.walk import longest_line
from joseki.core.corners import corner_tables
from joseki.core.priority import wilson_interval
from joseki.engine.match import GameRecord, play_match
from joseki.games.learn import learn
from joseki.sgf.game import read_game

GNUGO = "/usr/games/gnugo"
PROFILE = "gnugo-bench"


def in_book_share(store: Store, records: list[GameRecord], steps: int) -> float:
    """Share of corners whose first ``steps`` local steps (or all, if fewer) are book moves."""
    stayed = total = 0
    with store.read() as conn:
        lookup = Lookup(store, conn)
        for r in records:
            for table in corner_tables(read_game(r.path).moves).values():
                s = table.builder.steps[: 2 * steps]
                if s:
                    total += 1
                    stayed += longest_line(lookup, s) == len(s) // 2
    return stayed / total if total else 0.0


def phase(store_path: Path, out: Path, games: int, max_moves: int, level: int, seed: int) -> list[GameRecord]:
    engine = f"{GNUGO} --mode gtp --level {level}"
    proxy = (f"{sys.executable} -m joseki --db {store_path} gtp --engine '{engine}' --profile {PROFILE} "
             f"--seed {seed}")
    return play_match(proxy, engine, games, out, max_moves=max_moves,
                      progress=lambda n, r: print(f"  game {n}: {r.result} ({r.reason})", file=sys.stderr))


def proxy_wins(records: list[GameRecord]) -> int:
    return sum(1 for r in records if r.winner == ("w" if r.swapped else "b"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games before and games after learning")
    parser.add_argument("--max-moves", type=int, default=250)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--in-book-steps", type=int, default=6)
    args = parser.parse_args()
    need(Path(GNUGO))
    work = CACHE / "adapt"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db = work / "book.sqlite"
    store = Store(str(db))
    import_file(store, need(KOGO), "kogo")
    start = time.perf_counter()
    print("before learning", file=sys.stderr)
    before = phase(db, work / "before", args.games, args.max_moves, args.level, seed=1)
    learnt = learn(store, [r.path for r in before], PROFILE, workers=1)
    print("after learning", file=sys.stderr)
    after = phase(db, work / "after", args.games, args.max_moves, args.level, seed=2)
    figures = {"games": args.games, "max_moves": args.max_moves, "level": args.level, "learnt": learnt.learnt}
    for name, records in (("before", before), ("after", after)):
        wins = proxy_wins(records)
        low, high = wilson_interval(wins, len(records))
        figures[f"win_rate_{name}"] = round(wins / len(records), 4)
        figures[f"ci95_{name}"] = [round(low, 4), round(high, 4)]
        figures[f"in_book_{name}"] = round(in_book_share(store, records, args.in_book_steps), 4)
    figures["ci95"] = {"before": figures["ci95_before"], "after": figures["ci95_after"]}
    figures["seconds"] = round(time.perf_counter() - start, 1)
    print(f"proxy win rate {figures['win_rate_before']} -> {figures['win_rate_after']}")
    report(figures)


if __name__ == "__main__":
    main()
