"""Where ``learn`` and ``mine`` spend their time: a worker's per-game work, the parent's, and the pool's.

``worker``: in this process, for each of the first ``--limit`` Tygem games, every step of
``learn``'s :func:`joseki.games.learn.examine` and ``mine``'s :func:`joseki.games.mine.reduce_game`
timed on its own (reading the bytes, parsing, the rest of reading the game, replaying it with
captures, the game key, corner tables, step strings, contexts, the book walk, credits, game
references, pickling the result and unpickling it), against sgfmill's parse of the same bytes
and the real ``examine`` / ``reduce_game`` whole. Some steps run twice (a component alone,
then inside the whole), so the shares are of the sum of the parts, and the whole is given beside.

``parent``: the parent's work on those games, in this process: ``learn``'s batches
(:func:`joseki.games.learn._write`'s calls one by one, and the commit) into a copy of a store
holding Kogo's dictionary, and ``mine``'s prefix counting and its final transaction
(the book, the moves beyond it, the claims, the crediting walk, the writes, the commit).

``pool``: real runs with worker processes, the parent's main thread timed waiting for the
next result and writing; with the parent's and the workers' CPU seconds it tells which side
waits for the other.

Repeat it: ``cd benchmarks && python profile_ingest.py --limit 20000`` (``--only worker``,
``parent`` or ``pool``; ``--cprofile FILE`` writes a cProfile of the worker part too).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pickle
import resource
import shutil
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from common import CACHE, KOGO, load, need, report, sgfmill_main_line, warm
from games_data import tygem_files
from sgfmill import sgf

import joseki.games.credit as credit_mod
import joseki.games.learn as learn_mod
import joseki.games.mine as mine_mod
import joseki.sgf.game as game_mod
from joseki.book.gamerefs.write import GameInfo, corner_moves, game_refs, record_games
from joseki.book.importer import FileReport, import_file, import_forest
from joseki.book.learnt.beyond import beyond_moves
from joseki.book.learnt.contexts import add_context_records
from joseki.book.learnt.results import add_records, claim_games, drop_empty, profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.query.walk import walk
from joseki.book.store.database import Store
from joseki.book.store.keys import node_id
from joseki.core.corners import corner_tables
from joseki.core.geometry import Corner
from joseki.core.position import LocalBoard
from joseki.core.priority import Record, summed
from joseki.games.context import add_counts, as_records, credit_contexts, table_contexts
from joseki.games.credit import game_records, table_corners
from joseki.sgf.archive import source_bytes
from joseki.sgf.forest import Forest, Variation
from joseki.sgf.sgfparse import parse_game


class Clock:
    """Wall and CPU seconds per named step, added up (CPU seconds move less with a shared machine's load)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)

    def time(self, name: str, func: Callable[..., Any], *args: Any) -> Any:
        started, cpu = time.perf_counter(), time.process_time()
        out = func(*args)
        self.cpu[name] += time.process_time() - cpu
        self.seconds[name] += time.perf_counter() - started
        return out

    def wrap(self, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started, cpu = time.perf_counter(), time.process_time()
            try:
                return func(*args, **kwargs)
            finally:
                self.cpu[name] += time.process_time() - cpu
                self.seconds[name] += time.perf_counter() - started
        return timed

    def move(self, name: str, into: str, other: Clock, sign: float = 1.0) -> None:
        """Add ``other``'s step ``name`` to this clock's step ``into`` (times ``sign``)."""
        self.seconds[into] += sign * other.seconds[name]
        self.cpu[into] += sign * other.cpu[name]

    def shares(self, games: int, parts: list[str] | None = None) -> dict[str, Any]:
        """Each step's wall and CPU microseconds a game, and its share of the parts' sum of each."""
        names = parts if parts is not None else list(self.seconds)
        wall = sum(self.seconds[n] for n in names) or 1.0
        cpu = sum(self.cpu[n] for n in names) or 1.0
        g = max(games, 1)
        return {n: {"wall_us": round(1e6 * self.seconds[n] / g, 1), "cpu_us": round(1e6 * self.cpu[n] / g, 1),
                    "wall_share": round(self.seconds[n] / wall, 3), "cpu_share": round(self.cpu[n] / cpu, 3)}
                for n in names}


def replay(moves: list[tuple[str, Any]]) -> None:
    """The game's moves on a board with captures, as :func:`joseki.sgf.game.game_from_bytes` plays them."""
    board = LocalBoard(19)
    for colour, point in moves:
        if point is not None:
            board.play(colour, point)


def kogo_store(name: str) -> Path:
    path = CACHE / f"{name}.sqlite"
    path.unlink(missing_ok=True)
    store = Store(str(path))
    import_file(store, need(KOGO), "kogo")
    store.close()
    return path


def copy_store(template: Path, name: str) -> Store:
    db = CACHE / f"{name}.sqlite"
    for extra in ("", "-journal", "-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    shutil.copy(template, db)
    return Store(str(db))


# --------------------------------------------------------------------------- worker


def worker_profile(files: list[str], index: InMemoryBook) -> dict[str, Any]:
    """The per-game steps of examine and reduce_game, each timed alone, and both whole."""
    clock = Clock()
    inner = game_mod.parse_game
    parse_inside = Clock()
    game_mod.parse_game = parse_inside.wrap("parse", inner)  # type: ignore[assignment]
    credit_inside, walk_inside = Clock(), Clock()
    credit_mod.credit_contexts = credit_inside.wrap("credit_contexts", credit_contexts)  # type: ignore
    credit_mod.walk = walk_inside.wrap("walk", walk)  # type: ignore[assignment]
    learnt = mined = 0
    outcomes_bytes = mined_bytes = 0
    try:
        for path in files:
            data = clock.time("read_bytes", source_bytes, path)
            clock.time("sgfmill_parse", lambda d=data: [n.get_move() for n in
                                                         sgf.Sgf_game.from_bytes(d).get_main_sequence()])
            clock.time("parse", parse_game, data)
            before = parse_inside.seconds["parse"], parse_inside.cpu["parse"]
            try:
                game = clock.time("read_game_whole", game_mod.game_from_bytes, data, path)
            except ValueError:
                continue
            clock.seconds["read_game_whole"] -= parse_inside.seconds["parse"] - before[0]
            clock.cpu["read_game_whole"] -= parse_inside.cpu["parse"] - before[1]
            if game.unusable() is not None:
                continue
            clock.time("replay", replay, game.moves)
            key = clock.time("game_key", getattr, game, "key")
            tables = clock.time("corner_tables", corner_tables, game.moves).values()
            corners = clock.time("step_strings", table_corners, tables)
            contexts = clock.time("contexts_game", table_contexts, game.moves, tables)
            reached: list[list[int]] = []
            by_context: dict[Any, list[int]] = {}
            w0 = walk_inside.seconds["walk"], walk_inside.cpu["walk"]
            c0 = credit_inside.seconds["credit_contexts"], credit_inside.cpu["credit_contexts"]
            records, ncorners = clock.time("credits_whole", game_records, index, corners, game.winner, reached,
                                           contexts, by_context)
            clock.seconds["walk"] += walk_inside.seconds["walk"] - w0[0]
            clock.cpu["walk"] += walk_inside.cpu["walk"] - w0[1]
            clock.seconds["contexts_credit"] += credit_inside.seconds["credit_contexts"] - c0[0]
            clock.cpu["contexts_credit"] += credit_inside.cpu["credit_contexts"] - c0[1]
            context_records = clock.time("contexts_as_records", as_records, by_context)
            info = clock.time("refs", GameInfo.of, game, key)
            steps = clock.time("refs", corner_moves, tables, [len(r) for r in reached])
            refs = clock.time("refs", game_refs, info, steps, reached)
            outcome = learn_mod.GameOutcome(path, key, game.result, None, records, ncorners, context_records, refs)
            blob = clock.time("pickle_learn", pickle.dumps, outcome, pickle.HIGHEST_PROTOCOL)
            clock.time("unpickle_learn", pickle.loads, blob)
            outcomes_bytes += len(blob)
            learnt += 1
            moves = clock.time("mine_corner_moves", corner_moves, tables, mine_mod.MINE_DEPTH)
            minedgame = mine_mod.MinedGame(path, key, game.result, game.winner, None, corners, contexts, info, moves)
            blob = clock.time("pickle_mine", pickle.dumps, minedgame, pickle.HIGHEST_PROTOCOL)
            clock.time("unpickle_mine", pickle.loads, blob)
            mined_bytes += len(blob)
            mined += 1
    finally:
        game_mod.parse_game = inner
        credit_mod.credit_contexts, credit_mod.walk = credit_contexts, walk  # type: ignore[assignment]
    # the rest of each whole
    for kind in (clock.seconds, clock.cpu):
        kind["game_from_tree"] = kind.pop("read_game_whole") - kind["replay"]
        kind["credits"] = kind.pop("credits_whole") - kind["walk"] - kind["contexts_credit"]
    learn_parts = ["read_bytes", "parse", "game_from_tree", "replay", "game_key", "corner_tables", "step_strings",
                   "contexts_game", "walk", "credits", "contexts_credit", "contexts_as_records", "refs",
                   "pickle_learn"]
    mine_parts = ["read_bytes", "parse", "game_from_tree", "replay", "game_key", "corner_tables", "step_strings",
                  "contexts_game", "refs", "mine_corner_moves", "pickle_mine"]
    whole = Clock()
    for path in files:
        whole.time("examine", learn_mod.examine, path, index, True)
    for path in files:
        whole.time("reduce_game", mine_mod.reduce_game, path)
    return {"games": len(files), "learnable": learnt,
            "sgfmill_parse_us": round(1e6 * clock.seconds["sgfmill_parse"] / len(files), 1),
            "parse_us": round(1e6 * clock.seconds["parse"] / len(files), 1),
            "examine_us": round(1e6 * whole.seconds["examine"] / len(files), 1),
            "reduce_game_us": round(1e6 * whole.seconds["reduce_game"] / len(files), 1),
            "learn_parts": clock.shares(len(files), learn_parts), "mine_parts": clock.shares(len(files), mine_parts),
            "unpickle": {"learn_us": round(1e6 * clock.seconds["unpickle_learn"] / max(learnt, 1), 1),
                         "mine_us": round(1e6 * clock.seconds["unpickle_mine"] / max(mined, 1), 1)},
            "pickled_bytes_per_game": {"learn": outcomes_bytes // max(learnt, 1), "mine": mined_bytes // max(mined, 1)}}


# --------------------------------------------------------------------------- parent


def learn_parent(files: list[str], template: Path, index: InMemoryBook) -> dict[str, Any]:
    """learn's batches (:func:`joseki.games.learn._write`), each call timed, on outcomes found in this process."""
    outcomes = [o for o in (learn_mod.examine(f, index, True) for f in files) if o.skipped is None]
    blobs = [pickle.dumps(o, pickle.HIGHEST_PROTOCOL) for o in outcomes]
    clock = Clock()
    outcomes = [clock.time("unpickle", pickle.loads, b) for b in blobs]
    del blobs
    store = copy_store(template, "profile-learn")
    report = learn_mod.LearnReport()
    inner_ids, inner_trim = learn_mod.record_games.__globals__["game_ids"], learn_mod.record_games.__globals__["trim"]
    g = learn_mod.record_games.__globals__
    g["game_ids"], g["trim"] = clock.wrap("refs_game_ids", inner_ids), clock.wrap("refs_trim", inner_trim)
    try:
        for start in range(0, len(outcomes), learn_mod.BATCH_GAMES):
            batch = outcomes[start : start + learn_mod.BATCH_GAMES]
            unique: dict[str, Any] = clock.time("merge", lambda b=batch: {o.key: o for o in reversed(b)})
            manager = store.write()
            conn = clock.time("begin", manager.__enter__)
            pid = clock.time("claim_games", profile_id, conn, store, None, True)
            claimed = clock.time("claim_games", claim_games, conn, store, pid,
                                 [(k, o.source, o.result) for k, o in unique.items()])
            total = clock.time("merge", summed, (unique[k].records for k in claimed))
            clock.time("add_records", add_records, conn, store, pid, total)
            ctx = clock.time("merge", summed, (unique[k].context_records for k in claimed))
            clock.time("add_context_records", add_context_records, conn, store, pid, ctx)
            refs = [r for k in sorted(claimed) if (r := unique[k].refs) is not None]
            clock.time("record_games", record_games, conn, store, pid, refs)
            clock.time("commit", manager.__exit__, None, None, None)
            report.learnt += len(claimed)
    finally:
        g["game_ids"], g["trim"] = inner_ids, inner_trim
    store.close()
    for kind in (clock.seconds, clock.cpu):
        kind["refs_insert"] = kind.pop("record_games") - kind["refs_game_ids"] - kind["refs_trim"]
    parts = ["unpickle", "merge", "begin", "claim_games", "add_records", "add_context_records", "refs_game_ids",
             "refs_insert", "refs_trim", "commit"]
    return {"games": len(outcomes), "learnt": report.learnt, "batches": -(-len(outcomes) // learn_mod.BATCH_GAMES),
            "parts": clock.shares(len(outcomes), parts), "total_s": round(sum(clock.seconds[p] for p in parts), 2)}


def mine_parent(files: list[str], min_games: int) -> dict[str, Any]:
    """mine's parent: the prefix counts as results come, then its one transaction, each step timed."""
    mined = [m for m in map(mine_mod.reduce_game, files)]
    blobs = [pickle.dumps(m, pickle.HIGHEST_PROTOCOL) for m in mined]
    del mined
    clock = Clock()
    counter = mine_mod.PrefixCounter(keep_singles=min_games <= 1)
    games: dict[str, Any] = {}
    for blob in blobs:
        m = clock.time("unpickle", pickle.loads, blob)
        if m.skipped is None and m.key not in games:
            games[m.key] = m
            clock.time("prefix_count", counter.add_game, [steps for steps, _ in m.corners])
    del blobs
    kept = clock.time("book_lines", counter.kept, min_games)
    has_child = {p[:-2] for p in kept}
    forest = Forest(source=f"mined from {len(games)} games", encoding="utf-8")
    forest.variations = clock.time("book_lines", lambda: [Variation(p, "b", Corner.TOP_RIGHT, False, 0, "", (), False)
                                                          for p in sorted(kept) if p not in has_child])
    book = FileReport(forest.source, "tygem")
    digest = f"mined:{min_games}:" + node_id("".join(sorted(games))).to_bytes(8, "big", signed=True).hex()
    db = CACHE / "profile-mine.sqlite"
    for extra in ("", "-journal", "-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    store = Store(str(db))
    manager = store.write()
    conn = clock.time("begin", manager.__enter__)
    pid = profile_id(conn, store, None, create=True)
    assert pid is not None
    clock.time("import_book", import_forest, conn, store, forest, "tygem", digest, True, book)
    moves = clock.time("beyond", beyond_moves, counter.counts(), kept, min_games)
    clock.time("beyond", mine_mod._keep_beyond, conn, store, "tygem", moves)
    claimed = clock.time("claim_games", claim_games, conn, store, pid,
                         [(k, g.source, g.result) for k, g in games.items()])
    index = clock.time("index_load", InMemoryBook.load, store, conn)
    walk_clock = Clock()
    credit_mod.walk = walk_clock.wrap("walk", walk)  # type: ignore[assignment]
    records: list[dict[int, Record]] = []
    by_context: dict[Any, list[int]] = {}
    behind = []
    for game in games.values():
        reached: list[list[int]] = []
        game_context: dict[Any, list[int]] = {}
        found, _ = clock.time("credit_rest", game_records, index, game.corners, game.winner, reached, game.contexts,
                              game_context)
        clock.time("credit_rest", add_counts, by_context, game_context)
        records.append(found)
        if reached and game.info is not None:
            behind.append(clock.time("refs_build", game_refs, game.info, game.moves, reached))
    credit_mod.walk = walk
    clock.move("walk", "credit_walk", walk_clock)
    clock.move("walk", "credit_rest", walk_clock, -1.0)
    total = clock.time("merge", summed, records)
    clock.time("add_records", add_records, conn, store, pid, total)
    ctx = clock.time("merge", as_records, by_context)
    clock.time("add_context_records", add_context_records, conn, store, pid, ctx)
    clock.time("record_games", record_games, conn, store, pid, sorted(behind, key=lambda r: r.info.key))
    clock.time("drop_empty", drop_empty, conn, store, pid, [])
    clock.time("commit", manager.__exit__, None, None, None)
    store.close()
    parts = ["unpickle", "prefix_count", "book_lines", "begin", "import_book", "beyond", "claim_games", "index_load",
             "credit_walk", "credit_rest", "refs_build", "merge", "add_records", "add_context_records",
             "record_games", "drop_empty", "commit"]
    return {"games": len(games), "claimed": len(claimed), "records": book.new, "parts": clock.shares(len(games), parts),
            "total_s": round(sum(clock.seconds[p] for p in parts), 2)}


# --------------------------------------------------------------------------- pool


WORKER_TIMES = CACHE / "profile-workers"
_busy = [0.0, 0.0, 0.0, 0]
"""In a worker: wall and CPU seconds inside the per-game function, the first call's start, calls."""


def _timed(func: Callable[[Any], Any], path: Any) -> Any:
    started, cpu = time.perf_counter(), time.process_time()
    if not _busy[3]:
        _busy[2] = started
    try:
        return func(path)
    finally:
        _busy[0] += time.perf_counter() - started
        _busy[1] += time.process_time() - cpu
        _busy[3] += 1
        if _busy[3] % 100 == 0:
            span = time.perf_counter() - _busy[2]
            (WORKER_TIMES / f"{os.getpid()}.json").write_text(json.dumps(
                {"busy_s": _busy[0], "cpu_s": _busy[1], "span_s": span, "games": _busy[3]}))


def timed_examine(path: Any) -> Any:
    """:func:`joseki.games.learn.examine`, its time in the worker kept (a pool's function, in a worker)."""
    return _timed(learn_mod.examine, path)


def timed_reduce(path: Any) -> Any:
    """:func:`joseki.games.mine.reduce_game`, its time in the worker kept."""
    return _timed(mine_mod.reduce_game, path)


def worker_times() -> dict[str, Any]:
    """The workers' time inside the per-game function, against the time from their first game to their last."""
    found = [json.loads(p.read_text()) for p in WORKER_TIMES.glob("*.json")]
    span = sum(f["span_s"] for f in found) or 1.0
    return {"workers": len(found), "in_game_wall_s": round(sum(f["busy_s"] for f in found), 2),
            "in_game_cpu_s": round(sum(f["cpu_s"] for f in found), 2), "span_s": round(span, 2),
            "in_game_share": round(sum(f["busy_s"] for f in found) / span, 3),
            "in_game_cpu_share": round(sum(f["cpu_s"] for f in found) / span, 3)}


def waits(clock: Clock, items: Iterator[Any]) -> Iterator[Any]:
    """``items``, the time spent waiting for each added to ``clock['wait']``."""
    while True:
        started = time.perf_counter()
        try:
            item = next(items)
        except StopIteration:
            clock.seconds["wait"] += time.perf_counter() - started
            return
        clock.seconds["wait"] += time.perf_counter() - started
        yield item


def switches() -> dict[str, int]:
    """Context switches of this process and its finished children: voluntary (waiting) and not (preempted)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"parent_voluntary": own.ru_nvcsw, "parent_preempted": own.ru_nivcsw,
            "workers_voluntary": children.ru_nvcsw, "workers_preempted": children.ru_nivcsw}


def cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def pool_run(command: str, files: list[str], template: Path, workers: int, min_games: int) -> dict[str, Any]:
    """One real learn or mine with worker processes: the main thread's waits and work, and the CPU of each side."""
    clock = Clock()
    done = [0.0]

    def progress(n: int, total: int) -> None:
        if n == total:
            done[0] = time.perf_counter()

    shutil.rmtree(WORKER_TIMES, ignore_errors=True)
    WORKER_TIMES.mkdir(parents=True)
    switches0 = switches()
    cpu0 = cpu()
    started = time.perf_counter()
    if command == "learn":
        store = copy_store(template, "profile-pool-learn")
        inner_all, inner_write, inner_examine = learn_mod.examine_all, learn_mod._write, learn_mod.examine
        learn_mod.examine_all = lambda *a, **k: waits(clock, inner_all(*a, **k))  # type: ignore[assignment]
        learn_mod._write = clock.wrap("write", inner_write)  # type: ignore[assignment]
        learn_mod.examine = timed_examine  # type: ignore[assignment]
        try:
            learn_mod.learn(store, files, workers=workers, progress=progress)
        finally:
            learn_mod.examine_all, learn_mod._write, learn_mod.examine = inner_all, inner_write, inner_examine
    else:
        store = Store(str(CACHE / "profile-pool-mine.sqlite"))
        inner, inner_reduce = mine_mod._reduce_all, mine_mod.reduce_game
        mine_mod._reduce_all = lambda *a, **k: waits(clock, inner(*a, **k))  # type: ignore[assignment]
        mine_mod.reduce_game = timed_reduce  # type: ignore[assignment]
        try:
            mine_mod.mine(store, files, min_games, "tygem", workers=workers, progress=progress)
        finally:
            mine_mod._reduce_all, mine_mod.reduce_game = inner, inner_reduce
    wall = time.perf_counter() - started
    store.close()
    parent_cpu, workers_cpu = (b - a for a, b in zip(cpu0, cpu(), strict=True))
    tail = time.perf_counter() - done[0] if done[0] else 0.0
    main_busy = wall - clock.seconds["wait"]
    return {"wall_s": round(wall, 2), "main_thread_waiting_s": round(clock.seconds["wait"], 2),
            "main_thread_working_s": round(main_busy, 2), "writes_s": round(clock.seconds.get("write", 0.0), 2),
            "after_last_result_s": round(tail, 2), "parent_cpu_s": round(parent_cpu, 2),
            "workers_cpu_s": round(workers_cpu, 2), "workers_busy": round(workers_cpu / (workers * wall), 3),
            "parent_busy": round(parent_cpu / wall, 3), "in_workers": worker_times(),
            "context_switches": {k: b - a for (k, a), b in zip(switches0.items(), switches().values(), strict=True)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=20000)
    parser.add_argument("--only", choices=("worker", "parent", "pool"), default=None)
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cprofile", default=None, help="write a cProfile of examine and reduce_game here")
    args = parser.parse_args()
    files = tygem_files()[: args.limit]
    figures: dict[str, Any] = {"games": len(files), "load": [load()]}
    warm(files)
    template = kogo_store("profile-kogo")
    store = Store(str(template))
    index = InMemoryBook.load(store)
    store.close()
    sgfmill_s = time.perf_counter()
    for f in files:
        sgfmill_main_line(f)
    figures["sgfmill_s"] = round(time.perf_counter() - sgfmill_s, 2)
    if args.only in (None, "worker"):
        figures["worker"] = worker_profile(files, index)
        print("worker done", file=sys.stderr)
        if args.cprofile:
            profiler = cProfile.Profile()
            profiler.enable()
            for f in files:
                learn_mod.examine(f, index, True)
                mine_mod.reduce_game(f)
            profiler.disable()
            profiler.dump_stats(args.cprofile)
    if args.only in (None, "parent"):
        figures["learn_parent"] = learn_parent(files, template, index)
        print("learn parent done", file=sys.stderr)
        figures["mine_parent"] = mine_parent(files, args.min_games)
        print("mine parent done", file=sys.stderr)
    if args.only in (None, "pool"):
        figures["learn_pool"] = pool_run("learn", files, template, args.workers, args.min_games)
        (CACHE / "profile-pool-mine.sqlite").unlink(missing_ok=True)
        figures["mine_pool"] = pool_run("mine", files, template, args.workers, args.min_games)
    figures["load"].append(load())
    report(figures)


if __name__ == "__main__":
    main()
