"""The OGS Joseki Explorer's export: Markdown comments whose headings give the move's category.

``## Joseki`` is ideal, another heading naming joseki (``### Old Joseki``) good, and headings naming
a mistake, a trick or a question those; the Explorer's words about ladders and nearby stones are
conditions as in free text (:mod:`joseki.sgf.dialects.text_conditions`), its verdict words are not read.
Its export names itself nothing: a collection of it is the "OGS Joseki Explorer".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from joseki.core.regex import LazyPattern
from joseki.sgf.dialects.dialect import Dialect, game_name, sgf_marks
from joseki.sgf.dialects.kogo import read_conditions

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

_HEADING = LazyPattern(r"^\s*(?:#{1,6}|<h[1-6]>)\s*([^#<\n]+?)\s*(?:</h[1-6]>)?\s*$", re.M)
_CATEGORIES = ((LazyPattern(r"mistake", re.I), "mistake"), (LazyPattern(r"trick", re.I), "trick"),
               (LazyPattern(r"question", re.I), "question"), (LazyPattern(r"^joseki$", re.I), "ideal"),
               (LazyPattern(r"joseki", re.I), "good"))


def headings(comment: str) -> list[str]:
    """The Markdown (or HTML) headings of a comment."""
    return _HEADING.findall(comment) if "#" in comment or "<h" in comment else []


def heading_category(heading: str) -> str | None:
    """The category a heading names; None for any other heading."""
    for pattern, category in _CATEGORIES:
        if pattern.search(heading.strip()):
            return category
    return None


class Ogs(Dialect):
    """The OGS Joseki Explorer."""

    name = "ogs"

    def by_comment(self, comment: str) -> bool:
        return bool(headings(comment))

    def own_verdicts(self, node: Node) -> list[str | None]:
        return sgf_marks(node.properties) + [heading_category(h) for h in headings(node.comment)]

    def title(self, info: Mapping[str, str], stem: str) -> str | None:
        return game_name(info) or "OGS Joseki Explorer"

    def read(self, node: Node) -> None:
        if node.comment:
            read_conditions(node)
