"""Commands of the pattern search: ``joseki index`` builds the index, ``joseki search`` asks it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from joseki.cli.common import open_store, out, print_beside, print_error, progress_bar, safe, user_errors
from joseki.core.errors import BadInput

if TYPE_CHECKING:
    from joseki.book.patternsearch import Query, SearchResult


@user_errors
def index_command(
    paths: Annotated[list[Path], typer.Argument(help="Games: SGF files, .zip or .tar.xz archives, folders.")],
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).", min=1)] = None,
    batch: Annotated[int, typer.Option(help="Games per transaction.", min=1)] = 2000,
    cluster: Annotated[str | None, typer.Option(help="Read the games on this Dask scheduler (tcp://HOST:8786) "
                                                     "instead of local processes.")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Add games to the pattern index (games already there are kept; nothing is rebuilt)."""
    from joseki.games.indexing import index_games

    if cluster is not None and workers is not None:
        raise BadInput("--workers and --cluster exclude each other (the cluster's workers do the work)")
    with open_store() as store, progress_bar(as_json) as bar:
        task = bar.add_task("indexing", total=None)
        report = index_games(store, paths, workers=workers, batch=batch, cluster=cluster,
                             progress=lambda done, total: bar.update(task, completed=done, total=total))
    for name, why in report.skipped:
        print_error(f"{name}: {why}", "skipped", "yellow")
    if as_json:
        out.print_json(data=report.as_json())
        return
    table = Table(title="pattern index")
    for name in ("files", "added", "already indexed", "skipped", "games indexed", "bytes a game"):
        table.add_column(name, justify="right")
    data = report.as_json()
    table.add_row(str(report.files), str(report.added), str(report.known), str(len(report.skipped)),
                  str(report.indexed), str(data["index_bytes_per_game"]))
    out.print(table)


def _pattern_text(pattern: str | None, pattern_file: Path | None) -> tuple[str, str]:
    if (pattern is None) == (pattern_file is None):
        raise BadInput("give the pattern as PATTERN (rows separated by /) or with --file, not both")
    if pattern_file is not None:
        try:
            return pattern_file.read_text(encoding="utf-8"), str(pattern_file)
        except UnicodeDecodeError:
            raise BadInput(f"{pattern_file}: not a text file") from None
    assert pattern is not None
    return pattern, "pattern"


def _within(path: Path | None) -> frozenset[str] | None:
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return frozenset(str(r["key"]) for r in data["results"])
    except (ValueError, KeyError, TypeError):
        raise BadInput(f"--within {path}: not the --json output of joseki search") from None


