"""The local signal's judge as games/ sees it: a game's moves and the book in, a verdict per corner out.

``learn --signal local|both`` credits each corner of a game with the verdict of a judge on the
corner where its joseki ended, instead of (or beside) the game's result. The learning pipeline
needs only what this module names: :class:`CornerJudge` (what a judge does), :class:`JudgeMaker`
(how a worker process, local or on a cluster, makes its own judge: a picklable value made in the
parent), :class:`Verdict` (what a judge says of a corner) and :class:`Refused` (a judge that cannot
judge one game, which skips that game and goes on). GNU Go's judge (:mod:`joseki.engine.judge`)
implements them; the command line hands it in, so games/ never imports the engine layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from joseki.book.query.walk import Book
from joseki.core.errors import UserError
from joseki.core.geometry import Corner, Point
from joseki.core.steps import Colour, other

DRAW_BAND = 1.0
"""Margins within this many points either way are a local draw."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One corner judged: its canonical steps and first colour, the moves played when judged, the margin."""

    corner: Corner
    steps: str
    first: Colour
    in_book: int
    """In-book steps of the corner (at least one)."""
    moves: int
    """Moves of the game played at the judged position."""
    margin: float
    """Points of the corner's quadrant for ``first`` (the judge's territory estimate)."""

    @property
    def winner(self) -> Colour:
        """The local winner: ``first``, the other colour, or ``d`` within the draw band."""
        if self.margin > DRAW_BAND:
            return self.first
        if self.margin < -DRAW_BAND:
            return other(self.first)
        return "d"

    def margin_for(self, colour: Colour) -> float:
        """The margin from ``colour``'s view."""
        return self.margin if colour == self.first else -self.margin


class Refused(UserError):
    """The judge could not judge one game (it refused a move, or did not answer in time): that game is skipped."""


class CornerJudge(Protocol):
    """A running judge: the verdict of each corner of a game with at least one step in the book."""

    def judge(self, book: Book, moves: list[tuple[Colour, Point | None]]) -> list[Verdict]:
        """The verdicts of a 19x19 game played from an empty board; Raises Refused if it cannot judge this game."""

    def close(self) -> None:
        """Stop the judge."""


class JudgeMaker(Protocol):
    """How a worker makes its own judge: a picklable value, called in the worker (once per chunk of games)."""

    def __call__(self) -> CornerJudge:
        """A new running judge; Raises UserError if it cannot start."""
