"""A game's corners in their whole-board contexts: each local move's signature, and its credit by context.

The signature (:mod:`joseki.core.context`) of each local move is taken just before the move,
from every stone on the board, in the frame the corner's string is written in; a credit goes
under the book line before the move, with move and context put in that line's frame
(:func:`joseki.core.context.book_frame`): the rule ``learn``, ``mine``, ``evaluate`` and
``next`` share.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection

from joseki.book.learnt.contexts import ContextKey, ContextRanking, coarse_moves, context_moves, rank_in_context
from joseki.book.query.next import orientation
from joseki.book.query.walk import BookWalk
from joseki.book.store.database import Store
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.context import SIGNATURE_LENGTH, book_frame, game_contexts, token_contexts
from joseki.core.corners import CornerTable
from joseki.core.geometry import Point
from joseki.core.priority import Record
from joseki.core.steps import Colour, reflection_needed, swap_token

_RESULT = {"win": 1, "loss": 2, "draw": 3}


NO_CONTEXT = "-" * SIGNATURE_LENGTH
"""A token without a context (an ``XX``, or past :data:`joseki.core.context.CONTEXT_STEPS`) in a packed string."""


def table_contexts(moves: list[tuple[Colour, Point | None]], tables: Iterable[CornerTable]) -> list[str]:
    """For each corner with local moves (in the order of :func:`joseki.games.credit.table_corners`), the
    signature before each token of its string, packed SIGNATURE_LENGTH characters a token (one string a corner
    keeps tens of thousands of mined games small): read it with :func:`context_at`."""
    active = [t for t in tables if t.builder.first_colour is not None]
    found = game_contexts(moves, {t.corner: ([n for n, _, _ in t.moves], bool(t.builder.swap)) for t in active})
    return ["".join(c or NO_CONTEXT for c in token_contexts(t.builder.steps, found[t.corner])) for t in active]


def context_at(packed: str, index: int) -> str | None:
    """The context of token ``index`` in a :func:`table_contexts` string, if it has one."""
    n = SIGNATURE_LENGTH
    context = packed[n * index : n * index + n]
    return None if len(context) < n or context == NO_CONTEXT else context


def step_key(route: BookWalk, index: int, context: str, parent: int) -> ContextKey:
    """The context key of in-book step ``index`` of ``route`` played in ``context`` (game frame);
    ``parent`` is the node id of the book line before it."""
    steps = route.steps
    token = steps[2 * index : 2 * index + 2]
    base = route.nodes[index - 1] if index else ""
    prefix = steps[: 2 * index]
    reflected = base != prefix and orientation(base, prefix)
    context, token = book_frame(context, token, reflected, reflection_needed(base) is None)
    return parent, context, token


def credit_contexts(out: dict[ContextKey, list[int]], route: BookWalk, credits: list[tuple[int, str]],
                    contexts: str) -> None:
    """Add one corner's credits (:func:`joseki.games.credit.route_credits`) by context to ``out``:
    [games, wins, losses, draws] per key, the game counted once per key."""
    for index, (_, result) in enumerate(credits):
        context = context_at(contexts, index)
        if context is None:
            continue
        key = step_key(route, index, context, credits[index - 1][0] if index else ROOT_ID)
        row = out.get(key)
        if row is None:
            row = out[key] = [1, 0, 0, 0]
        row[_RESULT[result]] += 1


def as_records(counts: dict[ContextKey, list[int]]) -> dict[ContextKey, Record]:
    """The rows :func:`credit_contexts` filled, as records."""
    return {key: Record(*row) for key, row in counts.items() if any(row)}


def add_counts(total: dict[ContextKey, list[int]], counts: dict[ContextKey, list[int]], sign: int = 1) -> None:
    """Add one game's :func:`credit_contexts` rows to ``total`` (``sign`` -1 takes them back)."""
    for key, row in counts.items():
        kept = total.get(key)
        if kept is None:
            total[key] = [sign * n for n in row]
        else:
            for i in range(4):
                kept[i] += sign * row[i]


class ContextScorer:
    """The book's moves after a line, re-ranked by a corner's context (cached per line and context)."""

    def __init__(self, conn: Connection, store: Store, profile: str | None = None) -> None:
        self.conn, self.store, self.profile = conn, store, profile
        self.cache: dict[tuple[int, str], dict[str, Record]] = {}
        self.coarse_cache: dict[tuple[int, str, bool], list[dict[str, float]]] = {}

    def played(self, parent: int, context: str) -> dict[str, Record]:
        """:func:`joseki.book.learnt.contexts.context_moves`, cached."""
        key = (parent, context)
        if key not in self.cache:
            self.cache[key] = context_moves(self.conn, parent, context, self.profile)
        return self.cache[key]

    def coarse(self, parent: int, context: str, symmetric: bool) -> list[dict[str, float]]:
        """:func:`joseki.book.learnt.contexts.coarse_moves`, cached."""
        key = (parent, context, symmetric)
        if key not in self.coarse_cache:
            self.coarse_cache[key] = coarse_moves(self.conn, parent, context, symmetric, self.profile)
        return self.coarse_cache[key]

    def rank(self, route: BookWalk, index: int, context: str, order: list[str],
             popularity: dict[str, float] | None = None,
             free: dict[str, float] | None = None) -> tuple[ContextRanking, str]:
        """The ranking of the moves at in-book step ``index`` of ``route`` in ``context`` (game frame),
        from the context-free ``order``, ``popularity`` and games ``free``
        (:func:`joseki.book.learnt.contexts.rank_in_context`), and the step's own token in the ranking's frame."""
        base = route.nodes[index - 1] if index else ""
        parent, frame_context, token = step_key(route, index, context, node_id(base))
        symmetric = reflection_needed(base) is None
        coarser = self.coarse(parent, frame_context, symmetric)
        ranking = rank_in_context(frame_context, order, self.played(parent, frame_context), prior=popularity,
                                  symmetric=symmetric, free=free, coarser=coarser)
        return ranking, token


def side_free(moves: list[str]) -> list[str]:
    """``moves`` in canonical form, duplicates dropped: the ranking as a line with all stones on the diagonal
    sees it, where a move and its reflection are one (:func:`joseki.book.query.next.merge_symmetric`)."""
    out: list[str] = []
    for move in moves:
        move = swap_token(move) if move[0] > move[1] else move
        if move not in out:
            out.append(move)
    return out
