"""The ``joseki`` command line: a thin shell over the library functions of the same names."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from joseki.annotate import annotate
from joseki.category import NEVER_FIRST
from joseki.diagram import corner_diagram
from joseki.evaluate import evaluate
from joseki.forest import flatten_file
from joseki.game import read_game
from joseki.geometry import Corner
from joseki.gtp import EngineError
from joseki.gtp_proxy import serve
from joseki.importer import FileReport, collection_count, expand_paths, import_file, import_files
from joseki.learn import LearnReport, learn
from joseki.match import play_match
from joseki.mine import mine
from joseki.policy import BookPlayer
from joseki.query import CornerAnswer, Options, check_legal, next_in_game, next_moves, parse_moves, rank_key
from joseki.resources import starter_book
from joseki.steps import parse_steps
from joseki.store import Store, StoreError
from joseki.zone import check_zone_size

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="A Go joseki database: import SGF collections, ask for the next joseki move.")
db_app = typer.Typer(no_args_is_help=True, help="Database maintenance.")
app.add_typer(db_app, name="db")

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


@app.callback()
def main(db: Annotated[str | None, typer.Option(
        "--db", help="Database: an SQLAlchemy URL or a SQLite file path (default: $JOSEKI_DB, else "
                     "joseki.sqlite in the user data directory).")] = None) -> None:
    """A Go joseki database: import SGF collections, ask for the next joseki move."""
    CTX.db = db


def open_store() -> Store:
    return Store(CTX.db)


def ensure_starter(store: Store) -> None:
    """Load the starter book into a store that has no collection at all."""
    with store.read() as conn:
        empty = collection_count(conn, store) == 0
    if empty:
        report = import_file(store, starter_book(), STARTER)
        if report.error:
            raise StoreError(f"starter book {starter_book()}: {report.error}")
        err.print(f"[dim]empty store: loaded the starter book ({report.new} variations)[/]")


@app.command("import")
@user_errors
def import_command(
    paths: Annotated[list[Path], typer.Argument(help="SGF files or folders (searched for *.sgf).")],
    collection: Annotated[str | None, typer.Option(help="Collection name (default: each file's stem).")] = None,
    replace: Annotated[bool, typer.Option(help="Re-import files imported before.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the reports as JSON.")] = False,
) -> None:
    """Import SGF joseki collections, one transaction per file."""
    files = expand_paths(paths)
    if not files:
        raise fail("no SGF files found in " + ", ".join(map(str, paths)))
    with open_store() as store, Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=True, disable=as_json or not err.is_terminal,
    ) as progress:
        task = progress.add_task("importing", total=len(files))

        def advance(path: Path, report: FileReport) -> None:
            progress.update(task, advance=1, description=f"importing {path.name}")

        reports = import_files(store, files, collection, replace, advance)
    failed = [r for r in reports if r.error]
    for r in failed:
        err.print(f"[bold red]error:[/] {r.path}: {r.error}", highlight=False, soft_wrap=True)
    for r in reports:
        for warning in r.warnings:
            err.print(f"[yellow]warning:[/] {r.path}: {warning}", highlight=False, soft_wrap=True)
    if as_json:
        out.print_json(data={"files": [_report_json(r) for r in reports]})
    else:
        out.print(_report_table(reports))
    if failed:
        raise typer.Exit(1)


def _report_json(r: FileReport) -> dict[str, Any]:
    return {"file": r.path, "collection": r.collection, "status": r.status, "paths": r.paths, "new": r.new,
            "duplicates": r.duplicates, "skipped": r.skipped, "error": r.error}


def _report_table(reports: list[FileReport]) -> Table:
    table = Table(title="import")
    for name in ("file", "collection", "status", "paths", "new", "duplicates", "skipped"):
        table.add_column(name, justify="right" if name in ("paths", "new", "duplicates", "skipped") else "left")
    for r in reports:
        table.add_row(Path(r.path).name, r.collection, r.status if not r.error else "[red]failed[/]",
                      str(r.paths), str(r.new), str(r.duplicates), str(r.skipped))
    if len(reports) > 1:
        table.add_row(f"{len(reports)} files", "", "", *(str(sum(getattr(r, k) for r in reports))
                                                          for k in ("paths", "new", "duplicates", "skipped")),
                      style="bold")
    return table


def _color(name: str) -> str:
    key = name.strip().lower()
    if key in ("b", "black"):
        return "b"
    if key in ("w", "white"):
        return "w"
    raise ValueError(f"bad colour {name!r} (expected black or white)")


@app.command("next")
@user_errors
def next_command(
    moves: Annotated[list[str] | None, typer.Argument(help="Moves in GTP (Q16) or SGF (pd) notation, or pass.")]
    = None,
    steps: Annotated[str | None, typer.Option(help="A play-step string in zone letters instead of moves.")] = None,
    first: Annotated[str, typer.Option(help="Colour of the first move: black or white.")] = "black",
    corner: Annotated[str, typer.Option(help="Corner for --steps or an empty board.")] = "top-right",
    top: Annotated[int | None, typer.Option(help="Show at most this many candidates.", min=1)] = None,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    rank: Annotated[str, typer.Option(help="Order: popularity (book paths + games), priority, winrate, games.")]
    = "popularity",
    profile: Annotated[str | None, typer.Option(help="Statistics of this profile (falling back to global).")]
    = None,
    sgf: Annotated[Path | None, typer.Option("--sgf", help="A game record: every corner after --move.")] = None,
    move: Annotated[int | None, typer.Option(help="With --sgf: after this move (default: the last).", min=0)]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """The book's next moves for each corner of MOVES, of --steps, or of a game (--sgf)."""
    first_color = _color(first)
    where = Corner.parse(corner)
    if sum(x is not None and x != [] for x in (moves, steps, sgf)) > 1:
        raise ValueError("give one of MOVES, --steps or --sgf")
    played: list[tuple[str, tuple[int, int] | None]] | None = None
    if sgf is not None:
        played = _game_moves(sgf, move)
    elif steps is not None:
        parse_steps(steps)
    else:
        typed, _ = parse_moves(moves or [], first_color)
        check_legal(typed, moves or [])
    rank_key(rank)
    options = Options(top=top, rank=rank, profile=profile)
    with open_store() as store:
        ensure_starter(store)
        if played is not None:
            answers = next_in_game(store, played, options, collection)
        else:
            answers = next_moves(store, moves, steps, first_color, where, options, collection)
    if as_json:
        out.print_json(data={"corners": [a.as_json() for a in answers]})
        return
    for answer in answers:
        _print_answer(answer)


