"""A candidate's ladder conditions read on the whole board, with the book's own line to find the ladder.

What each condition asks is its dialect's (:func:`joseki.sgf.dialects.ladder_questions`), the reading
:mod:`joseki.core.ladder_check`'s; this adds what only the book knows: the main
line after the candidate (:func:`joseki.book.query.favour.main_line`), along which a ladder its words
mean ("Black must have the ladder") shows up.
"""

from __future__ import annotations

from collections.abc import Callable

from joseki.book.query.favour import main_line
from joseki.book.query.lookup import Child, Lookup
from joseki.core.conditions import display
from joseki.core.geometry import Point, Transform
from joseki.core.ladder_check import AHEAD, LadderCheck, Setting, check_ladders
from joseki.core.position import LocalBoard
from joseki.core.steps import Colour, iter_points
from joseki.sgf.dialects import ladder_questions


def candidate_ladders(lookup: Lookup, board: LocalBoard, base: str, child: Child, point: Point | None,
                      mover: Colour, frame: Transform, first: Colour, fmt: Callable[[Point], str]) -> list[LadderCheck]:
    """The checks of ``child``'s ladder conditions (a continuation of ``base``) on ``board``; none without one."""
    if not any(c.startswith("ladder:") for c in child.conditions):
        return []
    steps = base + child.token
    ahead = list(iter_points(main_line(lookup, steps)[len(steps):]))[:AHEAD]
    continuation = tuple(None if z is None else frame.to_board(z, 19) for z in ahead)
    setting = Setting(board, point, mover, frame, first, fmt, continuation)
    return check_ladders(ladder_questions(child.conditions), setting, lambda c: display(c, frame, first, fmt).text)
