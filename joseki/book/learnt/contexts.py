"""Statistics per whole-board context: writing them, reading them, and ranking with back-off.

``learn`` and ``mine`` credit each in-book local move of a corner twice: to its book node
(``node_stats``, the context-free statistics) and to (book line before it, the corner's context
signature, the move) in ``context_stats`` (:mod:`joseki.core.context`, move and context in the
book line's frame, :func:`joseki.core.context.book_frame`). A query for a corner whose whole
board is known ranks the book's moves by the games played in that context when the context
has at least :data:`CONTEXT_MIN_GAMES` games after that line, shrunk towards the context-free
statistics (:func:`rank_in_context`: the context's games, then the games of every context,
then the book's popularity, each level weighing :data:`CONTEXT_PRIOR_GAMES` games of the next);
otherwise it **backs off** to the context-free order. A tenuki is never credited to a context,
so it keeps only its share of the context-free statistics.

Both constants were chosen on a validation split of the training games (``bench_context.py
--validation --tygem-train 10000``: every fifth training game held out of mining), never on the
test games: with the shrinkage a higher threshold only loses (1 game: top-1 63.9%, top-3 82.7%;
5 games: 63.8%, 82.5%), and a prior of 5, 10 or 20 games gives the same figures within 0.1 point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from joseki.book.learnt.profiles import GLOBAL, profile_names
from joseki.book.store.bookfile import ReadConnection, rows
from joseki.core.context import CONTEXT_LEVELS, coarse, reflect_context
from joseki.core.priority import Record
from joseki.core.steps import swap_token

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from joseki.book.store.database import Store

CONTEXT_MIN_GAMES = 1
"""Games a (book line, context) needs before its statistics re-rank the context-free ones (the
shrinkage makes a few games count for little: a higher threshold lost on the validation split)."""
CONTEXT_PRIOR_GAMES = 10
"""How many games' weight each level of context-free statistics keeps below the level above (smoothing)."""

ContextKey = tuple[int, str, str]
"""(node id of the book line before the move, context signature, move token)."""


ContextRow = tuple[int, str, str, int, int, int, int]
"""A context key and its record's sums: parent node id, context, move, games, wins, losses, draws."""


def add_context_records(conn: Connection, store: Store, pid: int, records: Sequence[ContextRow]) -> None:
    """Add ``records`` (each key once) to the profile's context statistics (sums, so concurrent writers lose
    nothing)."""
    from sqlalchemy import bindparam, select, update

    from joseki.book.store.database import FAST_DIALECTS, batched, insert_rows

    if not records:
        return
    written = [(parent, context, pid, move, games, wins, losses, draws)
               for parent, context, move, games, wins, losses, draws in records]
    cs = store.tables["context_stats"]
    columns = ("parent_id", "context", "profile_id", "move", "games", "wins", "losses", "draws")
    if conn.dialect.name in FAST_DIALECTS:
        insert_rows(conn, cs, columns, written,
                    "ON CONFLICT (parent_id, context, profile_id, move) DO UPDATE SET "
                    "games = context_stats.games + excluded.games, wins = context_stats.wins + excluded.wins, "
                    "losses = context_stats.losses + excluded.losses, draws = context_stats.draws + excluded.draws",
                    chunk=10000)
        return
    existing: set[tuple[int, str, str]] = set()
    for chunk in batched(sorted({r[0] for r in written})):
        existing.update((p, c, m) for p, c, m in conn.execute(
            select(cs.c.parent_id, cs.c.context, cs.c.move).where(cs.c.profile_id == pid, cs.c.parent_id.in_(chunk))))
    new = [r for r in written if (r[0], r[1], r[3]) not in existing]
    old = [r for r in written if (r[0], r[1], r[3]) in existing]
    if new:
        conn.execute(cs.insert(), [dict(zip(columns, r, strict=True)) for r in new])
    if old:
        conn.execute(update(cs).where(cs.c.parent_id == bindparam("k_p"), cs.c.context == bindparam("k_c"),
                                      cs.c.move == bindparam("k_m"), cs.c.profile_id == pid).values(
            games=cs.c.games + bindparam("k_g"), wins=cs.c.wins + bindparam("k_w"),
            losses=cs.c.losses + bindparam("k_l"), draws=cs.c.draws + bindparam("k_d")),
            [{"k_p": r[0], "k_c": r[1], "k_m": r[3], "k_g": r[4], "k_w": r[5], "k_l": r[6], "k_d": r[7]}
             for r in old])


CONTEXT_MOVES = """
SELECT p.name, cs.move, cs.games, cs.wins, cs.losses, cs.draws FROM context_stats AS cs
JOIN profile AS p ON p.id = cs.profile_id
WHERE cs.parent_id = :parent AND cs.context = :context AND p.name IN (:names)"""
"""The moves played after a book line in a context, per profile."""


def context_moves(conn: ReadConnection, parent: int, context: str,
                  profile: str | None = None) -> dict[str, Record]:
    """The moves played after book line ``parent`` in ``context``: the profile's, else the global ones."""
    names = profile_names(profile)
    found: dict[str, dict[str, Record]] = {name: {} for name in names}
    for name, move, g, w, lo, d in rows(conn, CONTEXT_MOVES, {"parent": parent, "context": context, "names": names}):
        if g > 0:
            found[name][move] = Record(g, w, lo, d)
    return found[names[0]] if found[names[0]] or len(names) == 1 else found[GLOBAL]


COARSE_MOVES = """
SELECT p.name, cs.context, cs.move, cs.games FROM context_stats AS cs
JOIN profile AS p ON p.id = cs.profile_id
WHERE cs.parent_id = :parent AND (cs.context LIKE :pattern OR cs.context LIKE :mirror) AND p.name IN (:names)"""
"""The moves played after a book line in every context of one coarse signature (or of its reflection)."""


