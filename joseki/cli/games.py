"""Commands about games: learn, mine, evaluate, annotate, and the games behind a position."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from joseki.cli.common import ensure_starter, fail, open_store, out, print_error, progress_bar, safe, user_errors
from joseki.core.errors import BadInput

if TYPE_CHECKING:
    from joseki.games.signals import LearnReport


def _learn_table(title: str, r: LearnReport) -> Table:
    table = Table(title=title)
    for name in ("files", "learnt", "duplicates", "skipped", "errors", "corners", "credits"):
        table.add_column(name, justify="right")
    skipped = ", ".join(f"{k}: {v}" for k, v in sorted(r.skipped.items()) if k != "error") or "0"
    table.add_row(str(r.files), str(r.learnt), str(r.duplicates), skipped, str(len(r.errors)), str(r.corners),
                  str(r.credits))
    return table


def _learn_json(r: LearnReport) -> dict[str, Any]:
    """``learnt``: games learnt; ``corners``: their corners credited; ``credits``: book moves credited, per corner."""
    return {"files": r.files, "learnt": r.learnt, "duplicates": r.duplicates, "skipped": dict(r.skipped),
            "errors": [{"file": f, "error": e} for f, e in r.errors],
            "skipped_files": [{"file": f, "reason": why} for f, why in r.skips],
            "corners": r.corners, "credits": r.credits}


def _index_json(r: LearnReport) -> dict[str, Any]:
    return {"index": r.index.as_json()} if r.index is not None else {}


def _print_index(r: LearnReport) -> None:
    """Say what the pattern index took in (``--index``)."""
    if r.index is None:
        return
    figures = r.index.as_json()
    out.print(f"pattern index: {r.index.added} games added, {r.index.known} already indexed, "
              f"{len(r.index.skipped)} skipped; {r.index.indexed} games indexed, "
              f"{figures['index_bytes_per_game']} bytes a game")


def _report_skips(r: LearnReport, paths: list[Path]) -> None:
    """Name every skipped file with its reason; exit 1 when no file held a usable game."""
    for f, why in r.skips:
        print_error(f"{f}: {why}", "skipped", "yellow")
    if not r.files:
        raise fail("no SGF files found in " + ", ".join(map(str, paths)))
    if not r.usable:
        raise fail(f"no usable game in {r.files} file{'s' if r.files != 1 else ''}: nothing written")


@user_errors
def learn_command(
    paths: Annotated[list[Path], typer.Argument(help="Finished games: SGF files, .zip or .tar.xz archives, folders.")],
    profile: Annotated[str | None, typer.Option(help="Learn into this profile, created if new (default: global).")]
    = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).", min=1)] = None,
    batch: Annotated[int | None, typer.Option(help="Games per transaction (default: 5000).", min=1)] = None,
    cluster: Annotated[str | None, typer.Option(help="Run the per-game work on this Dask scheduler "
                                                     "(tcp://HOST:8786) instead of local processes.")] = None,
    signal: Annotated[str, typer.Option(help="What to credit: result (game results), local (each corner judged "
                                             "by an engine where its joseki ended) or both.")] = "result",
    judge: Annotated[str | None, typer.Option(help="Command line of the judging engine (default: GNU Go).")]
    = None,
    index: Annotated[bool, typer.Option("--index", help="Also add the games to the pattern index (joseki search).")]
    = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Credit the results of finished games (or engine verdicts on their corners) to the book moves chosen."""
    from joseki.engine.gtp import EngineError
    from joseki.engine.judge import JudgeCommand
    from joseki.games.learn import check_signal, learn, local_json

    check_signal(signal)
    _check_paths(paths)
    _check_cluster(cluster, workers)
    with open_store() as store, progress_bar(as_json) as progress:
        task = progress.add_task("learning", total=None)
        try:
            learnt = learn(store, paths, profile, workers,
                           lambda done, total: progress.update(task, completed=done, total=total), batch,
                           cluster=cluster, signal=signal, judge=JudgeCommand(judge) if signal != "result" else None,
                           index=index)
        except EngineError as exc:
            raise fail(f"judge {judge or 'gnugo'!r}: {exc}") from None
    report, local = (learnt if signal != "local" else None), learnt.local
    if as_json:
        out.print_json(data={**(_learn_json(report) if report else {}),
                             **({"local": local_json(local)} if local else {}), **_index_json(learnt)})
    else:
        if report is not None:
            out.print(_learn_table(f"learn ({safe(profile or 'global')})", report))
        if local is not None:
            figures = local_json(local)
            out.print(f"judged {figures['judged']} games ({figures['duplicates']} judged before), "
                      f"{figures['corners']} corners, mean margin {figures['mean_margin']} "
                      "for the corner's first player")
        _print_index(learnt)
    for name, why in learnt.index.skipped if learnt.index is not None else ():
        print_error(f"{name}: {why}", "not indexed", "yellow")
    if report is not None:
        _report_skips(report, paths)
    elif local is not None and not local.judged + local.duplicates:
        raise fail(f"no usable game in {local.files} file{'s' if local.files != 1 else ''}: nothing written")


