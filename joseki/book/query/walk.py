"""Where a corner's play-step string runs in the book: the one rule for "in book" and "left the book".

Step by step (tenukis included), a step is in the book by sequence while the string so far is
a book line, else by transposition while its local position (:mod:`joseki.core.position`,
side to move included) is the position of a book line; the first step that is neither leaves
the book, and the corner is out of the book from there on. ``next``, ``annotate``, ``learn``
(credits), ``mine`` (credits) and ``evaluate`` all read a corner through :func:`walk`, so they
agree move for move on where it left the book and on the book node each step reached.

The book is anything with :class:`Book`'s two reads: :class:`joseki.book.query.lookup.Lookup` (the
store, optionally some collections) or :class:`joseki.book.query.inmemory.InMemoryBook` (all of it, in memory).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from joseki.core.geometry import Point
from joseki.core.position import LocalBoard, position_key, replay
from joseki.core.steps import Colour, iter_points, other


class Book(Protocol):
    """The two reads a walk needs."""

    def has(self, steps: str) -> bool:
        """True if a book line passes through ``steps``."""

    def by_position(self, key: int) -> str | None:
        """The book line chosen for the local position ``key`` (the most travelled), if any."""


@dataclass(slots=True)
class BookWalk:
    """A corner's string against the book (see the module docstring)."""

    steps: str
    nodes: list[str] = field(default_factory=list)
    """The book line each in-book step reached: the string's own prefix, or the line it transposed to."""
    left_at: int | None = None
    """Index of the token that left the book (0-based), None when every step is in it."""
    rejoined: str | None = None
    """When the string left the book, the book line whose position its last step reaches, if any."""

    @property
    def in_book(self) -> int:
        """How many steps are in the book."""
        return len(self.nodes)

    @property
    def base(self) -> str:
        """The book line of the last step in the book ('' for none): the book's moves there are what it offered."""
        return self.nodes[-1] if self.nodes else ""

    def transposed(self, index: int) -> bool:
        """Whether step ``index`` is in the book by transposition only."""
        return self.nodes[index] != self.steps[: 2 * index + 2]


def walk(book: Book, steps: str, first: Colour = "b", rejoin: bool = True) -> BookWalk:
    """Walk canonical ``steps`` through ``book`` (module docstring); ``rejoin``: find :attr:`~BookWalk.rejoined`."""
    result = BookWalk(steps)
    in_sequence = longest_line(book, steps)
    result.nodes = [steps[: 2 * index + 2] for index in range(in_sequence)]
    board = LocalBoard()
    board.stones, colour = line_board(steps[: 2 * in_sequence], first)
    for index, zpoint in enumerate(iter_points(steps[2 * in_sequence :]), start=in_sequence):
        if zpoint is not None:
            board.play(colour, zpoint, lenient=True)
        colour = other(colour)
        if result.left_at is not None:
            if not rejoin:
                return result
            continue
        via = book.by_position(position_key(board.stones, colour))
        if via is None:
            result.left_at = index
        else:
            result.nodes.append(via)
    if result.left_at is not None and result.left_at < len(steps) // 2 - 1:
        result.rejoined = book.by_position(position_key(board.stones, colour))
    return result


LINE_BOARDS = 1 << 14
"""Book lines whose boards a process keeps (:func:`line_board`)."""


def line_board(line: str, first: Colour) -> tuple[dict[Point, Colour], Colour]:
    """The stones after the book line ``line`` played from ``first`` (a new dict), and the colour to move.

    The lines a walk follows by sequence are few and met again and again (every game's corner starts on one),
    so their boards are kept (:data:`LINE_BOARDS`) rather than played again for each corner.
    """
    stones, colour = _line_board(line, first)
    return dict(stones), colour


@lru_cache(maxsize=LINE_BOARDS)
def _line_board(line: str, first: Colour) -> tuple[tuple[tuple[Point, Colour], ...], Colour]:
    board, colour = replay(line, first)
    return tuple(board.stones.items()), colour


def longest_line(book: Book, steps: str) -> int:
    """How many steps of ``steps`` are a book line by sequence, by binary search over its prefixes.

    The book is prefix-closed (every prefix of a line is a line), so the answer is the largest
    ``k`` with ``book.has(steps[:2k])``: a few reads instead of one per step.
    """
    low, high = 0, len(steps) // 2
    while low < high:
        middle = (low + high + 1) // 2
        if book.has(steps[: 2 * middle]):
            low = middle
        else:
            high = middle - 1
    return low
