"""The local outcome: each corner judged by a real engine where its joseki ended.

A game's result says little about its joseki: between engines of like strength the middle
game decides it. So each corner is judged on its own, at the moment its joseki ends: just
before the first local move that leaves the book (by sequence or by transposition, as
``learn`` walks it), or at the end of the record when the corner never left the book (it
settled in the book). The judge is GNU Go's static territory estimate (``initial_influence
<to move> territory_value``: for each point, -1 black territory to +1 white territory),
summed over the corner's quadrant (:func:`joseki.core.geometry.nearest_corner`), from the
view of the player who played the corner's first local move. A margin beyond
:data:`DRAW_BAND` points is a local win for one side, else a local draw; the verdict is then
credited to every in-book step of the corner like a game result
(:func:`joseki.games.credit.corner_credits`), each step to the player who chose it. Moves
judged better than the book's alternatives rise above them in the priority
(:mod:`joseki.core.priority`).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass

from joseki.book.query.next import move_numbers
from joseki.book.query.walk import Book, walk
from joseki.core.corners import CornerTable, corner_tables
from joseki.core.geometry import Corner, Point, nearest_corner
from joseki.core.notation import format_gtp_vertex
from joseki.core.steps import Colour, other
from joseki.engine.gtp import DEFAULT_TIMEOUT, GtpEngine
from joseki.games.credit import corner_credits

SIZE = 19
DRAW_BAND = 1.0
"""Margins within this many points either way are a local draw."""


def gnugo_path() -> str:
    """GNU Go's executable: ``gnugo`` on the PATH, else Debian's /usr/games/gnugo."""
    return shutil.which("gnugo") or "/usr/games/gnugo"


def default_judge() -> str:
    """The judge's command line: GNU Go at level 1 (the territory estimate does not depend on the level)."""
    return f"{gnugo_path()} --mode gtp --level 1"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One corner judged: its canonical steps and first colour, the moves played when judged, the margin."""

    corner: Corner
    steps: str
    first: Colour
    in_book: int
    """In-book steps of the corner (at least one)."""
    moves: int
    """Moves of the game played at the judged position."""
    margin: float
    """Points of the corner's quadrant for ``first`` (GNU Go's territory estimate)."""

    @property
    def winner(self) -> Colour:
        """The local winner: ``first``, the other colour, or ``d`` within the draw band."""
        if self.margin > DRAW_BAND:
            return self.first
        if self.margin < -DRAW_BAND:
            return other(self.first)
        return "d"

    def margin_for(self, colour: Colour) -> float:
        """The margin from ``colour``'s view."""
        return self.margin if colour == self.first else -self.margin


def judged_move(table: CornerTable, in_book: int, total: int) -> int:
    """How many game moves are on the board when the corner is judged: those before its first step
    out of the book, or all ``total`` when every step is in the book."""
    numbers = move_numbers(table)
    steps = len(table.builder.steps) // 2
    if in_book < steps:
        return numbers[in_book] - 1
    return total


def parse_territory(answer: str, size: int = SIZE) -> dict[Point, float]:
    """The value of each point in an ``initial_influence ... territory_value`` answer (top row first)."""
    rows = [line.split() for line in answer.strip().splitlines() if line.strip()]
    if len(rows) != size or any(len(row) != size for row in rows):
        raise ValueError(f"territory answer is not {size}x{size}: {answer[:80]!r}")
    try:
        return {(x, y): float(rows[y][x]) for y in range(size) for x in range(size)}
    except ValueError as exc:
        raise ValueError(f"territory answer holds a non-number: {exc}") from None


def corner_margin(values: dict[Point, float], corner: Corner, colour: Colour) -> float:
    """The territory of ``corner``'s quadrant for ``colour`` (GNU Go counts white positive)."""
    white = sum(v for p, v in values.items() if nearest_corner(p, SIZE) == corner)
    return white if colour == "w" else -white


class Judge:
    """A running judge engine; :meth:`judge` gives the verdicts of one game's corners."""

    def __init__(self, command: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command or default_judge()
        self.engine = GtpEngine(self.command, timeout)
        self.engine.send(f"boardsize {SIZE}")

    def close(self) -> None:
        self.engine.close()

    def __enter__(self) -> Judge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def territory(self, to_move: Colour) -> dict[Point, float]:
        """The engine's territory estimate of the position it holds."""
        colour = "black" if to_move == "b" else "white"
        return parse_territory(self.engine.send(f"initial_influence {colour} territory_value"))

    def judge(self, book: Book, moves: list[tuple[Colour, Point | None]]) -> list[Verdict]:
        """The verdict of each corner of a 19x19 game (``moves`` from an empty board) with a book step."""
        pending: list[tuple[int, CornerTable, int]] = []
        for table in corner_tables(moves).values():
            b = table.builder
            if b.first_colour is None:
                continue
            in_book = walk(book, b.steps, b.first_colour, rejoin=False).in_book
            if in_book:
                pending.append((judged_move(table, in_book, len(moves)), table, in_book))
        pending.sort(key=lambda item: item[0])
        verdicts: list[Verdict] = []
        self.engine.send("clear_board")
        played = 0
        for at, table, in_book in pending:
            for colour, point in moves[played:at]:
                self.engine.send(f"play {colour} {format_gtp_vertex(point, SIZE)}")
            played = max(played, at)
            to_move: Colour = other(moves[at - 1][0]) if at else "b"
            first = table.builder.first_colour
            assert first is not None
            margin = corner_margin(self.territory(to_move), table.corner, first)
            verdicts.append(Verdict(table.corner, table.builder.steps, first, in_book, at, round(margin, 2)))
        return verdicts


def local_credits(book: Book, verdicts: Iterable[Verdict]) -> dict[int, list[float]]:
    """Each credited node's [corners, wins, losses, draws, margin] from some verdicts, for the chooser."""
    totals: dict[int, list[float]] = {}
    for v in verdicts:
        for index, (nid, result) in enumerate(corner_credits(book, v.steps, v.first, v.winner)):
            mover = v.first if index % 2 == 0 else other(v.first)
            row = totals.setdefault(nid, [0, 0, 0, 0, 0.0])
            row[0] += 1
            row[{"win": 1, "loss": 2, "draw": 3}[result]] += 1
            row[4] += v.margin_for(mover)
    return totals
