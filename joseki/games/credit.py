"""Crediting game results to book moves: the book nodes each corner of a game passed through.

Each in-book step of a corner (:func:`joseki.book.query.walk.walk`, tenukis included) credits the
node it reached, by sequence or by transposition, to the player who played the step, with
that player's result. A node's record from one game counts that game once (``games``) and
each of its corners that passed the node once (wins, losses, draws: see
:class:`~joseki.core.priority.Record`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from joseki.book.learnt.contexts import ContextKey
from joseki.book.query.walk import Book, BookWalk, walk
from joseki.book.store.keys import node_id
from joseki.core.corners import CornerTable
from joseki.core.priority import Record
from joseki.core.steps import Colour, other
from joseki.games.context import credit_contexts

OUTCOMES = ("win", "loss", "draw")


def outcome(mover: Colour, winner: Colour | None) -> str | None:
    """The result of a game for ``mover``: win, loss, draw, or None when unknown."""
    if winner is None:
        return None
    if winner == "d":
        return "draw"
    return "win" if winner == mover else "loss"


def corner_credits(book: Book, steps: str, first: Colour, winner: Colour | None) -> list[tuple[int, str]]:
    """(node id, outcome for its mover) of each in-book step of one corner; none when the result is unknown."""
    if winner is None:
        return []
    return route_credits(walk(book, steps, first, rejoin=False), first, winner)


def route_credits(route: BookWalk, first: Colour, winner: Colour) -> list[tuple[int, str]]:
    """:func:`corner_credits` of a corner already walked."""
    out: list[tuple[int, str]] = []
    for index, line in enumerate(route.nodes):
        mover = first if index % 2 == 0 else other(first)
        result = outcome(mover, winner)
        assert result is not None
        out.append((node_id(line), result))
    return out


def game_records(book: Book, corners: Iterable[tuple[str, Colour]], winner: Colour | None,
                 reached: list[list[int]] | None = None, contexts: Sequence[str] | None = None,
                 context_out: dict[ContextKey, list[int]] | None = None) -> tuple[dict[int, Record], int]:
    """Each credited node's record from one game whose corners are (canonical string, first colour),
    and how many of those corners were credited at all; ``reached`` gets each corner's credited nodes.

    With ``contexts`` (each corner's :func:`joseki.games.context.table_contexts`), the same
    credits by context are added to ``context_out`` (:func:`joseki.games.context.credit_contexts`).
    """
    counts: dict[int, list[int]] = {}
    credited = 0
    for number, (steps, first) in enumerate(corners):
        if winner is None:
            continue
        route = walk(book, steps, first, rejoin=False)
        credits = route_credits(route, first, winner)
        credited += bool(credits)
        if reached is not None:
            reached.append([nid for nid, _ in credits])
        for nid, result in credits:
            row = counts.setdefault(nid, [1, 0, 0, 0])
            row[1 + OUTCOMES.index(result)] += 1
        if contexts is not None and context_out is not None and credits:
            credit_contexts(context_out, route, credits, contexts[number])
    return {nid: Record(*row) for nid, row in counts.items()}, credited


def table_corners(tables: Iterable[CornerTable]) -> list[tuple[str, Colour]]:
    """(string, first colour) of each corner with local moves."""
    return [(t.builder.steps, t.builder.first_colour) for t in tables if t.builder.first_colour is not None]
