"""Categories: what a collection says about a move, in one small vocabulary, and how several sources combine.

The vocabulary, from best to worst as an offer: ``ideal``, ``good``, ``tenuki-ok``,
``question``, ``trick``, ``mistake``. Each collection says it in its own dialect (SGF
annotations, GNU Go's class letters, Pachi's tags, OGS's headings, Kogo's free text: read by
:mod:`joseki.sgf.dialects`).

Each collection's verdict is kept with its source (``node_book`` has one row per node and
collection). Where several collections hold a move, :func:`combined` gives the one category
the book acts on (priority, order, the GTP policy) and :func:`category_label` the text shown,
which names each differing verdict's sources: one collection never silently overrides another.
"""

from __future__ import annotations

from collections.abc import Mapping

from joseki.core.errors import BadInput

CATEGORIES = ("ideal", "good", "tenuki-ok", "question", "trick", "mistake")
RANK = {name: index for index, name in enumerate(CATEGORIES)}
NEVER_FIRST = frozenset({"trick", "mistake"})


def check_category(name: str) -> str:
    """``name`` if it is in the vocabulary; BadInput otherwise."""
    if name not in RANK:
        raise BadInput(f"unknown category {name!r} (expected one of {', '.join(CATEGORIES)})")
    return name


def merge(a: str | None, b: str | None) -> str | None:
    """The more cautious of two categories for the same move (a warning is never hidden)."""
    if a is None or b is None:
        return a or b
    return a if RANK[a] >= RANK[b] else b


DISPUTED = "question"
"""What the book acts on for a move that one collection warns against (trick, mistake) and another offers."""


def combined(sources: Mapping[str, str | None]) -> str | None:
    """The one category the book acts on (priority, order, the GTP policy) for a move rated by several collections.

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
    mistake (GNU Go)" (they differ, best first); "" when none rates the move.
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
