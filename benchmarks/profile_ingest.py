"""Where ``learn`` and ``mine`` spend their time, step by step, as the learning pipeline itself counts it.

The pipeline (:mod:`joseki.games.pipeline`) adds up the seconds of each step of a run in the
process that runs it (in the workers: ``read``, the ``walk`` through the book, each statistic's
per-game step, ``judge``, mine's ``read and reduce``; in the parent: ``claim``, each statistic's
writer, ``commit``, mine's ``counting``, ``book`` and ``adding rows``, and ``parent``, the parent's
whole time handing games on). This runs ``learn`` (into a copy of a store holding Kogo's dictionary)
or ``mine`` (into an empty store) once, in a new process, on the first ``--limit`` Tygem games, and
prints each step's seconds, its microseconds a game and its share of the run's counted seconds,
beside the wall time, the CPU of the parent and of its workers, the peak memory, and sgfmill's
single-core parse of the same (warm) files.

With ``--workers 1`` every step runs in one process, so the shares are the whole cost of each
statistic; ``--cprofile FILE`` then also writes a cProfile of the run.

Repeat it: ``cd benchmarks && python profile_ingest.py learn --limit 20000`` (or ``mine``;
``--workers 1`` for one process, with ``--cprofile FILE`` its own time by function grouped into the
stages of :data:`GROUPS` (``profile_shares``); ``--signal local``
judges with GNU Go: give it few games; ``--index`` builds the
pattern index too, its share named ``pattern index``).
"""

from __future__ import annotations

import argparse
import cProfile
import shutil
import time
from pathlib import Path
from typing import Any

from common import CACHE, KOGO, in_fresh_process, load, need, report, sgfmill_seconds, warm
from games_data import tygem_files

from joseki.book.importer import import_file
from joseki.book.store.database import Store

TEMPLATE = CACHE / "profile-kogo.sqlite"

GROUPS = (
    ("replay (legality, captures)", ("core/readboard.py",)),
    ("parse", ("sgf/sgfparse.py", "sgfmill/", "re.Pattern")),
    ("the game's facts and key", ("sgf/game.py", "sgf/text.py", "core/gameinfo.py", "hashlib", "sgf/archive.py",
                                  "pathlib.py", "posix.", "io.", "open")),
    ("corner tables", ("core/corners.py", "core/steps.py")),
    ("book walk and credits", ("book/query/walk.py", "core/position.py", "book/query/inmemory.py",
                               "games/credit.py:of", "games/credit.py:route_credits", "games/credit.py:credit_",
                               "games/credit.py:node_rows")),
    ("contexts", ("core/context.py", "games/credit.py", "book/query/next.py")),
    ("the parent's writes (rows summed, SQL, commits)", ("games/signals.py", "book/gamerefs/", "book/learnt/",
                                                        "sqlalchemy/", "sqlite3", "heapq", "book/store/")),
    ("pipeline and pickling", ("games/pipeline.py", "games/fanout.py", "games/pool.py", "pickle", "multiprocessing")),
    ("mining (counting, held games, the book)", ("games/mine.py", "book/importer.py", "sgf/forest.py",
                                                 "book/learnt/beyond.py", "array")),
    ("pattern index", ("book/patterns/", "core/movelist.py", "games/indexing.py", "numpy")),
)
"""Where a cProfile's own time (tottime) is counted: the first group whose pattern is in the function's file and
name; a built-in call's time (``{method 'get' of 'dict' objects}``) goes to the groups of its callers."""


def grouped(path: str) -> dict[str, float]:
    """A cProfile's own time by :data:`GROUPS`, as shares of the whole."""
    import pstats

    def group(file: str, name: str) -> str:
        where = f"{file}:{name}"
        return next((g for g, patterns in GROUPS if any(p in where for p in patterns)), "other")

    totals: dict[str, float] = {}
    for (file, _, name), (_, _, own, _, callers) in pstats.Stats(path).stats.items():  # type: ignore[attr-defined]
        if file == "~" and callers:  # a built-in: its time when called from each caller, to the caller's group
            for (caller_file, _, caller), (_, _, spent, _) in callers.items():
                totals[group(caller_file, caller)] = totals.get(group(caller_file, caller), 0.0) + spent
            continue
        totals[group(file, name)] = totals.get(group(file, name), 0.0) + own
    whole = sum(totals.values()) or 1.0
    return {g: round(s / whole, 3) for g, s in sorted(totals.items(), key=lambda item: -item[1])}


def fresh(name: str, template: Path | None) -> Store:
    """A new store at ``name`` in the cache: a copy of ``template``, or empty."""
    db = CACHE / f"{name}.sqlite"
    for extra in ("", "-journal", "-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    if template is not None:
        shutil.copy(template, db)
    return Store(str(db))


def run(command: str, files: list[str], workers: int | None, signal: str, min_games: int,
        cprofile: str | None, index: bool = False) -> dict[str, Any]:
    """One learn or mine (in a process of its own): its wall seconds and each step's CPU seconds."""
    from joseki.games.learn import learn
    from joseki.games.mine import mine

    store = fresh(f"profile-{command}", TEMPLATE if command == "learn" else None)
    profiler = cProfile.Profile() if cprofile else None
    if profiler is not None:
        profiler.enable()
    started = time.perf_counter()
    if command == "learn":
        judge = None
        if signal != "result":
            from joseki.engine.judge import JudgeCommand

            judge = JudgeCommand()
        result = learn(store, files, workers=workers, signal=signal, judge=judge, index=index)
    else:
        result = mine(store, files, min_games, "tygem", workers=workers, index=index)[0]
    wall = time.perf_counter() - started
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(str(cprofile))
    store.close()
    counted = sum(result.seconds.values()) - result.seconds.get("parent", 0.0)
    games = max(len(files), 1)
    steps = {name: {"s": round(s, 2), "us_per_game": round(1e6 * s / games, 1),
                    "share": round(s / counted, 3) if counted else 0.0}
             for name, s in sorted(result.seconds.items(), key=lambda item: -item[1])}
    return {"wall_s": round(wall, 2), "learnt": result.learnt, "credits": result.credits,
            "counted_s": round(counted, 2), "steps": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("learn", "mine"))
    parser.add_argument("--limit", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--signal", default="result", choices=("result", "local", "both"))
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--index", action="store_true", help="also build the pattern index (learn/mine --index)")
    parser.add_argument("--cprofile", default=None, help="write a cProfile of the run here (with --workers 1)")
    args = parser.parse_args()
    started_load = load()
    files = tygem_files()[: args.limit]
    warm(files)
    if args.command == "learn":
        TEMPLATE.unlink(missing_ok=True)
        store = Store(str(TEMPLATE))
        import_file(store, need(KOGO), "kogo")
        store.close()
    sgfmill = sgfmill_seconds(files)
    figures = in_fresh_process(run, args.command, files, args.workers, args.signal, args.min_games, args.cprofile,
                              args.index)
    profile = {"profile_shares": grouped(args.cprofile)} if args.cprofile else {}
    report({"command": args.command, "games": len(files), "workers": args.workers, "signal": args.signal,
            "sgfmill_s": round(sgfmill, 2), "ratio": round(figures["wall_s"] / sgfmill, 3), **figures,
            **profile, "load": [started_load, load()]})


if __name__ == "__main__":
    main()
