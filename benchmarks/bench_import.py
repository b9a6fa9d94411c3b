"""Importing Kogo's dictionary into a new SQLite store, against sgfmill alone parsing it and
visiting every node, in the same run (alternately, best of N).

Each import runs in a fresh interpreter, as ``joseki import`` does: nothing learnt from an
earlier import (cached judgements of comments, compiled statements) helps it. The time is
taken inside that interpreter, from the call of :func:`joseki.book.importer.import_file` to its
return, into a store whose schema already exists; interpreter start-up and module imports
are left out. ``--no-fork`` reads the file's notes in the importing process itself (as on
platforms without fork), instead of in a forked child while the nodes are written.

Usage: python benchmarks/bench_import.py [--repeats N] [--no-fork]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from common import KOGO, ROOT, best_of, need, report, sgfmill_visit

_CHILD = """
import json, sys, time
from pathlib import Path
import joseki.book.importer
from joseki.book.importer import import_file
from joseki.book.store import Store
if sys.argv[3] == "no-fork":
    joseki.book.importer.FORK_MIN_LINES = 1 << 62
store = Store(sys.argv[1])
start = time.perf_counter()
report = import_file(store, Path(sys.argv[2]))
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "new": report.new, "error": report.error}))
"""


def timed_import(path: Path, fork: bool = True) -> tuple[float, int]:
    """Seconds to import ``path`` into a new store, in a fresh interpreter; and the records it added."""
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run([sys.executable, "-c", _CHILD, str(Path(tmp) / "book.sqlite"), str(path),
                                 "fork" if fork else "no-fork"],
                                capture_output=True, text=True, check=True, cwd=ROOT)
    figures = json.loads(result.stdout.splitlines()[-1])
    if figures["error"]:
        sys.exit(f"import failed: {figures['error']}")
    return float(figures["seconds"]), int(figures["new"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-fork", action="store_true", help="read the notes in the importing process")
    args = parser.parse_args()
    path = need(KOGO)
    import_s = sgfmill_s = float("inf")
    records = 0
    for _ in range(args.repeats):
        sgfmill_s = min(sgfmill_s, best_of(1, lambda: sgfmill_visit(path)))
        seconds, records = timed_import(path, fork=not args.no_fork)
        import_s = min(import_s, seconds)
    print(f"Kogo: {records} records imported")
    report({"file": path.name, "records": records, "import_s": round(import_s, 4),
            "sgfmill_s": round(sgfmill_s, 4), "ratio": round(import_s / sgfmill_s, 3), "repeats": args.repeats,
            "fork": not args.no_fork})


if __name__ == "__main__":
    main()
