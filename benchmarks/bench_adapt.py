"""The adaptation loop, measured honestly: does the book get better against a given opponent?

For each opponent (``gnugo-1``, ``gnugo-10``, ``gnugo-nojoseki``: :mod:`joseki.engine.opponents`),
in its own store (Kogo's dictionary) and its own profile named after it, the book proxy
wrapping GNU Go level 1 plays:

1. ``--games`` games **before** learning, choosing the book move of highest priority
   (``gtp --choose best``, the prior alone); they are measured, then learnt;
2. ``--train`` training games in rounds of ``--round``, choosing by Thompson sampling
   (``--choose sample``, exploring), each round learnt before the next;
3. ``--games`` fresh games **after** learning, choosing by highest priority again; they are
   measured and never learnt.

Games last ``--max-moves`` moves (the opening, where the book plays) and are scored by the
match referee's estimate of the area (:func:`joseki.engine.match.estimate_result`: stones
plus the empty points the influence model gives each side, komi 7.5). The local outcome of a
game is the mean, over its corners with a book step, of the proxy's margin in the corner's
quadrant as GNU Go judges it where the joseki ended (:mod:`joseki.engine.judge`); beside it, the
same mean over only the corners where the proxy chose a book move (``local_chosen``). Reported
per opponent and phase: the proxy's win rate (95% Wilson interval) and mean local outcome
(95% normal interval over games); one-sided tests of after > before (two-proportion z-test;
Welch z-test and a permutation test of the local outcome); and a power calculation: games
per phase that the measured local effect (and a 10-point win-rate gain) would need for
p < 0.05 one-sided with 80% power. Opponents run in ``--jobs`` parallel processes.

Usage: python benchmarks/bench_adapt.py [--games 36] [--train 36] [--max-moves 40] [--signal local]
       [--opponents gnugo-nojoseki,gnugo-1] [--jobs 2]

The defaults are the run docs/performance.md reports.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from common import CACHE, KOGO, need, report

from joseki.book.importer import import_file
from joseki.book.learnt.results import profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.query.next import move_numbers
from joseki.book.store.database import Store
from joseki.core.corners import CornerTable, corner_tables
from joseki.core.notation import TENUKI
from joseki.core.priority import wilson_interval
from joseki.engine.judge import Judge, JudgeCommand, default_judge, gnugo_path
from joseki.engine.match import GameRecord, play_match
from joseki.engine.opponents import OPPONENTS, opponent_command
from joseki.games.judging import Refused
from joseki.games.learn import learn
from joseki.sgf.game import read_game

NORMAL = statistics.NormalDist()
ALPHA, POWER = 0.05, 0.8


def phase(db: Path, out: Path, opponent: str, args: argparse.Namespace, seed: int, choose: str,
          games: int | None = None) -> list[GameRecord]:
    engine = f"{gnugo_path()} --mode gtp --level 1"
    proxy = (f"{sys.executable} -m joseki --db {db} gtp --engine '{engine}' --profile {opponent} "
             f"--seed {seed} --choose {choose}")
    return play_match(proxy, opponent_command(opponent), games or args.games, out, max_moves=args.max_moves,
                      komi=args.komi,
                      progress=lambda n, r: print(f"  {opponent} {out.name} game {n}: {r.result}", file=sys.stderr))


def proxy_colour(record: GameRecord) -> str:
    return "w" if record.swapped else "b"


def proxy_chose(table: CornerTable, in_book: int, proxy: str) -> bool:
    """Whether the proxy chose a book move in this corner: an in-book step of its colour answering the
    opponent's local move just before (when the policy is asked)."""
    numbers = move_numbers(table)
    steps, first = table.builder.steps, table.builder.first_colour
    return any((first == proxy) == (i % 2 == 0) and numbers[i] == numbers[i - 1] + 1
               and steps[2 * i - 2 : 2 * i] != TENUKI for i in range(1, in_book))


def local_outcomes(store: Store, records: list[GameRecord]) -> tuple[list[float], list[float]]:
    """Each game's mean local outcome for the proxy over the corners where it chose a book move, and
    over all corners with a book step (games without such corners left out)."""
    book = InMemoryBook.load(store)
    chosen: list[float] = []
    every: list[float] = []
    with Judge(default_judge()) as judge:
        for r in records:
            moves = read_game(r.path).moves
            tables = corner_tables(moves)
            try:
                verdicts = judge.judge(book, moves)
            except Refused as exc:  # GNU Go refused a move the referee allowed: leave the game out
                print(f"  {r.path}: not judged: {exc}", file=sys.stderr)
                continue
            proxy = proxy_colour(r)
            if verdicts:
                every.append(statistics.fmean(v.margin_for(proxy) for v in verdicts))
            mine = [v.margin_for(proxy) for v in verdicts if proxy_chose(tables[v.corner], v.in_book, proxy)]
            if mine:
                chosen.append(statistics.fmean(mine))
    return chosen, every


