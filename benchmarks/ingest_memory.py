"""Peak memory of ``learn`` and ``mine`` over every Tygem game, without a baseline (each in a fresh process).

Runs :func:`bench_mine.mine_round` (``--min-games 5`` into an empty store) and
:func:`bench_learn.learn_round` (into a copy of a store holding Kogo's dictionary) on all 77,988 games
(or the first ``--limit``), each in a new process with its workers, and prints their figures: the
parent's and the largest worker's peak resident set (VmHWM, from ``/proc``), CPU seconds of both,
and each step's seconds (:class:`joseki.games.pipeline.Seconds`). Timing against sgfmill is
``bench_learn.py`` / ``bench_mine.py``'s job; this one answers the memory bounds on the whole set.

Repeat it: ``cd benchmarks && python ingest_memory.py`` (``mine``, ``learn`` or both; ``--limit N``).
"""

from __future__ import annotations

import argparse
import json
import time

import bench_learn
import bench_mine
from common import in_fresh_process, load, warm
from games_data import tygem_files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commands", nargs="*", choices=("mine", "learn"), default=["mine", "learn"])
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    files = tygem_files()[: args.limit]
    print("games", len(files), "load", load(), flush=True)
    warm(files)
    for name in args.commands:
        started = time.perf_counter()
        if name == "mine":
            figures = in_fresh_process(bench_mine.mine_round, files, 5, None)
        else:
            figures = in_fresh_process(bench_learn.learn_round, str(bench_learn.template()), files, None)
        figures["wall_s"] = round(time.perf_counter() - started, 1)
        print(name, json.dumps(figures), "load", load(), flush=True)


if __name__ == "__main__":
    main()
