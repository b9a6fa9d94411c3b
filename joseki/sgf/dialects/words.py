"""A collection's comment as a player reads it: plain text for a terminal, safe HTML for a page, the points it names.

A comment is written in its source's frame (its labels, marks, colours and sides) and its
dialect's conventions (Markdown, class codes, tags). :class:`Words` is what is left for a reader,
in the frame asked for: the text, the same as HTML that a page may insert as it is (only
paragraphs, line breaks, headings, emphasis, lists, code and links to http or https pages, each
with ``rel="noopener noreferrer"``: everything else of the source is escaped), and the board
points it names, for a board to draw. :func:`plain_words` reads free text; each dialect adds its
own conventions (:meth:`joseki.sgf.dialects.dialect.Dialect.words`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from joseki.core.geometry import Point, Transform
from joseki.core.notation import format_gtp_vertex
from joseki.core.steps import Colour
from joseki.core.wording import SourceFrame, reframe

FOLD = 400
"""Characters of a comment shown before the rest is folded away (:attr:`Words.summary`)."""


@dataclass(frozen=True, slots=True)
class Words:
    """A comment as a player reads it: its text, its safe HTML, and the board points it names."""

    text: str
    html: str
    points: tuple[Point, ...] = ()

    @property
    def summary(self) -> str:
        """The text up to :data:`FOLD` characters, cut at a paragraph or a word, with ``...`` when cut."""
        return fold(self.text)

    def as_json(self) -> dict[str, object]:
        return {"text": self.text, "html": self.html, "summary": self.summary}


@dataclass(frozen=True, slots=True)
class Asked:
    """The frame a reader asked for: the corner and reflection, the colour that moved first, how points are named."""

    transform: Transform
    first: Colour
    fmt: Callable[[Point], str] = format_gtp_vertex


def fold(text: str, limit: int = FOLD) -> str:
    """``text`` up to ``limit`` characters, cut at the last paragraph or word before it, with ``...`` when cut."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    for stop in ("\n\n", "\n", " "):
        at = cut.rfind(stop)
        if at > limit // 2:
            cut = cut[:at]
            break
    return cut.rstrip() + " ..."


def paragraphs_html(text: str) -> str:
    """Plain text as HTML: its paragraphs (blank lines between) as ``<p>``, its other line breaks as ``<br>``."""
    parts = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    return "".join("<p>" + "<br>".join(html.escape(line) for line in p.splitlines()) + "</p>" for p in parts)


def plain_words(comment: str, source: SourceFrame, asked: Asked) -> Words | None:
    """Free text in the frame asked for (:func:`joseki.core.wording.reframe`): labels and marks as board points,
    colours and sides turned; None for a comment with nothing left to read."""
    text, points = reframe(comment, source, asked.transform, asked.first, asked.fmt)
    text = text.strip()
    if not text:
        return None
    return Words(text, paragraphs_html(text), tuple(dict.fromkeys(points)))
