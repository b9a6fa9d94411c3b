"""Importing Kogo's dictionary into a new SQLite store, against sgfmill alone parsing it and
visiting every node, in the same run (alternately, best of N).

Usage: python benchmarks/bench_import.py [--repeats N]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import KOGO, best_of, need, report, sgfmill_visit

from joseki.importer import import_file
from joseki.store import Store


def import_new(store: Store) -> int:
    with store.read() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM variation").scalar_one())


def timed_import(path: Path) -> tuple[float, int]:
    """Seconds to import ``path`` into a new store whose schema is already created."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(str(Path(tmp) / "book.sqlite"))
        try:
            seconds = best_of(1, lambda: import_file(store, path))
            return seconds, import_new(store)
        finally:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    path = need(KOGO)
    import_s = sgfmill_s = float("inf")
    records = 0
    for _ in range(args.repeats):
        sgfmill_s = min(sgfmill_s, best_of(1, lambda: sgfmill_visit(path)))
        seconds, records = timed_import(path)
        import_s = min(import_s, seconds)
    print(f"Kogo: {records} records imported")
    report({"file": path.name, "records": records, "import_s": round(import_s, 4),
            "sgfmill_s": round(sgfmill_s, 4), "ratio": round(import_s / sgfmill_s, 3), "repeats": args.repeats})


if __name__ == "__main__":
    main()
