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
(:func:`joseki.games.credit.local_credits`), each step to the player who chose it. Moves
judged better than the book's alternatives rise above them in the priority
(:mod:`joseki.core.priority`).

:class:`Judge` is the learning pipeline's :class:`joseki.games.judging.CornerJudge`, and
:class:`JudgeCommand` its :class:`joseki.games.judging.JudgeMaker`: every worker starts its own GNU Go.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass

from joseki.book.query.next import move_numbers
from joseki.book.query.walk import Book, walk
from joseki.core.corners import CornerTable, corner_tables
from joseki.core.geometry import Corner, Point, nearest_corner
from joseki.core.notation import format_gtp_vertex
from joseki.core.steps import Colour, other
from joseki.engine.gtp import DEFAULT_TIMEOUT, EngineDied, EngineError, GtpEngine, GtpError
from joseki.games.judging import Refused, Verdict

SIZE = 19


def gnugo_path() -> str:
    """GNU Go's executable: ``gnugo`` on the PATH, else Debian's /usr/games/gnugo."""
    return shutil.which("gnugo") or "/usr/games/gnugo"


def default_judge() -> str:
    """The judge's command line: GNU Go at level 1 (the territory estimate does not depend on the level)."""
    return f"{gnugo_path()} --mode gtp --level 1"


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
        """The verdict of each corner of a 19x19 game (``moves`` from an empty board) with a book step.

        Raises Refused if the engine refuses a move or does not answer in time, EngineDied if it is gone.
        """
        try:
            return self._judge(book, moves)
        except EngineDied:
            raise
        except (EngineError, GtpError) as exc:
            raise Refused(str(exc)) from None

    def _judge(self, book: Book, moves: list[tuple[Colour, Point | None]]) -> list[Verdict]:
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


@dataclass(frozen=True, slots=True)
class JudgeCommand:
    """How a worker starts its judge: GNU Go (:func:`default_judge`) or another engine's command line."""

    command: str | None = None
    timeout: float = DEFAULT_TIMEOUT

    def __call__(self) -> Judge:
        """A running judge; Raises EngineError if it cannot start."""
        return Judge(self.command, self.timeout)
