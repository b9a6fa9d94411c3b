"""The book editor's commands: ``show``, ``export``, ``stats`` and ``lint``, thin shells over the library."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from joseki.cli.common import GLOBALS, err, open_book, open_store, out, print_beside, safe, user_errors
from joseki.core.errors import BadInput

if TYPE_CHECKING:
    from joseki.book.query.favour import Favour
    from joseki.book.query.show import Shown

_STEPS = re.compile(r"(?:[A-Z]{2})+")


def register(app: typer.Typer) -> None:
    """Add the commands to ``app``."""
    app.command("show")(show_command)
    app.command("export")(export_command)
    app.command("stats")(stats_command)
    app.command("lint")(lint_command)


def _colour(name: str) -> str:
    key = name.strip().lower()
    if key in ("b", "black", "w", "white"):
        return key[0]
    raise BadInput(f"bad colour {name!r} (expected black or white)")


@user_errors
def show_command(
    line: Annotated[list[str], typer.Argument(metavar="STEPS|MOVES...", help="A step string in zone letters "
                                              "(DDCF), or one corner's moves in GTP (Q16 R14) or SGF (pd qf).")],
    first: Annotated[str, typer.Option(help="With a step string: colour of the first move.")] = "black",
    corner: Annotated[str, typer.Option(help="With a step string: the corner to draw it in.")] = "top-right",
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    profile: Annotated[str | None, typer.Option(help="Statistics of this profile (falling back to global).")]
    = None,
    show_steps: Annotated[bool, typer.Option("--show-steps", help="Also print the line's play-step string "
                                             "(zone letters).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the line as JSON.")] = False,
) -> None:
    """One line of the book: diagram, categories, comments, conditions, statistics and favourability."""
    from joseki.book.query.show import show
    from joseki.core.geometry import Corner

    steps = line[0] if len(line) == 1 and _STEPS.fullmatch(line[0]) else None
    with open_book() as store:
        shown = show(store, None if steps else line, steps, _colour(first), Corner.parse(corner), collection, profile)
    if as_json:
        out.print_json(data=shown.as_json())
        return
    _print_shown(shown, show_steps)


def _favour_text(favour: Favour, first: str, second: str) -> str:
    return (f"{first} {favour.first:+.2f}, {second} {favour.second:+.2f} "
            f"(area {favour.area_first}/{favour.area_second}, influence {favour.influence_first}/"
            f"{favour.influence_second})")


def _print_shown(s: Shown, show_steps: bool = False) -> None:
    from joseki.core.category import NEVER_FIRST

    first, second = ("Black", "White") if s.first == "b" else ("White", "Black")
    where = "a complete record in " + ", ".join(map(safe, s.records)) if s.records else "not a complete record"
    steps = f"steps {safe(s.steps)}; " if show_steps else ""
    out.print(f"[bold]{s.corner.value}[/]: {safe(s.line(s.steps))}  [dim]({steps}{where}; {s.continuations} "
              f"continuations)[/]", highlight=False)
    table = Table(show_edge=False)
    for name in ("#", "move", "book", "paths", "games", "win %", "category", "conditions"):
        table.add_column(name, justify="right" if name in ("#", "paths", "games", "win %") else "left")
    for m in s.moves:
        rate = m.record.win_rate
        category = f"[red]{m.label}[/]" if m.category in NEVER_FIRST else m.label
        table.add_row(str(m.number), f"{'B' if m.colour == 'b' else 'W'} {m.move}",
                      "yes" if m.in_book else "[red]no[/]", str(m.paths), str(m.record.games),
                      "" if rate is None else f"{100 * rate:.0f}", category,
                      Text("\n".join(m.conditions)))
    print_beside(Text("\n".join(s.diagram()), style="bold"), table)
    for m in s.moves:
        for name, words in m.words:
            out.print(Text(f"{m.number} ({m.move}) [{name}]: ", style="dim") + Text(words.summary))
    out.print(f"favourability at the end (influence model): {_favour_text(s.favour, first, second)}",
              highlight=False)
    if s.main_line is not None and s.main_favour is not None:
        on = s.line(s.main_line[len(s.steps):]) or "nothing more"
        out.print(f"main line on from here, {on}: {_favour_text(s.main_favour, first, second)}", highlight=False)


@user_errors
def export_command(
    output: Annotated[Path, typer.Option("-o", "--output", help="The SGF file to write.")],
    collection: Annotated[str | None, typer.Option(help="Only this collection (default: every collection, "
                                                        "one game tree each).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")] = False,
) -> None:
    """Write the book as an SGF forest (upper-right corner, Black first) with its categories, conditions, statistics."""
    from joseki.book.export import export

    with open_store() as store:
        report = export(store, output, collection)
    if as_json:
        out.print_json(data={"output": report.path, "collections": report.collections, "records": report.records,
                             "moves": report.nodes})
        return
    out.print(f"{safe(report.path)}: {len(report.collections)} collection(s), {report.records} records, "
              f"{report.nodes} moves", highlight=False)


@user_errors
def stats_command(
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    favourability: Annotated[bool, typer.Option(
        "--favourability", help="First compute the influence model's verdict of records that lack it "
                                "(about 1 ms each).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
) -> None:
    """Counts per collection: records, moves, categories, conditions, favourability."""
    from joseki.book.query.favour import fill
    from joseki.book.stats import stats
    from joseki.core.category import CATEGORIES
    from joseki.core.conditions import KINDS

    with open_store() as store:
        if favourability:
            computed = fill(store, collection)
            if not as_json:
                err.print(f"[dim]computed the favourability of {computed} records[/]")
        found = stats(store, collection)
    if as_json:
        out.print_json(data={"collections": [s.as_json() for s in found]})
        return
    if not found:
        out.print(f"{safe(GLOBALS.db or 'the store')} holds no collection", highlight=False)
        return
    table = Table(title="stats")
    columns = ("collection", "files", "records", "moves", *CATEGORIES, "none", *KINDS, "priors", "fav. n",
               "fav. first")
    for name in columns:
        table.add_column(name, justify="left" if name == "collection" else "right")
    for s in found:
        mean = "" if s.favour_first is None else f"{s.favour_first:+.2f}"
        table.add_row(safe(s.name), str(s.files), str(s.records), str(s.moves),
                      *(str(s.categories.get(c, 0)) for c in CATEGORIES), str(s.uncategorised),
                      *(str(s.conditions.get(k, 0)) for k in KINDS), str(s.prior_moves), str(s.favour_records), mean)
    out.print(table)


@user_errors
def lint_command(
    path: Annotated[Path, typer.Argument(help="An SGF joseki collection.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
) -> None:
    """Check a collection file: duplicate paths, unclear passes, moves outside the zone, transpositions."""
    from joseki.sgf.lint import lint

    report = lint(path)
    if as_json:
        out.print_json(data=report.as_json())
        return
    for f in report.findings:
        out.print(Text(f"{f.kind}: ", style="yellow") + Text(f"{f.message}  [{f.where()}]"))
    counts = ", ".join(f"{kind} {n}" for kind, n in report.counts().items()) or "no findings"
    out.print(f"{safe(path)}: {report.records} records ({report.dialect} dialect): {counts}", highlight=False)
