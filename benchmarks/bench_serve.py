"""``joseki serve`` as players meet it: clients on loopback (one player: ``--clients 1``), p50/p99 per endpoint.

The store holds Kogo's dictionary and learnt games (by default the fox-pro set,
../shared/data/games/fox-pro), built once into benchmarks/.cache/serve.sqlite; ``--db URL``
serves another store instead (a PostgreSQL URL: it is filled the same way when empty). The
real server runs as its own process (``joseki --db ... serve --workers W``) on a free
127.0.0.1 port; the clients are threads of this process with keep-alive connections (the standard library's
``http.client``: about a fifth of httpx's CPU a request, which on a machine with few cores the clients
take from the server).

Requests are drawn from the learnt games themselves: each game's opening cut at a random
length (1 to 12 moves), asked as a position (``/api/explore``), as the games behind it
(``/api/games``), as a review step (``/api/review``) and as a practice move
(``/api/practise``). The run is bounded in count (``--requests``) and in time
(``--seconds``). The server's CPU time per request is reported beside the latencies, and the clients' (this
process's: on a machine with few cores they compete with the server for them), and the load
average, since on a shared machine the tail is the scheduler's.

The server caches the answers it gave (:mod:`joseki.web.cache`); each response says whether it
was one of them (``X-Cache``), so the latencies are reported for the whole run and split into
``cold`` (computed: a player's first ask of its key, in that worker) and ``warm`` (sent again).
The JSON says how many distinct positions the requests ask (``distinct_positions``, and of the explores
alone): a bounded set that players reach, with repeats, as on a real server. Before the run, the server is
warmed by requests drawn with another seed (imports, the
database's pages), which shares the answers only a real second user would share.
``--cache-mb 0`` runs without the cache.

Usage: python benchmarks/bench_serve.py [--games 2000] [--requests 4000] [--clients 20] [--workers 1]
       [--seconds 300] [--db URL] [--cache-mb 64]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import socket
import statistics
import subprocess
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

import httpx
from common import CACHE, KOGO, SHARED, joseki_command, need, report

from joseki.book.importer import import_files
from joseki.book.store.database import Store
from joseki.core.notation import format_gtp_vertex, format_sgf_point
from joseki.games.learn import learn
from joseki.sgf.game import read_game

GAMES = SHARED / "games" / "fox-pro"


def build(db: str, games: list[Path]) -> None:
    """Kogo's dictionary and the games learnt into ``db``, unless it holds a collection already."""
    store = Store(db)
    try:
        if store.collection_count() == 0:
            started = time.perf_counter()
            import_files(store, [need(KOGO)], "kogo")
            result = learn(store, games, None, 2)
            print(f"built {db}: Kogo + {result.learnt} games learnt in {time.perf_counter() - started:.0f} s")
    finally:
        store.close()


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its children alive (Linux /proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


Work = list[tuple[str, str, dict[str, str], str]]


def requests_of(games: list[Path], count: int, rng: random.Random) -> Work:
    """(endpoint, path, params, position) drawn from the games' openings; the position as the moves played
    (``bpdwdd...``), the same for every endpoint."""
    openings = []
    for path in games:
        try:
            game = read_game(path)
        except ValueError:
            continue
        if len(game.moves) >= 12 and all(p is not None for _, p in game.moves[:12]):
            openings.append(game)
    out: Work = []
    while len(out) < count:
        game = rng.choice(openings)
        n = rng.randint(1, 12)
        moves = ",".join(format_gtp_vertex(p) for _, p in game.moves[:n])
        first = "black" if game.moves[0][0] == "b" else "white"
        played = "".join(c + (format_sgf_point(p) or "tt") for c, p in game.moves[:n])
        kind = rng.choice(("explore", "explore", "games", "review", "practise"))
        params = {"explore": {"moves": moves, "first": first}, "games": {"moves": moves, "first": first},
                  "review": {"game": played, "move": str(n)},
                  "practise": {"moves": moves, "first": first, "seed": "1"}}[kind]
        out.append((kind, f"/api/{kind}", params, played))
    return out


def start_server(db: str, port: int, workers: int, cache_mb: int) -> subprocess.Popen[bytes]:
    command = [*joseki_command(), "--db", db, "serve", "--port", str(port), "--workers", str(workers),
               "--cache-mb", str(cache_mb)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped: {server.stderr.read().decode() if server.stderr else ''}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/catalogue", timeout=5).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("the server did not start within 120 s")


def run(port: int, work: Work, clients: int,
        seconds: float) -> tuple[dict[tuple[str, str], list[float]], list[str], float]:
    """Drive the server with ``clients`` threads sharing ``work``; latencies (ms) per endpoint and cold or warm,
    the errors (the first words of each answer that was not 200), wall s."""
    latencies: dict[tuple[str, str], list[float]] = defaultdict(list)
    errors: list[str] = []
    lock, index = threading.Lock(), [0]
    stop_at = time.monotonic() + seconds

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while time.monotonic() < stop_at:
                with lock:
                    if index[0] >= len(work):
                        return
                    kind, path, params, _ = work[index[0]]
                    index[0] += 1
                target = f"{path}?{urlencode(params)}"
                started = time.perf_counter()
                connection.request("GET", target)
                answer = connection.getresponse()
                body = answer.read()
                elapsed = 1000 * (time.perf_counter() - started)
                with lock:
                    latencies[kind, "warm" if answer.getheader("x-cache") == "hit" else "cold"].append(elapsed)
                    if answer.status != 200:
                        errors.append(f"{answer.status} {path}: {body[:200]!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors, time.perf_counter() - started


def percentile(values: list[float], q: int) -> float:
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1) if len(values) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--db", default=None)
    parser.add_argument("--cache-mb", type=int, default=64)
    args = parser.parse_args()
    games = sorted(need(GAMES).rglob("*.sgf"))[: args.games]
    CACHE.mkdir(parents=True, exist_ok=True)
    db = args.db or str(CACHE / "serve.sqlite")
    build(db, games)
    work = requests_of(games, args.requests, random.Random(1))
    port = free_port()
    server = start_server(db, port, args.workers, args.cache_mb)
    load_before = os.getloadavg()[0]
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as warm:  # the server warmed once
            for _, path, params, _ in requests_of(games, 50 * args.workers, random.Random(2)):
                warm.get(path, params=params)
        cpu_before, client_before = cpu_seconds(server.pid), time.process_time()
        latencies, errors, wall = run(port, work, args.clients, args.seconds)
        server_cpu, client_cpu = cpu_seconds(server.pid) - cpu_before, time.process_time() - client_before
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as after:
            cache = after.get("/api/stats").json()["cache"]
    finally:
        server.terminate()
        server.wait(30)
    if errors:
        raise SystemExit(f"{len(errors)} requests failed, the first: {errors[0]}")
    done = sum(len(v) for v in latencies.values())
    figures: dict[str, object] = {"backend": "postgresql" if "://" in db and db.startswith("postgres") else "sqlite",
                                  "workers": args.workers, "clients": args.clients, "games": len(games),
                                  "cache_mb": args.cache_mb,
                                  "requests": done,
                                  "distinct_positions": len({position for *_, position in work}),
                                  "distinct_explore_positions": len({position for kind, *_, position in work
                                                                     if kind == "explore"}),
                                  "wall_s": round(wall, 1),
                                  "requests_per_s": round(done / wall, 1),
                                  "server_cpu_ms_per_request": round(1000 * server_cpu / max(done, 1), 1),
                                  "client_cpu_ms_per_request": round(1000 * client_cpu / max(done, 1), 1),
                                  "load_average_before": round(load_before, 2),
                                  "load_average_after": round(os.getloadavg()[0], 2),
                                  "cache_one_worker": {k: cache[k] for k in ("entries", "bytes", "hits", "misses",
                                                                            "shared", "evictions")}}
    for kind in sorted({kind for kind, _ in latencies}):
        for part in ("all", "cold", "warm"):
            values = [v for (k, p), vs in latencies.items() if k == kind and part in ("all", p) for v in vs]
            name = kind if part == "all" else f"{kind}_{part}"
            figures[f"{name}_n"] = len(values)
            figures[f"{name}_p50_ms"] = percentile(values, 50)
            figures[f"{name}_p99_ms"] = percentile(values, 99)
            print(f"{name:>14}: {len(values):5} requests, p50 {figures[f'{name}_p50_ms']} ms, "
                  f"p99 {figures[f'{name}_p99_ms']} ms")
    report(figures)


if __name__ == "__main__":
    main()