@user_errors
def search_command(
    pattern: Annotated[str | None, typer.Argument(help="The pattern's rows separated by / (. X O x o *).")] = None,
    pattern_file: Annotated[Path | None, typer.Option("--file", "-f", help="Read the pattern from this file.")]
    = None,
    corner: Annotated[str | None, typer.Option(help="In this corner (the default: top-left).")] = None,
    side: Annotated[str | None, typer.Option(help="Along this side (top, bottom, left, right), anywhere on it.")]
    = None,
    anywhere: Annotated[bool, typer.Option("--anywhere", help="Anywhere on the board.")] = False,
    at: Annotated[str | None, typer.Option(help="At this place: the pattern's top-left point (Q16, pd).")] = None,
    fixed_colour: Annotated[bool, typer.Option("--fixed-colour", help="X is Black only (no colour swap).")] = False,
    fixed_orientation: Annotated[bool, typer.Option("--fixed-orientation", help="As drawn only (no symmetry).")]
    = False,
    next_moves: Annotated[list[str] | None, typer.Option("--next", help="A move played next inside the pattern "
                                                                         "(repeat, in order; B:Q16 names the "
                                                                         "colour).")] = None,
    player: Annotated[str | None, typer.Option(help="A player of either colour (part of the name).")] = None,
    min_rank: Annotated[str | None, typer.Option(help="Players at least this strong (7d).")] = None,
    date_from: Annotated[str | None, typer.Option("--from", help="Played on or after (2011, 2011-05-01).")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="Played on or before.")] = None,
    result: Annotated[str | None, typer.Option(help="Won by B or W (D: a draw).")] = None,
    event: Annotated[str | None, typer.Option(help="The event (part of its name).")] = None,
    within: Annotated[Path | None, typer.Option(help="Only the games of an earlier search's --json output.")]
    = None,
    limit: Annotated[int, typer.Option(help="Games listed (0: all).", min=0)] = 20,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Where a pattern occurred in the indexed games, and what was played next."""
    from joseki.book.patternsearch import GameFilter, Query, search
    from joseki.core.pattern import parse_pattern
    from joseki.core.patternwords import placement, sequence

    text, name = _pattern_text(pattern, pattern_file)
    parsed = parse_pattern(text, name)
    found_placement = placement(parsed, corner, side, anywhere, at)
    games = GameFilter(player or "", min_rank or "", date_from or "", date_to or "", (result or "").lower()[:1],
                       event or "", _within(within))
    query = Query(parsed, found_placement, fixed_orientation, fixed_colour, games,
                  sequence(next_moves or [], parsed, found_placement.home(parsed)[0]), limit)
    with open_store() as store:
        found = search(store, query)
    if as_json:
        out.print_json(data=found.as_json())
        return
    _print(found, query)


def _diagram(found: SearchResult, query: Query) -> Text:
    """The board around the pattern at home: its letters, the sequence's moves, the continuations lettered."""
    from joseki.core.notation import GTP_COLUMNS
    from joseki.core.pattern import home_point

    pattern, placement = query.pattern, query.placement
    (x0, y0), _ = placement.home(pattern)
    labels = {c.point: c.label for c in found.continuations}
    sequence = {home_point(pattern, placement, cell): str(n) for n, (_, cell) in enumerate(query.sequence, 1)}
    xs = range(max(0, x0 - 1), min(19, x0 + pattern.width + 1))
    ys = range(max(0, y0 - 1), min(19, y0 + pattern.height + 1))
    rows = ["    " + " ".join(GTP_COLUMNS[x] for x in xs)]
    for y in ys:
        cells = []
        for x in xs:
            inside = 0 <= x - x0 < pattern.width and 0 <= y - y0 < pattern.height
            letter = pattern.letter((x - x0, y - y0)) if inside else " "
            cells.append(sequence.get((x, y)) or labels.get((x, y)) or ("," if letter == " " else letter))
        rows.append(f"{19 - y:>3} " + " ".join(cells))
    return Text("\n".join(rows), style="bold")


def _print(found: SearchResult, query: Query) -> None:
    out.print(f"{found.games} game{'s' if found.games != 1 else ''} with a hit, {found.hits} "
              f"hit{'s' if found.hits != 1 else ''}, of {found.searched} games searched ({found.seconds:.3f} s)")
    table = Table()
    for name in ("", "move", "black", "white", "B wins", "W wins", "after tenuki"):
        table.add_column(name, justify="right")
    for c in found.continuations[:26]:
        from joseki.core.notation import format_gtp_vertex

        table.add_row(c.label, format_gtp_vertex(c.point), str(c.black), str(c.white),
                      _share(c.black_wins, c.black), _share(c.white_wins, c.white), str(c.after_tenuki))
    print_beside(_diagram(found, query), table)
    if not found.results:
        return
    games = Table(title=f"games (newest first, {len(found.results)} of {found.games})")
    for name in ("source", "black", "white", "date", "result", "hits (move, orientation, swapped)"):
        games.add_column(name)
    for r in found.results:
        f = r.facts
        hits = ", ".join(f"{h.move_number} {h.orientation}{' swapped' if h.swapped else ''}" for h in r.hits[:4])
        more = f" +{len(r.hits) - 4}" if len(r.hits) > 4 else ""
        games.add_row(safe(f.source), safe(f"{f.black} {f.black_rank}".strip()),
                      safe(f"{f.white} {f.white_rank}".strip()), f.date, safe(f.result), hits + more)
    out.print(games)


def _share(wins: int, games: int) -> str:
    return f"{wins} ({100 * wins / games:.0f}%)" if games else "0"


def register(app: typer.Typer) -> None:
    app.command("index")(index_command)
    app.command("search")(search_command)
