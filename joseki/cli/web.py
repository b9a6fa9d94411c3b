"""``joseki serve``: the joseki explorer in the browser, a thin shell over :func:`joseki.web.app.serve`."""

from __future__ import annotations

from typing import Annotated

import typer

from joseki.cli.common import GLOBALS, err, user_errors


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("serve")(serve_command)


@user_errors
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on (only this machine by default; another one needs "
                                      "--allowed-host).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    writable: Annotated[bool, typer.Option("--writable", help="Allow writes: upgrade the schema, load the starter "
                                           "book into an empty store.")] = False,
    workers: Annotated[int, typer.Option(help="Server processes, each with its own cache (more players at once; "
                                         "for many, a PostgreSQL store).", min=1)] = 1,
    cache_mb: Annotated[int, typer.Option(help="Memory for answers already given, per process, in MiB (0: none); "
                                          "dropped whenever the store changes.", min=0)] = 64,
    allowed_host: Annotated[list[str] | None, typer.Option(
        "--allowed-host", help="A host name players reach the server by (repeatable; *.example.org for its "
                               "subdomains): required with a --host other than loopback.")] = None,
) -> None:
    """A joseki explorer in the browser: explore the book, see its games, review a game, practise."""
    from joseki.web.app import serve

    serve(GLOBALS.db, host, port, writable, workers, cache_mb=cache_mb, allowed_hosts=allowed_host or [],
          announce=lambda url: err.print(f"joseki explorer on {url} (Ctrl-C to stop)", style="dim", highlight=False))
