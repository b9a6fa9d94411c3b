"""Pattern search over the Tygem 9-dan games: the index's build time against sgfmill's parse, its bytes a game, and
the time of each search by placement.

Builds the pattern index of the games (all 77,988 by default; ``--limit N``) into a new SQLite store with
``joseki index``'s library call (2 workers), and times sgfmill alone reading every game's main line on one
core before and after it (the files warmed first; the baseline is the mean of the two). Then loads the index
once (timed) and runs ``--patterns`` searches of each placement, drawn from the games themselves (a random
game, a random move, a rectangle of the board then, a third with wildcards, a third with fixed colours):
corners 6x6 to 10x10, sides (3 to 5 lines deep, 5 to 9 wide), anywhere 3x3 to 5x5 with at least two stones.
Prints the p50 and p99 of each placement, the slowest patterns, and one JSON object last (``cpu_ratio``: the
build's CPU shared over the cores over the baseline's; ``build_parent_mb`` and ``build_worker_mb``: the peak resident
set of this process, which merges and writes the segments, and of the largest worker). ``--build-only`` times the
build alone; ``--reuse``
searches the index the last run built, without building or timing a build.
Before loading it, times the whole command ``joseki --db sqlite:///INDEX search CLI_PATTERN`` (a process that
reads only what its search needs): the median of ``--cli-runs`` runs. ``--lazy-passes N`` then runs the same searches
N times more through ``search`` on the store, which reads the index lazily as ``joseki serve`` does (each pass reads
less that is new to it): the p50 and p99 of each pass.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

from common import (
    CACHE,
    WorkerPeaks,
    fresh_store,
    joseki_command,
    peak_mb,
    report,
    sgfmill_seconds,
    tree_cpu_s,
    wall_seconds,
)
from games_data import tygem_files

from joseki.book.patternsearch import IndexArrays, Query, forget, loaded, run, search
from joseki.book.store.database import Store
from joseki.core.geometry import Corner
from joseki.core.movelist import decode
from joseki.core.pattern import Pattern, Placement, Side, Where
from joseki.games.indexing import index_games


def _cut(board: list[int], x0: int, y0: int, w: int, h: int, rng: random.Random, blur: bool) -> Pattern:
    rows = []
    for dy in range(h):
        row = ""
        for dx in range(w):
            state = board[(x0 + dx) * 19 + y0 + dy]
            letter = ".XO"[state]
            if blur and rng.random() < 0.25:
                letter = {"X": "x", "O": "o", ".": rng.choice("xo*")}[letter]
            row += letter
        rows.append(row)
    return Pattern(tuple(rows))


def patterns(arrays: IndexArrays, count: int, kinds: list[Where], seed: int = 7) -> list[tuple[str, Query]]:
    """``count`` queries of each placement of ``kinds``, cut from real positions."""
    rng = random.Random(seed)
    found: list[tuple[str, Query]] = []
    for where in kinds:
        made = 0
        while made < count:
            game = decode(arrays.game_words(rng.randrange(len(arrays))).tobytes())
            boards = [list(b) for b in game.boards()]
            t = rng.randint(10, min(120, len(boards) - 1))
            board = boards[t]
            blur, fixed = made % 3 == 1, made % 3 == 2
            if where is Where.CORNER:
                w = h = rng.randint(6, 10)
                placement = Placement(where, corner=rng.choice(list(Corner)))
            elif where is Where.SIDE:
                w, h = rng.randint(5, 9), rng.randint(3, 5)
                placement = Placement(where, side=Side.TOP)
            else:
                w = h = rng.randint(3, 5)
                placement = Placement(where)
            home, offsets = placement.home(Pattern(("." * w,) * h))
            ox, oy = rng.choice(offsets)
            pattern = _cut(board, home[0] + ox, home[1] + oy, w, h, rng, blur)
            if pattern.stones < (2 if where is Where.ANYWHERE else 1):
                continue
            found.append((where.value, Query(pattern, placement, fixed_colour=fixed, limit=20)))
            made += 1
    return found


CLI_PATTERN = "....../....../...O../...X../....../......"
"""The pattern the command-line search is timed with (a corner's 3-4 point and a stone beside it)."""


def cli_seconds(db: Path, runs: int) -> list[float]:
    """Wall seconds of each of ``runs`` runs of ``joseki --db sqlite:///DB search CLI_PATTERN``."""
    return [wall_seconds([*joseki_command(), "--db", f"sqlite:///{db}", "search", CLI_PATTERN]) for _ in range(runs)]


def _cpu() -> float:
    """CPU seconds of this process and of the processes it started (the build's workers, :func:`common.tree_cpu_s`)."""
    return time.process_time() + tree_cpu_s()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="index only the first N games")
    parser.add_argument("--patterns", type=int, default=30, help="searches of each placement")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--placements", default="corner,side,anywhere", help="which placements to time")
    parser.add_argument("--reuse", action="store_true", help="search the index of the last run (no build timed)")
    parser.add_argument("--build-only", action="store_true", help="time the build only (no search)")
    parser.add_argument("--cli-runs", type=int, default=3, help="runs of the timed joseki search command")
    parser.add_argument("--lazy-passes", type=int, default=0,
                        help="passes of the searches through search() on the store, read lazily (as joseki serve)")
    args = parser.parse_args()
    if args.reuse:
        store = Store(str(CACHE / "bench_search.sqlite"))
        build_s = baseline = build_cpu = base_cpu = parent_mb = worker_mb = float("nan")
        added = skipped = 0
    else:
        files = tygem_files()[: args.limit]
        for f in files:
            Path(f).read_bytes()
        cpu = time.process_time()
        before = sgfmill_seconds(files)
        base_cpu = time.process_time() - cpu
        store = fresh_store("bench_search")
        started, cpu, sampler = time.perf_counter(), _cpu(), WorkerPeaks()
        sampler.start()
        built = index_games(store, files, workers=args.workers)
        build_s, build_cpu = time.perf_counter() - started, _cpu() - cpu
        parent_mb, worker_mb = peak_mb(), sampler.stop()
        cpu = time.process_time()
        after = sgfmill_seconds(files)
        base_cpu = (base_cpu + time.process_time() - cpu) / 2
        baseline = (before + after) / 2
        added, skipped = built.added, len(built.skipped)
    if args.build_only and not args.reuse:
        report({"games": added, "skipped": skipped, "build_s": round(build_s, 2), "sgfmill_s": round(baseline, 2),
                "ratio": round(build_s / baseline, 3),
                "cpu_ratio": round(build_cpu / (os.cpu_count() or 1) / base_cpu, 3),
                "build_parent_mb": round(parent_mb, 1), "build_worker_mb": round(worker_mb, 1)})
        return
    cli = cli_seconds(CACHE / "bench_search.sqlite", args.cli_runs) if args.cli_runs else []
    started = time.perf_counter()
    arrays = loaded(store)
    load_s = time.perf_counter() - started
    db_bytes = (CACHE / "bench_search.sqlite").stat().st_size
    queries = patterns(arrays, args.patterns, [Where(k) for k in args.placements.split(",")])
    games, stored = len(arrays), arrays.stored_bytes
    run(arrays, queries[0][1])
    timings: dict[str, list[float]] = {}
    slowest: list[tuple[float, str, str, int]] = []
    for kind, query in queries:
        started = time.perf_counter()
        found = run(arrays, query)
        seconds = time.perf_counter() - started
        timings.setdefault(kind, []).append(seconds)
        slowest.append((seconds, kind, "/".join(query.pattern.rows), found.hits))
    slowest.sort(reverse=True)
    per = {kind: {"p50_ms": round(1000 * percentile(ts, 0.5), 1), "p99_ms": round(1000 * percentile(ts, 0.99), 1),
                  "max_ms": round(1000 * max(ts), 1)} for kind, ts in timings.items()}
    every = [t for ts in timings.values() for t in ts]
    for kind, figures in per.items():
        print(f"{kind:>9}: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")
    for seconds, kind, rows, hits in slowest[:5]:
        print(f"slow: {1000 * seconds:.0f} ms {kind} {rows} ({hits} hits)")
    if cli:
        print(f"joseki search {CLI_PATTERN}: {statistics.median(cli):.2f} s (median of {len(cli)})")
    lazy = []
    if args.lazy_passes:
        forget(store.url)
        del arrays
        for n in range(args.lazy_passes):
            times: dict[str, list[float]] = {}
            for kind, query in queries:
                started = time.perf_counter()
                search(store, query)
                times.setdefault(kind, []).append(time.perf_counter() - started)
            lazy.append({kind: {"p50_ms": round(1000 * percentile(ts, 0.5), 1),
                                "p99_ms": round(1000 * percentile(ts, 0.99), 1)} for kind, ts in times.items()})
            print(f"read lazily, pass {n + 1}: " + ", ".join(f"{k} p50 {v['p50_ms']} ms p99 {v['p99_ms']} ms"
                                                             for k, v in lazy[-1].items()))
    report({"games": games, "added": added, "skipped": skipped,
            "build_s": None if args.reuse else round(build_s, 2),
            "sgfmill_s": None if args.reuse else round(baseline, 2),
            "ratio": None if args.reuse else round(build_s / baseline, 3),
            "cpu_ratio": None if args.reuse else round(build_cpu / (os.cpu_count() or 1) / base_cpu, 3),
            "build_parent_mb": None if args.reuse else round(parent_mb, 1),
            "build_worker_mb": None if args.reuse else round(worker_mb, 1),
            "load_s": round(load_s, 2),
            "cli_search_s": round(statistics.median(cli), 2) if cli else None,
            "cli_search_runs_s": [round(s, 2) for s in cli],
            "index_bytes_per_game": round(stored / games, 1),
            "db_bytes_per_game": round(db_bytes / games, 1), "placements": per, "lazy_passes": lazy,
            "p50_ms": round(1000 * percentile(every, 0.5), 1), "p99_ms": round(1000 * percentile(every, 0.99), 1),
            "slowest": [{"ms": round(1000 * s, 1), "placement": k, "pattern": r, "hits": h}
                        for s, k, r, h in slowest[:5]]})


if __name__ == "__main__":
    main()
