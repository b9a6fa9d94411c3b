"""Helpers shared by the benchmarks: where the data is, timing, and the JSON last line."""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sgfmill import sgf

try:
    from joseki.book.store.database import Store
except ImportError:  # a tree from before book/ was grouped by job (store_rows builds with any tree's code)
    from joseki.book.store import Store  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
KOGO = SHARED / "joseki" / "kogo-kjd-2014" / "Kogo_s_Joseki_Dictionary.sgf"
CACHE = ROOT / "benchmarks" / ".cache"


def need(path: Path) -> Path:
    if not path.exists():
        sys.exit(f"benchmark data not found: {path}")
    return path


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


def warm(paths: Sequence[str]) -> float:
    """Read every file once, so that the page cache holds them for every side alike; returns the seconds."""
    started = time.perf_counter()
    for path in paths:
        with open(path, "rb") as f:
            f.read()
    return time.perf_counter() - started


def spread(values: Sequence[float], digits: int = 3) -> dict[str, float]:
    """The median, min and max of ``values``."""
    return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits)}


def _vm_hwm_mb(pid: int | str = "self") -> float:
    """The peak resident set of process ``pid`` since its last exec (VmHWM), in MB; 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def peak_mb() -> float:
    """This process's peak resident set since its exec (VmHWM), in MB."""
    return _vm_hwm_mb()


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (the state first), [] if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return []


def _descendants() -> list[int]:
    """The live processes below this one (children, theirs, ...): workers may be children of a server process
    (:mod:`joseki.games.pool`), not of the process that runs the pool."""
    parents: dict[str, list[str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(entry)):
            parents.setdefault(fields[1], []).append(entry)
    found, frontier = [], [str(os.getpid())]
    while frontier:
        below = parents.get(frontier.pop(), [])
        found += below
        frontier += below
    return [int(pid) for pid in found]


def tree_cpu_s() -> float:
    """CPU seconds of every process this one started, directly or not: those it waited for (``RUSAGE_CHILDREN``),
    and each live one's own and its waited-for children's (``/proc/PID/stat``), so that workers a server process
    forked and waited for count too."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = usage.ru_utime + usage.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    for pid in _descendants():
        seconds += sum(int(v) for v in _stat(pid)[11:15]) / tick  # utime, stime, cutime, cstime
    return seconds


class WorkerPeaks(threading.Thread):
    """Samples the peak resident set (VmHWM) of the processes below this one while a run goes on."""

    def __init__(self, interval: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.stopped = threading.Event()
        self.peaks: dict[int, float] = {}

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            for pid in _descendants():
                self.peaks[pid] = max(self.peaks.get(pid, 0.0), _vm_hwm_mb(pid))

    def stop(self) -> float:
        """Stop sampling; the largest child's peak in MB."""
        self.stopped.set()
        self.join()
        return max(self.peaks.values(), default=0.0)


def _in_child(pipe: Any, func: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> None:
    sampler = WorkerPeaks()
    sampler.start()
    cpu = time.process_time()
    figures = func(*args)
    figures["parent_cpu_s"] = round(time.process_time() - cpu, 2)
    figures["workers_cpu_s"] = round(tree_cpu_s(), 2)
    figures["parent_mb"] = round(_vm_hwm_mb(), 1)
    figures["worker_mb"] = round(sampler.stop(), 1)
    figures["peak_mb"] = round(figures["parent_mb"] + figures["worker_mb"], 1)
    pipe.send(figures)


def in_fresh_process(func: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``func(*args)`` (a module-level function returning figures) in a new process, with what it cost.

    Adds the process's CPU seconds and its workers' (:func:`tree_cpu_s`), and the peak memory:
    its own peak resident set plus the largest worker's, each read from ``/proc`` (VmHWM, counted
    from the process's exec), so no run inherits the peak of one before it.
    """
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_in_child, args=(send, func, args))
    child.start()
    send.close()
    try:
        figures: dict[str, Any] = receive.recv()
    except EOFError:
        child.join()
        sys.exit(f"the measured run failed (exit code {child.exitcode})")
    child.join()
    return figures


def alternate(rounds: int, baseline: Callable[[], float], subject: Callable[[], dict[str, Any]],
              seconds: str) -> tuple[list[float], list[float], list[dict[str, Any]]]:
    """``rounds`` pairs of runs, baseline then subject, printing each; the baseline's seconds and CPU
    seconds, and the subject's figures (``figures[seconds]`` its time)."""
    base: list[float] = []
    base_cpu: list[float] = []
    runs: list[dict[str, Any]] = []
    for number in range(1, rounds + 1):
        cpu = time.process_time()
        base.append(baseline())
        base_cpu.append(time.process_time() - cpu)
        runs.append(subject())
        print(f"round {number}: baseline {base[-1]:.2f} s, subject {runs[-1][seconds]:.2f} s "
              f"(ratio {runs[-1][seconds] / base[-1]:.3f}), peak {runs[-1]['peak_mb']} MB", file=sys.stderr)
    return base, base_cpu, runs


def cpu_ratio(runs: list[dict[str, Any]], base_cpu: list[float]) -> dict[str, float]:
    """Each round's subject CPU seconds (parent and workers) shared over the machine's cores, over the baseline's
    CPU seconds: the wall ratio of an idle machine whose cores the subject kept busy (a bound from below, which a
    shared machine's load moves less than the wall ratio)."""
    cores = os.cpu_count() or 1
    return spread([(r["parent_cpu_s"] + r["workers_cpu_s"]) / cores / b for r, b in zip(runs, base_cpu, strict=True)])


def steps_share(seconds: dict[str, float]) -> dict[str, list[float]]:
    """Each step's seconds of a learn or mine run (:class:`joseki.games.pipeline.Seconds`) and its share of
    their sum (the parent's whole time, ``parent``, left out of the sum: it holds its writes)."""
    total = sum(s for name, s in seconds.items() if name != "parent") or 1.0
    return {name: [round(s, 2), round(s / total, 3)] for name, s in sorted(seconds.items(), key=lambda i: -i[1])}


def load() -> list[float]:
    """The machine's load averages (1, 5, 15 minutes)."""
    return [round(x, 2) for x in os.getloadavg()]


def fresh_store(name: str) -> Store:
    """A new, empty SQLite store in the benchmark cache."""
    db = CACHE / f"{name}.sqlite"
    db.unlink(missing_ok=True)
    return Store(str(db))
