"""Computing a pure function in a forked child process, to use a second core on data already in memory.

The child inherits the parent's memory, so the function's inputs are not copied; only its
result comes back, through a pipe, in :mod:`marshal`'s format (so it must be made of tuples,
lists, dicts, sets, strings, bytes, numbers, booleans and None). Where fork is unsafe or
missing (not Linux, or other threads running) or the child fails in any way but a
ValueError, the function runs in this process instead: the answer, or the exception, is the
same either way, only slower.
"""

from __future__ import annotations

import marshal
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any


class Forked:
    """A function's result being computed in a child process; :meth:`result` waits for it."""

    def __init__(self, function: Callable[[], Any]) -> None:
        self.function = function
        self.pid: int | None = None
        self.reader: int | None = None
        if sys.platform.startswith("linux") and threading.active_count() == 1:
            self._fork()

    def _fork(self) -> None:
        reader, writer = os.pipe()
        try:
            pid = os.fork()
        except OSError:  # no process to spare: the work is done here
            os.close(reader)
            os.close(writer)
            return
        if pid == 0:  # the child: compute, send, and leave without running any of the parent's clean-up
            try:
                os.close(reader)
                try:
                    value = self.function()
                except ValueError as exc:
                    payload = marshal.dumps((False, str(exc)))
                else:
                    payload = marshal.dumps((True, value))
                with os.fdopen(writer, "wb") as out:
                    out.write(payload)
            finally:
                os._exit(0)
        os.close(writer)
        self.pid, self.reader = pid, reader

    def result(self) -> Any:
        """The function's value; its ValueError is raised here."""
        if self.reader is None:
            return self.function()
        with os.fdopen(self.reader, "rb") as inp:
            data = inp.read()
        self.reader = None
        self._reap()
        try:
            ok, value = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return self.function()  # the child failed: the same work here gives the answer or the real error
        if not ok:
            raise ValueError(value)
        return value

    def cancel(self) -> None:
        """Stop the child if its result was never asked for."""
        if self.reader is not None:
            os.close(self.reader)
            self.reader = None
            if self.pid is not None:
                os.kill(self.pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        if self.pid is not None:
            os.waitpid(self.pid, 0)
            self.pid = None
