"""``next`` on a whole board: each corner's context read, and ranking its candidates when that order is asked.

When the whole board is known (``next --sgf``, moves typed from the empty board), each
corner's context signature (:mod:`joseki.core.context`) is taken for the player to move there,
with the games played after the corner's book line in that context (``context_games``) and in
the contexts of its region (``similar_games``). The context is an order of its own: only when
``context`` is the order asked are the book's moves ordered by those games
(:func:`joseki.book.learnt.contexts.rank_in_context`); they keep their context-free order when the
context itself has no games (fewer than :data:`~joseki.book.learnt.contexts.CONTEXT_MIN_GAMES`; its
region's games alone never reorder), and any other order asked is the order given. The answer says
whether the context could rank (``statistics``: ``context`` or ``back-off``), which order was given
(``order``), and each candidate how many games it had in the context. After a line whose stones all lie
on the diagonal (a lone 4-4 stone), the context picks the side: the candidate the book keeps on the vertical side is
shown on the side the games in this context played it (unless it carries conditions, which
name points of the side it was written for).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from joseki.book.learnt.contexts import CONTEXT_MIN_GAMES, coarse_key, coarse_moves, context_moves, rank_in_context
from joseki.book.query.answer import Candidate, CornerAnswer
from joseki.book.query.lookup import Lookup
from joseki.book.store.keys import node_id
from joseki.core.category import NEVER_FIRST
from joseki.core.context import book_frame, signature
from joseki.core.geometry import Point
from joseki.core.notation import TENUKI, format_gtp_vertex, format_sgf_point
from joseki.core.steps import Colour, reflection_needed, swap_token

CONTEXT_STATES = ("empty", "in-book", "tenuki-variation", "in-book-by-transposition")
"""States whose candidates are the book's moves after the corner's line: the ones the context re-ranks."""


def apply_context(lookup: Lookup, answers: list[CornerAnswer],
                  played: Sequence[tuple[Colour, Point | None]], profile: str | None = None,
                  top: int | None = None, reorder: bool = True) -> list[CornerAnswer]:
    """The answers with each corner's context and its games, their candidates re-ranked by it when ``reorder``
    (module docstring), cut to ``top``."""
    stones = [(colour, point) for colour, point in played if point is not None]
    ranked = [_rerank(lookup, a, stones, profile, reorder) if a.state in CONTEXT_STATES else a for a in answers]
    return [replace(a, candidates=a.candidates[:top]) for a in ranked] if top else ranked


def _rerank(lookup: Lookup, answer: CornerAnswer, stones: list[tuple[Colour, Point]],
            profile: str | None, reorder: bool) -> CornerAnswer:
    base = "" if answer.state == "empty" else answer.via or answer.steps
    reflected = answer.via_reflected if answer.via is not None else False
    symmetric = reflection_needed(base) is None
    local = 1 + sum(answer.steps[i : i + 2] != TENUKI for i in range(0, len(answer.steps), 2))
    context = signature(stones, answer.transform, answer.to_move, local)
    frame_context, probe = book_frame(context, "AB", reflected, symmetric)
    flip = probe != "AB"  # the context's frame is the reflection of the corner's
    parent = node_id(base)
    played = lookup.remembered(("context", parent, frame_context, profile or None),
                               lambda: context_moves(lookup.conn, parent, frame_context, profile))
    coarser = lookup.remembered(("coarse", parent, coarse_key(frame_context), symmetric, profile or None),
                                lambda: coarse_moves(lookup.conn, parent, frame_context, symmetric, profile))

    def in_frame(token: str) -> str:
        return swap_token(token) if flip else token

    by_token = {in_frame(c.token): c for c in answer.candidates}
    popularity = {token: float(c.paths + c.record.games) for token, c in by_token.items()}
    games = {token: float(c.record.games) for token, c in by_token.items()}
    ranking = lookup.remembered(("ranking", parent, frame_context, symmetric, profile or None,
                                 tuple((t, popularity[t], games[t]) for t in by_token)),
                                lambda: rank_in_context(frame_context, list(by_token), played, prior=popularity,
                                                        symmetric=symmetric, free=games, coarser=coarser))
    ranks = ranking.used == "context" and ranking.games >= CONTEXT_MIN_GAMES  # never a context without games
    found = replace(answer, context=frame_context, statistics="context" if ranks else "back-off",
                    context_games=ranking.games, similar_games=round(sum(coarser[0].values())) if coarser else 0)
    if not ranks or not reorder:
        return replace(found, candidates=[_counted(c, ranking.played.get(in_frame(c.token), 0))
                                          for c in answer.candidates])
    ordered: list[Candidate] = []
    taken: set[int] = set()
    for move in ranking.moves:
        cand, moved = by_token.get(move), False
        if cand is None and symmetric:
            cand = by_token.get(swap_token(move))
            moved = cand is not None and id(cand) not in taken and not cand.conditions
        if cand is not None and id(cand) not in taken:
            taken.add(id(cand))
            games_here = ranking.played.get(move, 0)
            ordered.append(_moved_to(cand, in_frame(move), answer, games_here) if moved else _counted(cand, games_here))
    rest = ordered + [_counted(c, ranking.played.get(in_frame(c.token), 0)) for c in answer.candidates
                      if id(c) not in taken]
    return replace(found, order="context", candidates=[c for c in rest if c.category not in NEVER_FIRST]
                   + [c for c in rest if c.category in NEVER_FIRST])


def _counted(cand: Candidate, games: int) -> Candidate:
    """``cand`` with the games that played it in the context."""
    return replace(cand, context_games=games)


def _moved_to(cand: Candidate, token: str, answer: CornerAnswer, games: int) -> Candidate:
    """``cand`` shown at its reflection ``token`` (the same book move after a symmetric line), with the games that
    played it in the context."""
    point = answer.transform.to_board((ord(token[0]) - 65, ord(token[1]) - 65), 19)
    return replace(cand, token=token, point=point, context_games=games,
                   move=format_sgf_point(point) if answer.sgf else format_gtp_vertex(point))
