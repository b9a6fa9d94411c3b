"""``mine`` over the Tygem 9-dan games against sgfmill alone parsing the same files on one core.

Usage: python benchmarks/bench_mine.py [--limit N] [--min-games 5] [--workers W]
"""

from __future__ import annotations

import argparse
import time

from bench_learn import peak_mb
from common import fresh_store, report, sgfmill_seconds
from games_data import tygem_files

from joseki.games.mine import mine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    files = tygem_files()[: args.limit]
    sgfmill_s = sgfmill_seconds(files)
    store = fresh_store("mine")
    started = time.perf_counter()
    result, book = mine(store, files, args.min_games, "tygem", workers=args.workers)
    mine_s = time.perf_counter() - started
    records = book.new if book is not None else 0
    print(f"{result.learnt} games mined into {records} variations (min games {args.min_games})")
    report({"games": len(files), "learnt": result.learnt, "records": records, "min_games": args.min_games,
            "corners": result.corners, "credits": result.credits,
            "mine_s": round(mine_s, 2), "sgfmill_s": round(sgfmill_s, 2), "ratio": round(mine_s / sgfmill_s, 3),
            "peak_mb": peak_mb()})


if __name__ == "__main__":
    main()
