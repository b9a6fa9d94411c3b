"""Next-move query latency on a store of at least 1,000,000 variation records.

The records are synthesised from real data: Kogo's dictionary's records, plus the corner
play-step strings of the Tygem 9-dan games (../shared/data/games/tygem-9d-2011, unpacked
into benchmarks/.cache/tygem), each cut at every even length from 8 steps to its end (at
most 40 steps), deduplicated, until ``--records`` distinct strings. They are written through
the importer's own functions into benchmarks/.cache/query-<N>.sqlite (kept for later runs).

Queried: the empty prefix, every one-step prefix, and prefixes sampled from the records at
every depth (their subtrees hold most records near the root); each through
:func:`joseki.book.query.next.next_moves` with ``--steps``, in-process, after reading the file once
so that the page cache is warm; on the store (SQLAlchemy), and again on the read-only sqlite3
connection ``joseki next`` uses (:func:`joseki.book.store.bookfile.open_book_file`: ``sqlite3_p50_ms``).
Wall-clock and CPU-time percentiles are both reported: on a shared machine the wall-clock
tail is the scheduler's (the load average is printed too). ``dict_p50_ms`` is the same
answers (continuations and their path counts, sorted) read from an in-memory dict holding
the queried prefixes: the floor.

Usage: python benchmarks/bench_query.py [--records 1000000] [--queries 3000]
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from common import CACHE, KOGO, need, report
from games_data import tygem_files

from joseki.book.importer import FileReport, import_forest
from joseki.book.query.next import next_moves
from joseki.book.store.bookfile import open_book_file
from joseki.book.store.database import Store
from joseki.book.store.keys import node_id
from joseki.core.corners import corner_tables
from joseki.core.geometry import Corner
from joseki.sgf.forest import Forest, Variation, flatten_file
from joseki.sgf.game import read_learnable

MAX_STEPS = 40


def game_corners(path: str) -> list[str]:
    """The play-step string of each corner with local moves of a learnable game (runs in a worker)."""
    game, skipped = read_learnable(path)
    if game is None or skipped is not None:
        return []
    return [t.builder.steps for t in corner_tables(game.moves).values() if t.builder.first_colour is not None]


def corner_strings(files: list[str]) -> list[str]:
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        return [steps[: 2 * MAX_STEPS] for corners in pool.imap(game_corners, files, chunksize=256)
                for steps in corners]


def synthesise(target: int) -> list[str]:
    records = dict.fromkeys(v.steps for v in flatten_file(need(KOGO)).variations)
    strings = corner_strings(tygem_files())
    for end in range(2 * MAX_STEPS, 14, -2):
        for s in strings:
            if len(s) >= end:
                records.setdefault(s[:end])
        if len(records) >= target:
            break
    return list(records)[:target]


def build(path: Path, target: int) -> int:
    steps = synthesise(target)
    forest = Forest(source=f"synthetic {len(steps)}", encoding="utf-8")
    forest.variations = [Variation(s, "b", Corner.TOP_RIGHT, False, 0, "", (), False) for s in steps]
    store = Store(str(path))
    with store.write() as conn:
        import_forest(conn, store, forest, "synthetic", hashlib.sha256(b"synthetic").hexdigest(), False,
                      FileReport(str(path), "synthetic"))
    return len(steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=3000)
    args = parser.parse_args()
    path = CACHE / f"query-{args.records}.sqlite"
    if not path.exists():
        started = time.perf_counter()
        built = build(path, args.records)
        print(f"built {built} records in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    with path.open("rb") as f:  # a warm page cache: the query is measured, not the disk
        while f.read(1 << 24):
            pass
    store = Store(str(path))
    with store.read() as conn:
        records = conn.exec_driver_sql("SELECT count(*) FROM variation").scalar_one()
        nodes = conn.exec_driver_sql("SELECT count(*) FROM node").scalar_one()
        sample = [s for (s,) in conn.exec_driver_sql(
            "SELECT steps FROM variation WHERE id % 97 = 0 LIMIT 20000")]
    rng = random.Random(7)
    firsts = sorted({s[:2] for s in sample})
    prefixes = ["", *firsts]
    while len(prefixes) < args.queries:
        s = rng.choice(sample)
        prefixes.append(s[: 2 * rng.randint(1, len(s) // 2)])
    children: dict[str, list[tuple[str, int]]] = {}
    with store.read() as conn:
        for p in set(prefixes):
            children[p] = [(move, paths) for move, paths in conn.exec_driver_sql(
                "SELECT n.move, nb.paths FROM node n JOIN node_book nb ON nb.node_id = n.id WHERE n.parent_id = ?",
                (node_id(p),))]
    book = open_book_file(str(path))
    assert book is not None, f"{path} is not a current SQLite book"
    for p in prefixes[:50]:
        next_moves(store, steps=p)
        next_moves(book, steps=p)
    times, cpu_times, dict_times, depths = [], [], [], Counter[int]()
    book_times: list[float] = []
    for p in prefixes:
        c0, t0 = time.process_time(), time.perf_counter()
        next_moves(store, steps=p)
        times.append(time.perf_counter() - t0)
        cpu_times.append(time.process_time() - c0)
        t0 = time.perf_counter()
        next_moves(book, steps=p)
        book_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        sorted(children.get(p, ()), key=lambda c: -c[1])
        dict_times.append(time.perf_counter() - t0)
        depths[len(p) // 2] += 1
    head = [t for p, t in zip(prefixes, times, strict=True) if len(p) <= 2]

    def pct(values: list[float], q: float) -> float:
        return round(1000 * statistics.quantiles(values, n=100)[int(q) - 1], 4)

    figures = {"records": records, "nodes": nodes, "queries": len(times), "p50_ms": pct(times, 50),
               "p99_ms": pct(times, 99), "max_ms": round(1000 * max(times), 3),
               "empty_and_one_step_max_ms": round(1000 * max(head), 3), "dict_p50_ms": pct(dict_times, 50),
               "cpu_p50_ms": pct(cpu_times, 50), "cpu_p99_ms": pct(cpu_times, 99),
               "sqlite3_p50_ms": pct(book_times, 50), "sqlite3_p99_ms": pct(book_times, 99),
               "load_average": round(os.getloadavg()[0], 2),
               "store_mb": round(path.stat().st_size / 2**20, 1)}
    print(f"{records} records, {nodes} nodes: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")
    report(figures)


if __name__ == "__main__":
    main()
