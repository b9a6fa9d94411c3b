"""Evaluating a book on games: how well it predicts the next local move, and how well priorities predict results.

For every local move of every corner (the first :data:`COVERAGE_MOVES` of each corner count
for coverage) whose prefix is in the book (:func:`joseki.book.query.walk.walk`, by sequence or by
transposition, as ``next`` and ``learn`` see it), the book's candidates are ranked as ``next``
ranks them; a hit is the played move among the first one or three. When the mover had
played elsewhere since the last local move, the prefix already ends with ``XX``: that much
is known, and only the local move itself is predicted: so the book's tenuki (``XX``), never the
answer at a scored position, is left out of the rankings, with and without context (it would
otherwise take the first place wherever it is the commonest continuation, as after a lone 3-4
stone in some mined books, and only the context-free ranking would pay for it, a tenuki being
never credited to a context). Where the played move is in the book
and the game has a winner, its priority is taken as the mover's chance to win and scored by
log-loss against the constant 0.5. Beside it, the priority *relative to the alternatives*: the
played move's priority minus the mean priority of the book's candidates there, taken as
``0.5 + difference`` (the question a player choosing among book moves asks), and the mover's win
rate when the played move's priority was above, or below, that mean.

After the book's moves, every ranking lists the moves played beyond a mined book there
(:mod:`joseki.book.learnt.beyond`: below its threshold, most played first; no tenuki), so a line's end
(where no move reached the book's threshold, or only tenuki did) can still be answered:
``leaf_positions`` gives the share of such ends, ``context_top3_book`` the top-3 with context
by the book's own moves alone (``top3_book`` without context), and ``top3_answered`` /
``context_top3_answered`` the top-3 by the book's own moves over the positions where the book
offers a move.

With context (the signatures of :mod:`joseki.core.context`, :class:`ContextScorer`), the same
positions are ranked again by the moves
played in the corner's whole-board context after that book line, backing off to the
context-free order where the context has too few games
(:data:`joseki.book.learnt.contexts.CONTEXT_MIN_GAMES`). Its top-1/top-3 count a move and its reflection
as one after a line whose stones all lie on the diagonal, as the context-free book does
(``context_top1``); ``side_top1`` asks for the very point, side included. Coverage is the
book's and the same with or without context. ``by_index`` gives the figures per local move
number of the corner (1 = the corner's first stone; the last entry is every later move);
``reply`` the same for the reply to the first stone, the opponent's first local move (local move
2 also counts the first player's own second stone, played after a tenuki).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from joseki.book.learnt.beyond import beyond_book
from joseki.book.learnt.contexts import ContextRanking, coarse_moves, context_moves, rank_in_context
from joseki.book.learnt.profiles import require_profile
from joseki.book.query.answer import Candidate, Options
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import book_candidates, move_numbers, orientation, rank_key
from joseki.book.query.walk import BookWalk, walk
from joseki.book.store.bookfile import ReadConnection
from joseki.book.store.database import Store
from joseki.book.store.keys import node_id
from joseki.core.context import SIGNATURE_LENGTH, game_contexts, token_contexts
from joseki.core.corners import CornerTable, corner_tables
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.notation import TENUKI
from joseki.core.priority import Record, log_loss
from joseki.core.steps import Colour, other, reflection_needed, swap_token
from joseki.games.credit import outcome, step_key
from joseki.sgf.archive import expand_games, source_name, sources
from joseki.sgf.game import read_game

COVERAGE_MOVES = 20
NO_CONTEXT = "-" * SIGNATURE_LENGTH
"""A token without a context (an ``XX``, or past :data:`joseki.core.context.CONTEXT_STEPS`) in a packed string."""
Ranked = tuple[list[str], dict[str, float], dict[str, float], dict[str, float], list[str]]
"""The book's moves after a line in ``next``'s order (no tenuki), priorities, popularity and games of each, and
the moves played beyond the book there (:mod:`joseki.book.learnt.beyond`), most played first."""


@dataclass(slots=True)
class Counts:
    """Hits at some positions, without and with context."""

    positions: int = 0
    top1: int = 0
    top3: int = 0
    context_top1: int = 0
    context_top3: int = 0
    side_top1: int = 0
    side_top3: int = 0
    decided: int = 0
    """Positions whose context had enough games to decide the order (the others backed off)."""
    leaves: int = 0
    """Positions where the book has no local move (a line's end): only a move played beyond the book can hit there."""
    beyond_top3: int = 0
    """Context top-3 hits by a move played beyond the book (:mod:`joseki.book.learnt.beyond`)."""
    covered: int = 0
    coverable: int = 0

    def as_json(self) -> dict[str, object]:
        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        n = self.positions
        return {"positions": n, "top1": ratio(self.top1, n), "top3": ratio(self.top3, n),
                "context_top1": ratio(self.context_top1, n), "context_top3": ratio(self.context_top3, n),
                "side_top1": ratio(self.side_top1, n), "side_top3": ratio(self.side_top3, n),
                "context_decided": ratio(self.decided, n), "leaf_positions": ratio(self.leaves, n),
                "context_top3_book": ratio(self.context_top3 - self.beyond_top3, n),
                "context_top3_answered": ratio(self.context_top3 - self.beyond_top3, n - self.leaves),
                "coverage": ratio(self.covered, self.coverable)}


@dataclass(slots=True)
class Evaluation:
    """The figures of an evaluation (see the module docstring)."""

    games: int = 0
    skipped: int = 0
    corners: int = 0
    positions: int = 0
    top1_hits: int = 0
    top3_hits: int = 0
    top3_beyond_hits: int = 0
    """Top-3 hits by a move played beyond the book."""
    covered: int = 0
    coverable: int = 0
    scored: int = 0
    loss_sum: float = 0.0
    relative_loss_sum: float = 0.0
    ahead: int = 0
    """Scored moves whose priority was above the mean of the candidates; :attr:`ahead_wins` of them won."""
    ahead_wins: int = 0
    behind: int = 0
    behind_wins: int = 0
    context: Counts = field(default_factory=Counts)
    """Every position, with context too."""
    with_context: bool = False
    reply: Counts = field(default_factory=Counts)
    """The reply to the corner's first stone: the opponent's first local move (the corner's second
    token; when the first player played there again first, that token is a tenuki and none is counted)."""
    by_index: dict[int, Counts] = field(default_factory=dict)
    """The same per local move number (:data:`COVERAGE_MOVES` + 1: every later move)."""

    def at(self, local: int) -> Counts:
        """The counts of local move number ``local``."""
        local = min(local, COVERAGE_MOVES + 1)
        if local not in self.by_index:
            self.by_index[local] = Counts()
        return self.by_index[local]

    def as_json(self) -> dict[str, object]:
        def ratio(a: float, b: float) -> float | None:
            return round(a / b, 4) if b else None

        return {"games": self.games, "skipped": self.skipped, "corners": self.corners, "positions": self.positions,
                "top1": ratio(self.top1_hits, self.positions), "top3": ratio(self.top3_hits, self.positions),
                "coverage": ratio(self.covered, self.coverable),
                "leaf_positions": ratio(self.context.leaves, self.positions),
                "top3_book": ratio(self.top3_hits - self.top3_beyond_hits, self.positions),
                "top3_answered": ratio(self.top3_hits - self.top3_beyond_hits, self.positions - self.context.leaves),
                "scored_moves": self.scored,
                "logloss": ratio(self.loss_sum, self.scored),
                "logloss_baseline": round(math.log(2), 4) if self.scored else None,
                "logloss_relative": ratio(self.relative_loss_sum, self.scored),
                "ahead": self.ahead, "win_rate_ahead": ratio(self.ahead_wins, self.ahead),
                "behind": self.behind, "win_rate_behind": ratio(self.behind_wins, self.behind),
                **{key: value for key, value in self.context.as_json().items()
                   if self.with_context and key.startswith(("context", "side"))},
                "reply": {key: value for key, value in self.reply.as_json().items()
                          if self.with_context or not key.startswith(("context", "side"))},
                "by_index": [{"local_move": str(k) if k <= COVERAGE_MOVES else f">{COVERAGE_MOVES}",
                              **self.by_index[k].as_json()} for k in sorted(self.by_index)]}


def evaluate(store: Store, paths: Iterable[Path | str], rank: str = "popularity", profile: str | None = None,
             collections: list[str] | None = None, progress: Callable[[int, int], None] | None = None,
             trace: Callable[[Path, Corner, int, bool], None] | None = None, context: bool = True) -> Evaluation:
    """Replay the games of ``paths`` against the book and measure its predictions (also with ``context``).

    ``trace`` is told (file, corner, game move number, whether the book holds the position
    before it) for each local move looked at.
    """
    files = expand_games(paths)
    options = Options(rank=rank, profile=profile)
    order = rank_key(rank)
    result = Evaluation()
    cache: dict[str, Ranked] = {}
    with store.read() as conn:
        require_profile(conn, profile)
        lookup = Lookup(store, conn, collections)
        book = CachedBook(lookup)
        scorer = ContextScorer(conn, profile) if context else None
        result.with_context = context

        def ranked(base: str) -> Ranked:
            if base not in cache:
                rows = book_candidates(lookup, base, lookup.children(base, profile), options)
                cands = [Candidate(ch.token, ch.token, None, ch.paths, prio, ch.category, record)
                         for ch, record, prio in rows]
                cands.sort(key=order)
                local = [c for c in cands if c.token != TENUKI]  # never the answer here: see the docstring
                beyond = [move for move, _ in beyond_book(lookup, base, (c.token for c in cands), tenuki=False)]
                cache[base] = ([c.token for c in local], {c.token: c.priority for c in cands},
                               {c.token: float(c.paths + c.record.games) for c in local},
                               {c.token: float(c.record.games) for c in local}, beyond)
            return cache[base]

        for done, source in enumerate(sources(files), start=1):
            path = Path(source_name(source))
            try:
                game = read_game(source)
                if game.size != 19:
                    raise BadInput("not 19x19")
                tables = corner_tables(game.moves).values()
                contexts = iter(table_contexts(game.moves, tables) if scorer is not None else ())
            except ValueError:
                result.skipped += 1
                continue
            result.games += 1
            for table in tables:
                b = table.builder
                if b.first_colour is None:
                    continue
                result.corners += 1
                seen = None if trace is None else partial(_tell, trace, path, table.corner, move_numbers(table))
                _score_corner(walk(book, b.steps, b.first_colour, rejoin=False), b.first_colour, game.winner,
                              ranked, result, seen, scorer, next(contexts, None))
            if progress is not None:
                progress(done, len(files))
    return result


def _tell(trace: Callable[[Path, Corner, int, bool], None], path: Path, corner: Corner, numbers: list[int],
          index: int, in_book: bool) -> None:
    trace(path, corner, numbers[index], in_book)


class CachedBook:
    """A :class:`~joseki.book.query.walk.Book` over a lookup that asks the store once per line and position."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self.lines: dict[str, bool] = {}
        self.positions: dict[int, str | None] = {}

    def has(self, steps: str) -> bool:
        if steps not in self.lines:
            self.lines[steps] = self.lookup.has(steps)
        return self.lines[steps]

    def by_position(self, key: int) -> str | None:
        if key not in self.positions:
            self.positions[key] = self.lookup.by_position(key)
        return self.positions[key]


def _score_corner(route: BookWalk, first: str, winner: str | None,
                  ranked: Callable[[str], Ranked], result: Evaluation,
                  seen: Callable[[int, bool], None] | None = None, scorer: ContextScorer | None = None,
                  contexts: str | None = None) -> None:
    steps = route.steps
    local = 0
    for index in range(0, len(steps), 2):
        token = steps[index : index + 2]
        if token == TENUKI:
            continue
        local += 1
        mover = first if (index // 2) % 2 == 0 else other(first)
        in_book = index // 2 <= route.in_book
        if seen is not None:
            seen(index // 2, in_book)
        at = result.at(local)
        if local <= COVERAGE_MOVES:
            result.coverable += 1
            result.covered += in_book
            at.coverable += 1
            at.covered += in_book
            if index == 2:
                result.reply.coverable += 1
                result.reply.covered += in_book
        if not in_book:
            if local >= COVERAGE_MOVES:
                break
            continue
        base = route.nodes[index // 2 - 1] if index else ""
        if base != steps[:index] and orientation(base, steps[:index]):
            token = swap_token(token)
        order, priorities, popularity, games, beyond = ranked(base)
        listed = order + beyond
        result.positions += 1
        result.top1_hits += listed[:1] == [token]
        result.top3_hits += token in listed[:3]
        beyond_move = token in beyond or (reflection_needed(base) is None and swap_token(token) in beyond)
        result.top3_beyond_hits += token in listed[:3] and beyond_move
        groups = (result.context, at, result.reply) if index == 2 else (result.context, at)
        for counts in groups:
            counts.positions += 1
            counts.leaves += not order
            counts.top1 += listed[:1] == [token]
            counts.top3 += token in listed[:3]
        context = None if contexts is None else context_at(contexts, index // 2)
        if scorer is not None and context is not None:
            ranking, side_token = scorer.rank(route, index // 2, context, order, popularity, games)
            moves = ranking.moves + [move for move in beyond if move not in ranking.moves]
            same = side_free(moves) if reflection_needed(base) is None else moves
            hit = token in same[:3]
            for counts in groups:
                counts.decided += ranking.used == "context"
                counts.context_top1 += same[:1] == [token]
                counts.context_top3 += hit
                counts.beyond_top3 += hit and beyond_move
                counts.side_top1 += moves[:1] == [side_token]
                counts.side_top3 += side_token in moves[:3]
        won = outcome(mover, winner)
        if token in priorities and won in ("win", "loss"):
            result.scored += 1
            result.loss_sum += log_loss(priorities[token], won == "win")
            relative = priorities[token] - sum(priorities.values()) / len(priorities)
            result.relative_loss_sum += log_loss(0.5 + relative, won == "win")
            if relative > 1e-9:
                result.ahead += 1
                result.ahead_wins += won == "win"
            elif relative < -1e-9:
                result.behind += 1
                result.behind_wins += won == "win"


class ContextScorer:
    """The book's moves after a line, re-ranked by a corner's context (cached per line and context)."""

    def __init__(self, conn: ReadConnection, profile: str | None = None) -> None:
        self.conn, self.profile = conn, profile
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


def table_contexts(moves: list[tuple[Colour, Point | None]], tables: Iterable[CornerTable]) -> list[str]:
    """For each corner with local moves, the signature before each token of its string, packed
    SIGNATURE_LENGTH characters a token: read it with :func:`context_at`."""
    active = [t for t in tables if t.builder.first_colour is not None]
    found = game_contexts(moves, {t.corner: ([n for n, _, _ in t.moves], bool(t.builder.swap)) for t in active})
    return ["".join(c or NO_CONTEXT for c in token_contexts(t.builder.steps, found[t.corner])) for t in active]


def context_at(packed: str, index: int) -> str | None:
    """The context of token ``index`` in a :func:`table_contexts` string, if it has one."""
    n = SIGNATURE_LENGTH
    context = packed[n * index : n * index + n]
    return None if len(context) < n or context == NO_CONTEXT else context
