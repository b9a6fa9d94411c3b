"""Real games against the books: how long each corner of a game stays in book, and the shared-edge rule.

For every game of the chosen sets (the main line, :func:`joseki.sgf.game.read_game`), the four corner
tables are built with :func:`joseki.core.corners.corner_tables` (the project's rule), and each corner
with at least one local move is followed through each book:

- *first in book*: the string of its first local move is a book prefix;
- *in-book length*: the number of **local moves** (tokens other than ``XX``; an ``XX`` token never
  counts as a move) in the longest prefix of the corner's string that the book holds;
- *in book after 5 / 10*: the in-book length is at least 5 / 10 (share of all corners, and of the
  corners that have at least 5 / 10 local moves);
- *rescued*: the corner leaves the book by sequence (its string goes on past the longest book
  prefix), and the string one token past that prefix reaches a book position by transposition
  (its :func:`joseki.core.position.steps_key` is a book node's position key). ``at_tenuki`` counts
  the corners whose leaving token is ``XX``: :func:`joseki.book.query.next.answer_corner` calls those
  "interrupted" before it looks for a transposition, so only ``rescued_without_tenuki`` match its
  ``in-book-by-transposition`` state.

The book's prefixes and position keys are loaded into memory once, so that no game queries the
database. Each book is imported into a SQLite store under ``benchmarks/.cache`` (reused).

The shared-edge comparison pits the project's rule (:func:`joseki.core.corners.owner`: a move joins at
most one corner) against a naive rule, built here only: a move joins every corner whose 10x10
square (zone col and row < :data:`joseki.core.zone.NEAR`) holds it, so a move on the board's centre
lines (the 10th line of two corners) lands in two tables, and tengen in four.

Usage (from benchmarks/): python bench_games.py [--sets kgs,fox,ai,tygem] [--limit N]
    [--books kogo,katago] [--edge-sets kgs,fox,ai] [--workers 2] [--chunk 200] [--rebuild]
The last line of output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from common import CACHE, SHARED, need, report
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.core.corners import corner_tables
from joseki.core.geometry import Corner, Point, Transform
from joseki.core.notation import TENUKI
from joseki.core.position import steps_key
from joseki.core.steps import Colour, StepBuilder
from joseki.core.zone import NEAR
from joseki.sgf.game import Game, read_game

GAMES = SHARED / "games"
SETS: dict[str, Path] = {
    "kgs": GAMES / "kgs-highdan-2019-04",
    "fox": GAMES / "fox-pro",
    "ai": GAMES / "computer-go-dataset-ai",
    "tygem": CACHE / "tygem",
}
TYGEM_ARCHIVE = GAMES / "tygem-9d-2011" / "tygem-9d-2011-dev.tar.xz"
KATAGO_DIR = SHARED / "joseki" / "katago-joseki-extraction"
BOOKS: dict[str, Path] = {
    "kogo": SHARED / "joseki" / "kogo-kjd-2014" / "Kogo_s_Joseki_Dictionary.sgf",
    "katago": KATAGO_DIR / "katago_rating_joseki.sgf",
    "katago-training": KATAGO_DIR / "katago_training_joseki.sgf",
}
RULES = ("project", "naive")
CORNERS: tuple[Corner, ...] = tuple(Corner)
TRANSFORMS: tuple[Transform, ...] = tuple(Transform(c) for c in CORNERS)
SIZE = 19
STEP_KEY_CACHE = 1 << 18


# --------------------------------------------------------------------------- books


@dataclass(frozen=True, slots=True)
class Book:
    """A book in memory: its canonical step prefixes and the position keys of its nodes."""

    name: str
    steps: frozenset[str]
    keys: frozenset[int]


def build_book(name: str, rebuild: bool = False) -> Book:
    """Import book ``name`` into its cached store (once) and load its prefixes and keys."""
    path = CACHE / f"book-{name}.sqlite"
    if rebuild:
        path.unlink(missing_ok=True)
    store = Store(str(path))
    try:
        with store.read() as conn:
            held = conn.exec_driver_sql(
                "SELECT count(*) FROM variation JOIN collection ON collection.id = variation.collection_id"
                " WHERE collection.name = ?", (name,)).scalar_one()
        if not held:
            result = import_file(store, need(BOOKS[name]), name)
            if result.status == "failed":
                sys.exit(f"cannot import {BOOKS[name]}: {result.error}")
        with store.read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT node.steps, node.position_key FROM node"
                " JOIN node_book ON node_book.node_id = node.id"
                " JOIN collection ON collection.id = node_book.collection_id WHERE collection.name = ?",
                (name,)).all()
    finally:
        store.close()
    return Book(name, frozenset(r[0] for r in rows), frozenset(r[1] for r in rows if r[1] is not None))


# --------------------------------------------------------------------------- figures


@dataclass(slots=True)
class BookStats:
    """One book's figures over some corners (sums, so that partial results merge)."""

    corners: int = 0
    first_in_book: int = 0
    reached_5: int = 0
    reached_10: int = 0
    left: int = 0
    left_at_tenuki: int = 0
    rescued: int = 0
    rescued_at_tenuki: int = 0
    lengths: Counter[int] = field(default_factory=Counter)

    def merge(self, other: BookStats) -> None:
        for f in fields(self):
            if f.name == "lengths":
                self.lengths.update(other.lengths)
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def figures(self) -> dict[str, Any]:
        n = self.corners
        at_least = {k: sum(c for length, c in self.lengths.items() if length >= k) for k in (5, 10)}
        total = sum(length * c for length, c in self.lengths.items())
        return {
            "corners": n,
            "first_in_book": share(self.first_in_book, n),
            "median_in_book": median(self.lengths),
            "mean_in_book": round(total / n, 3) if n else None,
            "in_book_5": share(at_least[5], n),
            "in_book_10": share(at_least[10], n),
            "in_book_5_of_reached": share(at_least[5], self.reached_5),
            "in_book_10_of_reached": share(at_least[10], self.reached_10),
            "left_book": self.left,
            "left_at_tenuki": self.left_at_tenuki,
            "rescued": self.rescued,
            "rescued_share_of_left": share(self.rescued, self.left),
            "rescued_at_tenuki": self.rescued_at_tenuki,
            "rescued_without_tenuki": self.rescued - self.rescued_at_tenuki,
        }


