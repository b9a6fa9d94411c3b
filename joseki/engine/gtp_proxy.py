"""A GTP engine that plays book moves from a policy and hands every other move to a wrapped engine.

The proxy keeps its own copy of the game (:class:`~joseki.engine.gtp.GameState`) and keeps the
wrapped engine in sync: each ``play`` is forwarded, and a book move answered to ``genmove``
is sent to the engine as ``play``. It answers the standard commands itself, forwards a few
read-only ones the engine knows (:data:`PASSTHROUGH`), and answers ``? unknown command`` to
the rest, so nothing the proxy does not track can change the engine's board. A dead or hung
engine gives a ``? engine ...`` failure within the timeout, never a hang. The extension
command ``joseki-book-moves`` lists the numbers (from 1) of the moves that came from the book.

Run as ``python -m joseki.engine.gtp_proxy --engine "gnugo --mode gtp"`` for a proxy without a book.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Protocol, TextIO

from joseki import __version__
from joseki.core.geometry import Point
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.engine.gtp import DEFAULT_TIMEOUT, EngineError, GameState, GtpEngine, GtpError, parse_color

PROXY_NAME = "joseki"

OWN_COMMANDS = (
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "final_score",
    "joseki-book-moves",
)
"""Commands the proxy always answers (``undo`` and ``final_score`` fail if the engine lacks them)."""

PASSTHROUGH = frozenset({"showboard", "time_settings", "time_left", "kgs-time_settings", "final_status_list"})
"""Commands forwarded unchanged when the wrapped engine knows them: none of them moves stones."""


class BookPolicy(Protocol):
    """Chooses a book move, or None to let the engine think."""

    def choose(self, moves: list[tuple[str, Point | None]], color: str, size: int) -> Point | None:
        """A point for ``color`` to play after ``moves`` (colour, point-or-None) on a ``size`` board, or None."""
        ...


class _Failure(Exception):
    """A GTP failure to answer with ``?``."""


class GtpProxy:
    """The proxy's state and command handlers; :meth:`handle` answers one input line."""

    def __init__(self, engine: GtpEngine, policy: BookPolicy | None = None, timeout: float = DEFAULT_TIMEOUT,
                 log: Callable[[str], None] | None = None) -> None:
        self.engine = engine
        self.policy = policy
        self.timeout = timeout
        self.log = log or (lambda message: None)
        self.game = GameState()
        self.book_moves: list[int] = []
        self.finished = False
        self._handlers: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: PROXY_NAME,
            "version": self._version,
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(self._commands()),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "final_score": lambda args: self._forward("final_score"),
            "joseki-book-moves": lambda args: " ".join(str(number) for number in self.book_moves),
        }

    # -- protocol ---------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The full response (``=id text`` + blank line) to one input line; None for a line to ignore."""
        text = "".join(ch for ch in line.split("#", 1)[0] if ch in "\t\n" or (ch >= " " and ch != "\x7f"))
        words = text.replace("\t", " ").split()
        if not words:
            return None
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} missing command\n\n"
        command, args = words[0], words[1:]
        handler = self._handlers.get(command)
        try:
            if handler is not None:
                answer = handler(args)
            elif command in PASSTHROUGH and command in self._engine_commands():
                answer = self._forward(" ".join([command, *args]))
            else:
                raise _Failure("unknown command")
            ok = True
        except _Failure as exc:
            ok, answer = False, str(exc)
        lines = [part for part in answer.replace("\r", "").split("\n") if part.strip()]
        body = "\n".join(lines)
        return f"{'=' if ok else '?'}{ident}{' ' if body else ''}{body}\n\n"

    def _engine_commands(self) -> frozenset[str]:
        try:
            return self.engine.known_commands()
        except (EngineError, GtpError) as exc:
            self.log(f"cannot list the engine's commands: {exc}")
            return frozenset()

    def _commands(self) -> list[str]:
        return [*OWN_COMMANDS, *sorted(PASSTHROUGH & self._engine_commands())]

    def _forward(self, command: str) -> str:
        try:
            return self.engine.send(command, self.timeout)
        except GtpError as exc:
            raise _Failure(exc.message or "engine failed") from None
        except EngineError as exc:
            raise _Failure(f"engine error: {exc}") from None

    # -- handlers ---------------------------------------------------------------------

    def _version(self, args: list[str]) -> str:
        try:
            wrapped = f"{self.engine.name()} {self.engine.version()}".strip()
        except (EngineError, GtpError):
            return __version__
        return f"{__version__} over {wrapped}"

    def _known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        return "true" if args[0] in self._commands() else "false"

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        if len(args) != 1 or not args[0].isdigit():
            raise _Failure("syntax error")
        size = int(args[0])
        try:
            GameState(size)
        except ValueError:
            raise _Failure("unacceptable size") from None
        try:
            self._forward(f"boardsize {size}")
        except _Failure as exc:
            raise _Failure("unacceptable size" if "engine error" not in str(exc) else str(exc)) from None
        self.game.clear(size)
        self.book_moves = []
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self._forward("clear_board")
        self.game.clear()
        self.book_moves = []
        return ""

    def _komi(self, args: list[str]) -> str:
        try:
            komi = float(args[0]) if len(args) == 1 else None
        except ValueError:
            komi = None
        if komi is None:
            raise _Failure("syntax error")
        self._forward(f"komi {args[0]}")
        self.game.komi = komi
        return ""

    def _move_args(self, args: list[str]) -> tuple[str, Point | None]:
        if len(args) != 2:
            raise _Failure("syntax error")
        try:
            return parse_color(args[0]), parse_gtp_vertex(args[1], self.game.size)
        except ValueError:
            raise _Failure("syntax error") from None

    def _play(self, args: list[str]) -> str:
        color, point = self._move_args(args)
        try:
            self.game.check(color, point)
        except ValueError:
            raise _Failure("illegal move") from None
        self._forward(f"play {color} {format_gtp_vertex(point, self.game.size)}")
        self.game.play(color, point)
        return ""

    def _genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        try:
            color = parse_color(args[0])
        except ValueError:
            raise _Failure("syntax error") from None
        book = self._book_move(color)
        if book is not None:
            return book
        answer = self._forward(f"genmove {color}")
        token = answer.split()[0] if answer.split() else ""
        if token.lower() == "resign":
            return "resign"
        try:
            point = parse_gtp_vertex(token, self.game.size)
            self.game.play(color, point)
        except ValueError as exc:
            raise _Failure(f"engine played a bad move {answer!r}: {exc}") from None
        return format_gtp_vertex(point, self.game.size)

    def _book_move(self, color: str) -> str | None:
        """Play and return the policy's move, or None if there is none (or it cannot be played)."""
        if self.policy is None:
            return None
        try:
            point = self.policy.choose(list(self.game.moves), color, self.game.size)
        except Exception as exc:  # a broken book must not lose the game: the engine plays instead
            self.log(f"book policy failed: {exc!r}")
            return None
        if point is None:
            return None
        try:
            vertex = format_gtp_vertex(point, self.game.size)
            self.game.check(color, point)
            self.engine.send(f"play {color} {vertex}", self.timeout)
        except (ValueError, GtpError) as exc:
            self.log(f"book move {point!r} for {color} not played: {exc}")
            return None
        except EngineError as exc:
            raise _Failure(f"engine error: {exc}") from None
        self.game.play(color, point)
        self.book_moves.append(len(self.game.moves))
        return vertex

    def _undo(self, args: list[str]) -> str:
        if not self.game.moves or "undo" not in self._engine_commands():
            raise _Failure("cannot undo")
        self._forward("undo")
        self.game.undo()
        number = len(self.game.moves) + 1
        if self.book_moves and self.book_moves[-1] == number:
            self.book_moves.pop()
        return ""


