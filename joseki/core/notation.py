"""Notations for points: SGF (``pd``), GTP (``Q16``), zone letters (``DD``), passes, tenuki.

Every parser returns a board :data:`~joseki.core.geometry.Point` (``None`` for a pass) or a zone
point, and raises BadInput naming the bad token.
"""

from __future__ import annotations

from joseki.core.errors import BadInput
from joseki.core.geometry import Point, check_size

TENUKI = "XX"
"""The step-string marker for "the local side to move played elsewhere"."""

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""GTP column letters: no I."""

PASS_WORDS = frozenset({"pass", "tt", ""})


def is_pass(token: str) -> bool:
    """True for the spellings of a pass: ``pass``, ``tt`` (boards up to 19) and the empty string."""
    return token.strip().lower() in PASS_WORDS


def parse_sgf_point(token: str, size: int = 19) -> Point | None:
    """Board point of an SGF point such as ``pd``; None for a pass (``""``, or ``tt`` up to 19x19)."""
    check_size(size)
    text = token.strip()
    if text == "" or (text == "tt" and size <= 19):
        return None
    if len(text) != 2 or not text.isascii() or not text.islower() or not text.isalpha():
        raise BadInput(f"bad SGF point {token!r}")
    x, y = ord(text[0]) - 97, ord(text[1]) - 97
    if x >= size or y >= size:
        raise BadInput(f"SGF point {token!r} is off a {size}x{size} board")
    return (x, y)


def format_sgf_point(point: Point | None, size: int = 19) -> str:
    """SGF spelling of a board point; a pass is ``""``."""
    if point is None:
        return ""
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise BadInput(f"point {point!r} is off a {size}x{size} board")
    return chr(97 + x) + chr(97 + y)


def parse_gtp_vertex(token: str, size: int = 19) -> Point | None:
    """Board point of a GTP vertex such as ``Q16`` (no letter I); None for ``pass``."""
    check_size(size)
    text = token.strip().upper()
    if text == "PASS":
        return None
    if len(text) < 2 or text[0] not in GTP_COLUMNS or not text[1:].isdigit():
        raise BadInput(f"bad GTP vertex {token!r}")
    x = GTP_COLUMNS.index(text[0])
    number = int(text[1:])
    if x >= size or not 1 <= number <= size:
        raise BadInput(f"GTP vertex {token!r} is off a {size}x{size} board")
    return (x, size - number)


def format_gtp_vertex(point: Point | None, size: int = 19) -> str:
    """GTP spelling of a board point; a pass is ``pass``."""
    if point is None:
        return "pass"
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise BadInput(f"point {point!r} is off a {size}x{size} board")
    return f"{GTP_COLUMNS[x]}{size - y}"


def parse_move(token: str, size: int = 19) -> Point | None:
    """A move in GTP (``Q16``) or SGF (``pd``) notation, or a pass; BadInput otherwise.

    Two lower-case letters are SGF; a letter and a number are GTP.
    """
    text = token.strip()
    if is_pass(text):
        return None
    if len(text) == 2 and text.isalpha() and text.islower():
        return parse_sgf_point(text, size)
    if len(text) >= 2 and text[0].isalpha() and text[1:].isdigit():
        return parse_gtp_vertex(text, size)
    raise BadInput(f"bad move {token!r} (expected GTP like Q16, SGF like pd, or pass)")


def format_zone_point(zpoint: Point) -> str:
    """Zone letters of a zone point: column then row, A = first line."""
    col, row = zpoint
    if not (0 <= col < 26 and 0 <= row < 26):
        raise BadInput(f"zone point {zpoint!r} has no letters")
    return chr(65 + col) + chr(65 + row)


def parse_zone_point(token: str, size: int = 19) -> Point:
    """Zone point of two zone letters such as ``DD``; BadInput if off the board or ``XX``."""
    if len(token) != 2 or not token.isascii() or not token.isalpha() or not token.isupper():
        raise BadInput(f"bad zone step {token!r} (expected two capital letters)")
    if token == TENUKI:
        raise BadInput(f"{TENUKI!r} is the tenuki marker, not a point")
    col, row = ord(token[0]) - 65, ord(token[1]) - 65
    if col >= size or row >= size:
        raise BadInput(f"zone step {token!r} has a letter beyond a {size}x{size} board")
    return (col, row)
