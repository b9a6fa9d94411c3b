"""What one collection file says about each of its moves, per step prefix and setup stones, and which verdict stands.

A move played with setup stones on the board (:mod:`joseki.sgf.setups`) is another position than the
same move without them: its notes are kept apart, by the stones.

A verdict said on the move's own node (its marks, class letter, tags or headings, a bare verdict,
its own number) beats one said on another node that names it (a label on the previous node's
diagram, a number on a later node), but never hides a warning (trick, mistake) said there; among
verdicts of equal standing the more cautious wins (:func:`joseki.core.category.merge`). A good word
on a tenuki means ``tenuki-ok``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from joseki.core.category import NEVER_FIRST, merge
from joseki.core.conditions import Condition
from joseki.core.notation import TENUKI
from joseki.core.priority import Record


@dataclass(slots=True)
class MoveNote:
    """What one file says about one move: its verdicts by standing, comments, properties, conditions, statistics."""

    own: str | None = None
    named: str | None = None
    comments: list[str] = field(default_factory=list)
    properties: dict[str, list[str]] = field(default_factory=dict)
    conditions: list[Condition] = field(default_factory=list)
    prior_games: int = 0
    prior_wins: int = 0
    record: Record | None = None

    @property
    def category(self) -> str | None:
        """The move's category in this file: its own node's verdict, else (or if only it warns) the one naming it."""
        if self.own is None or (self.named in NEVER_FIRST and self.own not in NEVER_FIRST):
            return self.named
        return self.own


@dataclass(slots=True)
class BookNotes:
    """A file's notes per step prefix (``moves``; ``positions``: by setup stones and prefix), and its dialect's name."""

    dialect: str
    moves: dict[str, MoveNote] = field(default_factory=dict)
    positions: dict[tuple[str, str], MoveNote] = field(default_factory=dict)

    def at(self, prefix: str, setup: str = "") -> MoveNote:
        """The notes of the move of ``prefix`` played with setup stones ``setup`` ('' for none)."""
        note = self.moves.get(prefix) if not setup else self.positions.get((setup, prefix))
        if note is None:
            note = MoveNote()
            if setup:
                self.positions[(setup, prefix)] = note
            else:
                self.moves[prefix] = note
        return note

    def verdict(self, prefix: str, category: str | None, own: bool = True, setup: str = "") -> None:
        """Give the move of ``prefix`` a verdict, said on its own node or (``own`` False) on another."""
        if category is not None and prefix:
            if prefix.endswith(TENUKI) and category in ("ideal", "good"):
                category = "tenuki-ok"
            note = self.at(prefix, setup)
            if own:
                note.own = merge(note.own, category)
            else:
                note.named = merge(note.named, category)

    def condition(self, prefix: str, condition: Condition, setup: str = "") -> None:
        """Make the move of ``prefix`` depend on ``condition`` (once)."""
        if prefix:
            note = self.at(prefix, setup)
            if condition not in note.conditions:
                note.conditions.append(condition)
