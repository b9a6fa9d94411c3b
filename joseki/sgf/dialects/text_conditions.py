"""Conditions in free text (Kogo, OGS, Pachi's remarks): which sentences make a move depend on a ladder or on
stones elsewhere, and what a ladder sentence asks of the board.

A sentence that mentions a ladder makes a ``ladder`` condition; one that makes the move depend on
support, a position or marked stones ("'b' if Black is in the lower right", "depending on support
at the top") a ``nearby`` one, never one that only tells how play goes on ("White continues with 'a'
to take the top") or says the move does not depend on it ("even with support", "without considering").
The condition goes to the moves the sentence names; a ladder the sentence names no move for is the
node's own move's ("White must have the ladder to play this way").

Read on a board (:func:`worded_ladder`), a ladder sentence counts only when it says who needs the
ladder and which way ("{c:2:White} must have the ladder", "needs a favourable ladder", "if the
ladder is unfavourable"); a sentence naming several moves or both ways decides nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from joseki.core.conditions import Condition
from joseki.core.ladder import FAILS, WORKS
from joseki.core.ladder_check import WordedLadder
from joseki.core.regex import LazyPattern
from joseki.sgf.dialects.targets import SELF, Target
from joseki.sgf.dialects.verdicts import sentences, subjects

MAX_TEXT = 240
"""The longest sentence kept as a condition's text (a longer one is cut, with ``...``)."""

_LADDER = LazyPattern(r"\bladders?\b|\bshicho\b", re.I)
_TERMS = (r"(?:support|stones?|extension|help|pincer|enclosure|position|situation|circumstances|strategy|presence|"
          r"surroundings?|side of interest|triangled|marked|as shown|upper|lower|top|bottom|left side|right side)")
_NEARBY = LazyPattern(
    r"\b(?:if|when|unless|given|depend\w*|provided|requires?|needs?|only)\b.*\b" + _TERMS + r"\b"
    r"|(?<!continues )(?<!continue )(?<!up )(?<!respond )(?<!responds )(?<!answers )(?<!answer )"
    r"\b(?:with|without)\s+(?:[\w'-]+\s+){0,3}" + _TERMS + r"\b", re.I)
"""A sentence that makes a move depend on the board elsewhere: a conditional word and what it depends on, or
"with" / "without" right before it ("with support at the top"; never "continues with ... to take the top")."""
_NOT_NEARBY = LazyPattern(r"\bconsidering\b|\bregardless\b|\beven (?:if|with|when)\b", re.I)
"""Words that say a move does not depend on the board ("even with support", "without considering the stones")."""
_NEARBY_HINT = LazyPattern(r"\b(?:if|when|unless|given|depend|provided|requires?|needs?|only|with|without)\b")

_ZONE = LazyPattern(r"\{p:([A-S]{2})\}")
_COLOUR = LazyPattern(r"\{c:([12]):[^{}]*\}")
_FAVOURABLE = r"(?:a |the )?(?:favou?rable |good )?(?:ladder|shicho)"
_NEEDS = LazyPattern(r"\{c:([12]):[^{}]*\}\s+(?:must|should|needs? to|has to)\s+have\s+"
                     + _FAVOURABLE + r"|\{c:([12]):[^{}]*\}\s+needs\s+" + _FAVOURABLE
                     + r"|\b(?:if|when)\s+\{c:([12]):[^{}]*\}\s+(?:has|have|gets)\s+" + _FAVOURABLE, re.I)
_FAVOURS = LazyPattern(r"\bwith\s+(?:a|the)\s+favou?rable\s+ladder"
                       r"|\b(?:if|when)\s+the\s+ladder\s+(?:is\s+favou?rable|works|favou?rs)"
                       r"|\bwith\s+the\s+ladder\b|\bneeds?\s+(?:a|the)\s+(?:favou?rable\s+)?ladder", re.I)
_AGAINST = LazyPattern(r"\b(?:if|when)\s+(?:the\s+)?ladders?\s+(?:is|are)\s+(?:unfavou?rable|not\s+favou?rable|bad)"
                       r"|\bwithout\s+(?:a|the)\s+(?:favou?rable\s+)?ladder|\b(?:does\s*n[o']t|do\s*n[o']t|does\s+not)"
                       r"\s+have\s+(?:a|the)\s+(?:favou?rable\s+)?ladder"
                       r"|\bladder\s+(?:does\s*n[o']t|does\s+not)\s+work", re.I)
_MIXED = LazyPattern(r"\bif not\b|\botherwise\b|\bregardless\b|\beven (?:if|with)\b|\bmistake\b|\bor\b", re.I)


def _short(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3].rstrip() + "..."


@lru_cache(maxsize=1 << 16)
def text_conditions(comment: str) -> tuple[tuple[Target, Condition], ...]:
    """The ladders and nearby stones a free-text comment makes moves depend on, each with the move it names."""
    found: list[tuple[Target, Condition]] = []
    low = comment.lower()
    if "ladder" not in low and "shicho" not in low and not _NEARBY_HINT.search(low):
        return ()
    for sentence in sentences(comment):
        nearby = _NEARBY.search(sentence) is not None and _NOT_NEARBY.search(sentence) is None
        kind = "ladder" if _LADDER.search(sentence) else "nearby" if nearby else None
        if kind is None:
            continue
        heading = sentence.lstrip("#").strip()
        targets = subjects(sentence) or ([Target(SELF)] if kind == "ladder" else [])
        found.extend((t, Condition(kind, _short(heading))) for t in targets)
    return tuple(found)


def worded_ladder(text: str) -> WordedLadder:
    """What a ladder sentence (stored with placeholders, :mod:`joseki.core.wording`) asks of the board."""
    needs, favours, against = _NEEDS.search(text), _FAVOURS.search(text), _AGAINST.search(text)
    positive = needs is not None or favours is not None
    if len(_ZONE.findall(text)) > 1 or _MIXED.search(text) or positive == (against is not None):
        return WordedLadder(None, None, "the words do not say who needs which ladder")
    colours = set(_COLOUR.findall(text))
    role: str | None
    if needs is not None:
        role = next(g for g in needs.groups() if g)
    elif len(colours) == 1:
        role = colours.pop()
    elif not colours:
        role = None  # "with a favourable ladder": the player of the move
    else:
        return WordedLadder(None, None, "the words do not say whose ladder")
    return WordedLadder(FAILS if against is not None else WORKS, role)
