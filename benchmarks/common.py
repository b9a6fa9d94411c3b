"""Helpers shared by the benchmarks: where the data is, timing, and the JSON last line."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sgfmill import sgf

from joseki.book.store.database import Store

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
KOGO = SHARED / "joseki" / "kogo-kjd-2014" / "Kogo_s_Joseki_Dictionary.sgf"
CACHE = ROOT / "benchmarks" / ".cache"


def need(path: Path) -> Path:
    if not path.exists():
        sys.exit(f"benchmark data not found: {path}")
    return path


def best_of(repeats: int, func: Callable[[], Any]) -> float:
    """The fastest of ``repeats`` runs, in seconds (the least disturbed by a shared machine)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def sgfmill_visit(path: Path) -> int:
    """sgfmill alone: parse the file and read every node's move; returns the node count."""
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    stack, nodes = [game.get_root()], 0
    while stack:
        node = stack.pop()
        node.get_move()
        nodes += 1
        stack.extend(node)
    return nodes


def joseki_command() -> list[str]:
    """The installed ``joseki`` command beside this interpreter (``python -m joseki`` without one)."""
    script = Path(sys.executable).parent / "joseki"
    return [str(script)] if script.exists() else [sys.executable, "-m", "joseki"]


def wall_seconds(command: list[str], **kwargs: Any) -> float:
    """Wall-clock seconds of one run of ``command`` as a whole process (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    return time.perf_counter() - start


def report(figures: dict[str, Any]) -> None:
    """Print the figures as one JSON object on the last line."""
    print(json.dumps(figures))


def sgfmill_main_line(path: str) -> int:
    """sgfmill alone on a game record: parse it and read each main-line move; returns the move count."""
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    return sum(1 for node in game.get_main_sequence() if node.get_move()[0] is not None)


def sgfmill_seconds(paths: list[str]) -> float:
    """Seconds for sgfmill alone to read every game's main line, on one core: the baseline of learn and mine."""
    started = time.perf_counter()
    for path in paths:
        sgfmill_main_line(path)
    return time.perf_counter() - started


def fresh_store(name: str) -> Store:
    """A new, empty SQLite store in the benchmark cache."""
    db = CACHE / f"{name}.sqlite"
    db.unlink(missing_ok=True)
    return Store(str(db))
