"""``learn`` over the Tygem 9-dan games against sgfmill alone parsing the same files on one core.

The games (../shared/data/games/tygem-9d-2011, unpacked into benchmarks/.cache/tygem) are first
read once, so that neither side pays for the disk. Then, ``--rounds`` times, the baseline and
``learn`` run in turn: the baseline reads every file with sgfmill (``Sgf_game.from_bytes`` and
each main-line move) in this process; ``learn`` runs in a new process (with its worker
processes, all cores unless ``--workers``) into a fresh copy of a SQLite store holding Kogo's
dictionary, timed around the call. Each side's median, min and max are reported, and the
ratio of each round's pair. Peak memory is the learning process's own peak resident set plus
the largest worker's, read from each process's ``/proc`` status, so no round inherits another's.
``cpu_ratio`` is each round's CPU seconds of the subject and its workers, shared over the cores,
over the baseline's: what an idle machine would show if the subject kept every core busy, a figure
that a shared machine's load moves less than the wall ratio.

Repeat it: ``cd benchmarks && python bench_learn.py`` (all games, 3 rounds; ``--limit N`` for
the first N), on a machine as quiet as can be had (``uptime`` before and after: the figures
move with the load; the JSON's ``load`` holds the load averages at the start and the end).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from common import (
    CACHE,
    KOGO,
    alternate,
    cpu_ratio,
    in_fresh_process,
    load,
    need,
    report,
    sgfmill_seconds,
    spread,
    steps_share,
    warm,
)
from games_data import tygem_files

from joseki.book.importer import import_file
from joseki.book.store.database import Store

TEMPLATE = CACHE / "learn-kogo.sqlite"
"""The store holding Kogo's dictionary, copied for each round."""


def template() -> Path:
    """A SQLite store holding Kogo's dictionary, made once per run."""
    TEMPLATE.unlink(missing_ok=True)
    store = Store(str(TEMPLATE))
    import_file(store, need(KOGO), "kogo")
    store.close()
    return TEMPLATE


def learn_round(base: str, files: list[str], workers: int | None, index: bool = False) -> dict[str, Any]:
    """One ``learn`` into a fresh copy of ``base`` (runs in a process of its own); ``index``: ``learn --index``."""
    from joseki.games.learn import learn

    db = CACHE / "learn.sqlite"
    for extra in ("", "-journal", "-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    shutil.copy(base, db)
    store = Store(str(db))
    started = time.perf_counter()
    result = learn(store, files, workers=workers, index=index)
    seconds = time.perf_counter() - started
    store.close()
    return {"learn_s": round(seconds, 2), "learnt": result.learnt, "duplicates": result.duplicates,
            "skipped": sum(result.skipped.values()), "corners": result.corners, "credits": result.credits,
            "steps": steps_share(result.seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="the first N games (default: all)")
    parser.add_argument("--workers", type=int, default=None, help="learn's worker processes (default: all cores)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    started_load = load()
    files = tygem_files()[: args.limit]
    warm_s = warm(files)
    base = str(template())
    sgfmill, sgfmill_cpu, runs = alternate(args.rounds, lambda: sgfmill_seconds(files),
                              lambda: in_fresh_process(learn_round, base, files, args.workers), "learn_s")
    counts = {k: runs[0][k] for k in ("learnt", "duplicates", "skipped", "corners", "credits")}
    if any({k: r[k] for k in counts} != counts for r in runs):
        sys.exit(f"the rounds learnt different figures: {runs}")
    learn_s = [r["learn_s"] for r in runs]
    print(f"{counts['learnt']} games learnt, {counts['duplicates']} duplicates, {counts['skipped']} skipped")
    report({"games": len(files), **counts, "rounds": args.rounds, "workers": args.workers, "steps": runs[0]["steps"],
            "learn_s": spread(learn_s, 2), "sgfmill_s": spread(sgfmill, 2),
            "ratio": spread([a / b for a, b in zip(learn_s, sgfmill, strict=True)]),
            "cpu_ratio": cpu_ratio(runs, sgfmill_cpu), "sgfmill_cpu_s": spread(sgfmill_cpu, 2),
            "peak_mb": spread([r["peak_mb"] for r in runs], 1),
            "parent_mb": max(r["parent_mb"] for r in runs), "worker_mb": max(r["worker_mb"] for r in runs),
            "parent_cpu_s": spread([r["parent_cpu_s"] for r in runs], 2),
            "workers_cpu_s": spread([r["workers_cpu_s"] for r in runs], 2),
            "warm_s": round(warm_s, 2), "load": [started_load, load()]})


if __name__ == "__main__":
    main()