@dataclass(slots=True)
class EdgeStats:
    """Counts for the shared-edge comparison (naive rule against the project's rule)."""

    moves: int = 0
    """Board moves (passes excluded)."""
    naive_shared: int = 0
    """Moves that the naive rule puts in two or more corners' tables."""
    naive_none: int = 0
    shared_project_one: int = 0
    """Of the naive-shared moves: the project's rule gives them to one corner ..."""
    shared_project_elsewhere: int = 0
    """... or to none ("elsewhere") ..."""
    shared_project_multi: int = 0
    """... or to several (never, by construction)."""
    project_multi: int = 0
    """Moves in two or more of the project's tables (must be 0)."""
    project_elsewhere: int = 0
    dd_corners: int = 0
    """Naive corners whose first local move is the 4-4 point (token DD)."""
    dd_second: int = 0
    dd_second_shared: int = 0
    """Their second local moves that the naive rule also puts in another corner's table."""
    dd_shared_project_same: int = 0
    dd_shared_project_other: int = 0
    dd_shared_project_elsewhere: int = 0
    dd_shared_project_multi: int = 0
    project_dd_corners: int = 0
    project_dd_second: int = 0
    project_dd_second_shared_line: int = 0
    """The project's DD corners whose second local move lies on a line shared by two 10x10 squares."""

    def merge(self, other: EdgeStats) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def figures(self) -> dict[str, dict[str, Any]]:
        naive = {
            "moves": self.moves,
            "moves_in_two_or_more_corners": self.naive_shared,
            "moves_in_two_or_more_corners_share": share(self.naive_shared, self.moves),
            "moves_in_no_corner": self.naive_none,
            "dd_corners": self.dd_corners,
            "dd_second_moves": self.dd_second,
            "dd_second_in_two_corners": self.dd_second_shared,
            "dd_second_in_two_corners_share": share(self.dd_second_shared, self.dd_second),
        }
        project = {
            "moves": self.moves,
            "moves_in_two_or_more_corners": self.project_multi,
            "moves_elsewhere": self.project_elsewhere,
            "naive_shared_moves_to_one_corner": self.shared_project_one,
            "naive_shared_moves_elsewhere": self.shared_project_elsewhere,
            "naive_shared_moves_to_two_corners": self.shared_project_multi,
            "dd_second_shared_to_same_corner": self.dd_shared_project_same,
            "dd_second_shared_to_other_corner": self.dd_shared_project_other,
            "dd_second_shared_elsewhere": self.dd_shared_project_elsewhere,
            "dd_second_shared_to_two_corners": self.dd_shared_project_multi,
            "dd_corners": self.project_dd_corners,
            "dd_second_moves": self.project_dd_second,
            "dd_second_on_shared_line": self.project_dd_second_shared_line,
            "dd_second_on_shared_line_share": share(self.project_dd_second_shared_line, self.project_dd_second),
        }
        return {"naive": naive, "project": project}