def one_sided_proportions(w0: int, n0: int, w1: int, n1: int) -> float:
    """p of after > before for two win rates (pooled z-test)."""
    pooled = (w0 + w1) / (n0 + n1)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n0 + 1 / n1)) if 0 < pooled < 1 else 0.0
    return 0.5 if se == 0 else 1 - NORMAL.cdf((w1 / n1 - w0 / n0) / se)


def welch_p(before: list[float], after: list[float]) -> float:
    """p of mean(after) > mean(before) (Welch's statistic against the normal distribution)."""
    se = math.sqrt(statistics.variance(before) / len(before) + statistics.variance(after) / len(after))
    return 0.5 if se == 0 else 1 - NORMAL.cdf((statistics.fmean(after) - statistics.fmean(before)) / se)


def permutation_p(before: list[float], after: list[float], rounds: int = 20000, seed: int = 7) -> float:
    """p of mean(after) > mean(before) by random relabelling (no normality assumed)."""
    rng = random.Random(seed)
    observed = statistics.fmean(after) - statistics.fmean(before)
    pool, k, hits = before + after, len(after), 0
    for _ in range(rounds):
        rng.shuffle(pool)
        hits += statistics.fmean(pool[:k]) - statistics.fmean(pool[k:]) >= observed - 1e-12
    return (hits + 1) / (rounds + 1)


def games_needed(effect: float, sd: float) -> int | None:
    """Games per phase for a difference ``effect`` of means with spread ``sd`` (one-sided ALPHA, POWER)."""
    if effect <= 0 or sd <= 0:
        return None
    z = NORMAL.inv_cdf(1 - ALPHA) + NORMAL.inv_cdf(POWER)
    return math.ceil(2 * (z * sd / effect) ** 2)


def mean_ci(values: list[float]) -> list[float]:
    m = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return [round(m - half, 2), round(m + half, 2)]


def recorded(folder: Path) -> list[GameRecord]:
    """The games a phase wrote (for --reanalyse): the proxy is black in odd games."""
    records = []
    for number, path in enumerate(sorted(folder.glob("game-*.sgf")), start=1):
        game = read_game(path)
        records.append(GameRecord(number, path, game.black, game.white, game.result, len(game.moves), game.winner,
                                  "", number % 2 == 0))
    return records


