"""Peak memory of ``learn`` and ``mine`` over every Tygem game, without a baseline (each in a fresh process).

Runs :func:`bench_mine.mine_round` (``--min-games 5`` into an empty store) and
:func:`bench_learn.learn_round` (into a copy of a store holding Kogo's dictionary) on all 77,988 games
(or the first ``--limit``), each in a new process with its workers, and prints their figures: the
parent's and the largest worker's peak resident set (VmHWM, from ``/proc``), CPU seconds of both,
and each step's seconds (:class:`joseki.games.pipeline.Seconds`); with ``--index`` each builds the pattern
index too (``learn --index``, ``mine --index``), and the JSON object printed last holds every run's
figures. Timing against sgfmill is ``bench_learn.py`` / ``bench_mine.py``'s job; this one answers the
memory bounds on the whole set (issue 31: below 2 GB for ``mine``, 1 GB for ``learn``).

Repeat it: ``cd benchmarks && python ingest_memory.py`` (``mine``, ``learn`` or both; ``--limit N``;
``--index``).
"""

from __future__ import annotations

import argparse
import json
import time

import bench_learn
import bench_mine
from common import in_fresh_process, load, report, warm
from games_data import tygem_files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commands", nargs="*", help="mine, learn or both (the default)")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--index", action="store_true", help="build the pattern index too (learn/mine --index)")
    args = parser.parse_args()
    if set(args.commands) - {"mine", "learn"}:
        parser.error(f"unknown commands {sorted(set(args.commands) - {'mine', 'learn'})}: mine or learn")
    files = tygem_files()[: args.limit]
    print("games", len(files), "load", load(), flush=True)
    warm(files)
    runs: dict[str, dict[str, object]] = {}
    for name in args.commands or ["mine", "learn"]:
        started = time.perf_counter()
        if name == "mine":
            figures = in_fresh_process(bench_mine.mine_round, files, 5, None, args.index)
        else:
            figures = in_fresh_process(bench_learn.learn_round, str(bench_learn.template()), files, None, args.index)
        figures["wall_s"] = round(time.perf_counter() - started, 1)
        figures["load"] = load()
        runs[name] = figures
        print(name, json.dumps(figures), flush=True)
    report({"games": len(files), "index": args.index,
            **{name: {k: figures[k] for k in ("wall_s", "peak_mb", "parent_mb", "worker_mb", "load")}
               for name, figures in runs.items()}})


if __name__ == "__main__":
    main()