@dataclass(slots=True)
class Partial:
    """Everything measured on some games of one set; partial results merge."""

    files: int = 0
    games: int = 0
    no_result: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    skip_examples: dict[str, str] = field(default_factory=dict)
    books: dict[tuple[str, str], BookStats] = field(default_factory=dict)
    edge: EdgeStats = field(default_factory=EdgeStats)
    errors: list[dict[str, str]] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)
    """Seconds spent in each stage, summed over the games (wall time inside the workers)."""

    def stats(self, rule: str, book: str) -> BookStats:
        key = (rule, book)
        if key not in self.books:
            self.books[key] = BookStats()
        return self.books[key]

    def add_cpu(self, stage: str, seconds: float) -> None:
        self.cpu[stage] = self.cpu.get(stage, 0.0) + seconds

    def merge(self, other: Partial) -> None:
        self.files += other.files
        self.games += other.games
        self.no_result += other.no_result
        self.skipped.update(other.skipped)
        for reason, example in other.skip_examples.items():
            self.skip_examples.setdefault(reason, example)
        for (rule, book), stats in other.books.items():
            self.stats(rule, book).merge(stats)
        self.edge.merge(other.edge)
        self.errors.extend(other.errors)
        for stage, seconds in other.cpu.items():
            self.add_cpu(stage, seconds)


def share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def median(counts: Counter[int]) -> float | None:
    """The median of a distribution given as value -> count."""
    n = sum(counts.values())
    if not n:
        return None
    lo_rank, hi_rank = (n - 1) // 2, n // 2
    seen, lo = 0, None
    for value in sorted(counts):
        seen += counts[value]
        if lo is None and seen > lo_rank:
            lo = value
        if seen > hi_rank:
            return (lo + value) / 2 if lo is not None else float(value)
    return None


# --------------------------------------------------------------------------- per game


def naive_tables(moves: list[tuple[Colour, Point | None]]) -> tuple[list[StepBuilder], list[list[int]], list[int]]:
    """The naive rule: each move joins every corner whose 10x10 square holds it.

    Returns the four corners' builders (in :data:`CORNERS` order), each corner's local move
    numbers (from 1), and for each move the number of corners it joined.
    """
    builders = [StepBuilder() for _ in CORNERS]
    numbers: list[list[int]] = [[] for _ in CORNERS]
    joined: list[int] = []
    for number, (colour, point) in enumerate(moves, start=1):
        count = 0
        for i, transform in enumerate(TRANSFORMS):
            if point is not None:
                zpoint = transform.to_zone(point, SIZE)
                if zpoint[0] < NEAR and zpoint[1] < NEAR:
                    builders[i].local(colour, zpoint)
                    numbers[i].append(number)
                    count += 1
                    continue
            builders[i].elsewhere(colour)
        joined.append(count)
    return builders, numbers, joined


