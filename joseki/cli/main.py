"""The ``joseki`` command line: a thin shell over the library functions of the same names."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from joseki.cli.common import (
    GLOBALS,
    App,
    Group,
    fail,
    open_book,
    open_store,
    out,
    print_beside,
    print_error,
    progress_bar,
    safe,
    user_errors,
)
from joseki.core.errors import BadInput

if TYPE_CHECKING:
    from joseki.book.importer import FileReport
    from joseki.book.query.answer import Candidate, CornerAnswer

app = App(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="A Go joseki database: import SGF collections, ask for the next joseki move.", cls=Group)
db_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Database maintenance.")
app.add_typer(db_app, name="db")


@app.callback()
def main(db: Annotated[str | None, typer.Option(
        "--db", help="Database: an SQLAlchemy URL or a SQLite file path (default: $JOSEKI_DB, else "
                     "joseki.sqlite in the user data directory).")] = None) -> None:
    """A Go joseki database: import SGF collections, ask for the next joseki move."""
    GLOBALS.db = db


@app.command("import")
@user_errors
def import_command(
    paths: Annotated[list[Path], typer.Argument(help="SGF files or folders (searched for *.sgf).")],
    collection: Annotated[str | None, typer.Option(help="Collection name (default: each file's stem).")] = None,
    replace: Annotated[bool, typer.Option(help="Re-import files imported before.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the reports as JSON.")] = False,
) -> None:
    """Import SGF joseki collections, one transaction per file."""
    from joseki.book.importer import expand_paths, import_files

    files = expand_paths(paths)
    if not files:
        raise fail("no SGF files found in " + ", ".join(map(str, paths)))
    with open_store() as store, progress_bar(as_json, auto_refresh=False) as progress:
        task = progress.add_task("importing", total=len(files))

        def advance(path: Path, report: FileReport) -> None:
            progress.update(task, advance=1, description=f"importing {safe(path.name)}", refresh=True)

        reports = import_files(store, files, collection, replace, advance)
    failed = [r for r in reports if r.error]
    for r in failed:
        print_error(f"{r.path}: {r.error}")
    for r in reports:
        for warning in r.warnings:
            print_error(f"{r.path}: {warning}", "warning", "yellow")
    if as_json:
        out.print_json(data={"files": [_report_json(r) for r in reports]})
    else:
        out.print(_report_table(reports))
    if failed:
        raise typer.Exit(1)
    if not any(r.status == "already imported" or r.paths > r.skipped for r in reports):
        raise fail("nothing usable read: no variation in " + ", ".join(r.path for r in reports))


def _report_json(r: FileReport) -> dict[str, Any]:
    return {"file": r.path, "collection": r.collection, "status": r.status, "paths": r.paths, "new": r.new,
            "duplicates": r.duplicates, "skipped": r.skipped, "refused": r.refused, "error": r.error}


def _report_table(reports: list[FileReport]) -> Table:
    table = Table(title="import")
    counts = ("paths", "new", "duplicates", "skipped", "refused")
    for name in ("file", "collection", "status", *counts):
        table.add_column(name, justify="right" if name in counts else "left")
    for r in reports:
        table.add_row(safe(Path(r.path).name), safe(r.collection), r.status if not r.error else "[red]failed[/]",
                      *(str(getattr(r, k)) for k in counts))
    if len(reports) > 1:
        table.add_row(f"{len(reports)} files", "", "", *(str(sum(getattr(r, k) for r in reports)) for k in counts),
                      style="bold")
    return table


def _colour(name: str) -> str:
    key = name.strip().lower()
    if key in ("b", "black"):
        return "b"
    if key in ("w", "white"):
        return "w"
    raise BadInput(f"bad colour {name!r} (expected black or white)")


@app.command("next")
@user_errors
def next_command(
    moves: Annotated[list[str] | None, typer.Argument(help="Moves in GTP (Q16) or SGF (pd) notation, or pass.")]
    = None,
    steps: Annotated[str | None, typer.Option(help="A play-step string in zone letters instead of moves.")] = None,
    first: Annotated[str | None, typer.Option(help="Colour of the first move: black (default) or white.")] = None,
    corner: Annotated[str | None, typer.Option(help="Corner for --steps or an empty board (default: top-right).")]
    = None,
    top: Annotated[int | None, typer.Option(help="Show at most this many candidates.", min=1)] = None,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    rank: Annotated[str, typer.Option(help="Order: popularity (book paths + games), priority, winrate, games, "
                                           "context (the games of the whole-board context, when it has any).")]
    = "popularity",
    profile: Annotated[str | None, typer.Option(help="Statistics of this profile (falling back to global).")]
    = None,
    sgf: Annotated[Path | None, typer.Option("--sgf", help="A game record: every corner after --move.")] = None,
    move: Annotated[int | None, typer.Option(help="With --sgf: after this move (default: the last).", min=0)]
    = None,
    show_steps: Annotated[bool, typer.Option("--show-steps", help="Also print each corner's play-step string "
                                             "(zone letters, as --steps takes).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """The book's next moves for each corner of MOVES, of --steps, or of a game (--sgf)."""
    from joseki.book.query.answer import Options
    from joseki.book.query.next import next_in_game, next_moves, rank_key
    from joseki.core.geometry import Corner
    from joseki.core.moves import Moves, game_moves, typed_moves
    from joseki.core.steps import parse_steps

    first_colour = _colour(first or "black")
    where = Corner.parse(corner or "top-right")
    if sum(x is not None and x != [] for x in (moves, steps, sgf)) > 1:
        raise BadInput("give one of MOVES, --steps or --sgf")
    if move is not None and sgf is None:
        raise BadInput("--move needs --sgf (it picks a move of the game record)")
    if sgf is not None and (first is not None or corner is not None):
        raise BadInput("--first and --corner have no effect with --sgf (the game record says both)")
    game: Moves | None = None
    typed: Moves | None = None
    if sgf is not None:
        game = game_moves(*_game_moves(sgf, move))
    elif steps is not None:
        parse_steps(steps)
    else:
        typed = typed_moves(moves or [], first_colour)
    rank_key(rank)
    options = Options(top=top, rank=rank, profile=profile, favour=True)
    with open_book() as store:
        if game is not None:
            answers = next_in_game(store, game, options, collection, context=True)
        elif typed is not None:
            answers = next_moves(store, typed, corner=where, options=options, collections=collection, context=True)
        else:
            answers = next_moves(store, steps=steps, first=first_colour, corner=where, options=options,
                                 collections=collection)
    if as_json:
        out.print_json(data={"corners": [a.as_json() for a in answers]})
        return
    for answer in answers:
        _print_answer(answer, show_steps)