def _game_moves(path: Path, move: int | None) -> list[tuple[str, tuple[int, int] | None]]:
    """The main line of a game file up to ``move``; ValueError naming the file for bad input."""
    try:
        game = read_game(path)
        check_zone_size(game.size)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    if move is not None and move > len(game.moves):
        raise ValueError(f"{path}: --move {move} is beyond the game's {len(game.moves)} moves")
    return game.moves[:move] if move is not None else game.moves


LABELS = "abcdefghijklmnopqrstuvwxyz"
STATE_TEXT = {"in-book": "in book", "left-book": "out of book", "empty": "empty corner",
              "tenuki-variation": "in book (a tenuki variation)", "interrupted": "interrupted (tenuki)",
              "in-book-by-transposition": "in book by transposition"}


def _print_answer(a: CornerAnswer) -> None:
    who = "Black" if a.to_move == "b" else "White"
    title = f"[bold]{a.corner.value}[/]: {STATE_TEXT.get(a.state, a.state)}, {who} to play"
    if a.steps:
        title += f"  [dim](steps {a.steps})[/]"
    out.print(title)
    shown = a.candidates
    if a.state == "left-book":
        number = f", game move {a.left_move_number}" if a.left_move_number else ""
        out.print(f"left the book at local step {a.left_at} ({a.left_move}{number}); the book's moves there "
                  f"(after {a.book_steps or 'the empty corner'}):")
        shown = a.alternatives
    elif a.state == "interrupted":
        out.print("the local side to move played elsewhere; the book's moves it skipped:")
        shown = a.alternatives
    elif a.via is not None:
        out.print(f"same position as the book's {a.via}")
    points = [c.point for c in shown if c.point is not None]
    labels = {p: LABELS[i] for i, p in enumerate(points[: len(LABELS)])}
    table = Table(show_edge=False)
    for name in ("", "move", "paths", "games", "win %", "priority", "category"):
        table.add_column(name, justify="left" if name in ("", "move", "category") else "right")
    for c in shown:
        label = labels.get(c.point, "") if c.point is not None else ""
        rate = c.record.win_rate
        category = f"[red]{c.category}[/]" if c.category in NEVER_FIRST else (c.category or "")
        table.add_row(label, c.move, str(c.paths), str(c.record.games), "" if rate is None else f"{100 * rate:.0f}",
                      f"{c.priority:.2f}", category)
    if not shown:
        table.add_row("", "[dim]the book has no move here[/]", "", "", "", "", "")
    grid = Table.grid(padding=(0, 4))
    grid.add_row(Text("\n".join(corner_diagram(a.corner, a.stones, labels)), style="bold"), table)
    out.print(grid)
    out.print()


