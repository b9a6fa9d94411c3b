"""joseki's node-at-a-time SGF reader against sgfmill's grammar, on every Tygem game and joseki collection.

Both read each file from bytes already in memory, one after the other (``parse_game`` /
``parse_sgf_game`` for the games, ``parse_collection`` / ``parse_sgf_collection`` for the
collections), on one core; only the reading is timed. Every file's trees (or error message)
are compared, and a difference fails.

Usage: python benchmarks/bench_sgfparse.py
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import SHARED, need, report
from games_data import tygem_files
from sgfmill import sgf_grammar

from joseki.sgf.sgfparse import parse_collection, parse_game


def shape(result: Any) -> Any:
    if isinstance(result, sgf_grammar.Coarse_game_tree):
        return tuple(result.sequence), tuple(shape(child) for child in result.children)
    return [shape(tree) for tree in result]


def outcome(read: Callable[[bytes], Any], data: bytes) -> tuple[float, Any]:
    """Seconds for ``read`` on ``data``, and the trees' shape (or the error message) it gave."""
    started = time.perf_counter()
    try:
        result = read(data)
    except ValueError as exc:
        return time.perf_counter() - started, str(exc)
    return time.perf_counter() - started, shape(result)


def compare(fast: Callable[[bytes], Any], reference: Callable[[bytes], Any], paths: list[Path]) -> tuple[float, float]:
    """Seconds for each reader over ``paths`` (file by file, in turn); exits if they ever differ."""
    fast_s = reference_s = 0.0
    for path in paths:
        data = path.read_bytes()
        seconds, expected = outcome(reference, data)
        reference_s += seconds
        seconds, got = outcome(fast, data)
        fast_s += seconds
        if got != expected:
            sys.exit(f"{path}: the readers differ")
    return fast_s, reference_s


def main() -> None:
    gc.disable()  # the readers' own speed, not the collector's
    games = [Path(p) for p in tygem_files()]
    games_s, games_ref_s = compare(parse_game, sgf_grammar.parse_sgf_game, games)
    collections = sorted(need(SHARED / "joseki").rglob("*.sgf"))
    coll_s, coll_ref_s = compare(parse_collection, sgf_grammar.parse_sgf_collection, collections)
    print(f"{len(games)} games and {len(collections)} collections read alike by both readers")
    report({"games": len(games), "games_s": round(games_s, 3), "games_sgfmill_s": round(games_ref_s, 3),
            "games_ratio": round(games_s / games_ref_s, 3), "collections": len(collections),
            "collections_s": round(coll_s, 3), "collections_sgfmill_s": round(coll_ref_s, 3),
            "collections_ratio": round(coll_s / coll_ref_s, 3), "identical": True})


if __name__ == "__main__":
    main()
