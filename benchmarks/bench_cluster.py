"""``learn`` and ``mine`` on a Dask cluster on this machine, one worker then two, against local runs.

A ``dask scheduler`` and ``dask worker`` processes (one thread each, on 127.0.0.1) are started as
the tests start them (tests/dask_procs.py). Each run gets the same Tygem games: ``learn`` into
a new profile of one store holding Kogo's dictionary, ``mine`` into a new SQLite store. Local
runs use as many worker processes as the cluster has workers; the overhead is the cluster's
time over the local run's. ``tail_s`` is the time after the last game came back: the parent's
own share (the merge and the writes: what more machines do not shorten).

Usage: python benchmarks/bench_cluster.py [--limit N] [--min-games 5] [--only learn|mine]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import KOGO, ROOT, fresh_store, need, report
from games_data import tygem_files

from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.games.learn import learn
from joseki.games.mine import mine

sys.path.insert(0, str(ROOT))
from tests.dask_procs import DaskProcesses


def timed(run: Callable[[Callable[[int, int], None]], Any]) -> tuple[float, float]:
    """(seconds in all, seconds after the last game's result came back) of ``run(progress)``."""
    last = [0.0]

    def progress(done: int, total: int) -> None:
        if done == total:
            last[0] = time.perf_counter()

    started = time.perf_counter()
    run(progress)
    ended = time.perf_counter()
    return round(ended - started, 2), round(ended - (last[0] or ended), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--only", choices=("learn", "mine"), default=None)
    args = parser.parse_args()
    files = tygem_files()[: args.limit]
    book = fresh_store("cluster-learn")
    import_file(book, need(KOGO), "kogo")
    figures: dict[str, Any] = {"games": len(files), "min_games": args.min_games}
    runs = iter(range(1000))

    def learn_run(cluster: str | None, workers: int | None) -> tuple[float, float]:
        profile = f"run{next(runs)}"
        return timed(lambda progress: learn(book, files, profile, workers, progress, cluster=cluster))

    def mine_run(cluster: str | None, workers: int | None) -> tuple[float, float]:
        store: Store = fresh_store("cluster-mine")
        try:
            return timed(lambda progress: mine(store, files, args.min_games, "tygem", None, workers, progress,
                                               cluster=cluster))
        finally:
            store.close()

    with tempfile.TemporaryDirectory() as tmp, DaskProcesses(Path(tmp), workers=1) as procs:
        for workers in (1, 2):
            if workers == 2:
                procs.add_worker("w2")
                procs.wait_for_workers(2)
            for name, run in (("learn", learn_run), ("mine", mine_run)):
                if args.only not in (None, name):
                    continue
                local_s, local_tail = run(None, workers)
                cluster_s, cluster_tail = run(procs.address, None)
                figures[f"{name}_local{workers}_s"] = local_s
                figures[f"{name}_local{workers}_tail_s"] = local_tail
                figures[f"{name}_cluster{workers}_s"] = cluster_s
                figures[f"{name}_cluster{workers}_games_per_s"] = round(len(files) / cluster_s, 1)
                figures[f"{name}_cluster{workers}_tail_s"] = cluster_tail
                figures[f"{name}_overhead{workers}"] = round(cluster_s / local_s, 3)
                rate = figures[f"{name}_cluster{workers}_games_per_s"]
                print(f"{name}, {workers} worker(s): local {local_s} s ({local_tail} s after the last game), "
                      f"cluster {cluster_s} s ({rate} games/s, {cluster_tail} s after the last game)", flush=True)
    for name in ("learn", "mine") if args.only is None else (args.only,):
        figures[f"{name}_speedup"] = round(figures[f"{name}_cluster1_s"] / figures[f"{name}_cluster2_s"], 3)
    report(figures)


if __name__ == "__main__":
    main()
