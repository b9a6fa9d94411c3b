"""A GTP engine that plays book moves from a policy and hands every other move to a wrapped engine.

The proxy keeps its own copy of the game (:class:`~joseki.engine.gtp.GameState`) and keeps the
wrapped engine in sync: each ``play`` is forwarded, and a book move answered to ``genmove``
is sent to the engine as ``play``. It answers the standard commands itself, forwards a few
read-only ones the engine knows (:data:`PASSTHROUGH`), and answers ``? unknown command`` to
the rest, so nothing the proxy does not track can change the engine's board. Input is read
as bytes and any line gets an answer (:mod:`joseki.engine.gtp_syntax`); every argument is
checked and rebuilt before it is forwarded, so only printable ASCII reaches the engine. A
dead or hung engine gives a ``? engine ...`` failure within the timeout, never a hang; the
scoring commands (:data:`SLOW`) get :data:`SLOW_FACTOR` times the timeout, as GNU Go's
dead-stone analysis can take minutes. The extension command ``joseki-book-moves`` lists the
numbers (from 1) of the moves that came from the book.

Run as ``python -m joseki.engine.gtp_proxy --engine "gnugo --mode gtp"`` for a proxy without a book.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import IO, Protocol

from joseki import __version__
from joseki.core.geometry import Point
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.engine.gtp import DEFAULT_TIMEOUT, SLOW_FACTOR, EngineError, GameState, GtpEngine, GtpError
from joseki.engine.gtp_syntax import (
    MAX_LINE,
    ArgumentError,
    check_ints,
    check_kgs_time,
    check_no_args,
    check_status,
    check_time_left,
    decode_line,
    format_komi,
    parse_colour,
    parse_command,
    parse_komi,
    parse_size,
    parse_vertex,
    response,
)

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



PASSTHROUGH: dict[str, Callable[[list[str]], list[str]]] = {
    "showboard": check_no_args,
    "time_settings": lambda args: check_ints(args, 3),
    "time_left": check_time_left,
    "kgs-time_settings": check_kgs_time,
    "final_status_list": check_status,
}
"""Commands forwarded when the wrapped engine knows them (none of them moves stones), each with
the checker that returns its arguments in canonical form or raises ArgumentError."""

SLOW = frozenset({"final_score", "final_status_list"})
"""Commands that may think for long (dead-stone analysis): they get SLOW_FACTOR times the timeout."""


class BookPolicy(Protocol):
    """Chooses a book move, or None to let the engine think."""

    def choose(self, moves: list[tuple[str, Point | None]], colour: str, size: int) -> Point | None:
        """A point for ``colour`` to play after ``moves`` (colour, point-or-None) on a ``size`` board, or None."""
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
            "final_score": self._final_score,
            "joseki-book-moves": lambda args: " ".join(str(number) for number in self.book_moves),
        }

    # -- protocol ---------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The full response (``=id text`` + empty line) to one input line; None for a line to ignore.

        Never raises: a bad line, bad arguments, a dead engine or a bug all give a ``?`` answer.
        """
        command = parse_command(line)
        if command is None:
            return None
        if not command.name:
            return response(command.ident, False, "missing command")
        try:
            answer = self._dispatch(command.name, command.args)
        except (_Failure, ArgumentError) as exc:
            return response(command.ident, False, str(exc))
        except Exception as exc:  # the proxy must keep answering whatever happens
            self.log(f"internal error on {command.name!r}: {exc!r}")
            return response(command.ident, False, "internal error")
        return response(command.ident, True, answer)

    def handle_long(self, prefix: str, rest_blank: bool) -> str | None:
        """The answer to a line longer than :data:`MAX_LINE` bytes, given its start.

        If the part not read holds no command text (``rest_blank``: only spaces, control
        characters or a comment), the line is handled from its start as usual; otherwise
        it is refused (``line too long``), with its id if any.
        """
        if rest_blank:
            return self.handle(prefix)
        command = parse_command(prefix)
        return response(command.ident if command else "", False, "line too long")

    def _dispatch(self, name: str, args: list[str]) -> str:
        handler = self._handlers.get(name)
        if handler is not None:
            return handler(args)
        check = PASSTHROUGH.get(name)
        if check is not None and name in self._engine_commands():
            return self._forward(" ".join([name, *check(args)]), slow=name in SLOW)
        raise _Failure("unknown command")

    def _engine_commands(self) -> frozenset[str]:
        try:
            return self.engine.known_commands()
        except (EngineError, GtpError) as exc:
            self.log(f"cannot list the engine's commands: {exc}")
            return frozenset()

    def _commands(self) -> list[str]:
        return [*OWN_COMMANDS, *sorted(PASSTHROUGH.keys() & self._engine_commands())]

    def _forward(self, command: str, slow: bool = False) -> str:
        try:
            return self.engine.send(command, self.timeout * (SLOW_FACTOR if slow else 1))
        except GtpError as exc:
            raise _Failure(exc.message or "engine failed") from None
        except EngineError as exc:
            raise _Failure(f"engine error: {exc}") from None
        except ValueError as exc:  # a command that is not safe to send (a bug: arguments are checked)
            self.log(str(exc))
            raise _Failure("internal error") from None

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
        if len(args) != 1:
            raise _Failure("syntax error")
        size = parse_size(args[0])
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
        check_no_args(args)
        self._forward("clear_board")
        self.game.clear()
        self.book_moves = []
        return ""

    def _komi(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        komi = parse_komi(args[0])
        self._forward(f"komi {format_komi(komi)}")
        self.game.komi = komi
        return ""

    def _move_args(self, args: list[str]) -> tuple[str, Point | None]:
        if len(args) != 2:
            raise _Failure("syntax error")
        return parse_colour(args[0]), parse_vertex(args[1], self.game.size)

    def _play(self, args: list[str]) -> str:
        colour, point = self._move_args(args)
        try:
            self.game.check(colour, point)
        except ValueError:
            raise _Failure("illegal move") from None
        self._forward(f"play {colour} {format_gtp_vertex(point, self.game.size)}")
        self.game.play(colour, point)
        return ""

    def _genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        colour = parse_colour(args[0])
        book = self._book_move(colour)
        if book is not None:
            return book
        answer = self._forward(f"genmove {colour}")
        token = answer.split()[0] if answer.split() else ""
        if token.lower() == "resign":
            return "resign"
        try:
            point = parse_gtp_vertex(token, self.game.size)
            self.game.play(colour, point)
        except ValueError as exc:
            raise _Failure(f"engine played a bad move {answer!r}: {exc}") from None
        return format_gtp_vertex(point, self.game.size)

    def _book_move(self, colour: str) -> str | None:
        """Play and return the policy's move, or None if there is none (or it cannot be played)."""
        if self.policy is None:
            return None
        try:
            point = self.policy.choose(list(self.game.moves), colour, self.game.size)
        except Exception as exc:  # a broken book must not lose the game: the engine plays instead
            self.log(f"book policy failed: {exc!r}")
            return None
        if point is None:
            return None
        try:
            vertex = format_gtp_vertex(point, self.game.size)
            self.game.check(colour, point)
            self.engine.send(f"play {colour} {vertex}", self.timeout)
        except (ValueError, GtpError) as exc:
            self.log(f"book move {point!r} for {colour} not played: {exc}")
            return None
        except EngineError as exc:
            raise _Failure(f"engine error: {exc}") from None
        self.game.play(colour, point)
        self.book_moves.append(len(self.game.moves))
        return vertex

    def _final_score(self, args: list[str]) -> str:
        check_no_args(args)
        return self._forward("final_score", slow=True)

    def _undo(self, args: list[str]) -> str:
        check_no_args(args)
        if not self.game.moves or "undo" not in self._engine_commands():
            raise _Failure("cannot undo")
        self._forward("undo")
        self.game.undo()
        number = len(self.game.moves) + 1
        if self.book_moves and self.book_moves[-1] == number:
            self.book_moves.pop()
        return ""


def _drop_rest(stdin: IO[bytes], commented: bool) -> bool:
    """Read and drop the rest of an overlong line; True if it held no command text."""
    blank = True
    while rest := stdin.readline(MAX_LINE):
        if not commented:
            head, hash_sign, _ = rest.partition(b"#")
            blank = blank and not any(32 < byte != 127 for byte in head)
            commented = bool(hash_sign)
        if rest.endswith(b"\n"):
            break
    return blank


def serve(engine_command: str, policy: BookPolicy | None, stdin: IO[bytes], stdout: IO[bytes],
          timeout: float = DEFAULT_TIMEOUT, stderr: IO[str] | None = None) -> None:
    """Run the proxy over binary ``stdin``/``stdout`` until ``quit`` or end of input, then close the engine.

    Lines are read as bytes (so no locale or stray byte can stop the proxy), at most
    :data:`MAX_LINE` bytes of each. Raises EngineError if the engine cannot be started.
    Diagnostics go to ``stderr`` if given.
    """
    def log(message: str) -> None:
        if stderr is not None:
            text = message.encode("ascii", "backslashreplace").decode("ascii")
            print(f"joseki gtp: {text}", file=stderr, flush=True)

    engine = GtpEngine(engine_command, timeout)
    proxy = GtpProxy(engine, policy, timeout, log)
    try:
        while raw := stdin.readline(MAX_LINE):
            if len(raw) == MAX_LINE and not raw.endswith(b"\n"):
                answer = proxy.handle_long(decode_line(raw), _drop_rest(stdin, commented=b"#" in raw))
            else:
                answer = proxy.handle(decode_line(raw))
            if answer is None:
                continue
            try:
                stdout.write(answer.encode("utf-8", "replace"))
                stdout.flush()
            except (BrokenPipeError, ValueError):
                break  # the controller has gone
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
    if not 0 < options.timeout < float("inf"):
        parser.error(f"--timeout must be a positive number of seconds, not {options.timeout}")
    try:
        serve(options.engine, None, sys.stdin.buffer, sys.stdout.buffer, options.timeout, sys.stderr)
    except EngineError as exc:
        print(f"joseki gtp: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
