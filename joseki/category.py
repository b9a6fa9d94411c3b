"""Categories: what a collection says about a move, in one small vocabulary.

The vocabulary, from best to worst as an offer: ``ideal``, ``good``, ``tenuki-ok``,
``question``, ``trick``, ``mistake``. Collections say it in their own dialects: SGF move
annotations (TE, BM, DO, IT), Pachi's tags on a comment's first line (``<bad>``,
``<tenuki>``, ...), GNU Go's class letter as a whole first comment line, and Kogo's free
text ("* Joseki *", "mistake", "trick").
"""

from __future__ import annotations

import re

CATEGORIES = ("ideal", "good", "tenuki-ok", "question", "trick", "mistake")
RANK = {name: index for index, name in enumerate(CATEGORIES)}
NEVER_FIRST = frozenset({"trick", "mistake"})

_PACHI = {"<don't>": "mistake", "<bad>": "mistake", "<avoid>": "mistake",
          "<tenuki>": "tenuki-ok", "<later>": "tenuki-ok"}
_GNUGO = {"U": "ideal", "J": "good", "S": "good", "j": "good", "s": "good", "T": "trick",
          "t": "tenuki-ok", "0": "mistake", "A": "mistake", "a": "mistake"}
_KOGO = (
    (re.compile(r"\bmistake|\bbad\b|\bfailure\b|\bwrong\b|\bunreasonable\b|\boverplay", re.I), "mistake"),
    (re.compile(r"\btrick", re.I), "trick"),
    (re.compile(r"\*\s*joseki\s*\*", re.I), "ideal"),
    (re.compile(r"\bjoseki\b", re.I), "good"),
)


def categorise(comment: str, properties: dict[str, tuple[str, ...]]) -> str | None:
    """The category of a move from its node's comment and properties; None when nothing is said."""
    if "BM" in properties:
        return "mistake"
    if "TE" in properties:
        return "good"
    if "DO" in properties or "IT" in properties:
        return "question"
    first = comment.split("\n", 1)[0].strip()
    for tag, category in _PACHI.items():
        if tag in first:
            return category
    if first in _GNUGO:
        return _GNUGO[first]
    for pattern, category in _KOGO:
        if pattern.search(comment):
            return category
    return None


def merge(a: str | None, b: str | None) -> str | None:
    """The more cautious of two categories for the same move (a warning is never hidden)."""
    if a is None or b is None:
        return a or b
    return a if RANK[a] >= RANK[b] else b