def coarse_key(context: str) -> tuple[str, ...]:
    """What :func:`coarse_moves` reads of ``context``: its signature at each level of
    :data:`joseki.core.context.CONTEXT_LEVELS` (many contexts share it, and so its answer)."""
    return tuple(coarse(context, kept) for kept in CONTEXT_LEVELS)


def coarse_moves(conn: ReadConnection, parent: int, context: str, symmetric: bool,
                 profile: str | None = None) -> list[dict[str, float]]:
    """Games per move after book line ``parent`` at each level of :data:`joseki.core.context.CONTEXT_LEVELS`
    around ``context``, in ``context``'s frame: the profile's, else the global ones.

    After a line whose stones all lie on the diagonal (``symmetric``) a context is stored in the
    frame of its smaller reflection (:func:`joseki.core.context.book_frame`), so a stored context
    whose reflection matches counts with its moves reflected (half each way when both frames match)."""
    if not CONTEXT_LEVELS:
        return []
    patterns = coarse_key(context)
    mirror = reflect_context(patterns[0]) if symmetric else patterns[0]
    names = profile_names(profile)
    found: dict[str, list[dict[str, float]]] = {name: [{} for _ in patterns] for name in names}
    for name, stored, move, g in rows(conn, COARSE_MOVES, {"parent": parent, "pattern": patterns[0],
                                                          "mirror": mirror, "names": names}):
        if g <= 0:
            continue
        flipped = reflect_context(stored) if symmetric else None
        for level, (kept, pattern) in enumerate(zip(CONTEXT_LEVELS, patterns, strict=True)):
            ways = [move] if coarse(stored, kept) == pattern else []
            if flipped is not None and coarse(flipped, kept) == pattern:
                ways.append(swap_token(move))
            into = found[name][level]
            for m in ways:
                into[m] = into.get(m, 0.0) + g / len(ways)
    return found[names[0]] if any(found[names[0]]) or len(names) == 1 else found[GLOBAL]


@dataclass(slots=True)
class ContextRanking:
    """Moves in the order the context gives, and whether the context or the back-off decided it."""

    context: str
    moves: list[str]
    used: str
    """``context`` when the context had :data:`CONTEXT_MIN_GAMES` games, else ``back-off``."""
    games: int = 0
    """Games played in the context after this book line."""
    played: dict[str, int] = field(default_factory=dict)
    """Games per move in the context (moves in the context's frame)."""


def _shares(weights: dict[str, float], symmetric: bool) -> dict[str, float]:
    """``weights`` as shares summing to 1; after a diagonal line (``symmetric``) a move and its
    reflection share its weight (the context decides the side)."""
    out = dict(weights)
    if symmetric:
        for m, w in weights.items():
            if m[0] != m[1]:
                out[m] = out[swap_token(m)] = w / 2
    total = sum(out.values())
    return {m: w / total for m, w in out.items()} if total else {m: 1 / len(out) for m in out}


def _smooth(counts: dict[str, float], prior: dict[str, float], weight: float) -> dict[str, float]:
    """Each move's share of ``counts`` with ``weight`` games of ``prior`` (shares) added: (n + K q) / (N + K)."""
    total = sum(counts.values()) + weight
    return {m: (counts.get(m, 0.0) + weight * prior.get(m, 0.0)) / total for m in prior.keys() | counts.keys()}


def rank_in_context(context: str, order: Sequence[str], played: dict[str, Record], min_games: int | None = None,
                    prior: dict[str, float] | None = None, symmetric: bool = False,
                    free: dict[str, float] | None = None,
                    coarser: Sequence[dict[str, float]] = ()) -> ContextRanking:
    """``order`` (the context-free ranking) re-ranked by ``played`` (:func:`context_moves`) with back-off.

    Below ``min_games`` (:data:`CONTEXT_MIN_GAMES`) games in the context, ``order`` is kept.
    Otherwise each move scores a share shrunk level by level, each level's counts with
    :data:`CONTEXT_PRIOR_GAMES` games of the level above: the book's popularity ``prior``
    (paths plus games, as ``next`` ranks; without it the moves of ``order`` are equally
    popular), then the context-free games ``free`` (the moves' records, if given), then the
    games in this context; ties keep ``order``. After a line whose stones all lie on the
    diagonal (``symmetric``), a move of ``order`` stands for itself and its reflection, each with
    half its weight: the context decides the side.
    """
    limit = CONTEXT_MIN_GAMES if min_games is None else min_games
    games = sum(r.games for r in played.values())
    counts = {move: r.games for move, r in played.items()}
    if max(games, sum(coarser[0].values()) if coarser else 0) < limit or not order:
        return ContextRanking(context, list(order), "back-off", games, counts)
    k = CONTEXT_PRIOR_GAMES
    share = _shares({m: float(prior.get(m, 0.0)) if prior is not None else 1.0 for m in order}, symmetric)
    if free is not None:
        by_move = _shares({m: float(free.get(m, 0.0)) for m in order}, symmetric) if any(free.values()) else {}
        share = _smooth({m: sum(free.values()) * q for m, q in by_move.items()}, share, k)
    for level in coarser:
        share = _smooth(level, share, k)
    share = _smooth({m: float(n) for m, n in counts.items()}, share, k)
    place = {move: i for i, move in enumerate(order)}

    def score(m: str) -> tuple[float, int, str]:
        return (-share[m], place.get(m, place.get(swap_token(m), len(place))), m)

    return ContextRanking(context, sorted(share, key=score), "context", games, counts)