@user_errors
def mine_command(
    paths: Annotated[list[Path], typer.Argument(help="Game records: SGF files, .zip or .tar.xz archives, folders.")],
    min_games: Annotated[int, typer.Option(help="Keep continuations played in at least this many games.", min=1)]
    = 5,
    collection: Annotated[str, typer.Option(help="Name of the mined collection.")] = "mined",
    profile: Annotated[str | None, typer.Option(help="Statistics go to this profile, created if new "
                                                     "(default: global).")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).", min=1)] = None,
    cluster: Annotated[str | None, typer.Option(help="Run the per-game work on this Dask scheduler "
                                                     "(tcp://HOST:8786) instead of local processes.")] = None,
    index: Annotated[bool, typer.Option("--index", help="Also add the games to the pattern index (joseki search).")]
    = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Build a book from game records alone, with the games' statistics."""
    from joseki.games.mine import mine

    _check_paths(paths)
    _check_cluster(cluster, workers)
    with open_store() as store, progress_bar(as_json) as progress:
        task = progress.add_task("mining", total=None)
        report, book = mine(store, paths, min_games, collection, profile, workers,
                            lambda done, total: progress.update(task, completed=done, total=total), cluster=cluster,
                            index=index)
    records = book.new if book is not None else 0
    if as_json:
        out.print_json(data={**_learn_json(report), "collection": collection, "records": records,
                             "min_games": min_games, **_index_json(report)})
    else:
        out.print(_learn_table(f"mine into {safe(repr(collection))}", report))
        out.print(f"{records} variations (min games {min_games})")
        _print_index(report)
    for name, why in report.index.skipped if report.index is not None else ():
        print_error(f"{name}: {why}", "not indexed", "yellow")
    _report_skips(report, paths)


@user_errors
def evaluate_command(
    paths: Annotated[list[Path], typer.Argument(help="Game records: SGF files, .zip or .tar.xz archives, folders.")],
    rank: Annotated[str, typer.Option(help="Order of candidates, as for next.")] = "popularity",
    profile: Annotated[str | None, typer.Option(help="Statistics of this profile.")] = None,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Measure how well the book predicts the games' local moves and results."""
    from joseki.book.query.next import rank_key
    from joseki.games.evaluate import evaluate

    _check_paths(paths)
    rank_key(rank)
    with open_store() as store, progress_bar(as_json) as progress:
        task = progress.add_task("evaluating", total=None)
        result = evaluate(store, paths, rank, profile, collection,
                          lambda done, total: progress.update(task, completed=done, total=total))
    data = result.as_json()
    if as_json:
        out.print_json(data=data)
        return
    table = Table(title=f"evaluate (rank {safe(rank)}, profile {safe(profile or 'global')})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    by_index, reply = data.pop("by_index"), data.pop("reply")
    for key, value in data.items():
        table.add_row(key, "-" if value is None else str(value))
    out.print(table)
    assert isinstance(by_index, list) and isinstance(reply, dict)
    if by_index:
        out.print(per_index_table([*by_index, {"local_move": "reply", **reply}]))


def per_index_table(rows: list[dict[str, object]]) -> Table:
    """The evaluation per local move number: positions, top-1/top-3 without and with context, coverage
    (a last row ``reply``: the reply to the first stone, :attr:`joseki.games.evaluate.Evaluation.reply`)."""
    table = Table(title="per local move (without context / with context)")
    columns = ("local_move", "positions", "top1", "context_top1", "top3", "context_top3", "context_decided",
               "coverage")
    for name in columns:
        table.add_column(name.replace("_", " "), justify="right")
    for row in rows:
        table.add_row(*("-" if row.get(c) is None else str(row[c]) for c in columns))
    return table


def _check_paths(paths: list[Path]) -> None:
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise BadInput(f"no such file or folder: {', '.join(missing)}")


def _check_cluster(cluster: str | None, workers: int | None) -> None:
    if cluster is not None and workers is not None:
        raise BadInput("--workers and --cluster exclude each other (the cluster's workers do the work)")


@user_errors
def annotate_command(
    game: Annotated[Path, typer.Argument(help="A game record (SGF).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the annotated SGF.")],
    top: Annotated[int, typer.Option(help="How many book moves to label.", min=1)] = 5,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Write GAME with book comments and labels: where each corner left the book, what the book offered."""
    from joseki.games.annotate import annotate
    from joseki.sgf.output import OutputError

    with open_store() as store:
        ensure_starter(store)
        try:
            result = annotate(store, game, output, top, collection)
        except OutputError:
            raise
        except ValueError as exc:
            raise BadInput(f"{game}: {exc}") from None
    if as_json:
        out.print_json(data={"output": str(output), "left_book": result.left, "offered": result.offered,
                             "annotated_moves": sorted(result.notes)})
        return
    table = Table(title=f"{safe(game.name)} -> {safe(output)}")
    table.add_column("corner")
    table.add_column("left the book at move", justify="right")
    for corner, number in result.left.items():
        table.add_row(corner, "never" if number is None else str(number))
    out.print(table)


@user_errors
def games_command(
    moves: Annotated[list[str], typer.Argument(help="One corner's moves in GTP (Q16) or SGF (pd) notation, or pass.")],
    first: Annotated[str, typer.Option(help="Colour of the first move: black (default) or white.")] = "black",
    profile: Annotated[str | None, typer.Option(help="Games learnt into this profile (default: global).")] = None,
    order: Annotated[str, typer.Option(help="newest or strongest first.")] = "newest",
    limit: Annotated[int, typer.Option(help="Show at most this many games.", min=1)] = 20,
    player: Annotated[str, typer.Option(help="Only games of a player whose name holds this.")] = "",
    rank: Annotated[str, typer.Option(help="Only games whose players are at least this rank (5d).")] = "",
    since: Annotated[str, typer.Option(help="Only games from this date (2019, 2019-05).")] = "",
    until: Annotated[str, typer.Option(help="Only games up to this date.")] = "",
    result: Annotated[str, typer.Option(help="Only games Black or White won, or drawn: black, white, draw.")]
    = "",
    as_json: Annotated[bool, typer.Option("--json", help="Print the games as JSON.")] = False,
) -> None:
    """The learnt or mined games that reached the position of MOVES (after a tenuki, the games that played it):
    players, ranks, date, result, file, move; with a filter, those of the games kept there that pass it.

    The table names each game's file; --json gives its path below the folder of the learnt games and the game key.
    """
    from joseki.book.gamerefs.read import GameFilter, corner_steps, games_at

    steps, colour = corner_steps(moves, first)
    only = GameFilter(player, rank, since, until, result)
    with open_store() as store:
        found = games_at(store, steps, first=colour, profile=profile, order=order, limit=limit, only=only)
    if as_json:
        out.print_json(data={"moves": moves, "profile": profile or "global", "order": order, **found.as_json()})
        return
    where = " ".join(moves)
    if found.steps is not None and found.steps != steps:
        where += " (by transposition)"
    table = Table(title=f"{found.count} game{'s' if found.count != 1 else ''} at {safe(where)}"
                        f" ({len(found.games)} shown, {safe(order)} first)")
    for name in ("black", "white", "date", "result", "move", "corner", "file"):
        table.add_column(name, justify="right" if name == "move" else "left")
    for g in found.games:
        table.add_row(safe(_player(g.black, g.black_rank)), safe(_player(g.white, g.white_rank)), g.date or "-",
                      safe(g.result or "-"), str(g.move_number), g.corner.value, safe(Path(g.source).name))
    out.print(table)


def _player(name: str, rank: str) -> str:
    return f"{name or '?'} {rank}" if rank else name or "?"


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("learn")(learn_command)
    app.command("mine")(mine_command)
    app.command("evaluate")(evaluate_command)
    app.command("annotate")(annotate_command)
    app.command("games")(games_command)
