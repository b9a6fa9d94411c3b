"""Kogo's Joseki Dictionary: free text in Kogo's style, the dialect of any file that shows no other.

Kogo's comments rate moves in English sentences, mostly other moves than the one they sit on
("'a' is correct, 'b' is a mistake", "White 3 is a trick play": :mod:`joseki.sgf.dialects.verdicts`),
and state in words what a move depends on (:mod:`joseki.sgf.dialects.text_conditions`). A verdict on a
move named by number in a sentence that names several numbered moves ("Black 3 is too close to
Black 5") is kept only where it rates the node's own move. Its ladder sentences are read on a
board as words (:func:`~joseki.sgf.dialects.text_conditions.worded_ladder`). ``lint`` flags a label
a comment names that the node does not show. Its editions are told apart by their date, and a
translation by its words: "Kogo's Joseki Dictionary 2014", "Kogo's Joseki Dictionary 2007 in Chinese".
For a reader, a label on a point far from the line's corner (its 'g' on D4, "Black 'g' shows Black
playing elsewhere") stands for a tenuki, not a mark on that point, and the lists of board
coordinates closing some comments ("g7, f6, e5, d4, c3, b2, a1") are left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import replace
from typing import TYPE_CHECKING

from joseki.core.conditions import Condition, in_frame
from joseki.core.ladder_check import LadderQuestion
from joseki.core.regex import LazyPattern
from joseki.core.wording import SourceFrame
from joseki.core.zone import in_zone
from joseki.sgf.dialects.dialect import Dialect, Finding, game_name
from joseki.sgf.dialects.targets import LABEL, MOVE
from joseki.sgf.dialects.text_conditions import text_conditions, worded_ladder
from joseki.sgf.dialects.verdicts import verdicts
from joseki.sgf.dialects.words import Asked, Words, plain_words

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

_NUMBERED = LazyPattern(r"\b(?:black|white)\s+\d+", re.I)
_YEAR = LazyPattern(r"\b(1[89]\d\d|20\d\d)\b")
_HAN = LazyPattern(r"[\u4e00-\u9fff]")
_LABEL_LIST = LazyPattern(r"^[ \t]*[a-t]\d{1,2}(?:[ \t]*,[ \t]*[a-t]\d{1,2})+[ \t,.]*$", re.M)
_QUOTED = LazyPattern(r"'([a-z])(?:\s*\*)?'")
KOGO = "Kogo's Joseki"
"""How the dictionary's own name (GN) opens, in every edition ("Kogo's Joseki, Jeongseok, Dingshi Dictionary")."""


def year(info: Mapping[str, str]) -> str | None:
    """The year of a file's date (``DT``), if it has one."""
    found = _YEAR.search(info.get("DT", ""))
    return found.group(1) if found else None


def read_verdicts(node: Node) -> None:
    """The verdicts of a node's free text, each given to the move it names."""
    prefix = node.prefix
    for v in verdicts(node.comment):
        named = node.resolve(v.target)
        if v.target.kind == MOVE and named != prefix and len(_NUMBERED.findall(v.text)) > 1:
            continue
        node.verdict(named, v.category, own=named == prefix)


def read_conditions(node: Node, framed: Callable[[Condition, SourceFrame], Condition] = in_frame) -> None:
    """The conditions of a node's free text, each made a condition of the move it names, ``framed`` in its frame."""
    for target, condition in text_conditions(node.comment):
        node.condition(node.resolve(target), framed(condition, node.frame))


def missing_labels(comment: str, labels: Set[str]) -> list[Finding]:
    """Labels a comment names that its node does not show (``labels``)."""
    named = {str(v.target.key) for v in verdicts(comment) if v.target.kind == LABEL}
    return [("missing-label", f"the comment names '{label}', which the node does not show")
            for label in sorted(named - labels)]


class Kogo(Dialect):
    """Free text in Kogo's style."""

    name = "text"
    comment_kinds = ("missing-label",)

    def read(self, node: Node) -> None:
        if node.comment:
            read_verdicts(node)
            read_conditions(node)

    def words(self, comment: str, source: SourceFrame, asked: Asked) -> Words | None:
        text = _LABEL_LIST.sub("", comment)
        far = {label for label, point in source.labels.items() if not in_zone(source.transform.to_zone(point, 19))}
        if far:
            text = _QUOTED.sub(lambda m: "tenuki" if m.group(1) in far else m.group(0), text)
            source = replace(source, labels={k: p for k, p in source.labels.items() if k not in far})
        return plain_words(text, source, asked)

    def title(self, info: Mapping[str, str], stem: str) -> str | None:
        name = game_name(info)
        if name is None or not name.startswith(KOGO):
            return name
        edition = year(info)
        language = " in Chinese" if _HAN.search(info.get("C", "")[:200]) else ""
        return "Kogo's Joseki Dictionary" + (f" {edition}" if edition else "") + language

    def comment_findings(self, comment: str, labels: Set[str]) -> list[Finding]:
        return missing_labels(comment, labels)

    def ladders(self, condition: Condition, conditions: Sequence[Condition]) -> tuple[LadderQuestion, ...] | None:
        return (worded_ladder(condition.text),)
