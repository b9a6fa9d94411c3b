"""``mine`` over the Tygem 9-dan games against sgfmill alone parsing the same files on one core.

As ``bench_learn.py``: the files are read once first, then ``--rounds`` times the baseline
(sgfmill's ``Sgf_game.from_bytes`` and each main-line move, in this process) and ``mine``
(``--min-games``, in a new process with its workers, into a new empty SQLite store) run in
turn; each side's median, min and max, the ratio of each round's pair, and the peak memory
of the mining process plus its largest worker (from ``/proc``, so no round inherits another's).
``cpu_ratio`` is each round's CPU seconds of the subject and its workers, shared over the cores,
over the baseline's: what an idle machine would show if the subject kept every core busy, a figure
that a shared machine's load moves less than the wall ratio.

Repeat it: ``cd benchmarks && python bench_mine.py`` (all games, 3 rounds; ``--limit N`` for
the first N), on a machine as quiet as can be had (the JSON's ``load`` holds the load averages
at the start and the end).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from common import (
    alternate,
    cpu_ratio,
    fresh_store,
    in_fresh_process,
    load,
    report,
    sgfmill_seconds,
    spread,
    steps_share,
    warm,
)
from games_data import tygem_files


def mine_round(files: list[str], min_games: int, workers: int | None, index: bool = False) -> dict[str, Any]:
    """One ``mine`` into a new store (runs in a process of its own); ``index``: ``mine --index``."""
    from joseki.games.mine import mine

    store = fresh_store("mine")
    started = time.perf_counter()
    result, book = mine(store, files, min_games, "tygem", workers=workers, index=index)
    seconds = time.perf_counter() - started
    store.close()
    return {"mine_s": round(seconds, 2), "learnt": result.learnt, "duplicates": result.duplicates,
            "skipped": sum(result.skipped.values()), "records": book.new if book is not None else 0,
            "corners": result.corners, "credits": result.credits, "steps": steps_share(result.seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="the first N games (default: all)")
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None, help="mine's worker processes (default: all cores)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    started_load = load()
    files = tygem_files()[: args.limit]
    warm_s = warm(files)
    sgfmill, sgfmill_cpu, runs = alternate(args.rounds, lambda: sgfmill_seconds(files),
                              lambda: in_fresh_process(mine_round, files, args.min_games, args.workers), "mine_s")
    counts = {k: runs[0][k] for k in ("learnt", "duplicates", "skipped", "records", "corners", "credits")}
    if any({k: r[k] for k in counts} != counts for r in runs):
        sys.exit(f"the rounds mined different figures: {runs}")
    mine_s = [r["mine_s"] for r in runs]
    print(f"{counts['learnt']} games mined into {counts['records']} variations (min games {args.min_games})")
    report({"games": len(files), **counts, "min_games": args.min_games, "rounds": args.rounds,
            "workers": args.workers, "steps": runs[0]["steps"], "mine_s": spread(mine_s, 2),
            "sgfmill_s": spread(sgfmill, 2),
            "ratio": spread([a / b for a, b in zip(mine_s, sgfmill, strict=True)]),
            "cpu_ratio": cpu_ratio(runs, sgfmill_cpu), "sgfmill_cpu_s": spread(sgfmill_cpu, 2),
            "peak_mb": spread([r["peak_mb"] for r in runs], 1),
            "parent_mb": max(r["parent_mb"] for r in runs), "worker_mb": max(r["worker_mb"] for r in runs),
            "parent_cpu_s": spread([r["parent_cpu_s"] for r in runs], 2),
            "workers_cpu_s": spread([r["workers_cpu_s"] for r in runs], 2),
            "warm_s": round(warm_s, 2), "load": [started_load, load()]})


if __name__ == "__main__":
    main()
