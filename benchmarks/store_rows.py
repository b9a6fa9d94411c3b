"""Whether two SQLite stores hold the same rows: every table, its rows sorted, times of day left out.

For checking that a change to ``learn`` or ``mine`` keeps every statistic: build a store with
the code before and one with the code after on the same games, then compare them. Columns
that hold when a row was written (``*_at``) differ between any two runs and are left out.

Usage (from benchmarks/):
    python store_rows.py build learn|mine OUT.sqlite [--limit 3000]  (learn: into a store holding Kogo's
        dictionary; mine: --min-games 5 into an empty one; with the code ``import joseki`` finds, so
        ``PYTHONPATH=OTHER_TREE`` builds with another tree's code)
    python store_rows.py compare A.sqlite B.sqlite  (each table's rows and digest in both; the JSON's
        ``same`` is true when every table matches; exit status 1 when not)
"""

from __future__ import annotations

import argparse
import hashlib
import sqlite3
import sys
from pathlib import Path

from common import KOGO, need, report
from games_data import tygem_files


def tables(db: str) -> dict[str, tuple[int, str]]:
    """Each table's row count and a digest of its sorted rows."""
    out: dict[str, tuple[int, str]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                            "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for name in names:
            columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")') if not r[1].endswith("_at")]
            rows = sorted(repr(row) for row in conn.execute(f'SELECT {", ".join(columns)} FROM "{name}"'))
            digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]
            out[name] = (len(rows), digest)
    return out


def build(command: str, out: str, limit: int, min_games: int) -> None:
    """A store learnt or mined from the first ``limit`` Tygem games, with one worker (the rows do not depend on it)."""
    from joseki.book.importer import import_file
    from joseki.book.store.database import Store
    from joseki.games.learn import learn
    from joseki.games.mine import mine

    for extra in ("", "-journal", "-wal", "-shm"):
        Path(f"{out}{extra}").unlink(missing_ok=True)
    files = tygem_files()[:limit]
    store = Store(out)
    if command == "learn":
        import_file(store, need(KOGO), "kogo")
        result = learn(store, files, workers=1)
    else:
        result = mine(store, files, min_games, "tygem", workers=1)[0]
    store.close()
    report({"command": command, "games": len(files), "learnt": result.learnt, "credits": result.credits})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    making = sub.add_parser("build")
    making.add_argument("command", choices=("learn", "mine"))
    making.add_argument("out")
    making.add_argument("--limit", type=int, default=3000)
    making.add_argument("--min-games", type=int, default=5)
    comparing = sub.add_parser("compare")
    comparing.add_argument("a")
    comparing.add_argument("b")
    args = parser.parse_args()
    if args.action == "build":
        build(args.command, args.out, args.limit, args.min_games)
        return
    a, b = tables(args.a), tables(args.b)
    differ = sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))
    for name in sorted(a.keys() | b.keys()):
        print(f"{name:>20}: {a.get(name)} {b.get(name)}{'  DIFFERENT' if name in differ else ''}")
    report({"same": not differ, "different": differ, "rows": {name: a[name][0] for name in a}})
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
