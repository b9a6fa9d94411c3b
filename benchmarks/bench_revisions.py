"""CPU time of ``mine`` and ``learn`` at several git revisions of this project, alternated in one run.

Each revision is checked out (``git worktree add --detach``) under benchmarks/.cache/revisions
and run in a process of its own (PYTHONPATH set to that tree, this venv's packages): ``mine``
of the first ``--games`` Tygem games (``--min-games 5``) into a new store, and ``learn`` of the
same games into a new store holding Kogo's dictionary, both with one worker, the process's CPU
seconds (``time.process_time``) around the call alone. Rounds alternate the revisions so that a
shared machine's load falls on each alike; the medians and their ratios to the first revision
are the figures (what a change costs mine and learn).

Usage: python benchmarks/bench_revisions.py [--games 2000] [--rounds 4] REV [REV ...]
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
from joseki.book.store import Store
mode, db, kogo, listing = sys.argv[1:5]
files = Path(listing).read_text().split("\\n")
Path(db).unlink(missing_ok=True)
store = Store(db)
if mode == "learn":
    from joseki.book.importer import import_files
    import_files(store, [Path(kogo)], "kogo")
started = time.process_time()
if mode == "mine":
    from joseki.games.mine import mine
    mine(store, files, 5, "mined", workers=1)
else:
    from joseki.games.learn import learn
    learn(store, files, workers=1)
print(time.process_time() - started)
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


def cpu_seconds(tree: Path, mode: str, listing: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    db = CACHE / f"revisions-{mode}.sqlite"
    done = subprocess.run([sys.executable, "-c", CHILD, mode, str(db), str(need(KOGO)), str(listing)], env=env,
                          cwd=tree, check=True, capture_output=True, text=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("revisions", nargs="+")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    listing = CACHE / "revisions-games.txt"
    listing.write_text("\n".join(sorted(tygem_files())[: args.games]))
    trees = {rev: checkout(rev) for rev in args.revisions}
    times: dict[str, dict[str, list[float]]] = {rev: {"mine": [], "learn": []} for rev in args.revisions}
    for round_ in range(args.rounds):
        for rev, tree in trees.items():
            for mode in ("mine", "learn"):
                times[rev][mode].append(round(cpu_seconds(tree, mode, listing), 2))
                print(f"round {round_ + 1} {rev} {mode} {times[rev][mode][-1]} s", flush=True)
    first = args.revisions[0]
    figures: dict[str, object] = {"games": args.games, "rounds": args.rounds, "load_average": os.getloadavg()[0]}
    for rev in args.revisions:
        for mode in ("mine", "learn"):
            median = statistics.median(times[rev][mode])
            figures[f"{rev}_{mode}_s"] = times[rev][mode]
            figures[f"{rev}_{mode}_median_s"] = round(median, 2)
            figures[f"{rev}_{mode}_ratio"] = round(median / statistics.median(times[first][mode]), 3)
    report(figures)


if __name__ == "__main__":
    main()
