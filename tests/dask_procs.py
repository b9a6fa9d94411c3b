"""A real Dask cluster on 127.0.0.1: ``dask scheduler`` and ``dask worker`` as separate processes.

The scheduler picks a free port and writes it to a scheduler file; workers run without a nanny,
one thread each, so killing one is killing a worker (nothing restarts it). Every wait is for a
condition (the file written, the workers registered), checking that the processes are alive,
so a broken start fails at once instead of hanging; no clock decides anything.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any


def _die_with_parent() -> None:
    """Linux: the child is killed when the process that started it dies (a killed test run leaves no cluster)."""
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def dask_command() -> list[str]:
    """The ``dask`` command beside this interpreter (``python -m dask`` without one)."""
    script = Path(sys.executable).parent / "dask"
    return [str(script)] if script.exists() else [sys.executable, "-m", "dask"]


class DaskProcesses:
    """A scheduler and named workers, all stopped on :meth:`close` (or leaving the ``with`` block)."""

    def __init__(self, folder: Path, workers: int = 2) -> None:
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.file.unlink(missing_ok=True)
        self.logs: list[Path] = []
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        self.killed: list[str] = []
        self.scheduler = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", "0",
                                                   "--no-dashboard", "--scheduler-file", str(self.file)])
        try:
            self._wait(lambda: self._address() is not None)
            for n in range(workers):
                self.add_worker(f"w{n + 1}")
            self.wait_for_workers(workers)
        except BaseException:
            self.close()
            raise

    @property
    def address(self) -> str:
        address = self._address()
        assert address is not None
        return address

    def _address(self) -> str | None:
        try:
            return str(json.loads(self.file.read_text())["address"])
        except (OSError, ValueError, KeyError):
            return None

    def _start(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = self.folder / f"{name}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            return subprocess.Popen([*dask_command(), *args], stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)

    def add_worker(self, name: str) -> None:
        """Start worker ``name`` (one process, one thread, no nanny)."""
        self.workers[name] = self._start(name, ["worker", "--scheduler-file", str(self.file), "--name", name,
                                                "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                                "--host", "127.0.0.1"])

    def _alive(self) -> None:
        for name, proc in [("scheduler", self.scheduler), *self.workers.items()]:
            if proc.poll() is not None:
                logs = "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in self.logs)
                raise RuntimeError(f"dask {name} exited with {proc.returncode}\n{logs}")

    def _wait(self, condition: Any) -> None:
        while not condition():
            self._alive()
            time.sleep(0.05)

    def info(self) -> dict[str, Any]:
        """The scheduler's view: its ``workers`` by address, each with its ``name``."""
        from distributed import Client

        with Client(self.address, set_as_default=False) as client:
            return dict(client.scheduler_info(n_workers=-1))

    def wait_for_workers(self, count: int) -> None:
        """Wait until exactly ``count`` workers are registered with the scheduler."""
        self._wait(lambda: len(self.info()["workers"]) == count)

    def kill(self, name: str) -> None:
        """SIGKILL worker ``name`` (no goodbye to the scheduler: a lost worker, as when a machine dies)."""
        proc = self.workers.pop(name)
        proc.kill()
        proc.wait()
        self.killed.append(name)

    def close(self) -> None:
        """Stop the workers, then the scheduler, and wait for each."""
        for proc in [*self.workers.values(), self.scheduler]:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.workers.clear()

    def __enter__(self) -> DaskProcesses:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
