"""``learn`` over the Tygem 9-dan games against sgfmill alone parsing the same files on one core.

The games (../shared/data/games/tygem-9d-2011, unpacked into benchmarks/.cache/tygem) are
learnt into a fresh SQLite store holding Kogo's dictionary, with all cores; the baseline
reads every file with sgfmill (``Sgf_game.from_bytes`` and each main-line move) in one
process. Peak memory is the parent's plus the largest worker's resident set.

Usage: python benchmarks/bench_learn.py [--limit N] [--workers W]
"""

from __future__ import annotations

import argparse
import resource
import time

from common import KOGO, fresh_store, need, report, sgfmill_seconds
from games_data import tygem_files

from joseki.book.importer import import_file
from joseki.games.learn import learn


def peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round((own + children) / 1024, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    files = tygem_files()[: args.limit]
    sgfmill_s = sgfmill_seconds(files)
    store = fresh_store("learn")
    import_file(store, need(KOGO), "kogo")
    started = time.perf_counter()
    result = learn(store, files, workers=args.workers)
    learn_s = time.perf_counter() - started
    print(f"{result.learnt} games learnt, {result.duplicates} duplicates, skipped {dict(result.skipped)}")
    report({"games": len(files), "learnt": result.learnt, "duplicates": result.duplicates,
            "skipped": sum(result.skipped.values()), "credits": result.credits, "learn_s": round(learn_s, 2),
            "sgfmill_s": round(sgfmill_s, 2), "ratio": round(learn_s / sgfmill_s, 3), "peak_mb": peak_mb()})


if __name__ == "__main__":
    main()
