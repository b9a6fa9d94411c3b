"""Whether two SQLite stores hold the same rows: every table, its rows sorted, times of day left out.

For checking that a change to ``learn`` or ``mine`` keeps every statistic: build a store with
the code before and one with the code after on the same games, then compare them. Columns
that hold when a row was written (``*_at``) differ between any two runs and are left out.

Usage (from benchmarks/):
    python store_rows.py build learn|mine OUT.sqlite [--limit 3000] [--fox 0] [--workers 1]
        [--signal result|local|both] [--batch 500]
        (learn: into a store holding Kogo's dictionary; mine: --min-games 5 into an empty one; the
        first ``--limit`` Tygem games, then the first ``--fox`` Fox games; with the code ``import
        joseki`` finds, so ``PYTHONPATH=OTHER_TREE`` builds with another tree's code: this tree's, or
        one from before book/ was regrouped and ``learn`` took every signal, such as /work/base)
    python store_rows.py compare A.sqlite B.sqlite  (each table's rows and digest in both; the JSON's
        ``same`` is true when every table matches; exit status 1 when not)

A local signal judges with GNU Go (slow: give it a handful of games).
"""

from __future__ import annotations

import argparse
import hashlib
import sqlite3
import sys
from pathlib import Path

from common import KOGO, need, report
from games_data import set_files, tygem_files


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


def build(command: str, out: str, files: list[str], min_games: int, workers: int, signal: str, batch: int) -> None:
    """A store learnt or mined from ``files`` (the rows do not depend on ``workers``)."""
    from joseki.book.importer import import_file
    from joseki.games.mine import mine

    try:
        from joseki.book.store.database import Store
    except ImportError:  # the code before book/ was regrouped
        from joseki.book.store import Store  # type: ignore[no-redef]

    for extra in ("", "-journal", "-wal", "-shm"):
        Path(f"{out}{extra}").unlink(missing_ok=True)
    store = Store(out)
    if command == "learn":
        import_file(store, need(KOGO), "kogo")
        result = learn_any(store, files, workers, signal, batch)
    else:
        result = mine(store, files, min_games, "tygem", workers=workers)[0]
    store.close()
    report({"command": command, "games": len(files), "signal": signal, "learnt": result.learnt,
            "credits": result.credits})


def learn_any(store: object, files: list[str], workers: int, signal: str, batch: int) -> object:
    """``learn`` with ``signal`` as either tree's code takes it: one ``learn`` for every signal, or
    ``engine.local.learn_signals`` before it; the result signal's report (or, for ``local``, the judge's)."""
    from joseki.games.learn import learn

    try:
        from joseki.engine.judge import JudgeCommand
    except ImportError:
        from joseki.engine.local import learn_signals

        results, local = learn_signals(store, files, None, signal, workers, batch_games=batch)
        return results if results is not None else _judged(local)
    learnt = learn(store, files, None, workers, batch_games=batch, signal=signal,
                   judge=JudgeCommand() if signal != "result" else None)
    return learnt if signal != "local" else _judged(learnt.local)


def _judged(local: object) -> object:
    """A judge's report as :func:`build` reports it (judged games as learnt, corners as credits)."""
    from types import SimpleNamespace

    return SimpleNamespace(learnt=local.judged, credits=local.corners)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    making = sub.add_parser("build")
    making.add_argument("command", choices=("learn", "mine"))
    making.add_argument("out")
    making.add_argument("--limit", type=int, default=3000, help="the first N Tygem games")
    making.add_argument("--fox", type=int, default=0, help="then the first N Fox games")
    making.add_argument("--min-games", type=int, default=5)
    making.add_argument("--workers", type=int, default=1)
    making.add_argument("--signal", default="result", choices=("result", "local", "both"))
    making.add_argument("--batch", type=int, default=500)
    comparing = sub.add_parser("compare")
    comparing.add_argument("a")
    comparing.add_argument("b")
    args = parser.parse_args()
    if args.action == "build":
        files = tygem_files()[: args.limit] + sorted(set_files("fox-pro"))[: args.fox]
        build(args.command, args.out, files, args.min_games, args.workers, args.signal, args.batch)
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
