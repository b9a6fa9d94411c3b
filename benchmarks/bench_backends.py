"""SQLite against PostgreSQL in the same run: import, learn, many writers, next-move latency.

For each backend, in a new empty database:

- ``import_s``: importing Kogo's dictionary (the schema already created);
- ``learn_s``: ``joseki.games.learn.learn`` of the games of fox-pro and kgs-highdan-2019-04 (3163
  files, all cores, batches of 500), end to end: reading the games is the same work on both
  backends, so this is what a user waits for;
- ``write1_s`` / ``write4_s``: the database part of learning alone. The same games' credits
  (found once, before the timed runs) are written again into a new profile in batches of 20
  games (``--write-batch``), by one process, then by four processes at once (each a quarter of the games, into
  another profile); ``write4_speedup`` is write1_s / write4_s. SQLite runs its writers one
  at a time; PostgreSQL runs them at once;
- ``query_p50_ms`` / ``query_p99_ms`` / ``query_mean_ms``: ``joseki.book.query.next.next_moves`` latency over
  the move prefixes of real games (1 to 40 moves of the first games of kgs-highdan-2019-04),
  after one warm-up pass; ``in_book`` is the share of the answers' corners still in the book.

PostgreSQL: ``--pg URL`` (a role that may create databases; the benchmark creates and drops
``joseki_bench``), else a durable server (fsync on) started by ``../.ci/postgres.sh`` on port
54339 with its data under /tmp/joseki-bench-pg. SQLite: a file in a temporary directory.
``--explain`` prints EXPLAIN (ANALYZE, BUFFERS) of the hot queries on the PostgreSQL book
after the learn.

Usage (from benchmarks/): python bench_backends.py [--pg URL] [--games N] [--queries N]
    [--workers W] [--write-batch B] [--explain]
The last line of output is one JSON object with both backends' figures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import KOGO, ROOT, SHARED, need, report
from sqlalchemy import event
from sqlalchemy.engine import make_url

from joseki.book.importer import import_file
from joseki.book.learnt.profiles import records_for
from joseki.book.learnt.results import add_records, claim_games, profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store, batched
from joseki.book.store.keys import node_id
from joseki.core.notation import format_gtp_vertex
from joseki.core.position import steps_key
from joseki.core.priority import Record, summed
from joseki.games.fanout import Workers
from joseki.games.learn import learn
from joseki.games.pipeline import ReadGames, each_game
from joseki.games.signals import RESULTS, ResultSignal
from joseki.sgf.game import read_game

GAMES = SHARED / "games"
GAME_SETS = (GAMES / "fox-pro", GAMES / "kgs-highdan-2019-04")
QUERY_SET = GAMES / "kgs-highdan-2019-04"
BENCH_DB = "joseki_bench"


def game_files(limit: int | None) -> list[Path]:
    files = [f for folder in GAME_SETS for f in sorted(need(folder).glob("*.sgf"))]
    return files[:limit]


def query_prefixes(count: int) -> list[list[str]]:
    """Move lists (GTP) of 1 to 40 moves from the openings of real games, ``count`` of them."""
    prefixes: list[list[str]] = []
    for path in sorted(need(QUERY_SET).glob("*.sgf")):
        try:
            game = read_game(path)
        except ValueError:
            continue
        if game.size != 19 or game.handicap >= 2 or game.setup or not game.moves or game.moves[0][0] != "b":
            continue
        moves: list[str] = []
        for number, (colour, point) in enumerate(game.moves[:40]):
            if colour != ("b" if number % 2 == 0 else "w"):
                break
            moves.append(format_gtp_vertex(point) if point is not None else "pass")
        prefixes.extend(moves[:length] for length in range(1, len(moves) + 1))
        if len(prefixes) >= count:
            break
    return prefixes[:count]


def start_postgres() -> str:
    env = {**os.environ, "JOSEKI_PG_PORT": "54339", "JOSEKI_PG_DATA": "/tmp/joseki-bench-pg", "JOSEKI_PG_DURABLE": "1"}
    done = subprocess.run(["bash", str(ROOT / ".ci" / "postgres.sh")], env=env, check=True, capture_output=True,
                          text=True)
    return done.stdout.strip().splitlines()[-1]


def fresh_pg_database(base: str) -> str:
    """The URL of a new, empty database ``joseki_bench`` on the server of ``base``."""
    import psycopg

    url = make_url(base)
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    return url.set(drivername="postgresql+psycopg", database=BENCH_DB).render_as_string(hide_password=False)


def drop_pg_database(url: str) -> None:
    import psycopg

    admin = make_url(url).set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    try:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    except psycopg.Error:
        pass


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What learning found in one usable game: its identity and each credited node's record."""

    source: str
    key: str
    result: str
    records: dict[int, Record]


