"""What the command-line modules share: consoles, one-line errors, the store, the starter book, progress bars.

Every failure a user can cause ends in one line ``error: ...`` on stderr and a non-zero exit:
:func:`user_errors` turns a :class:`~joseki.core.errors.UserError` (bad input, an unusable file,
database or engine), Ctrl-C (exit 130) and SIGTERM (exit 143) into that line; :class:`Group` does
the same for usage errors (exit 2). Anything else is a bug, told as one line ``internal error: ...``
that names ``JOSEKI_DEBUG=1``, which shows the traceback instead (of a user's error too).

Nothing from outside is markup or control: the consoles show control characters as escapes
(:func:`joseki.core.text.visible`), and text from files, arguments or the database that goes
into a markup string passes through :func:`safe` first.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import wraps
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.console import Console, ConsoleOptions, RenderableType
from rich.markup import escape
from rich.segment import Segment
from rich.text import Text
from typer.core import TyperGroup

from joseki.book.store.errors import StoreError
from joseki.core.errors import UserError
from joseki.core.text import json_safe, visible

if TYPE_CHECKING:
    from rich.progress import Progress
    from rich.table import Table
    from rich.text import Text

    from joseki.book.store.bookfile import BookFile
    from joseki.book.store.database import Store

F = TypeVar("F", bound=Callable[..., Any])

STARTER = "starter"
DEBUG_VAR = "JOSEKI_DEBUG"
EXIT_USAGE = 2
EXIT_BUG = 70
"""A bug (``EX_SOFTWARE`` of sysexits.h)."""
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM


class SafeConsole(Console):
    """A console that shows control characters (``\\x1b``) instead of sending them to the terminal.

    Strings are made visible before their markup is read (so tables measure what is shown),
    every other renderable's text as it is rendered, and JSON keeps the exact values through
    JSON's own escapes (:func:`joseki.core.text.json_safe`).
    """

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(visible(text), **kwargs)

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            yield segment if segment.control else Segment(visible(segment.text), segment.style)

    def print_json(self, json_text: str | None = None, *, data: Any = None, indent: int | str | None = 2,
                   highlight: bool = True, skip_keys: bool = False, ensure_ascii: bool = False,
                   check_circular: bool = True, allow_nan: bool = True,
                   default: Callable[[Any], Any] | None = None, sort_keys: bool = False) -> None:
        from rich.highlighter import JSONHighlighter, NullHighlighter

        value = json.loads(json_text) if json_text is not None else data
        dumped = json.dumps(value, indent=indent, skipkeys=skip_keys, ensure_ascii=ensure_ascii,
                            check_circular=check_circular, allow_nan=allow_nan, default=default,
                            sort_keys=sort_keys)
        text = (JSONHighlighter() if highlight else NullHighlighter())(json_safe(dumped))
        text.no_wrap = True
        text.overflow = None
        self.print(text, soft_wrap=True)


out = SafeConsole(emoji=False)
err = SafeConsole(stderr=True, emoji=False)


def safe(text: object) -> str:
    """``text`` (a file name, an argument, a comment) escaped for use inside a markup string."""
    return escape(str(text))


def print_error(message: str, label: str = "error", style: str = "bold red") -> None:
    """One line ``label: message`` on stderr; ``message`` is plain text, never markup."""
    err.print(Text(f"{label}:", style=style) + Text(" " + " ".join(message.split("\n"))), highlight=False,
              soft_wrap=True)


def fail(message: str, code: int = 1, label: str = "error") -> typer.Exit:
    """Print a one-line error (``message`` is plain text) and return the exit to raise."""
    print_error(message, label)
    return typer.Exit(code)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread like KeyboardInterrupt so that clean-up runs."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def user_errors(func: F) -> F:
    """Turn every failure the user can cause into a one-line error and a non-zero exit, and a bug into one
    ``internal error`` line that says how to see its traceback.

    A :class:`~joseki.core.errors.UserError` exits 1, a bug 70; Ctrl-C exits 130 and SIGTERM 143. Open
    transactions roll back as the exception passes, so the store is unchanged.
    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except KeyboardInterrupt:
            if os.environ.get(DEBUG_VAR):
                raise
            raise fail("interrupted", EXIT_INTERRUPTED) from None
        except Terminated:
            if os.environ.get(DEBUG_VAR):
                raise
            raise fail("terminated", EXIT_TERMINATED) from None
        except UserError as exc:
            if os.environ.get(DEBUG_VAR):
                raise
            raise fail(str(exc)) from None
        except Exception as exc:
            if os.environ.get(DEBUG_VAR):
                raise
            raise fail(f"{type(exc).__name__}: {exc} (a bug: {DEBUG_VAR}=1 shows the traceback)", EXIT_BUG,
                       label="internal error") from None

    return wrapper  # type: ignore[return-value]


