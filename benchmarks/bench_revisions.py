"""CPU time (and wall time) of ``mine`` and ``learn`` at several git revisions of this project, alternated in one run.

Each revision is checked out (``git worktree add --detach``) under benchmarks/.cache/revisions
and run in a process of its own (PYTHONPATH set to that tree, this venv's packages): ``mine``
of the first ``--games`` Tygem games (``--min-games 5``) into a new store, and ``learn`` of the
same games into a new store holding Kogo's dictionary, with ``--workers`` worker processes (one:
in the process itself), the CPU seconds of the process and its workers and the wall seconds around
the call alone. Rounds alternate the revisions so that a shared machine's load falls on each alike;
the medians and their ratios to the first revision are the figures (what a change costs mine and
learn: CPU with one worker, the wall time a user waits with all of them, ``--workers 2``).

``--modes`` also takes ``mine-index`` and ``learn-index`` (the same with ``--index``) and ``index`` (``joseki index`` of
the same games into a new store).

Usage: python benchmarks/bench_revisions.py [--games 2000] [--rounds 4] [--workers 1] [--modes mine,learn] REV [REV ...]
       (e.g. ``b2d644d^1 HEAD``: before the context statistics, and now)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from common import CACHE, KOGO, ROOT, need, report
from games_data import tygem_files

CHILD = """
import sys, time
from pathlib import Path


if __name__ == "__main__":
    sys.path.append(BENCHMARKS)
    from common import tree_cpu_s as children
    try:
        from joseki.book.store.database import Store
    except ImportError:  # a tree from before book/ was grouped by job
        from joseki.book.store import Store
    mode, db, kogo, listing, workers = sys.argv[1:6]
    files = Path(listing).read_text().split("\\n")
    Path(db).unlink(missing_ok=True)
    store = Store(db)
    indexed = {"index": True} if mode.endswith("-index") else {}
    if mode.startswith("learn"):
        from joseki.book.importer import import_files
        import_files(store, [Path(kogo)], "kogo")
    started, wall, before = time.process_time(), time.perf_counter(), children()
    if mode == "index":
        from joseki.games.indexing import index_games
        index_games(store, files, workers=int(workers))
    elif mode.startswith("mine"):
        from joseki.games.mine import mine
        mine(store, files, 5, "mined", workers=int(workers), **indexed)
    else:
        from joseki.games.learn import learn
        learn(store, files, workers=int(workers), **indexed)
    print(time.process_time() - started + children() - before, time.perf_counter() - wall)
"""


def checkout(rev: str) -> Path:
    """A detached worktree of ``rev`` (made once per commit)."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", rev], check=True, capture_output=True,
                            text=True).stdout.strip()
    tree = CACHE / "revisions" / commit[:12]
    if not tree.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit], check=True,
                       capture_output=True)
    return tree


def seconds(tree: Path, mode: str, listing: Path, workers: int) -> tuple[float, float]:
    """The CPU seconds (the process and its workers) and the wall seconds of one run."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    db = CACHE / f"revisions-{mode}.sqlite"
    script = CACHE / "revisions-child.py"  # a file, not -c: spawned workers import the main module again
    script.write_text(CHILD.replace("BENCHMARKS", repr(str(Path(__file__).resolve().parent))))
    done = subprocess.run([sys.executable, str(script), mode, str(db), str(need(KOGO)), str(listing), str(workers)],
                          env=env, cwd=tree, check=True, capture_output=True, text=True)
    cpu, wall = done.stdout.split()[-2:]
    return float(cpu), float(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("revisions", nargs="+")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1: in the process itself)")
    parser.add_argument("--modes", default="mine,learn",
                        help="which commands to run: mine, learn, mine-index, learn-index, index")
    args = parser.parse_args()
    modes = args.modes.split(",")
    listing = CACHE / "revisions-games.txt"
    listing.write_text("\n".join(sorted(tygem_files())[: args.games]))
    trees = {rev: checkout(rev) for rev in args.revisions}
    cpu: dict[str, dict[str, list[float]]] = {rev: {mode: [] for mode in modes} for rev in args.revisions}
    wall: dict[str, dict[str, list[float]]] = {rev: {mode: [] for mode in modes} for rev in args.revisions}
    for round_ in range(args.rounds):
        for rev, tree in trees.items():
            for mode in modes:
                spent, waited = seconds(tree, mode, listing, args.workers)
                cpu[rev][mode].append(round(spent, 2))
                wall[rev][mode].append(round(waited, 2))
                print(f"round {round_ + 1} {rev} {mode} CPU {spent:.2f} s, wall {waited:.2f} s", flush=True)
    first = args.revisions[0]
    figures: dict[str, object] = {"games": args.games, "rounds": args.rounds, "workers": args.workers,
                                  "load_average": os.getloadavg()[0]}
    for rev in args.revisions:
        for mode in modes:
            for name, times in (("", cpu), ("wall_", wall)):
                median = statistics.median(times[rev][mode])
                figures[f"{rev}_{mode}_{name}s"] = times[rev][mode]
                figures[f"{rev}_{mode}_{name}median_s"] = round(median, 2)
                figures[f"{rev}_{mode}_{name}ratio"] = round(median / statistics.median(times[first][mode]), 3)
    report(figures)


if __name__ == "__main__":
    main()
