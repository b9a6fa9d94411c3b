"""The collection dialects, in the order a file is told to be in one (:func:`detect`).

A file is in the first dialect that claims it by the text before its game tree or its property
names (:meth:`~joseki.sgf.dialects.dialect.Dialect.by_file`: this project's exports by their ``J*``
properties, GNU Go's by its licence), else in the first that one of its comments shows
(:meth:`~joseki.sgf.dialects.dialect.Dialect.by_comment`: an export's root comment, the KataGo
trees' JSON counts, Pachi's tags and sections, OGS's headings), else in the last one, Kogo's free
text. A new dialect is a module with a :class:`~joseki.sgf.dialects.dialect.Dialect` and its place
in :data:`DIALECTS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from joseki.core.conditions import Condition, parse_condition
from joseki.core.errors import BadInput
from joseki.core.ladder_check import LadderQuestion
from joseki.sgf.dialects.dialect import Dialect
from joseki.sgf.dialects.export import Export
from joseki.sgf.dialects.gnugo import GnuGo
from joseki.sgf.dialects.katago import KataGo
from joseki.sgf.dialects.kogo import Kogo
from joseki.sgf.dialects.ogs import Ogs
from joseki.sgf.dialects.pachi import Pachi

DIALECTS: tuple[Dialect, ...] = (Export(), GnuGo(), KataGo(), Pachi(), Ogs(), Kogo())
"""Every dialect, in the order they are told apart; the last is the one of a file no other claims."""


def detect(preamble: str, comments: Iterable[str], properties: Iterable[str] = ()) -> Dialect:
    """The dialect of a collection file, from the text before its game tree, its comments and property names."""
    dialects = DIALECTS
    names = set(properties)
    for dialect in dialects:
        if dialect.by_file(preamble, names):
            return dialect
    telling = [(i, d) for i, d in enumerate(dialects) if type(d).by_comment is not Dialect.by_comment]
    seen: set[int] = set()
    for comment in comments:
        for index, dialect in telling:
            if index not in seen and dialect.by_comment(comment):
                seen.add(index)
        if seen and min(seen) == telling[0][0]:
            break
    return dialects[min(seen)] if seen else dialects[-1]


MAX_TITLE = 200
"""The longest collection name (the store's column)."""


def collection_title(dialect: Dialect, info: Mapping[str, str], stem: str) -> str:
    """The name a collection gets when none is given: what its dialect calls it (:meth:`Dialect.title`), else the
    file's stem."""
    return (dialect.title(info, stem) or stem)[:MAX_TITLE]


def dialect_named(name: str) -> Dialect:
    """The dialect called ``name``; BadInput for an unknown name."""
    for dialect in DIALECTS:
        if dialect.name == name:
            return dialect
    raise BadInput(f"unknown dialect {name!r} (expected one of {', '.join(d.name for d in DIALECTS)})")


def lint_kinds() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kinds of lint finding the dialects give on passes, and those they give on comments, each once."""
    passes = tuple(dict.fromkeys(k for d in DIALECTS for k in d.pass_kinds))
    comments = tuple(dict.fromkeys(k for d in DIALECTS for k in d.comment_kinds))
    return passes, comments


def ladder_questions(stored: Sequence[Condition] | Sequence[str]) -> list[tuple[Condition, LadderQuestion]]:
    """What each ladder condition of a move (or its stored ``kind: text`` form) asks of a board, in order.

    Each condition is read by the first dialect that knows its form; stored text that is not a
    condition is left out.
    """
    conditions = [c for c in map(_parsed, stored) if c is not None]
    found: list[tuple[Condition, LadderQuestion]] = []
    for condition in conditions:
        if condition.kind != "ladder":
            continue
        for dialect in DIALECTS:
            questions = dialect.ladders(condition, conditions)
            if questions is not None:
                found.extend((condition, q) for q in questions)
                break
    return found


def _parsed(condition: Condition | str) -> Condition | None:
    if isinstance(condition, Condition):
        return condition
    try:
        return parse_condition(condition)
    except ValueError:
        return None