def serve(engine_command: str, policy: BookPolicy | None, stdin: TextIO, stdout: TextIO,
          timeout: float = DEFAULT_TIMEOUT, stderr: TextIO | None = None) -> None:
    """Run the proxy over ``stdin``/``stdout`` until ``quit`` or end of input, then close the engine.

    Raises EngineError if the engine cannot be started. Diagnostics go to ``stderr`` if given.
    """
    def log(message: str) -> None:
        if stderr is not None:
            print(f"joseki gtp: {message}", file=stderr, flush=True)

    engine = GtpEngine(engine_command, timeout)
    proxy = GtpProxy(engine, policy, timeout, log)
    try:
        for line in stdin:
            response = proxy.handle(line)
            if response is None:
                continue
            stdout.write(response)
            stdout.flush()
            if proxy.finished:
                break
    finally:
        engine.close()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m joseki.engine.gtp_proxy --engine CMD [--timeout S]``: the proxy without a book."""
    parser = argparse.ArgumentParser(prog="python -m joseki.engine.gtp_proxy", description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="command line of the wrapped GTP engine")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per engine command")
    options = parser.parse_args(argv)
    try:
        serve(options.engine, None, sys.stdin, sys.stdout, options.timeout, sys.stderr)
    except EngineError as exc:
        print(f"joseki gtp: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