class App(typer.Typer):
    """The top-level app: converts into click only the command its arguments name, so a command starts fast.

    typer turns every registered command into a click command (reading each signature) before it
    dispatches; for ``joseki next`` that is fourteen conversions nobody uses. When the process's
    arguments name a command, the others are left out of that one call; help, completion of
    names and unknown commands see them all.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = invoked_command(sys.argv[1:]) if not args and "args" not in kwargs else None
        commands, groups = self.registered_commands, self.registered_groups
        chosen = [c for c in commands if c.name == name], [g for g in groups if g.name == name]
        if name is not None and any(chosen):
            self.registered_commands, self.registered_groups = chosen
        try:
            return super().__call__(*args, **kwargs)
        finally:
            self.registered_commands, self.registered_groups = commands, groups


VALUE_OPTIONS = frozenset({"--db"})
"""The top-level options that take a value (:func:`invoked_command` skips it)."""


def invoked_command(argv: Sequence[str]) -> str | None:
    """The command named by ``argv`` (the arguments after the program), or None when it names none."""
    args = iter(argv)
    for arg in args:
        if arg in VALUE_OPTIONS:
            next(args, None)
        elif arg.split("=", 1)[0] in VALUE_OPTIONS:
            continue
        elif arg.startswith("-"):
            return None
        else:
            return arg
    return None


class Group(TyperGroup):
    """The command group: usage errors in one line (exit 2), SIGTERM handled like Ctrl-C."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
        from typer.exceptions import Abort

        previous = signal.signal(signal.SIGTERM, _terminate) if _in_main_thread() else None
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except NoArgsIsHelpError as exc:
            exc.show()
            code = exc.exit_code
        except UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else (prog_name or "joseki")
            print_error(f"{where}: {_sentence(exc.format_message())} (see {where} --help)")
            code = EXIT_USAGE
        except ClickException as exc:
            print_error(_sentence(exc.format_message()))
            code = exc.exit_code
        except Abort:
            print_error("aborted")
            code = 1
        except Terminated:  # outside a command's own handling (user_errors)
            print_error("terminated")
            code = EXIT_TERMINATED
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
        if standalone_mode:
            sys.exit(code if isinstance(code, int) else 0)
        return code


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _sentence(message: str) -> str:
    """Click's message as a clause: lower-case first word (unless a name), no full stop, one line."""
    text = " ".join(message.split()).rstrip(".")
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text


class Globals:
    """The global options, set by the main callback (``--db``)."""

    db: str | None = None


GLOBALS = Globals()


def open_store() -> Store:
    """The store named by ``--db`` (or its default)."""
    from joseki.book.store.database import Store

    return Store(GLOBALS.db)


def open_book() -> Store | BookFile:
    """For commands that only read: the store named by ``--db``, read without SQLAlchemy when it is a current
    SQLite book (:func:`joseki.book.store.bookfile.open_book_file`), else opened as a store and, when it holds no
    collection, loaded with the starter book."""
    from joseki.book.store.bookfile import open_book_file

    book = open_book_file(GLOBALS.db)
    if book is not None:
        return book
    store = open_store()
    try:
        ensure_starter(store)
    except BaseException:
        store.close()
        raise
    return store


def ensure_starter(store: Store) -> None:
    """Load the starter book, with its lines' favourability, into a store that has no collection at all."""
    if store.collection_count() == 0:
        from joseki.book.importer import import_file
        from joseki.book.query.favour import fill
        from joseki.book.store.files import starter_book

        report = import_file(store, starter_book(), STARTER)
        if report.error:
            raise StoreError(f"starter book {starter_book()}: {report.error}")
        fill(store, [STARTER])
        err.print(f"[dim]empty store: loaded the starter book ({report.new} variations)[/]")


def progress_bar(as_json: bool, auto_refresh: bool = True) -> Progress:
    """A progress bar on stderr, hidden for --json or when stderr is not a terminal.

    Without ``auto_refresh`` it is redrawn only when it advances, and runs no thread of its
    own.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True, auto_refresh=auto_refresh, disable=as_json or not err.is_terminal)


SIDE_BY_SIDE_WIDTH = 110
"""From this terminal width on, a diagram and its table are printed side by side."""


def print_beside(diagram: Text, table: Table) -> None:
    """A corner diagram beside its table, or above it on a terminal narrower than SIDE_BY_SIDE_WIDTH."""
    from rich.table import Table

    if out.width < SIDE_BY_SIDE_WIDTH:
        out.print(diagram)
        out.print(table)
        return
    grid = Table.grid(padding=(0, 4))
    grid.add_row(diagram, table)
    out.print(grid)
