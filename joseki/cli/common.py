"""What the command-line modules share: consoles, one-line errors, the store, the starter book, progress bars."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.console import Console

from joseki.book.errors import StoreError

if TYPE_CHECKING:
    from rich.progress import Progress

    from joseki.book.store import Store

out = Console()
err = Console(stderr=True)
F = TypeVar("F", bound=Callable[..., Any])

STARTER = "starter"


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print a one-line error and return the exit to raise."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def user_errors(func: F) -> F:
    """Turn the user's mistakes (ValueError, StoreError) into a one-line error and exit code 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (ValueError, StoreError) as exc:
            raise fail(str(exc)) from None

    return wrapper  # type: ignore[return-value]


class Context:
    db: str | None = None


CTX = Context()


def open_store() -> Store:
    """The store named by ``--db`` (or its default)."""
    from joseki.book.store import Store

    return Store(CTX.db)


def ensure_starter(store: Store) -> None:
    """Load the starter book into a store that has no collection at all."""
    if store.collection_count() == 0:
        from joseki.book.importer import import_file
        from joseki.book.resources import starter_book

        report = import_file(store, starter_book(), STARTER)
        if report.error:
            raise StoreError(f"starter book {starter_book()}: {report.error}")
        err.print(f"[dim]empty store: loaded the starter book ({report.new} variations)[/]")


def progress_bar(as_json: bool, auto_refresh: bool = True) -> Progress:
    """A progress bar on stderr, hidden for --json or when stderr is not a terminal.

    Without ``auto_refresh`` it is redrawn only when it advances, and runs no thread of its
    own.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True, auto_refresh=auto_refresh, disable=as_json or not err.is_terminal)


