"""Ranks and dates as game records write them, put into one form that sorts.

Servers spell ranks their own way: KGS ``7d``, ``2k?``, ``9p``; Fox ``9段`` (amateur dan),
``P9段`` or ``P9`` (professional), ``3级`` (kyu); Korean ``9단`` and ``3급``; Japanese ``級``.
:func:`normal_rank` reads them all as ``9d``, ``9p``, ``3k`` ('' when unknown), and
:func:`rank_value` orders them: every kyu below every amateur dan, every amateur dan below
every professional. Dates (``DT``) become ISO ``YYYY-MM-DD`` (or ``YYYY-MM``, ``YYYY``), which
sort as text; '' when the record has none.
"""

from __future__ import annotations

import re

_RANK = re.compile(r"^\s*(?P<pro>[Pp]\s*)?(?P<n>\d{1,2})\s*(?P<unit>段|단|级|級|급|[dDkKpP])?")
_UNITS = {"段": "d", "단": "d", "级": "k", "級": "k", "급": "k", "d": "d", "k": "k", "p": "p"}
_LIMIT = {"d": 9, "p": 9, "k": 30}
_DATE = re.compile(r"(?<!\d)(\d{4})(?:[-./](\d{1,2})(?:[-./](\d{1,2}))?)?(?!\d)")


def normal_rank(text: str) -> str:
    """``9d``, ``9p`` or ``3k`` for a rank as servers write it; '' when it is not one."""
    match = _RANK.match(text or "")
    if match is None:
        return ""
    unit = match["unit"]
    if unit is None:
        if not match["pro"]:
            return ""
        unit = "p"
    kind = "p" if match["pro"] else _UNITS[unit.lower() if unit.isascii() else unit]
    number = int(match["n"])
    if not 1 <= number <= _LIMIT[kind]:
        return ""
    return f"{number}{kind}"


def rank_value(rank: str) -> int | None:
    """A number that orders normal ranks (``30k`` = -29 .. ``1k`` = 0, ``1d`` = 1 .. ``9d`` = 9, ``1p`` = 10 ..)."""
    if len(rank) < 2 or not rank[:-1].isdigit() or rank[-1] not in _LIMIT:
        return None
    number = int(rank[:-1])
    return {"k": 1 - number, "d": number, "p": 9 + number}[rank[-1]]


def strength(black_rank: str, white_rank: str) -> int | None:
    """How strong a game was, to sort by: twice the sum of both players' :func:`rank_value`, plus one when
    both are known (a rank missing counts as the other's, below a game of the same ranks known); None if neither."""
    values = [v for v in (rank_value(black_rank), rank_value(white_rank)) if v is not None]
    if not values:
        return None
    return 2 * sum(values) + 1 if len(values) == 2 else 4 * values[0]


def normal_date(text: str) -> str:
    """The first date of an SGF ``DT`` value as ``YYYY-MM-DD`` (or ``YYYY-MM``, ``YYYY``); '' when none."""
    match = _DATE.search(text or "")
    if match is None:
        return ""
    year, month, day = match.groups()
    if int(year) < 1000:
        return ""
    if month is None or not 1 <= int(month) <= 12:
        return year
    if day is None or not 1 <= int(day) <= 31:
        return f"{year}-{int(month):02d}"
    return f"{year}-{int(month):02d}-{int(day):02d}"
