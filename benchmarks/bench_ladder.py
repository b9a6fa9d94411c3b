"""What reading ladders costs the next-move query, on Kogo's dictionary's ladder conditions.

Kogo's dictionary is imported into benchmarks/.cache/ladder-kogo.sqlite (kept for later runs).
For every node whose move carries a ladder condition, the moves before it are laid out in the
upper-right corner and asked twice through :func:`joseki.book.query.next.next_moves`: as moves (the
whole board is known, so each ladder condition is read) and as ``--steps`` (no board, nothing
read). CPU-time percentiles of both, and how the conditions came out (works / fails / unknown,
and how many of the read ones were found along the book's main line). Also the reader alone
on a ladder that crosses the empty board (57 moves).

Usage: python benchmarks/bench_ladder.py
"""

from __future__ import annotations

import statistics
import time
from collections import Counter

from common import CACHE, KOGO, need, report
from sqlalchemy import select

from joseki.book.importer import import_file
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.core.geometry import Corner, Transform
from joseki.core.ladder import _read, board_of, read_ladder
from joseki.core.notation import format_gtp_vertex
from joseki.core.steps import iter_points


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / "ladder-kogo.sqlite"
    fresh = not path.exists()
    store = Store(str(path))
    if fresh:
        import_file(store, need(KOGO), "kogo")
    node, book = store.tables["node"], store.tables["node_book"]
    with store.read() as conn:
        rows = sorted({str(s) for (s,) in conn.execute(
            select(node.c.steps).join(book, book.c.node_id == node.c.id).where(book.c.conditions.like('%"ladder"%')))})
    corner = Transform(Corner.TOP_RIGHT)
    with_board, without, verdicts, along = [], [], Counter[str](), 0
    for steps in rows:
        points = [None if z is None else corner.to_board(z, 19) for z in iter_points(steps)]
        moves = ["pass" if p is None else format_gtp_vertex(p) for p in points[:-1]]
        start = time.process_time()
        try:
            answers = next_moves(store, moves)
        except ValueError:
            continue  # a line that is not legal as a game (the book's lenient replay)
        with_board.append(time.process_time() - start)
        start = time.process_time()
        next_moves(store, steps=steps[:-2])
        without.append(time.process_time() - start)
        for answer in answers:
            for cand in answer.candidates:
                if cand.point == points[-1]:
                    for check in cand.ladders:
                        verdicts[check.ladder] += 1
                        along += check.ladder != "unknown" and "after the book's" in check.reason
    stones = {(3, 15): "b", (2, 15): "w", (3, 14): "w", (3, 16): "w", (4, 16): "w"}
    board = board_of(stones)
    start = time.process_time()
    for _ in range(50):
        _read.cache_clear()  # read it out each time, not the reading remembered
        reading = read_ladder(board, (3, 15))
    reader_ms = (time.process_time() - start) / 50 * 1000
    report({"positions": len(with_board), "conditions": sum(verdicts.values()), **dict(verdicts),
            "read_along_book_line": along,
            "with_board_p50_ms": round(1000 * statistics.median(with_board), 2),
            "with_board_p99_ms": round(1000 * _percentile(with_board, 0.99), 2),
            "steps_only_p50_ms": round(1000 * statistics.median(without), 2),
            "steps_only_p99_ms": round(1000 * _percentile(without, 0.99), 2),
            "reader_57_moves_ms": round(reader_ms, 2), "reader_line": len(reading.line)})


if __name__ == "__main__":
    main()