@app.command("flatten")
@user_errors
def flatten_command(
    path: Annotated[Path, typer.Argument(help="An SGF joseki collection.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the records as JSON lines.")] = False,
) -> None:
    """Print the flat records of an SGF file: one canonical step string per root-to-leaf path."""
    try:
        forest = flatten_file(path)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    for warning in forest.warnings:
        err.print(f"[yellow]warning:[/] {path}: {warning}")
    if as_json:
        for v in forest.variations:
            sys.stdout.write(json.dumps({"steps": v.steps, "first": v.first_color, "corner": v.corner.value,
                                         "swapped": v.swap, "tree_path": v.tree_path, "setup": v.setup}) + "\n")
        return
    table = Table(title=f"{path.name}: {len(forest.variations)} variations, {forest.nodes} nodes")
    for name in ("steps", "first", "corner", "tree path"):
        table.add_column(name)
    for v in forest.variations:
        table.add_row(v.steps, v.first_color, v.corner.value, v.tree_path)
    out.print(table)


@db_app.command("upgrade")
@user_errors
def db_upgrade() -> None:
    """Create or upgrade the database schema to the newest migration."""
    store = Store(CTX.db, upgrade=False)
    before, after = store.upgrade()
    out.print(f"{store.display_url}: {before or 'empty'} -> {after}")


