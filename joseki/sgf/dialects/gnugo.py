"""GNU Go's joseki files: a class letter opening the comment of each pattern node, and constraint lines.

GNU Go's files open with its licence, before the game tree. Its joseki compiler
(``identify_move_type`` in patterns/joseki.c) makes a pattern only of a node with a stone move
(not a pass) and an SQ or MA mark, and reads the move's class from the comment's first
character, case-sensitive (the manual says otherwise; the source is what GNU Go does). Any other
node, such as the ``;B[pd]C[0]`` opening hoshi_keima.sgf, says nothing about its move. Lines
starting with ``;`` are constraints GNU Go's tactical reading checks (``reading`` conditions). Its
files are named by the stone they start from, in Japanese (``komoku.sgf``, ``hoshi_keima.sgf``): a
collection of one is "GNU Go 3-4", "GNU Go 4-4 knight's approach". Only its ``#`` lines are
remarks for people; the class code and the constraints are read, never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import TYPE_CHECKING

from joseki.core.conditions import Condition
from joseki.core.wording import SourceFrame
from joseki.sgf.dialects.dialect import Dialect, sgf_marks
from joseki.sgf.dialects.words import Asked, Words, plain_words

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

CLASSES = {"U": "ideal", "u": "ideal", "J": "good", "S": "good", "j": "good", "s": "good", "T": "trick",
           "t": "tenuki-ok", "0": "mistake", "A": "mistake", "a": "mistake"}
"""GNU Go's move classes by the comment's first character: ``U``/``u`` urgent (class U: never tenuki)
-> ideal; ``J``/``S`` standard (J) and ``j``/``s`` lesser joseki (j) -> good; ``t`` minor joseki
move, tenuki OK (t) -> tenuki-ok; ``T`` trick (T: GNU Go never plays it) -> trick; ``0``/``a``/``A``
antisuji (N: must never be played) -> mistake. Any other first character, or no comment, is a
standard move (:data:`STANDARD`)."""

STANDARD = "good"
FILE_WORDS = {"sansan": "3-3", "komoku": "3-4", "hoshi": "4-4", "mokuhazushi": "5-3", "takamoku": "5-4",
              "gogo": "5-5", "keima": "knight's approach", "other": "other approaches"}
"""The words of GNU Go's file names, as a reader says them."""
PATTERN_MARKS = frozenset({"MA", "SQ"})
"""The marks that make a node with a stone move one of GNU Go's patterns."""


class GnuGo(Dialect):
    """GNU Go's joseki database."""

    name = "gnugo"

    def by_file(self, preamble: str, properties: Set[str]) -> bool:
        return "GNU Go" in preamble

    def title(self, info: Mapping[str, str], stem: str) -> str | None:
        return "GNU Go " + " ".join(FILE_WORDS.get(word, word) for word in stem.lower().split("_") if word)

    def own_verdicts(self, node: Node) -> list[str | None]:
        found = sgf_marks(node.properties)
        if node.stone and not PATTERN_MARKS.isdisjoint(node.properties):
            found.append(CLASSES.get(node.comment[:1], STANDARD))
        return found

    def words(self, comment: str, source: SourceFrame, asked: Asked) -> Words | None:
        remarks = [line.lstrip("#").strip() for line in comment.splitlines() if line.startswith("#")]
        return plain_words("\n".join(r for r in remarks if r), source, asked)

    def read(self, node: Node) -> None:
        for line in node.comment.splitlines():
            if line.startswith(";"):
                node.condition(node.prefix, Condition("reading", line.strip()))