def play_opponent(opponent: str, args: argparse.Namespace, work: Path) -> tuple[list[GameRecord], list[GameRecord]]:
    """Play the three phases in a fresh copy of the book; return the measured games before and after."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db = work / "book.sqlite"
    shutil.copy(CACHE / args.cache / "kogo.sqlite", db)
    store = Store(str(db))
    with store.write() as conn:
        profile_id(conn, store, opponent, create=True)
    before = phase(db, work / "before", opponent, args, 1, "best")
    learn(store, [r.path for r in before], opponent, 1, signal=args.signal, judge=JudgeCommand())
    for number, first in enumerate(range(0, args.train, args.round), start=1):
        games = min(args.round, args.train - first)
        train = phase(db, work / f"train-{number:02d}", opponent, args, 100 + number, "sample", games)
        learn(store, [r.path for r in train], opponent, 1, signal=args.signal, judge=JudgeCommand())
    after = phase(db, work / "after", opponent, args, 2, "best")
    return before, after


def interval_figures(records: list[GameRecord], every: list[float], chosen: list[float]) -> dict[str, Any]:
    wins = sum(1 for r in records if r.winner == proxy_colour(r))
    low, high = wilson_interval(wins, len(records))
    return {"games": len(records), "wins": wins, "win_rate": round(wins / len(records), 4),
            "win_ci95": [round(low, 4), round(high, 4)], "judged_games": len(every),
            "local_mean": round(statistics.fmean(every), 2) if every else None,
            "local_ci95": mean_ci(every) if every else None,
            "chosen_games": len(chosen),
            "local_chosen_mean": round(statistics.fmean(chosen), 2) if chosen else None,
            "local_chosen_ci95": mean_ci(chosen) if chosen else None}


def run_opponent(job: tuple[str, argparse.Namespace]) -> dict[str, Any]:
    opponent, args = job
    work = CACHE / args.cache / opponent
    start = time.perf_counter()
    if args.reanalyse:
        before, after = recorded(work / "before"), recorded(work / "after")
    else:
        before, after = play_opponent(opponent, args, work)
    store = Store(str(work / "book.sqlite"))
    chosen_before, local_before = local_outcomes(store, before)
    chosen_after, local_after = local_outcomes(store, after)
    figures: dict[str, Any] = {"before": interval_figures(before, local_before, chosen_before),
                               "after": interval_figures(after, local_after, chosen_after)}
    ok = len(local_before) > 1 and len(local_after) > 1
    effect = statistics.fmean(local_after) - statistics.fmean(local_before) if ok else None
    sd = math.sqrt((statistics.variance(local_before) + statistics.variance(local_after)) / 2) if ok else None
    wins_before, wins_after = figures["before"]["wins"], figures["after"]["wins"]
    p0 = wins_before / len(before)
    figures["tests"] = {
        "win_rate_p": round(one_sided_proportions(wins_before, len(before), wins_after, len(after)), 4),
        "local_effect": None if effect is None else round(effect, 2),
        "local_sd": None if sd is None else round(sd, 2),
        "local_effect_sd_units": None if effect is None or not sd else round(effect / sd, 3),
        "local_welch_p": round(welch_p(local_before, local_after), 4) if ok else None,
        "local_permutation_p": round(permutation_p(local_before, local_after), 4) if ok else None,
        "local_chosen_welch_p": round(welch_p(chosen_before, chosen_after), 4)
        if len(chosen_before) > 1 and len(chosen_after) > 1 else None,
        "games_needed_local_effect": None if effect is None or sd is None else games_needed(effect, sd),
        "games_needed_local_plus_2_points": None if not sd else games_needed(2.0, sd),
        "games_needed_win_rate_plus_10": games_needed(0.1, math.sqrt(max(p0 * (1 - p0), 0.01))),
    }
    figures["seconds"] = round(time.perf_counter() - start, 1)
    (work / "figures.json").write_text(json.dumps(figures))  # kept if another opponent's run fails
    return {opponent: figures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=36, help="measured games before and after learning")
    parser.add_argument("--train", type=int, default=36, help="training games between them (learnt, not measured)")
    parser.add_argument("--round", type=int, default=10, help="training games learnt at a time")
    parser.add_argument("--max-moves", type=int, default=40)
    parser.add_argument("--signal", default="local", choices=("result", "local", "both"))
    parser.add_argument("--opponents", default="gnugo-nojoseki,gnugo-1",
                        help="named opponents (also gnugo-10: about 2.5x as slow a game)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--cache", default="adapt", help="work folder under benchmarks/.cache (removed first)")
    parser.add_argument("--reanalyse", action="store_true",
                        help="measure the games a previous run left in --cache again, without playing")
    args = parser.parse_args()
    if args.games < 2 or args.train < 0 or args.round < 1:
        sys.exit("--games must be at least 2, --train at least 0, --round at least 1")
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    for name in opponents:
        if name not in OPPONENTS:
            sys.exit(f"unknown opponent {name!r} (expected {', '.join(OPPONENTS)})")
    need(Path(gnugo_path()))
    root = CACHE / args.cache
    start = time.perf_counter()
    if not args.reanalyse:
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        import_file(Store(str(root / "kogo.sqlite")), need(KOGO), "kogo")
    with Pool(min(args.jobs, len(opponents))) as pool:
        results = pool.map(run_opponent, [(name, args) for name in opponents], chunksize=1)
    figures: dict[str, Any] = ({"reanalysed": str(root)} if args.reanalyse else
                               {"games": args.games, "train": args.train, "max_moves": args.max_moves,
                                "komi": args.komi, "signal": args.signal})
    figures["scoring"] = "the referee's estimate of the area at the move limit (or two passes: area count)"
    for result in results:
        figures.update(result)
    figures["seconds"] = round(time.perf_counter() - start, 1)
    for name in opponents:
        f = figures[name]
        print(f"{name}: win rate {f['before']['win_rate']} -> {f['after']['win_rate']}, local outcome "
              f"{f['before']['local_mean']} -> {f['after']['local_mean']} (p {f['tests']['local_welch_p']})")
    report(figures)


if __name__ == "__main__":
    main()