@db_app.command("info")
@user_errors
def db_info(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Where the database is, its schema revision and what it holds."""
    from sqlalchemy import func, select

    from joseki.store import current_revision

    with open_store() as store, store.read() as conn:
        counts = {name: conn.execute(select(func.count()).select_from(store.tables[name])).scalar_one()
                  for name in ("collection", "source_file", "variation", "node")}
        data = {"url": store.display_url, "revision": current_revision(conn), **counts}
    if as_json:
        out.print_json(data=data)
    else:
        for key, value in data.items():
            out.print(f"{key:>12}: {value}")


def _progress(description: str, as_json: bool) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True, disable=as_json or not err.is_terminal)


def _learn_table(title: str, r: LearnReport) -> Table:
    table = Table(title=title)
    for name in ("files", "learnt", "duplicates", "skipped", "errors", "credits"):
        table.add_column(name, justify="right")
    skipped = ", ".join(f"{k}: {v}" for k, v in sorted(r.skipped.items()) if k != "error") or "0"
    table.add_row(str(r.files), str(r.learnt), str(r.duplicates), skipped, str(len(r.errors)), str(r.credits))
    return table


def _learn_json(r: LearnReport) -> dict[str, Any]:
    return {"files": r.files, "learnt": r.learnt, "duplicates": r.duplicates, "skipped": dict(r.skipped),
            "errors": [{"file": f, "error": e} for f, e in r.errors], "credits": r.credits}


@app.command("learn")
@user_errors
def learn_command(
    paths: Annotated[list[Path], typer.Argument(help="Finished games: SGF files or folders.")],
    profile: Annotated[str | None, typer.Option(help="Learn into this profile (default: global).")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).", min=1)] = None,
    batch: Annotated[int, typer.Option(help="Games per transaction.", min=1)] = 500,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Credit the results of finished games to the book moves each player chose."""
    _check_paths(paths)
    with open_store() as store, _progress("learning", as_json) as progress:
        task = progress.add_task("learning", total=None)
        report = learn(store, paths, profile, workers,
                       lambda done, total: progress.update(task, completed=done, total=total), batch)
    for f, e in report.errors[:20]:
        err.print(f"[yellow]skipped:[/] {f}: {e}", highlight=False, soft_wrap=True)
    if as_json:
        out.print_json(data=_learn_json(report))
    else:
        out.print(_learn_table(f"learn ({profile or 'global'})", report))


@app.command("mine")
@user_errors
def mine_command(
    paths: Annotated[list[Path], typer.Argument(help="Game records: SGF files or folders.")],
    min_games: Annotated[int, typer.Option(help="Keep continuations played in at least this many games.", min=1)]
    = 5,
    collection: Annotated[str, typer.Option(help="Name of the mined collection.")] = "mined",
    profile: Annotated[str | None, typer.Option(help="Statistics go to this profile (default: global).")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).", min=1)] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Build a book from game records alone, with the games' statistics."""
    _check_paths(paths)
    with open_store() as store, _progress("mining", as_json) as progress:
        task = progress.add_task("mining", total=None)
        report, book = mine(store, paths, min_games, collection, profile, workers,
                            lambda done, total: progress.update(task, completed=done, total=total))
    if as_json:
        out.print_json(data={**_learn_json(report), "collection": collection, "records": book.new,
                             "min_games": min_games})
    else:
        out.print(_learn_table(f"mine into {collection!r}", report))
        out.print(f"{book.new} variations (min games {min_games})")


@app.command("evaluate")
@user_errors
def evaluate_command(
    paths: Annotated[list[Path], typer.Argument(help="Game records: SGF files or folders.")],
    rank: Annotated[str, typer.Option(help="Order of candidates, as for next.")] = "popularity",
    profile: Annotated[str | None, typer.Option(help="Statistics of this profile.")] = None,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Measure how well the book predicts the games' local moves and results."""
    _check_paths(paths)
    rank_key(rank)
    with open_store() as store, _progress("evaluating", as_json) as progress:
        task = progress.add_task("evaluating", total=None)
        result = evaluate(store, paths, rank, profile, collection,
                          lambda done, total: progress.update(task, completed=done, total=total))
    data = result.as_json()
    if as_json:
        out.print_json(data=data)
        return
    table = Table(title=f"evaluate (rank {rank}, profile {profile or 'global'})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in data.items():
        table.add_row(key, "-" if value is None else str(value))
    out.print(table)


def _check_paths(paths: list[Path]) -> None:
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise ValueError(f"no such file or folder: {', '.join(missing)}")


@app.command("annotate")
@user_errors
def annotate_command(
    game: Annotated[Path, typer.Argument(help="A game record (SGF).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the annotated SGF.")],
    top: Annotated[int, typer.Option(help="How many book moves to label.", min=1)] = 5,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Write GAME with book comments and labels: where each corner left the book, what the book offered."""
    with open_store() as store:
        ensure_starter(store)
        try:
            result = annotate(store, game, output, top, collection)
        except ValueError as exc:
            raise ValueError(f"{game}: {exc}") from None
    if as_json:
        out.print_json(data={"output": str(output), "left_book": result.left,
                             "annotated_moves": sorted(result.notes)})
        return
    table = Table(title=f"{game.name} -> {output}")
    table.add_column("corner")
    table.add_column("left the book at move", justify="right")
    for corner, number in result.left.items():
        table.add_row(corner, "never" if number is None else str(number))
    out.print(table)


@app.command("gtp")
@user_errors
def gtp_command(
    engine: Annotated[str, typer.Option(help="Command line of the GTP engine to wrap.")],
    profile: Annotated[str | None, typer.Option(help="Choose book moves by this profile's statistics.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the book's random choices.")] = None,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for the wrapped engine.", min=0.1)] = 60.0,
) -> None:
    """Speak GTP on stdin/stdout: answer from the book where a corner calls for it, else from ENGINE."""
    with open_store() as store:
        ensure_starter(store)
        try:
            serve(engine, BookPlayer(store, profile, seed, collection), sys.stdin, sys.stdout, timeout, sys.stderr)
        except EngineError as exc:
            raise fail(f"engine {engine!r}: {exc}") from None


@app.command("match")
@user_errors
def match_command(
    black: Annotated[str, typer.Option(help="Command line of the first engine (Black in odd games).")],
    white: Annotated[str, typer.Option(help="Command line of the second engine.")],
    games: Annotated[int, typer.Option(help="Number of games; colours alternate.", min=1)] = 2,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the SGF files.")] = Path("match"),
    learn_profile: Annotated[str | None, typer.Option("--learn", help="Learn the results into this profile.")]
    = None,
    max_moves: Annotated[int, typer.Option(help="End a game after this many moves.", min=1)] = 400,
    komi: Annotated[float, typer.Option(help="Komi.")] = 7.5,
    size: Annotated[int, typer.Option(help="Board size.")] = 19,
    timeout: Annotated[float, typer.Option(help="Seconds per engine command.", min=0.1)] = 60.0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Play GAMES games between two GTP engines, write them as SGF, and optionally learn from them."""
    with _progress("match", as_json) as progress:
        task = progress.add_task("playing", total=games)
        records = play_match(black, white, games, out_dir, max_moves, komi, size, timeout,
                             lambda n, r: progress.update(task, completed=n, description=f"game {n}: {r.result}"))
    learnt = None
    if learn_profile is not None:
        with open_store() as store:
            learnt = learn(store, [r.path for r in records], learn_profile, workers=1)
    first_wins = sum(1 for r in records if r.winner == ("w" if r.swapped else "b"))
    if as_json:
        out.print_json(data={"games": [{"file": str(r.path), "black": r.black, "white": r.white, "result": r.result,
                                        "moves": r.moves, "reason": r.reason} for r in records],
                             "first_engine_wins": first_wins, "learnt": None if learnt is None else learnt.learnt})
        return
    table = Table(title=f"match: {len(records)} games in {out_dir}")
    for name in ("game", "black", "white", "result", "moves", "reason"):
        table.add_column(name)
    for r in records:
        table.add_row(str(r.number), r.black, r.white, r.result, str(r.moves), r.reason)
    out.print(table)
    out.print(f"first engine won {first_wins} of {len(records)}"
              + (f"; learnt {learnt.learnt} games into {learn_profile!r}" if learnt else ""))
