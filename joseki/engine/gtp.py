"""GTP version 2: a client for an engine in a subprocess, and the game both ends of a link keep.

:class:`GtpEngine` starts an engine from a command string and sends it one command at a
time; every call is bounded by a timeout, after which the engine is killed, so a hung or
dead engine raises :class:`EngineError` instead of blocking. :class:`GameState` is the
referee's copy of a game (sgfmill board, simple ko, no suicide) used by the proxy and by
matches.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO

from sgfmill import boards

from joseki.core.errors import BadInput, UserError
from joseki.core.geometry import Point, check_size
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.engine.gtp_syntax import check_command

DEFAULT_TIMEOUT = 60.0
"""Seconds an engine gets to answer one command: a guard against a hung engine, never a rule of play."""

SLOW_FACTOR = 10
"""Scoring commands (dead-stone analysis) get this many times the timeout: GNU Go's take
half a minute on an idle machine and minutes on a busy one."""

_EOF = None


class GtpError(UserError):
    """The engine answered a command with a GTP failure (``? message``)."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"engine refused {command!r}: {message}")
        self.command = command
        self.message = message

    def __reduce__(self) -> tuple[type[GtpError], tuple[str, str]]:
        # rebuilt from its two parts: a judge's error crosses from a worker process to the parent
        return GtpError, (self.command, self.message)


class EngineError(UserError):
    """The engine could not be started, died, or did not answer in time."""


class EngineDied(EngineError):
    """The engine process exited (or closed its output)."""


class EngineTimeout(EngineError):
    """The engine did not answer within the timeout; it has been killed."""


def _read_lines(stream: IO[bytes], out: queue.Queue[str | None]) -> None:
    """Reader thread: push each line of the engine's stdout, then the EOF marker."""
    try:
        for raw in iter(stream.readline, b""):
            out.put(raw.decode("utf-8", "replace"))
    except (OSError, ValueError):
        pass
    finally:
        out.put(_EOF)


class GtpEngine:
    """A GTP engine running as a subprocess; use it as a context manager or call :meth:`close`."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, stderr: IO[bytes] | int | None = None) -> None:
        """Start ``command`` (shlex-split, no shell). ``stderr`` defaults to /dev/null."""
        argv = shlex.split(command)
        if not argv:
            raise BadInput("empty engine command")
        self.command = command
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if stderr is None else stderr,
                start_new_session=True,
            )
        except OSError as exc:
            raise EngineError(f"cannot start engine {command!r}: {exc.strerror or exc}") from exc
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._eof = False
        assert self.process.stdout is not None
        self._reader = threading.Thread(target=_read_lines, args=(self.process.stdout, self._lines), daemon=True)
        self._reader.start()
        self._known: frozenset[str] | None = None

    def __enter__(self) -> GtpEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        """True while the process runs and its output is open."""
        return not self._eof and self.process.poll() is None

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command; return the response text (``=`` and id stripped).

        Raises BadInput (and sends nothing) unless ``command`` is one line of printable ASCII,
        GtpError on a ``?`` response, EngineDied if the engine is gone, EngineTimeout (after
        killing it) if no full response arrives within ``timeout`` seconds.
        """
        check_command(command)
        limit = self.timeout if timeout is None else timeout
        if not self.alive:
            raise EngineDied(f"engine {self.command!r} is not running{self._exit_note()}")
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(command.encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            self.kill()
            raise EngineDied(f"engine {self.command!r} closed its input{self._exit_note()}") from exc
        ok, text = self._read_response(command, time.monotonic() + limit, limit)
        if not ok:
            raise GtpError(command, text)
        return text

    def _read_response(self, command: str, deadline: float, limit: float) -> tuple[bool, str]:
        lines: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(remaining, 0.0)) if remaining > 0 else self._lines.get_nowait()
            except queue.Empty:
                self.kill()
                raise EngineTimeout(f"engine {self.command!r} did not answer {command!r} within {limit:g} s") from None
            if line is _EOF:
                self._eof = True
                self._reap()
                raise EngineDied(f"engine {self.command!r} exited during {command!r}{self._exit_note()}")
            text = line.replace("\r", "").rstrip("\n")
            if not lines:
                if not text.strip() or text[0] not in "=?":
                    continue  # blank lines or chatter before a response
                lines.append(text)
            elif text.strip():
                lines.append(text)
            else:
                break
        head = lines[0]
        status = head[0] == "="
        rest = head[1:]
        digits = len(rest) - len(rest.lstrip("0123456789"))
        lines[0] = rest[digits:].lstrip(" \t")
        if not lines[0]:
            del lines[0]  # a multi-line answer such as showboard's may start on the next line
        return status, "\n".join(lines).rstrip()

    def _exit_note(self) -> str:
        code = self.process.poll()
        return "" if code is None else f" (exit code {code})"

    def _reap(self) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=0.5)

    def kill(self) -> None:
        """Kill the engine (and its process group) at once."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        self._eof = True

    def close(self, timeout: float = 2.0) -> None:
        """Send ``quit``, wait up to ``timeout`` seconds for the exit, then kill."""
        if self.alive:
            with contextlib.suppress(EngineError, GtpError):
                self.send("quit", timeout)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=timeout)
        self.kill()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def list_commands(self) -> list[str]:
        """The commands the engine knows (``list_commands``)."""
        return [line.strip() for line in self.send("list_commands").splitlines() if line.strip()]

    def known_commands(self) -> frozenset[str]:
        """``list_commands`` as a set, asked once and cached."""
        if self._known is None:
            self._known = frozenset(self.list_commands())
        return self._known

    def name(self) -> str:
        """The engine's name (``name``)."""
        return self.send("name")

    def version(self) -> str:
        """The engine's version (``version``)."""
        return self.send("version")


