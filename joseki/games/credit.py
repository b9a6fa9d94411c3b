"""Crediting game results to book moves: which book nodes a corner of a game passed through.

For each step of a corner's play-step string (tenukis included), the book node it reached
is credited to the player who played the step, with that player's result: by sequence
while the string is a book prefix, else by transposition while its local position is a
book position. The first step that is neither ends the corner's credits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from joseki.book.store import node_id
from joseki.core.corners import CornerTable
from joseki.core.position import LocalBoard, position_key
from joseki.core.steps import Color, iter_points, other

OUTCOMES = ("win", "loss", "draw")


def outcome(mover: Color, winner: Color | None) -> str | None:
    """The result of a game for ``mover``: win, loss, draw, or None when unknown."""
    if winner is None:
        return None
    if winner == "d":
        return "draw"
    return "win" if winner == mover else "loss"


def corner_path(steps: str, first: Color, known: Callable[[int], bool],
                by_position: Callable[[int], int | None]) -> list[tuple[int, Color]]:
    """(book node id, mover) of each step of ``steps`` that is in the book, until one is not."""
    board = LocalBoard()
    out: list[tuple[int, Color]] = []
    color = first
    for index, zpoint in enumerate(iter_points(steps)):
        if zpoint is not None:
            board.play(color, zpoint, lenient=True)
        prefix = steps[: 2 * index + 2]
        nid = node_id(prefix)
        if not known(nid):
            via = by_position(position_key(board.stones, other(color)))
            if via is None:
                break
            nid = via
        out.append((nid, color))
        color = other(color)
    return out


def game_credits(tables: Iterable[CornerTable], winner: Color | None, known: Callable[[int], bool],
                 by_position: Callable[[int], int | None]) -> list[tuple[int, str]]:
    """(node id, outcome for its mover) for every in-book step of every corner of a game."""
    credits: list[tuple[int, str]] = []
    for table in tables:
        b = table.builder
        if b.first_color is None:
            continue
        for nid, mover in corner_path(b.steps, b.first_color, known, by_position):
            result = outcome(mover, winner)
            if result is not None:
                credits.append((nid, result))
    return credits
