"""The opening book as a player: when to answer from the book, and which book move to choose.

A corner calls for a book move when the opponent has just played in it (or has just played
a tenuki of it: passed, or played where no corner is, right after a move there), the corner is still
in the book (by sequence, as a tenuki variation, or by transposition) and the book has a
move there for the side to move. The choice is among the book's :data:`CHOICES` most
popular moves there (mistakes and tricks left out: big collections hold many rare lines),
judged by the collections' combined verdict (:func:`joseki.core.category.combined`: a move
one collection calls a mistake and another offers is disputed, kept but drawn low), by
Thompson sampling: one draw from each move's Beta posterior
(:func:`joseki.core.priority.thompson`), the highest draw wins. Moves that have won against this
opponent are drawn high more often; moves with few games still get tried. With ``choose="best"``
the highest priority wins instead (no exploration: to play what the book has learnt). If the draw picks
``tenuki``, or nothing calls for a book move, the wrapped engine plays. A move whose ladder
condition fails on the board (:mod:`joseki.core.ladder_check`: the ladder it needs does not work,
or one it needs to fail works) is never offered.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from joseki.book.learnt.profiles import require_profile
from joseki.book.query.answer import Candidate, Options
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import answer_corner, answer_table
from joseki.core.category import NEVER_FIRST
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.moves import Moves, game_moves
from joseki.core.priority import thompson

if TYPE_CHECKING:
    from joseki.book.store.bookfile import BookFile
    from joseki.book.store.database import Store

BOOK_STATES = frozenset({"in-book", "tenuki-variation", "in-book-by-transposition"})
CHOICES = 4
CHOOSE = ("sample", "best")


class BookPlayer:
    """A :class:`joseki.engine.gtp_proxy.BookPolicy` backed by the store (or a book read through sqlite3).

    Raises BadInput for an unknown choice rule or profile."""

    def __init__(self, store: Store | BookFile, profile: str | None = None, seed: int | None = None,
                 collections: list[str] | None = None, choose: str = "sample") -> None:
        if choose not in CHOOSE:
            raise BadInput(f"unknown choice rule {choose!r} (expected {' or '.join(CHOOSE)})")
        self.store, self.profile, self.collections, self.choose_by = store, profile, collections, choose
        with store.read() as conn:
            require_profile(conn, profile)  # fail at start, not at the first book move
        self.rng = random.Random(seed)

    def choose(self, moves: list[tuple[str, Point | None]], colour: str, size: int) -> Point | None:
        """The book's move for ``colour`` after ``moves``, or None to let the engine play."""
        if size != 19 or not moves:
            return None
        return self.choose_after(game_moves(moves), colour)

    def choose_after(self, moves: Moves, colour: str) -> Point | None:
        """The book's move for ``colour`` after ``moves`` (a 19x19 board), or None to let the engine play."""
        chosen = self.choice_after(moves, colour)
        return None if chosen is None else chosen.point

    def choice_after(self, moves: Moves, colour: str) -> Candidate | None:
        """The book move drawn for ``colour`` after ``moves`` (its point None: the book's tenuki), or None when the
        book has no move to play there."""
        corner = corner_to_answer(moves)
        if corner is None:
            return None
        with self.store.read() as conn:
            answer = answer_table(Lookup(self.store, conn, self.collections), moves.tables[corner], colour,
                                 Options(profile=self.profile, rank="popularity", board=moves.board))
        if answer.state not in BOOK_STATES or answer.to_move != colour:
            return None
        return self._drawn(answer.candidates)

    def choose_first(self, colour: str, corner: Corner = Corner.TOP_RIGHT) -> Point | None:
        """The book's first move for ``colour`` in the empty ``corner``, chosen as every other book move is."""
        with self.store.read() as conn:
            answer = answer_corner(Lookup(self.store, conn, self.collections), corner, "", False, colour,
                                   Options(profile=self.profile, rank="popularity"))
        chosen = self._drawn([c for c in answer.candidates if c.point is not None])
        return None if chosen is None else chosen.point

    def _drawn(self, candidates: list[Candidate]) -> Candidate | None:
        """The move drawn among the book's :data:`CHOICES` most popular ``candidates`` (module docstring)."""
        offered = [c for c in candidates if c.category not in NEVER_FIRST  # never a line whose ladder fails
                   and not any(check.holds is False for check in c.ladders)][:CHOICES]
        if not offered:
            return None
        if self.choose_by == "best":
            return max(offered, key=lambda c: c.priority)
        return max(offered, key=lambda c: thompson(c.record, c.category, self.rng, c.prior_games, c.prior_wins,
                                                  c.judged))


def corner_to_answer(moves: Moves) -> Corner | None:
    """The corner a book reply after ``moves`` belongs in: the one the last move joined; after a pass or a move
    that joins no corner, a tenuki, the corner played in last before it (whose book may say how to punish it)."""
    if not moves.played:
        return None
    if moves.played[-1][1] is not None and moves.joined[-1] is not None:
        return moves.joined[-1]
    for (_, point), joined in zip(reversed(moves.played[:-1]), reversed(moves.joined[:-1]), strict=True):
        if point is not None:
            return joined
    return None