@lru_cache(maxsize=STEP_KEY_CACHE)
def cached_key(steps: str) -> int:
    return int(steps_key(steps))


def follow(steps: str, book: Book) -> tuple[int, str | None]:
    """Local moves in the longest in-book prefix of ``steps``, and the string one token past it (None if none)."""
    prefixes = book.steps
    moves = 0
    for end in range(2, len(steps) + 1, 2):
        if steps[:end] not in prefixes:
            return moves, steps[:end]
        if steps[end - 2 : end] != TENUKI:
            moves += 1
    return moves, None


def add_corner(stats: BookStats, steps: str, local_moves: int, book: Book) -> None:
    """Follow one corner's string through one book."""
    stats.corners += 1
    stats.first_in_book += steps[:2] in book.steps
    stats.reached_5 += local_moves >= 5
    stats.reached_10 += local_moves >= 10
    moves, off = follow(steps, book)
    stats.lengths[moves] += 1
    if off is not None:
        stats.left += 1
        tenuki = off.endswith(TENUKI)
        stats.left_at_tenuki += tenuki
        if cached_key(off) in book.keys:
            stats.rescued += 1
            stats.rescued_at_tenuki += tenuki


def on_shared_line(point: Point) -> bool:
    """True if ``point`` lies in two corners' 10x10 squares (a centre line of the board)."""
    return any(SIZE - NEAR <= v < NEAR for v in point)


def measure_game(game: Game, books: list[Book], part: Partial) -> None:
    """Both rules' corner tables of one game, followed through every book, and the edge counts."""
    clock = time.perf_counter()
    tables = corner_tables(game.moves)
    now = time.perf_counter()
    part.add_cpu("project_tables", now - clock)
    clock = now
    builders, numbers, joined = naive_tables(game.moves)
    now = time.perf_counter()
    part.add_cpu("naive_tables", now - clock)
    clock = now

    project_owners: dict[int, list[Corner]] = {}
    for corner, table in tables.items():
        for number, _, _ in table.moves:
            project_owners.setdefault(number, []).append(corner)
    edge = part.edge
    for number, (_, point) in enumerate(game.moves, start=1):
        if point is None:
            continue
        edge.moves += 1
        owners = project_owners.get(number, ())
        edge.project_multi += len(owners) > 1
        edge.project_elsewhere += not owners
        count = joined[number - 1]
        edge.naive_none += count == 0
        if count >= 2:
            edge.naive_shared += 1
            edge.shared_project_one += len(owners) == 1
            edge.shared_project_elsewhere += not owners
            edge.shared_project_multi += len(owners) > 1
    for i, corner in enumerate(CORNERS):
        tokens = builders[i].tokens
        if not tokens or tokens[0] != "DD":
            continue
        edge.dd_corners += 1
        if len(numbers[i]) < 2:
            continue
        edge.dd_second += 1
        second = numbers[i][1]
        if joined[second - 1] >= 2:
            edge.dd_second_shared += 1
            owners = project_owners.get(second, [])
            edge.dd_shared_project_same += owners == [corner]
            edge.dd_shared_project_other += len(owners) == 1 and owners[0] is not corner
            edge.dd_shared_project_elsewhere += not owners
            edge.dd_shared_project_multi += len(owners) > 1
    for table in tables.values():
        if table.builder.tokens[:1] == ["DD"]:
            edge.project_dd_corners += 1
            if len(table.moves) >= 2:
                edge.project_dd_second += 1
                edge.project_dd_second_shared_line += on_shared_line(table.moves[1][2])

    for book in books:
        for table in tables.values():
            if table.moves:
                add_corner(part.stats("project", book.name), table.builder.steps, len(table.moves), book)
        for i in range(len(CORNERS)):
            if numbers[i]:
                add_corner(part.stats("naive", book.name), builders[i].steps, len(numbers[i]), book)
    part.add_cpu("book_checks", time.perf_counter() - clock)