def _game_moves(path: Path, move: int | None) -> tuple[list[tuple[str, tuple[int, int] | None]],
                                                      dict[tuple[int, int], str]]:
    """The main line of a game file up to ``move``, and its setup stones; BadInput naming the file for bad input."""
    from joseki.core.zone import check_zone_size
    from joseki.sgf.game import read_game

    try:
        game = read_game(path)
        check_zone_size(game.size)
    except ValueError as exc:
        raise BadInput(f"{path}: {exc}") from None
    if move is not None and move > len(game.moves):
        raise BadInput(f"{path}: --move {move} is beyond the game's {len(game.moves)} moves")
    return (game.moves[:move] if move is not None else game.moves), game.stones


BEYOND_SHOWN = 5
"""Moves played beyond the book that a corner lists (``--json`` gives them all)."""
STATE_TEXT = {"in-book": "in book", "left-book": "out of book", "empty": "empty corner",
              "tenuki-variation": "in book (a tenuki variation)", "interrupted": "interrupted (tenuki)",
              "in-book-by-transposition": "in book by transposition"}


def context_line(a: CornerAnswer) -> str:
    """The corner's whole-board context and the order given: ranked by it (``--rank context``), or not."""
    from joseki.book.learnt.contexts import CONTEXT_MIN_GAMES

    def games(n: int) -> str:
        return f"{n or 'no'} game{'' if n == 1 else 's'}"

    if a.order == "context":
        region = f", {games(a.similar_games)} in its region" if a.similar_games != a.context_games else ""
        return f"ranked by the whole-board context ({games(a.context_games)} in it{region}; --json names it)"
    if a.statistics == "context":
        return (f"order: {a.order}; {games(a.context_games)} in this whole-board context "
                "(--rank context orders by them)")
    fewer = f" (fewer than {CONTEXT_MIN_GAMES})" if CONTEXT_MIN_GAMES > 1 else ""
    region = f", {games(a.similar_games)} in its region" if a.similar_games else ""
    return (f"order: {a.order}; {games(a.context_games)} in this whole-board context{fewer}{region}: "
            "it orders nothing")


