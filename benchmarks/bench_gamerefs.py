"""The cost of keeping the games behind each position: store bytes per learnt game, and learn/mine time.

``learn`` of N real games into a copy of one SQLite store holding Kogo's dictionary, and
``mine`` of the same games into an empty store, each with and without references
(``refs=False``), runs alternated and the best of ``--repeats`` kept, wall and CPU time (the
machine is shared: CPU seconds, workers included, move less with the load). Bytes are the SQLite file
after VACUUM (with minus without, per learnt game), split by table where SQLite has ``dbstat``.
Last, :func:`games_at` latency (p50, p99) over positions of the learnt store.

Usage: python benchmarks/bench_gamerefs.py [--set fox-pro] [--limit N] [--workers W] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import sqlite3
import time
from pathlib import Path

from common import CACHE, KOGO, fresh_store, need, report, tree_cpu_s
from games_data import set_files

from joseki.book.gamerefs.read import ORDERS, games_at
from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.games.learn import learn
from joseki.games.mine import mine


def table_bytes(db: Path) -> dict[str, int]:
    """Bytes of each table with its indexes, after VACUUM (empty when SQLite lacks ``dbstat``)."""
    with sqlite3.connect(db) as conn:
        conn.execute("VACUUM")
        try:
            rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
        except sqlite3.OperationalError:
            return {}
        owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master"))
    out: dict[str, int] = {}
    for name, size in rows:
        table = owner.get(name, name)
        out[table] = out.get(table, 0) + int(size)
    return out


def cpu_seconds() -> float:
    """CPU seconds of this process and of the processes it started (the worker pools, :func:`common.tree_cpu_s`)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + tree_cpu_s()


def query_ms(db: Path, count: int) -> dict[str, float]:
    """p50 and p99 of :func:`games_at` in ms, over book positions with games (both orders), on one open store."""
    store = Store(str(db))
    with store.read() as conn:
        lines = [str(r[0]) for r in conn.exec_driver_sql(
            "SELECT DISTINCT node.steps FROM game_ref JOIN node ON node.id = game_ref.node_id ORDER BY node.steps")]
    picked = random.Random(1).sample(lines, min(count, len(lines)))
    times = []
    for i, steps in enumerate(picked):
        started = time.perf_counter()
        games_at(store, steps, order=ORDERS[i % 2])
        times.append((time.perf_counter() - started) * 1000)
    store.close()
    times.sort()
    return {"games_at_p50_ms": round(times[len(times) // 2], 2),
            "games_at_p99_ms": round(times[int(len(times) * 0.99)], 2), "games_at_queries": len(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--set", default="fox-pro")
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--queries", type=int, default=300, help="games_at calls timed on the learnt store")
    args = parser.parse_args()
    files = set_files(args.set)[: args.limit]
    base = fresh_store("gamerefs-kogo")
    import_file(base, need(KOGO), "kogo")
    base.close()
    base_path = CACHE / "gamerefs-kogo.sqlite"
    times: dict[str, list[float]] = {}
    sizes: dict[str, dict[str, int]] = {}
    files_bytes: dict[str, int] = {}
    learnt: dict[str, int] = {}
    for _ in range(args.repeats):
        for refs in (False, True):
            name = "with" if refs else "without"
            db = CACHE / f"gamerefs-learn-{name}.sqlite"
            shutil.copy(base_path, db)
            store = Store(str(db))
            started, cpu = time.perf_counter(), cpu_seconds()
            learnt["learn"] = learn(store, files, workers=args.workers, refs=refs).learnt
            times.setdefault(f"learn_{name}", []).append(time.perf_counter() - started)
            times.setdefault(f"learn_{name}_cpu", []).append(cpu_seconds() - cpu)
            store.close()
            sizes[f"learn_{name}"] = table_bytes(db)
            files_bytes[f"learn_{name}"] = db.stat().st_size
            mined = fresh_store(f"gamerefs-mine-{name}")
            started, cpu = time.perf_counter(), cpu_seconds()
            learnt["mine"] = mine(mined, files, args.min_games, workers=args.workers, refs=refs)[0].learnt
            times.setdefault(f"mine_{name}", []).append(time.perf_counter() - started)
            times.setdefault(f"mine_{name}_cpu", []).append(cpu_seconds() - cpu)
            mined.close()
            db = CACHE / f"gamerefs-mine-{name}.sqlite"
            sizes[f"mine_{name}"] = table_bytes(db)
            files_bytes[f"mine_{name}"] = db.stat().st_size
    best = {k: round(min(v), 2) for k, v in times.items()}
    figures: dict[str, object] = {"set": args.set, "games": len(files), "learnt": learnt["learn"], **best}
    for command in ("learn", "mine"):
        extra = files_bytes[f"{command}_with"] - files_bytes[f"{command}_without"]
        figures[f"{command}_overhead"] = round(best[f"{command}_with"] / best[f"{command}_without"] - 1, 3)
        figures[f"{command}_cpu_overhead"] = round(best[f"{command}_with_cpu"] / best[f"{command}_without_cpu"] - 1, 3)
        figures[f"{command}_bytes_per_game"] = round(extra / max(learnt[command], 1))
        split = sizes[f"{command}_with"]
        if split:
            figures[f"{command}_game_record_bytes_per_game"] = round(split.get("game_record", 0)
                                                                     / max(learnt[command], 1))
            figures[f"{command}_game_ref_bytes_per_game"] = round(split.get("game_ref", 0) / max(learnt[command], 1))
    with sqlite3.connect(CACHE / "gamerefs-learn-with.sqlite") as conn:
        figures["learn_refs"] = conn.execute("SELECT count(*) FROM game_ref").fetchone()[0]
        figures["learn_nodes_with_refs"] = conn.execute("SELECT count(DISTINCT node_id) FROM game_ref").fetchone()[0]
    figures.update(query_ms(CACHE / "gamerefs-learn-with.sqlite", args.queries))
    print(f"{learnt['learn']} games learnt; learn {best['learn_with']} s with refs, {best['learn_without']} s "
          f"without; mine {best['mine_with']} s with, {best['mine_without']} s without")
    report(figures)


if __name__ == "__main__":
    main()
