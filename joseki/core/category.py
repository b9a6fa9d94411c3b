"""Categories: what a collection says about a move, in one small vocabulary, read from its dialect.

The vocabulary, from best to worst as an offer: ``ideal``, ``good``, ``tenuki-ok``,
``question``, ``trick``, ``mistake``. Collections say it in their own dialects
(:func:`detect_dialect`): SGF move annotations (TE, BM, DO, IT) anywhere; GNU Go's class
letter as a comment's first character (on its pattern nodes, marked MA or SQ); Pachi's tags
on a comment's first line (``<bad>``, ``<tenuki>``, ...); OGS headings (``## Joseki``,
``### Common Mistake``); this project's own ``JC`` property in its exports. Free text in
Kogo's style is read by :mod:`joseki.core.judgement`, because it often speaks of other moves.

Each collection's verdict is kept with its source (``node_book`` has one row per node and
collection). Where several collections hold a move, :func:`combined` gives the one category
the book acts on (priority, order, the GTP policy) and :func:`category_label` the text shown,
which names each differing verdict's sources: one collection never silently overrides another.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from joseki.core.errors import BadInput
from joseki.core.regex import LazyPattern

CATEGORIES = ("ideal", "good", "tenuki-ok", "question", "trick", "mistake")
RANK = {name: index for index, name in enumerate(CATEGORIES)}
NEVER_FIRST = frozenset({"trick", "mistake"})

DIALECTS = ("export", "gnugo", "katago", "pachi", "ogs", "text")
"""How a collection file writes what it knows: :func:`detect_dialect` tells which."""

EXPORT_PROPERTIES = frozenset({"JC", "JK", "JS", "JP"})
SGF_MARKS = {"BM": "mistake", "TE": "good", "DO": "question", "IT": "trick"}
"""SGF move annotations; ``TE[2]`` (a very good move) is ``ideal``."""

PACHI_TAGS = {"<don't>": "mistake", "<bad>": "mistake", "<avoid>": "mistake",
              "<tenuki>": "tenuki-ok", "<later>": "tenuki-ok", "<3x3>": None}
"""Pachi's first-line tags; ``<3x3>`` only narrows Pachi's pattern match and judges nothing."""

GNUGO_CLASSES = {"U": "ideal", "u": "ideal", "J": "good", "S": "good", "j": "good", "s": "good", "T": "trick",
                 "t": "tenuki-ok", "0": "mistake", "A": "mistake", "a": "mistake"}
"""GNU Go's move classes, as its joseki compiler reads them (``identify_move_type`` in
patterns/joseki.c): the comment's first character, case-sensitive. ``U``/``u`` urgent (class U:
never tenuki) -> ideal; ``J``/``S`` standard (J) and ``j``/``s`` lesser joseki (j) -> good;
``t`` minor joseki move, tenuki OK (t) -> tenuki-ok; ``T`` trick (T: GNU Go never plays it)
-> trick; ``0``/``a``/``A`` antisuji (N: must never be played) -> mistake. Any other first
character, or no comment, is a standard move (:data:`GNUGO_STANDARD`)."""

GNUGO_STANDARD = "good"
GNUGO_PATTERN_MARKS = frozenset({"MA", "SQ"})
"""GNU Go makes a pattern only of a node with a stone move (not a pass) and one of these marks;
any other node (the moves leading to a pattern, such as ``;B[pd]C[0]`` opening hoshi_keima.sgf)
says nothing about its move, whatever its comment starts with."""

_OGS_HEADING = LazyPattern(r"^\s*(?:#{1,6}|<h[1-6]>)\s*([^#<\n]+?)\s*(?:</h[1-6]>)?\s*$", re.M)
_OGS = ((LazyPattern(r"mistake", re.I), "mistake"), (LazyPattern(r"trick", re.I), "trick"),
        (LazyPattern(r"question", re.I), "question"), (LazyPattern(r"^joseki$", re.I), "ideal"),
        (LazyPattern(r"joseki", re.I), "good"))
_TAG = LazyPattern(r"<[a-z0-9']+>")
_KATAGO = LazyPattern(r'^\{\s*"count"\s*:')
_EXPORT_MARK = "joseki export"


def pachi_tags(comment: str) -> list[str]:
    """The Pachi tags on the comment's first line, in order."""
    first = comment.split("\n", 1)[0]
    return [tag for tag in _TAG.findall(first) if tag in PACHI_TAGS] if "<" in first else []


def ogs_headings(comment: str) -> list[str]:
    """The markdown (or HTML) headings of an OGS comment."""
    return _OGS_HEADING.findall(comment) if "#" in comment or "<h" in comment else []