def examine_all(store: Store, files: list[str], workers: int) -> list[GameOutcome]:
    """Each usable game's credits against ``store``'s book, read by the learning pipeline's workers."""
    from joseki.games.fanout import fan_out
    from joseki.games.pipeline import Seconds

    task = ReadGames(InMemoryBook.load(store), (ResultSignal((RESULTS,)),))
    out = []
    for game in each_game(fan_out(task, files, len(files), Workers(workers), 32), Seconds()):
        reason, _, rows = game.signals[0]
        if reason is None:
            flat = rows[0]
            records = {int(flat[i]): Record(*(int(v) for v in flat[i + 1 : i + 5])) for i in range(0, len(flat), 5)}
            out.append(GameOutcome(game.source, game.key, game.result, records))
    return out


def timed(func: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = func()
    return time.perf_counter() - start, value


def write_share(url: str, profile: str, outcomes: list[GameOutcome], batch: int, start: Any, times: Any) -> None:
    """What ``learn`` writes, for already examined games: claim each batch, add its credits, commit.

    Waits at the ``start`` barrier once connected, and puts (first write began, last commit
    ended) on ``times``, so that process start-up is not counted.
    """
    store = Store(url, upgrade=False)
    with store.write() as conn:
        pid = profile_id(conn, store, profile, create=True)
    assert pid is not None
    start.wait()
    began = time.monotonic()
    for chunk in batched(outcomes, batch):
        with store.write() as conn:
            claimed = claim_games(conn, store, pid, [(o.key, o.source, o.result) for o in chunk])
            add_records(conn, store, pid, summed(o.records for o in chunk if o.key in claimed))
    times.put((began, time.monotonic()))
    store.close()


def write_concurrently(url: str, profile: str, outcomes: list[GameOutcome], writers: int, batch: int) -> float:
    """Seconds from the first writer's start to the last writer's end, ``writers`` processes at once."""
    shares = [outcomes[i::writers] for i in range(writers)]
    context = multiprocessing.get_context("spawn")
    start, times = context.Barrier(writers, timeout=600), context.Queue()
    procs = [context.Process(target=write_share, args=(url, profile, share, batch, start, times))
             for share in shares]
    for p in procs:
        p.start()
    spans: list[tuple[float, float]] = []
    while len(spans) < writers:
        try:
            spans.append(times.get(timeout=1))
        except queue.Empty:
            if any(p.exitcode not in (None, 0) for p in procs):
                raise SystemExit(f"a writer failed on {make_url(url).get_backend_name()}") from None
    for p in procs:
        p.join()
    return max(end for _, end in spans) - min(began for began, _ in spans)


def measure_queries(store: Store, prefixes: list[list[str]]) -> dict[str, Any]:
    for moves in prefixes[:100]:
        next_moves(store, moves)
    latencies: list[float] = []
    corners = in_book = 0
    for moves in prefixes:
        start = time.perf_counter()
        answers = next_moves(store, moves)
        latencies.append(time.perf_counter() - start)
        corners += len(answers)
        in_book += sum(a.state in ("in-book", "tenuki-variation", "in-book-by-transposition") for a in answers)
    latencies.sort()
    return {"queries": len(latencies), "query_p50_ms": round(1000 * statistics.median(latencies), 3),
            "query_p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 3),
            "query_mean_ms": round(1000 * statistics.fmean(latencies), 3),
            "in_book": round(in_book / max(corners, 1), 3)}


def explain_hot_queries(store: Store) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of the book's hot reads and of the statistics upsert."""
    caught: list[tuple[str, str, Any]] = []
    label = [""]

    def capture(conn: Any, cursor: Any, statement: str, params: Any, context: Any, executemany: bool) -> None:
        caught.append((label[0], statement, params))

    event.listen(store.engine, "before_cursor_execute", capture)
    with store.read() as conn:
        lookup = Lookup(store, conn)
        for name, call in (("Lookup.has('DDCF')", lambda: lookup.has("DDCF")),
                           ("Lookup.children('DDCF', 'global')", lambda: lookup.children("DDCF", "global")),
                           ("Lookup.by_position(steps_key('DDCFCH'))",
                            lambda: lookup.by_position(steps_key("DDCFCH"))),
                           ("profiles.records_for(3 nodes, 'opponent')",
                            lambda: records_for(conn, [node_id(s) for s in ("DD", "DDCF", "DDCFCH")],
                                                "opponent"))):
            label[0] = name
            call()
    label[0] = "node_stats upsert (stats.add_records, 3 rows)"
    with store.engine.connect() as conn, conn.begin():
        add_records(conn, store, 1, {node_id(s): Record(1, 1, 0, 0) for s in ("DD", "DDCF", "DDCFCH")})
        conn.rollback()
    event.remove(store.engine, "before_cursor_execute", capture)
    with store.engine.connect() as conn, conn.begin():
        for name, statement, params in caught:
            if "FROM profile WHERE" in " ".join(statement.split()) and "node" not in statement:
                continue
            print(f"-- {name}\n{' '.join(statement.split())}")
            for (line,) in conn.exec_driver_sql("EXPLAIN (ANALYZE, BUFFERS) " + statement, params):
                print("   " + line)
        conn.rollback()


def run_backend(name: str, url: str, files: list[Path], outcomes: list[GameOutcome], prefixes: list[list[str]],
                workers: int, write_batch: int, explain: bool) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with Store(url) as store:
        figures["import_s"], book = timed(lambda: import_file(store, need(KOGO), "kogo"))
        figures["records"] = book.new
        figures["learn_s"], learnt = timed(lambda: learn(store, files, workers=workers))
        figures["learnt"] = learnt.learnt
        figures["games_per_s"] = round(learnt.learnt / figures["learn_s"], 1)
        with store.read() as conn:
            figures["node_stats_rows"] = conn.exec_driver_sql("SELECT count(*) FROM node_stats").scalar_one()
        figures.update(measure_queries(store, prefixes))
        figures["write1_s"] = write_concurrently(url, "writers-1", outcomes, 1, write_batch)
        figures["write4_s"] = write_concurrently(url, "writers-4", outcomes, 4, write_batch)
        figures["write4_speedup"] = round(figures["write1_s"] / figures["write4_s"], 2)
        if explain and name == "postgresql":
            explain_hot_queries(store)
    for key in ("import_s", "learn_s", "write1_s", "write4_s"):
        figures[key] = round(figures[key], 3)
    print(f"{name}: {figures}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", metavar="URL", help="a PostgreSQL server (default: start one with .ci/postgres.sh)")
    parser.add_argument("--games", type=int, default=None, help="learn only the first N games")
    parser.add_argument("--queries", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--write-batch", type=int, default=20, help="games per transaction in the write runs")
    parser.add_argument("--explain", action="store_true", help="print the PostgreSQL plans of the hot queries")
    args = parser.parse_args()
    files = game_files(args.games)
    prefixes = query_prefixes(args.queries)
    base = args.pg or start_postgres()
    pg_url = fresh_pg_database(base)
    results: dict[str, Any] = {"games": len(files), "workers": args.workers, "write_batch": args.write_batch}
    with tempfile.TemporaryDirectory() as tmp:
        sqlite_url = str(Path(tmp) / "bench.sqlite")
        # the credits of every game, found once against Kogo's book, for the write-only runs
        with Store(str(Path(tmp) / "index.sqlite")) as index_store:
            import_file(index_store, need(KOGO), "kogo")
            unique: dict[str, GameOutcome] = {}
            for outcome in examine_all(index_store, [str(f) for f in files], args.workers):
                unique.setdefault(outcome.key, outcome)
        outcomes = list(unique.values())
        print(f"{len(files)} games ({len(outcomes)} distinct and usable), {len(prefixes)} query prefixes")
        try:
            for name, url in (("sqlite", sqlite_url), ("postgresql", pg_url)):
                results[name] = run_backend(name, url, files, outcomes, prefixes, args.workers, args.write_batch,
                                            args.explain)
        finally:
            drop_pg_database(pg_url)
    with Store(base, upgrade=False) as server, server.read() as conn:
        results["postgresql"]["server"] = conn.exec_driver_sql("SHOW server_version").scalar_one()
        results["postgresql"]["fsync"] = conn.exec_driver_sql("SHOW fsync").scalar_one()
    report(results)


if __name__ == "__main__":
    main()