_BOOKS: list[Book] = []


def init_worker(books: list[Book]) -> None:
    _BOOKS[:] = books


def process_chunk(paths: list[str]) -> Partial:
    """Read and measure the games of ``paths`` (run in a worker process)."""
    part = Partial()
    for path in paths:
        part.files += 1
        clock = time.perf_counter()
        try:
            game = read_game(path)
        except ValueError as exc:
            part.add_cpu("read", time.perf_counter() - clock)
            part.skipped["unreadable"] += 1
            part.skip_examples.setdefault("unreadable", f"{path}: {exc}")
            continue
        except Exception:
            part.errors.append({"file": path, "stage": "read_game", "traceback": traceback.format_exc()})
            continue
        part.add_cpu("read", time.perf_counter() - clock)
        reason = None
        if game.size != SIZE:
            reason = "board size"
        elif game.handicap >= 2 or game.setup:
            reason = "handicap or setup"
        if reason is not None:
            part.skipped[reason] += 1
            part.skip_examples.setdefault(reason, path)
            continue
        part.games += 1
        part.no_result += game.winner is None
        try:
            measure_game(game, _BOOKS, part)
        except Exception:
            part.errors.append({"file": path, "stage": "corner tables", "traceback": traceback.format_exc()})
    return part


# --------------------------------------------------------------------------- driver


def ensure_tygem() -> None:
    """Unpack the Tygem archive into the ignored cache folder, unless already done."""
    folder = SETS["tygem"]
    marker = folder / ".unpacked"
    if marker.exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    print(f"unpacking {TYGEM_ARCHIVE.name} into {folder} ...", file=sys.stderr)
    subprocess.run(["tar", "xJf", str(need(TYGEM_ARCHIVE)), "-C", str(folder)], check=True)
    marker.touch()


def set_files(name: str, limit: int | None) -> list[str]:
    if name == "tygem":
        ensure_tygem()
    folder = need(SETS[name])
    files = sorted(str(p) for p in folder.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file())
    return files[:limit] if limit else files