def detect_dialect(preamble: str, comments: Iterable[str], properties: Iterable[str] = ()) -> str:
    """The dialect of a collection file, from the text before its game tree, its comments and property names.

    This project's exports say so in their root comment or carry ``J*`` properties; GNU Go's
    files open with its licence; the KataGo trees' comments are JSON counts; Pachi's carry
    first-line tags or ``[override]`` sections; OGS's have markdown headings. Anything else
    is free text (Kogo's style).
    """
    if not EXPORT_PROPERTIES.isdisjoint(properties):
        return "export"
    if "GNU Go" in preamble:
        return "gnugo"
    seen: set[str] = set()
    for comment in comments:
        if comment.startswith(_EXPORT_MARK):
            return "export"
        if _KATAGO.match(comment):
            seen.add("katago")
        elif pachi_tags(comment) or comment.startswith(("[override]", "[log]")):
            seen.add("pachi")
        elif ogs_headings(comment):
            seen.add("ogs")
    for dialect in ("katago", "pachi", "ogs"):
        if dialect in seen:
            return dialect
    return "text"


def check_category(name: str) -> str:
    """``name`` if it is in the vocabulary; BadInput otherwise."""
    if name not in RANK:
        raise BadInput(f"unknown category {name!r} (expected one of {', '.join(CATEGORIES)})")
    return name


def categorise(comment: str, properties: dict[str, tuple[str, ...]], dialect: str = "text",
               stone: bool = True) -> str | None:
    """The category a node gives its own move, from its SGF marks and its dialect's tags; None when silent.

    ``stone`` says whether the node plays a stone (GNU Go judges only those). Free text
    (dialect ``text``) is left to :mod:`joseki.core.judgement`.
    """
    if dialect == "export":
        return check_category(properties["JC"][0]) if "JC" in properties else None
    found: list[str | None] = [_mark(key, properties[key]) for key in SGF_MARKS if key in properties]
    if dialect == "gnugo":
        if stone and not GNUGO_PATTERN_MARKS.isdisjoint(properties):
            found.append(GNUGO_CLASSES.get(comment[:1], GNUGO_STANDARD))
    elif dialect == "pachi":
        found.extend(PACHI_TAGS[tag] for tag in pachi_tags(comment))
    elif dialect == "ogs":
        found.extend(_ogs(heading) for heading in ogs_headings(comment))
    category: str | None = None
    for item in found:
        category = merge(category, item)
    return category


def _mark(key: str, values: tuple[str, ...]) -> str:
    if key == "TE" and values and values[0].strip() == "2":
        return "ideal"
    return SGF_MARKS[key]


def _ogs(heading: str) -> str | None:
    for pattern, category in _OGS:
        if pattern.search(heading.strip()):
            return category
    return None


def merge(a: str | None, b: str | None) -> str | None:
    """The more cautious of two categories for the same move (a warning is never hidden)."""
    if a is None or b is None:
        return a or b
    return a if RANK[a] >= RANK[b] else b


DISPUTED = "question"
"""What the book acts on for a move that one collection warns against (trick, mistake) and another offers."""


def combined(sources: Mapping[str, str | None]) -> str | None:
    """The one category the book acts on (priority, order, the GTP policy) for a move judged by several collections.

    ``sources`` maps each collection holding the move to its verdict (None: silent). Silent
    collections neither confirm nor contradict. One verdict, or several that agree, is taken as
    it is. Verdicts that differ on the same side (ideal and good; trick and mistake) give the
    more cautious one. A move that one collection warns against and another offers is
    :data:`DISPUTED`: never excluded (it is not in :data:`NEVER_FIRST`), never preferred (its
    prior is below an even chance). The label (:func:`category_label`) always shows each verdict.
    """
    found = {c for c in sources.values() if c is not None}
    if found & NEVER_FIRST and found - NEVER_FIRST:
        return DISPUTED
    category: str | None = None
    for item in found:
        category = merge(category, item)
    return category


def category_label(sources: Mapping[str, str | None]) -> str:
    """The category as shown: the verdict alone if every collection holding the move gives it, else with sources.

    "ideal" (all agree); "ideal (Kogo)" (another collection is silent); "ideal (Kogo) /
    mistake (GNU Go)" (they differ, best first); "" when none judges the move.
    """
    by_category: dict[str, list[str]] = {}
    for name, category in sorted(sources.items()):
        if category is not None:
            by_category.setdefault(category, []).append(name)
    if not by_category:
        return ""
    if len(by_category) == 1 and all(c is not None for c in sources.values()):
        return next(iter(by_category))
    return " / ".join(f"{c} ({', '.join(by_category[c])})" for c in sorted(by_category, key=RANK.__getitem__))


def merge_sources(into: dict[str, str | None], other: Mapping[str, str | None]) -> None:
    """Add ``other``'s verdicts to ``into``, per collection (the same collection's two verdicts: the more cautious)."""
    for name, category in other.items():
        into[name] = merge(into.get(name), category)