def _print_answer(a: CornerAnswer, show_steps: bool = False) -> None:
    """One corner: its state, a diagram with the candidates lettered and the points conditions name marked, a table."""
    from joseki.core.category import NEVER_FIRST
    from joseki.core.diagram import corner_diagram, letters, marks_of

    who = "Black" if a.to_move == "b" else "White"
    title = f"[bold]{a.corner.value}[/]: {STATE_TEXT.get(a.state, a.state)}, {who} to play"
    if show_steps and a.steps:
        title += f"  [dim](steps {a.steps})[/]"
    out.print(title, highlight=False)
    if a.statistics is not None:
        out.print(context_line(a), highlight=False)
    shown = a.candidates
    if a.state == "left-book":
        number = f", game move {a.left_move_number}" if a.left_move_number else ""
        out.print(f"left the book at local step {a.left_at} ({a.left_move}{number}); the book's moves there "
                  f"(after {a.line(a.steps[: 2 * ((a.left_at or 1) - 1)]) or 'the empty corner'}):", highlight=False)
        shown = a.alternatives
    elif a.state == "interrupted":
        out.print("the local side to move played elsewhere; the book's moves it skipped:")
        shown = a.alternatives
    elif a.via is not None:
        out.print(f"same position as the book's line {a.line(a.via, a.via_reflected)}", highlight=False)
    labels = letters((c.point for c in shown), a.stones)
    setup = {p: colour for c in shown for p, colour in c.setup.items()}
    marks = marks_of((p for c in shown for p in c.named), a.stones, setup)
    table = Table(show_edge=False)
    in_context = a.statistics == "context" and a.context_games > 0
    for name in ("", "move", "paths", "games", *(["in context"] if in_context else []), "win %", "priority", "fav.",
                 "category", "conditions"):
        table.add_column(name, justify="left" if name in ("", "move", "category", "conditions") else "right")
    for c in shown:
        label = labels.get(c.point, "") if c.point is not None else ""
        rate = c.record.win_rate
        category = f"[red]{c.label}[/]" if c.category in NEVER_FIRST else c.label
        favour = c.mover_favour
        table.add_row(label, c.move, str(c.paths), str(c.record.games),
                      *([str(c.context_games or 0)] if in_context else []), "" if rate is None else f"{100 * rate:.0f}",
                      f"{c.priority:.2f}", "" if favour is None else f"{favour:+.2f}", category,
                      _conditions_text(c))
    if not shown:
        table.add_row("", "[dim]the book has no move here[/]", *[""] * (len(table.columns) - 2))
    diagram = Text("\n".join(corner_diagram(a.corner, a.stones, labels, marks=marks)), style="bold")
    print_beside(diagram, table)
    if a.beyond:
        played = ", ".join(f"{b.move} ({b.games} game{'' if b.games == 1 else 's'})" for b in a.beyond[:BEYOND_SHOWN])
        more = f" and {len(a.beyond) - BEYOND_SHOWN} more" if len(a.beyond) > BEYOND_SHOWN else ""
        out.print(f"played beyond the book (too few games for a book move): {played}{more}", highlight=False)
    out.print()


def _conditions_text(c: Candidate) -> Text:
    """A candidate's conditions, each ladder followed by its reading on this board (red when it fails the line)."""
    text = Text("\n".join(c.conditions))
    for line in dict.fromkeys((str(check), check.holds) for check in c.ladders):  # one line for repeated conditions
        text.append(f"\n  -> {line[0]}", style={True: "green", False: "bold red", None: "dim"}[line[1]])
    return text


@app.command("flatten")
@user_errors
def flatten_command(
    path: Annotated[Path, typer.Argument(help="An SGF joseki collection.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the records as JSON lines.")] = False,
) -> None:
    """Print the flat records of an SGF file: one canonical step string per root-to-leaf path."""
    from joseki.sgf.forest import flatten_file

    try:
        forest = flatten_file(path)
    except ValueError as exc:
        raise BadInput(f"{path}: {exc}") from None
    for warning in forest.warnings:
        print_error(f"{path}: {warning}", "warning", "yellow")
    if as_json:
        for v in forest.variations:
            sys.stdout.write(json.dumps({"steps": v.steps, "first": v.first_colour, "corner": v.corner.value,
                                         "swapped": v.swap, "tree_path": v.tree_path, "setup": v.setup}) + "\n")
        return
    table = Table(title=f"{safe(path.name)}: {len(forest.variations)} variations, {forest.nodes} nodes")
    for name in ("steps", "first", "corner", "tree path"):
        table.add_column(name)
    for v in forest.variations:
        table.add_row(v.steps, v.first_colour, v.corner.value, v.tree_path)
    out.print(table)


@db_app.command("upgrade")
@user_errors
def db_upgrade() -> None:
    """Create or upgrade the database schema to the newest migration."""
    from joseki.book.store.database import Store

    store = Store(GLOBALS.db, upgrade=False)
    before, after = store.upgrade()
    out.print(f"{safe(store.display_url)}: {before or 'empty'} -> {after}")


@db_app.command("info")
@user_errors
def db_info(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Where the database is, its schema revision and what it holds."""
    from joseki.book.store.contents import summary

    with open_store() as store:
        held = summary(store)
        data = {"url": store.display_url, "revision": held.revision, **held.counts}
    if as_json:
        out.print_json(data=data)
    else:
        for key, value in data.items():
            out.print(f"{key:>12}: {safe(value)}")


def _register_commands() -> None:
    from joseki.cli import book as cli_book
    from joseki.cli import engine as cli_engine
    from joseki.cli import games as cli_games
    from joseki.cli import search as cli_search
    from joseki.cli import web as cli_web

    for module in (cli_games, cli_engine, cli_book, cli_web, cli_search):
        module.register(app)


_register_commands()
