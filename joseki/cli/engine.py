"""Commands about engines: gtp (the book in front of a GTP engine) and match."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from joseki.cli.common import ensure_starter, fail, open_store, out, progress_bar, safe, user_errors

if TYPE_CHECKING:
    pass


@user_errors
def gtp_command(
    engine: Annotated[str, typer.Option(help="Command line of the GTP engine to wrap.")],
    profile: Annotated[str | None, typer.Option(help="Choose book moves by this profile's statistics.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the book's random choices.")] = None,
    collection: Annotated[list[str] | None, typer.Option(help="Only these collections (repeatable).")] = None,
    choose: Annotated[str, typer.Option(
        help="How to choose among book moves: sample (Thompson sampling, explores) or best (highest priority).")]
    = "sample",
    timeout: Annotated[float, typer.Option(
        help="Seconds the wrapped engine may take over one command before it counts as hung (scoring: ten times).",
        min=0.1)] = 60.0,
) -> None:
    """Speak GTP on stdin/stdout: answer from the book where a corner calls for it, else from ENGINE."""
    import math

    if not math.isfinite(timeout):
        raise fail(f"--timeout must be a number of seconds, not {timeout}")
    from joseki.engine.gtp import EngineError
    from joseki.engine.gtp_proxy import serve
    from joseki.engine.policy import BookPlayer

    with open_store() as store:
        ensure_starter(store)
        try:
            serve(engine, BookPlayer(store, profile, seed, collection, choose), sys.stdin.buffer, sys.stdout.buffer,
                  timeout, sys.stderr)
        except EngineError as exc:
            raise fail(f"engine {engine!r}: {exc}") from None


@user_errors
def match_command(
    black: Annotated[str, typer.Option(help="Command line of the first engine (Black in odd games).")],
    white: Annotated[str | None, typer.Option(help="Command line of the second engine.")] = None,
    opponent: Annotated[str | None, typer.Option(
        help="A named second engine instead of --white: gnugo-1, gnugo-10 or gnugo-nojoseki.")] = None,
    games: Annotated[int, typer.Option(help="Number of games; colours alternate.", min=1)] = 2,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the SGF files.")] = Path("match"),
    learn_profile: Annotated[str | None, typer.Option("--learn", help="Learn the results into this profile.")]
    = None,
    max_moves: Annotated[int, typer.Option(help="End a game after this many moves.", min=1)] = 400,
    komi: Annotated[float, typer.Option(help="Komi.")] = 7.5,
    size: Annotated[int, typer.Option(help="Board size.")] = 19,
    timeout: Annotated[float, typer.Option(
        help="Seconds an engine may take over one command before it counts as hung (scoring: ten times).",
        min=0.1)] = 60.0,
    signal: Annotated[str, typer.Option(help="What --learn credits: result, local (corners judged by GNU Go) "
                                             "or both.")] = "result",
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Play GAMES games between two GTP engines, write them as SGF, and optionally learn from them."""
    from joseki.book.learnt.results import profile_id
    from joseki.engine.judge import JudgeCommand
    from joseki.engine.match import play_match
    from joseki.engine.opponents import opponent_command
    from joseki.games.learn import check_signal, learn, local_json

    check_signal(signal)
    if (white is None) == (opponent is None):
        raise fail("give either --white or --opponent")
    white = white if white is not None else opponent_command(str(opponent))

    if learn_profile is not None:  # created first, so that an engine reading it (gtp --profile) finds it
        with open_store() as store, store.write() as conn:
            profile_id(conn, store, learn_profile, create=True)
    with progress_bar(as_json) as progress:
        task = progress.add_task("playing", total=games)
        records = play_match(black, white, games, out_dir, max_moves, komi, size, timeout,
                             lambda n, r: progress.update(task, completed=n, description=f"game {n}: {safe(r.result)}"))
    learnt = local = None
    if learn_profile is not None:
        with open_store() as store:
            report = learn(store, [r.path for r in records], learn_profile, workers=1, signal=signal,
                           judge=JudgeCommand() if signal != "result" else None)
        learnt, local = (report if signal != "local" else None), report.local
    first_wins = sum(1 for r in records if r.winner == ("w" if r.swapped else "b"))
    if as_json:
        out.print_json(data={"games": [{"file": str(r.path), "black": r.black, "white": r.white, "result": r.result,
                                        "moves": r.moves, "reason": r.reason, "scoring": r.scoring}
                                       for r in records],
                             "first_engine_wins": first_wins, "learnt": None if learnt is None else learnt.learnt,
                             "local": None if local is None else local_json(local)})
        return
    table = Table(title=f"match: {len(records)} games in {safe(out_dir)}")
    for name in ("game", "black", "white", "result", "moves", "reason"):
        table.add_column(name)
    for r in records:
        table.add_row(str(r.number), safe(r.black), safe(r.white), safe(r.result), str(r.moves), safe(r.reason))
    out.print(table)
    out.print(f"first engine won {first_wins} of {len(records)}"
              + (f"; learnt {learnt.learnt} games into {safe(repr(learn_profile))}" if learnt else "")
              + (f"; judged {local.corners} corners into {safe(repr(learn_profile))}" if local else ""))


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("gtp")(gtp_command)
    app.command("match")(match_command)