def chunked(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class Reporter:
    """Progress on stderr: a rich bar on a terminal, else a line every few seconds."""

    def __init__(self) -> None:
        self.live = sys.stderr.isatty()
        self.progress = Progress(TextColumn("{task.description:>6}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=Console(stderr=True)) if self.live else None
        self.last = 0.0

    def __enter__(self) -> Reporter:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def track(self, name: str, total: int, chunks: Iterable[Partial], start: float) -> Iterator[Partial]:
        task = self.progress.add_task(name, total=total) if self.progress is not None else None
        done = 0
        for part in chunks:
            done += part.files
            if self.progress is not None and task is not None:
                self.progress.update(task, completed=done)
            elif time.monotonic() - self.last > 10 or done == total:
                self.last = time.monotonic()
                print(f"{name}: {done}/{total} files, {time.perf_counter() - start:.0f}s", file=sys.stderr, flush=True)
            yield part


def figures_of(part: Partial, books: list[Book], rule: str) -> dict[str, Any]:
    return {b.name: part.stats(rule, b.name).figures() for b in books}


def edge_figures(part: Partial, books: list[Book]) -> dict[str, Any]:
    """The shared-edge counts of ``part`` with every book's in-book figures under each rule."""
    result: dict[str, Any] = part.edge.figures()
    for rule in ("project", "naive"):
        result[rule]["books"] = figures_of(part, books, rule)
    return result


def set_figures(part: Partial, books: list[Book], seconds: float) -> dict[str, Any]:
    return {"files": part.files, "games": part.games, "skipped": dict(part.skipped), "no_result": part.no_result,
            "seconds": round(seconds, 1), "books": figures_of(part, books, "project"),
            "naive_books": figures_of(part, books, "naive"), "edge_rule": part.edge.figures()}


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def num(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def book_table(title: str, rows: list[tuple[str, dict[str, Any]]]) -> Table:
    table = Table(title=title, title_justify="left")
    for column in ("", "corners", "1st in book", "median", "mean", ">=5", ">=10", ">=5 of reached",
                   ">=10 of reached", "left book", "rescued"):
        table.add_column(column, justify="left" if not column else "right")
    for label, f in rows:
        table.add_row(label, str(f["corners"]), pct(f["first_in_book"]), num(f["median_in_book"]),
                      num(f["mean_in_book"]), pct(f["in_book_5"]), pct(f["in_book_10"]),
                      pct(f["in_book_5_of_reached"]), pct(f["in_book_10_of_reached"]), str(f["left_book"]),
                      f"{f['rescued']} ({pct(f['rescued_share_of_left'])})")
    return table


def edge_table(result: dict[str, Any], book: str) -> Table:
    """Per set: the naive rule's shared moves, and the in-book figures of ``book`` under both rules."""
    table = Table(title=f"Shared-edge rule per set ({book} for the in-book columns)", title_justify="left")
    for column in ("set", "moves", "naive: in 2+ corners", "DD 2nd moves", "naive: DD 2nd in 2 corners",
                   "project: of those elsewhere", "project: in 2+ corners", "1st in book p/n", "median p/n",
                   ">=5 p/n"):
        table.add_column(column, justify="left" if column == "set" else "right")
    rows = [(name, v["edge_rule"], v["books"][book], v["naive_books"][book]) for name, v in result["per_set"].items()]
    if "edge_rule_all_sets" in result:
        all_sets = result["edge_rule_all_sets"]
        rows.append(("all", all_sets, all_sets["project"]["books"][book], all_sets["naive"]["books"][book]))
    for name, e, p, n in rows:
        naive, project = e["naive"], e["project"]
        shared, elsewhere = naive["dd_second_in_two_corners"], project["dd_second_shared_elsewhere"]
        table.add_row(name, str(naive["moves"]), pct(naive["moves_in_two_or_more_corners_share"]),
                      str(naive["dd_second_moves"]), f"{shared} ({pct(naive['dd_second_in_two_corners_share'])})",
                      f"{elsewhere} ({pct(share(elsewhere, shared))})",
                      str(project["moves_in_two_or_more_corners"]),
                      f"{pct(p['first_in_book'])} / {pct(n['first_in_book'])}",
                      f"{num(p['median_in_book'])} / {num(n['median_in_book'])}",
                      f"{pct(p['in_book_5'])} / {pct(n['in_book_5'])}")
    return table


def print_summary(console: Console, result: dict[str, Any], books: list[Book]) -> None:
    console.print(f"[bold]{result['games']} games[/] from {result['files']} files "
                  f"(skipped: {result['skipped'] or 'none'}; library errors: {len(result['errors'])}); "
                  f"in-book length counts local moves, XX tokens not counted")
    rows = [(f"{b.name} / all", result["books"][b.name]) for b in books]
    rows += [(f"{b.name} / {s}", v["books"][b.name]) for s, v in result["per_set"].items() for b in books]
    console.print(book_table("Corners in book (project rule)", rows))
    edge = result["edge_rule"]
    naive, project = edge["naive"], edge["project"]
    console.print(f"\n[bold]Shared-edge rule[/] on {', '.join(edge['sets'])}: {naive['moves']} moves")
    console.print(f"  naive: {naive['moves_in_two_or_more_corners']} moves in >= 2 corners; after a 4-4 (DD) first "
                  f"move, {naive['dd_second_in_two_corners']}/{naive['dd_second_moves']} second local moves "
                  f"({pct(naive['dd_second_in_two_corners_share'])}) land in two corners")
    console.print(f"  project: {project['moves_in_two_or_more_corners']} moves in >= 2 corners; of those DD second "
                  f"moves: {project['dd_second_shared_to_same_corner']} to the DD corner, "
                  f"{project['dd_second_shared_to_other_corner']} to another corner, "
                  f"{project['dd_second_shared_elsewhere']} elsewhere; of all naive-shared moves "
                  f"{project['naive_shared_moves_elsewhere']} elsewhere, "
                  f"{project['naive_shared_moves_to_one_corner']} to one corner")
    rows = [(f"{b.name} / {rule}", edge[rule]["books"][b.name]) for b in books for rule in ("project", "naive")]
    console.print(book_table(f"In book under each rule ({', '.join(edge['sets'])})", rows))
    console.print(edge_table(result, books[0].name))
    for error in result["errors"][:5]:
        console.print(f"[red]library error[/] in {error['file']} ({error['stage']}):\n{error['traceback']}")
    cpu = ", ".join(f"{k} {v:.0f}s" for k, v in result["cpu_seconds"].items())
    console.print(f"{result['seconds']:.0f}s wall with {result['workers']} workers; cpu: {cpu}; "
                  f"peak RSS {result['peak_rss_mb']} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="kgs,fox,ai,tygem", help="game sets: " + ", ".join(SETS))
    parser.add_argument("--books", default="kogo,katago", help="books: " + ", ".join(BOOKS))
    parser.add_argument("--edge-sets", default="kgs,fox,ai", help="sets of the shared-edge figures")
    parser.add_argument("--limit", type=int, default=None, help="at most N files per set")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=200, help="files per worker task")
    parser.add_argument("--rebuild", action="store_true", help="re-import the books")
    args = parser.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    names = [b for b in args.books.split(",") if b]
    for item, known in [*((s, SETS) for s in sets), *((b, BOOKS) for b in names)]:
        if item not in known:
            parser.error(f"unknown {item!r} (expected one of {', '.join(known)})")
    edge_sets = [s for s in args.edge_sets.split(",") if s in sets]

    start = time.perf_counter()
    books = [build_book(name, args.rebuild) for name in names]
    book_s = time.perf_counter() - start
    print(", ".join(f"{b.name}: {len(b.steps)} prefixes, {len(b.keys)} positions" for b in books)
          + f" ({book_s:.1f}s)", file=sys.stderr)

    per_set: dict[str, Partial] = {}
    seconds: dict[str, float] = {}
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with Reporter() as reporter, ctx.Pool(args.workers, init_worker, (books,)) as pool:
        for name in sets:
            set_start = time.perf_counter()
            files = set_files(name, args.limit)
            part = Partial()
            results = pool.imap_unordered(process_chunk, chunked(files, args.chunk))
            for chunk in reporter.track(name, len(files), results, set_start):
                part.merge(chunk)
            per_set[name] = part
            seconds[name] = time.perf_counter() - set_start

    total, edge = Partial(), Partial()
    for name, part in per_set.items():
        total.merge(part)
        if name in edge_sets:
            edge.merge(part)
    rss = {"main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
           "largest_worker": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024}
    result: dict[str, Any] = {
        "files": total.files, "games": total.games, "skipped": dict(total.skipped),
        "skip_examples": total.skip_examples, "no_result": total.no_result,
        "in_book_length": "local moves in the longest in-book prefix; XX tokens not counted",
        "books": figures_of(total, books, "project"),
        "book_sizes": {b.name: {"prefixes": len(b.steps), "positions": len(b.keys)} for b in books},
        "per_set": {name: set_figures(part, books, seconds[name]) for name, part in per_set.items()},
        "edge_rule": {"sets": edge_sets, **edge_figures(edge, books)},
        "errors": total.errors,
        "seconds": round(time.perf_counter() - start, 1), "book_seconds": round(book_s, 1),
        "cpu_seconds": {k: round(v, 1) for k, v in sorted(total.cpu.items(), key=lambda kv: -kv[1])},
        "workers": args.workers, "peak_rss_mb": rss,
        "step_key_cache": "per worker, " + str(STEP_KEY_CACHE) + " entries",
    }
    if set(edge_sets) != set(sets):
        result["edge_rule_all_sets"] = {"sets": sets, **edge_figures(total, books)}
    print_summary(Console(width=max(160, Console().width)), result, books)
    report(result)


if __name__ == "__main__":
    main()
