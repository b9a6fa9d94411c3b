"""The answers of the next-move query: a candidate move, one corner's answer, and how to answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from joseki.book.learnt.beyond import BeyondMove
from joseki.book.query.favour import Favour
from joseki.core.category import category_label
from joseki.core.geometry import Corner, Point, Transform
from joseki.core.ladder_check import LadderCheck
from joseki.core.priority import NEUTRAL, Record
from joseki.core.steps import Colour
from joseki.core.wording import line_text, point_format


@dataclass(frozen=True, slots=True)
class Candidate:
    """One book move, in the caller's frame and notation: a value (re-ranking makes new ones)."""

    token: str
    move: str
    point: Point | None
    paths: int
    priority: float = NEUTRAL
    category: str | None = None
    record: Record = field(default_factory=Record)
    judged: Record = field(default_factory=Record)
    """Judged corners (:attr:`joseki.book.query.lookup.Child.judged`)."""
    prior_games: int = 0
    prior_wins: int = 0
    conditions: list[str] = field(default_factory=list)
    """The conditions in the caller's frame and colours (:func:`joseki.core.conditions.display`)."""
    named: list[Point] = field(default_factory=list)
    """The board points the conditions name, for the diagram."""
    setup: dict[Point, Colour] = field(default_factory=dict)
    """The setup stones the conditions put down."""
    favour: Favour | None = None
    mover_first: bool = True
    sources: dict[str, str | None] = field(default_factory=dict)
    """Each collection holding the move and its verdict (None: silent); ``category`` is their
    :func:`~joseki.core.category.combined` verdict, what ordering and priority use."""
    ladders: list[LadderCheck] = field(default_factory=list)
    """Its ladder conditions read on the whole board, when the board is known (:mod:`joseki.core.ladder_check`)."""
    context_games: int | None = None
    """Games that played the move in the corner's whole-board context (:mod:`joseki.book.query.rerank`)."""

    @property
    def label(self) -> str:
        """The category as shown, naming its sources where they differ (:func:`joseki.core.category.category_label`)."""
        return category_label(self.sources) if self.sources else self.category or ""

    @property
    def mover_favour(self) -> float | None:
        """The favourability of the candidate's main line for the player who would play it."""
        if self.favour is None:
            return None
        return self.favour.first if self.mover_first else self.favour.second

    def as_json(self) -> dict[str, object]:
        rate = self.record.win_rate
        return {"move": self.move, "paths": self.paths, "priority": round(self.priority, 4),
                "category": self.category, "categories": dict(self.sources), "category_label": self.label,
                "games": self.record.games, "corners": self.record.corners, "wins": self.record.wins,
                "win_rate": None if rate is None else round(rate, 4), "conditions": self.conditions,
                "ladders": [check.as_json() for check in self.ladders],
                "local": {"corners": self.judged.corners, "wins": self.judged.wins, "losses": self.judged.losses,
                          "draws": self.judged.draws},
                **({} if self.context_games is None else {"context_games": self.context_games}),
                "favourability": None if self.favour is None else {**self.favour.as_json(),
                                                                   "mover": round(self.mover_favour or 0.0, 4)}}


@dataclass(frozen=True, slots=True)
class CornerAnswer:
    """The book's view of one corner: a value (re-ranking makes new ones)."""

    corner: Corner
    steps: str
    state: str
    to_move: Colour
    transform: Transform
    candidates: list[Candidate] = field(default_factory=list)
    alternatives: list[Candidate] = field(default_factory=list)
    book_steps: str = ""
    left_at: int | None = None
    left_move: str | None = None
    left_move_number: int | None = None
    """The game move that left the book (for a tenuki, the move played elsewhere), when known."""
    in_book: int = 0
    """How many local steps are in the book."""
    via: str | None = None
    via_reflected: bool = False
    """Whether the book position ``via`` is the reflection of this corner's (its moves then go through the other)."""
    stones: dict[Point, Colour] = field(default_factory=dict)
    sgf: bool = False
    """Whether the caller typed SGF points, so moves are shown that way."""
    context: str | None = None
    """The corner's whole-board context signature when the board was known (:mod:`joseki.core.context`)."""
    statistics: str | None = None
    """Which statistics ordered the candidates then: ``context`` or ``back-off`` (too few games in it)."""
    context_games: int = 0
    """Games played after the corner's book line in its whole-board context."""
    similar_games: int = 0
    """Games played after the corner's book line in the contexts of the same region (the coarser signature)."""
    order: str = "popularity"
    """The order the candidates are given in: the rank asked, ``context`` only when the context ranked them
    (:mod:`joseki.book.query.rerank`)."""
    beyond: list[BeyondMove] = field(default_factory=list)
    """Moves played after the corner's book line in too few games to be book moves
    (:mod:`joseki.book.learnt.beyond`)."""

    def line(self, steps: str, reflected: bool = False) -> str:
        """The moves of a canonical step string of this corner (``Q16 R14``), for people to read."""
        return line_text(steps, self.transform.reflected() if reflected else self.transform, point_format(self.sgf))

    def as_json(self, candidates: Callable[[list[Candidate]], list[dict[str, object]]] | None = None
                ) -> dict[str, object]:
        """The corner's JSON; ``candidates`` writes the candidates' and alternatives' lists (default: each one's
        :meth:`Candidate.as_json`), for a caller that draws them (:func:`joseki.web.views.corner_json`)."""
        listed = candidates or _candidates_json
        data: dict[str, object] = {
            "corner": self.corner.value, "steps": self.steps, "state": self.state,
            "to_move": "black" if self.to_move == "b" else "white",
            "candidates": listed(self.candidates), "order": self.order}
        data["in_book_steps"] = self.in_book
        if self.left_at is not None:
            data["book_steps"] = self.book_steps
            data["alternatives"] = listed(self.alternatives)
            data.update(left_at=self.left_at, left_move=self.left_move, left_move_number=self.left_move_number)
        if self.via is not None:
            data["book_position_steps"] = self.via
        if self.statistics is not None:
            data.update(context=self.context, statistics=self.statistics, context_games=self.context_games,
                        similar_games=self.similar_games)
        data["beyond"] = [b.as_json() for b in self.beyond]
        return data


def _candidates_json(candidates: list[Candidate]) -> list[dict[str, object]]:
    return [c.as_json() for c in candidates]


@dataclass(frozen=True, slots=True)
class Options:
    """How to answer: how many candidates, in what order, with whose statistics, in what notation."""

    top: int | None = None
    rank: str = "popularity"
    profile: str | None = None
    sgf: bool = False
    favour: bool = False
    """Judge each shown candidate by its main line's favourability (:mod:`joseki.book.query.favour`)."""
    favour_corner: Corner | None = None
    """Judge the candidates of this corner only (the one a board shows the table of), when not ``favour``."""
    board: tuple[tuple[Point, Colour], ...] | None = None
    """The whole board's stones when known (moves, a game): the candidates' ladder conditions are read on it."""
