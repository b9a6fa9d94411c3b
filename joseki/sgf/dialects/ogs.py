"""The OGS Joseki Explorer's export: Markdown comments whose headings give the move's category.

``## Joseki`` is ideal, another heading naming joseki (``### Old Joseki``) good, and headings naming
a mistake, a trick or a question those; the Explorer's words about ladders and nearby stones are
conditions as in free text (:mod:`joseki.sgf.dialects.text_conditions`), its verdict words are not read.
Its export names itself nothing: a collection of it is the "OGS Joseki Explorer". For a reader its
Markdown is rendered to safe HTML (:mod:`joseki.sgf.dialects.markdown`); its board references
(``<A:R16>``) become the point in the frame asked, drawn on the board; its links to other positions of
the Explorer (``<position: 26982>``), which the book cannot follow, are left out; its own link form
``(text)(https://...)`` is a link.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from joseki.core.geometry import Point
from joseki.core.notation import parse_gtp_vertex
from joseki.core.regex import LazyPattern
from joseki.core.wording import SourceFrame, reframe
from joseki.sgf.dialects.dialect import Dialect, game_name, sgf_marks
from joseki.sgf.dialects.kogo import read_conditions
from joseki.sgf.dialects.markdown import markdown_html, markdown_text
from joseki.sgf.dialects.words import Asked, Words

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

_HEADING = LazyPattern(r"^\s*(?:#{1,6}|<h[1-6]>)\s*([^#<\n]+?)\s*(?:</h[1-6]>)?\s*$", re.M)
_CATEGORIES = ((LazyPattern(r"mistake", re.I), "mistake"), (LazyPattern(r"trick", re.I), "trick"),
               (LazyPattern(r"question", re.I), "question"), (LazyPattern(r"^joseki$", re.I), "ideal"),
               (LazyPattern(r"joseki", re.I), "good"))


_REFERENCE = LazyPattern(r"<[A-Za-z0-9]:([A-HJ-Ta-hj-t](?:1[0-9]|[1-9]))>")
_SEE = LazyPattern(r"^[ \t]*see[ \t]+<position:[ \t]*\d+>[ \t]*\.?[ \t]*$", re.M | re.I)
_POSITION = LazyPattern(r"<position:[ \t]*\d+>", re.I)
_TIGHT_HEADING = LazyPattern(r"^([ \t]*#{1,6})(?=[^#\s])", re.M)
_PAREN_LINK = LazyPattern(r"\(([^()\n]+)\)\((https?://[^()\s]+)\)")
"""The Explorer's own link form, ``(text)(https://...)``: a Markdown link ``[text](https://...)``."""
"""The Explorer's headings, often written without the space Markdown wants after the ``#`` (``##Joseki``)."""


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

    def words(self, comment: str, source: SourceFrame, asked: Asked) -> Words | None:
        points: list[Point] = []

        def reference(m: re.Match[str]) -> str:
            board = parse_gtp_vertex(m.group(1).upper(), 19)
            if board is None:
                return m.group(0)
            point = asked.transform.to_board(source.transform.to_zone(board, 19), 19)
            points.append(point)
            return asked.fmt(point)

        text = _TIGHT_HEADING.sub(r"\1 ", _POSITION.sub("another position", _SEE.sub("", comment)))
        text = _PAREN_LINK.sub(r"[\1](\2)", text)
        text, named = reframe(_REFERENCE.sub(reference, text), source, asked.transform, asked.first, asked.fmt)
        plain = markdown_text(text)
        if not plain:
            return None
        return Words(plain, markdown_html(text), tuple(dict.fromkeys([*points, *named])))