@dataclass
class GameState:
    """A game as the referee sees it: size, komi, moves, board, simple ko; no suicide.

    Points are :data:`~joseki.core.geometry.Point` ``(x, y)`` from the top left; None is a pass.
    """

    size: int = 19
    komi: float = 7.5
    moves: list[tuple[str, Point | None]] = field(default_factory=list)
    board: boards.Board = field(init=False)
    ko: Point | None = field(init=False, default=None)
    _history: list[tuple[boards.Board, Point | None]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        check_size(self.size)
        self.board = boards.Board(self.size)

    def clear(self, size: int | None = None) -> None:
        """Empty the board (and change its size if given); komi is kept."""
        if size is not None:
            self.size = check_size(size)
        self.board = boards.Board(self.size)
        self.moves = []
        self.ko = None
        self._history = []

    def stone(self, point: Point) -> str | None:
        """``"b"``, ``"w"`` or None at a board point."""
        x, y = point
        colour: str | None = self.board.get(self.size - 1 - y, x)
        return colour

    def check(self, colour: str, point: Point | None) -> tuple[boards.Board, Point | None]:
        """The board and ko point after ``colour`` plays ``point``; BadInput if it is illegal."""
        if colour not in ("b", "w"):
            raise BadInput(f"bad colour {colour!r}")
        board = self.board.copy()
        if point is None:
            return board, None
        x, y = point
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise BadInput(f"illegal move: {point!r} is off the {self.size}x{self.size} board")
        vertex = format_gtp_vertex(point, self.size)
        if self.ko == point and self.moves and self.moves[-1][0] != colour:
            raise BadInput(f"illegal move: {vertex} retakes a ko")
        row, col = self.size - 1 - y, x
        try:
            ko = board.play(row, col, colour)
        except ValueError:
            raise BadInput(f"illegal move: {vertex} is occupied") from None
        if board.get(row, col) is None:
            raise BadInput(f"illegal move: {vertex} is suicide")
        return board, (None if ko is None else (ko[1], self.size - 1 - ko[0]))

    def play(self, colour: str, point: Point | None) -> None:
        """Play a move (None = pass) for ``colour``; BadInput if it is illegal."""
        board, ko = self.check(colour, point)
        self._history.append((self.board, self.ko))
        self.board, self.ko = board, ko
        self.moves.append((colour, point))

    def play_vertex(self, colour: str, vertex: str) -> Point | None:
        """Play a GTP vertex (``pass`` allowed); return its point. BadInput if bad or illegal."""
        point = parse_gtp_vertex(vertex, self.size)
        self.play(colour, point)
        return point

    def undo(self) -> tuple[str, Point | None]:
        """Take back the last move and return it; BadInput if there is none."""
        if not self.moves:
            raise BadInput("no move to undo")
        self.board, self.ko = self._history.pop()
        return self.moves.pop()

    def to_move(self) -> str:
        """The colour after the last move (black on an empty game)."""
        return "b" if not self.moves or self.moves[-1][0] == "w" else "w"

