"""A collection dialect: how one kind of collection file is told, and how its notes become the book's.

Each collection writes what it knows in its own way: GNU Go's class letters, Pachi's tags and
keys, OGS's headings, Kogo's free text, the KataGo trees' JSON counts, this project's ``J*``
properties. A :class:`Dialect` says how its files are recognised (:meth:`~Dialect.by_file`,
:meth:`~Dialect.by_comment`), which verdicts a node gives its own move (:meth:`~Dialect.own_verdicts`),
what else its notes say (:meth:`~Dialect.read`: verdicts on other moves, conditions, statistics),
what ``lint`` should flag in it, how the ladders its conditions name are read on a board, what a
reader calls a collection of its (:meth:`~Dialect.title`), and how its comments read for a player
(:meth:`~Dialect.words`: its conventions interpreted, never shown as text).
The registry (:mod:`joseki.sgf.dialects`) holds them in the order they are told apart.

SGF's own move annotations (TE, BM, DO, IT) mean the same in every dialect that keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING, ClassVar

from joseki.core.conditions import Condition
from joseki.core.ladder_check import LadderQuestion
from joseki.core.wording import SourceFrame
from joseki.sgf.dialects.words import Asked, Words, plain_words

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

SGF_MARKS = {"BM": "mistake", "TE": "good", "DO": "question", "IT": "trick"}
"""SGF move annotations; ``TE[2]`` (a very good move) is ``ideal``."""

Finding = tuple[str, str]
"""A lint finding a dialect adds: its kind and its message."""


def game_name(info: Mapping[str, str]) -> str | None:
    """A file's own name for itself (``GN``), its white space made single; None without one."""
    name = " ".join(info.get("GN", "").split())
    return name or None


def sgf_marks(properties: dict[str, tuple[str, ...]]) -> list[str | None]:
    """The categories of a node's SGF move annotations (TE, BM, DO, IT), in the order of :data:`SGF_MARKS`."""
    found: list[str | None] = []
    for key, category in SGF_MARKS.items():
        if key in properties:
            values = properties[key]
            found.append("ideal" if key == "TE" and values and values[0].strip() == "2" else category)
    return found


class Dialect:
    """How one kind of collection file writes what it knows; the defaults say nothing beyond SGF's annotations."""

    name: ClassVar[str]
    """The dialect's name, as ``lint`` and :attr:`joseki.sgf.movenotes.BookNotes.dialect` give it."""
    keeps_setup: ClassVar[bool] = True
    """Whether setup stones (AB, AW, AE) in a line become ``setup`` conditions of the moves played with them."""
    pass_kinds: ClassVar[tuple[str, ...]] = ()
    """The kinds of lint finding :meth:`pass_findings` gives."""
    comment_kinds: ClassVar[tuple[str, ...]] = ()
    """The kinds of lint finding :meth:`comment_findings` gives."""

    def by_file(self, preamble: str, properties: Set[str]) -> bool:
        """Whether a file is in this dialect by the text before its game tree or the names of its properties."""
        return False

    def title(self, info: Mapping[str, str], stem: str) -> str | None:
        """A collection's name as a reader says it, from the file's game info (GN, DT, C) and its name's ``stem``;
        None for none better than the stem. By default the file's own name (``GN``)."""
        return game_name(info)

    def by_comment(self, comment: str) -> bool:
        """Whether one comment of a file shows the file is in this dialect."""
        return False

    def own_verdicts(self, node: Node) -> list[str | None]:
        """The verdicts a node gives its own move (the most cautious stands, :func:`joseki.core.category.merge`)."""
        return list(sgf_marks(node.properties))

    def read(self, node: Node) -> None:
        """Everything else a node says (through ``node.verdict``, ``node.condition``, ``node.entry``).

Verdicts on other moves, conditions, statistics.
"""

    def pass_findings(self, comment: str, who: str) -> list[Finding]:
        """Lint findings on a pass by ``who`` (Black, White) with ``comment`` on its node."""
        return []

    def comment_findings(self, comment: str, labels: Set[str]) -> list[Finding]:
        """Lint findings on a node's comment, given the labels (lower case) the node shows."""
        return []

    def words(self, comment: str, source: SourceFrame, asked: Asked) -> Words | None:
        """A comment as a player reads it in the frame ``asked`` (:mod:`joseki.sgf.dialects.words`), written in
        ``source``; None when nothing of it is for a reader. By default free text."""
        return plain_words(comment, source, asked)

    def ladders(self, condition: Condition, conditions: Sequence[Condition]) -> tuple[LadderQuestion, ...] | None:
        """What a ladder condition (one of a move's ``conditions``) asks of a board; None when not in this dialect.

        ``()`` claims a condition that asks nothing by itself (a part of another one's question).
        """
        return None
