"""GTP version 2 syntax: reading a command line, writing a response, and checking arguments.

The rules are those of the GTP 2 specification (draft 2, sections 2.3 to 2.6): control
characters other than tab and newline are removed, everything from ``#`` on is a comment,
tabs count as spaces, a line with nothing left is ignored; a command is ``[id] name
[arguments]`` with an optional integer id, and its response is ``=[id] result`` or ``?[id]
message`` followed by an empty line. Every argument checker here accepts plain ASCII only
and returns a canonical value, so a command rebuilt from checked arguments is always safe
to send to an engine (printable ASCII, no line breaks).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from joseki.core.errors import BadInput
from joseki.core.geometry import Point
from joseki.core.notation import parse_gtp_vertex

MAX_LINE = 64 * 1024
"""Bytes of one input line the proxy reads; the rest of a longer line is dropped and the line refused."""

MAX_INT = 2**31 - 1
"""Largest integer argument passed on to an engine (engines read them into C ints)."""

MAX_KOMI = 1000.0
"""Largest komi (in absolute value) passed on to an engine."""

_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_ID = re.compile(r"[0-9]+")
_VERTEX = re.compile(r"[A-Za-z][0-9]{1,2}|[Pp][Aa][Ss][Ss]")


class ArgumentError(BadInput):
    """A command's arguments are wrong; the message is the GTP error text (``syntax error`` ...)."""


@dataclass(frozen=True, slots=True)
class Command:
    """One preprocessed command line: its id (digits, or ``""``), name and arguments."""

    ident: str
    name: str
    args: list[str]


def decode_line(raw: bytes) -> str:
    """Text of one input line read as bytes: UTF-8 where valid, U+FFFD for any other byte."""
    return raw.decode("utf-8", "replace")


def preprocess(line: str) -> str:
    """The line after the specification's preprocessing (controls removed, comment cut, tabs to spaces)."""
    text = line.split("#", 1)[0]
    text = "".join(ch for ch in text if ch == "\t" or not _is_control(ch))
    return text.replace("\t", " ")


def _is_control(ch: str) -> bool:
    """An ASCII control character (0 to 31, 127), as the specification defines them."""
    code = ord(ch)
    return code < 32 or code == 127


def parse_command(line: str) -> Command | None:
    """The command on one input line, or None for a line the protocol ignores (empty or comment).

    Words are separated by spaces only (as the specification says), so no Unicode space
    splits or joins them. A line holding only an id gives a command with an empty name.
    """
    words = [word for word in preprocess(line).split(" ") if word]
    if not words:
        return None
    ident = ""
    if _ID.fullmatch(words[0]):
        ident, words = words[0], words[1:]
    if not words:
        return Command(ident, "", [])
    return Command(ident, words[0], words[1:])


def response(ident: str, ok: bool, text: str) -> str:
    """The full response: ``=id text`` or ``?id text``, then the empty line that ends it.

    Empty lines inside a multi-line answer are dropped (an empty line would end the
    response early) and so are control characters.
    """
    lines = ["".join(ch for ch in part if not _is_control(ch)) for part in text.replace("\r", "").split("\n")]
    body = "\n".join(part for part in lines if part.strip())
    return f"{'=' if ok else '?'}{ident}{' ' if body else ''}{body}\n\n"


def check_command(command: str) -> str:
    """``command`` if it is safe to send to an engine (printable ASCII, one line); BadInput otherwise."""
    if not command.strip() or not all(" " <= ch <= "~" for ch in command):
        raise BadInput(f"bad GTP command {command!r}")
    return command


def parse_colour(token: str) -> str:
    """``"b"`` or ``"w"`` for a GTP colour (``b``, ``black``, ``W`` ...); BadInput otherwise."""
    text = token.strip()
    if text.isascii():
        text = text.lower()
        if text in ("b", "black"):
            return "b"
        if text in ("w", "white"):
            return "w"
    raise ArgumentError("syntax error")


def parse_vertex(token: str, size: int) -> Point | None:
    """A GTP vertex (``pass`` allowed) on a ``size`` board; ArgumentError (``syntax error``) otherwise."""
    if not _VERTEX.fullmatch(token):
        raise ArgumentError("syntax error")
    try:
        return parse_gtp_vertex(token, size)
    except ValueError:
        raise ArgumentError("syntax error") from None


def parse_int(token: str, low: int = 0, high: int = MAX_INT) -> int:
    """A decimal integer argument in ``low..high``; ArgumentError (``syntax error``) otherwise.

    Only ASCII digits with an optional minus sign count, and at most ten of them, so no
    huge or exotic number ever reaches :func:`int`.
    """
    digits = token.removeprefix("-")
    if not (_ID.fullmatch(digits) and len(digits) <= 10):
        raise ArgumentError("syntax error")
    value = int(token)
    if not low <= value <= high:
        raise ArgumentError("syntax error")
    return value


def parse_size(token: str) -> int:
    """A ``boardsize`` argument: any integer parses, then ``unacceptable size`` unless it is a board size."""
    digits = token.removeprefix("-")
    if not _ID.fullmatch(digits):
        raise ArgumentError("syntax error")
    if token.startswith("-") or len(digits) > 3:
        raise ArgumentError("unacceptable size")
    return int(digits)


def parse_komi(token: str) -> float:
    """A finite komi of at most :data:`MAX_KOMI` points; ArgumentError otherwise (``nan`` and ``inf`` too)."""
    if len(token) > 32 or not _FLOAT.fullmatch(token):
        raise ArgumentError("syntax error")
    komi = float(token)
    if not math.isfinite(komi) or abs(komi) > MAX_KOMI:
        raise ArgumentError("unacceptable komi")
    return komi


def format_komi(komi: float) -> str:
    """Komi as sent to an engine: the shortest decimal that reads back the same, never ``nan``/``inf``."""
    if not math.isfinite(komi):
        raise BadInput(f"komi must be finite, not {komi!r}")
    return repr(float(komi))


def check_no_args(args: list[str]) -> list[str]:
    """No arguments (an empty list); ArgumentError otherwise."""
    if args:
        raise ArgumentError("syntax error")
    return []


def check_status(args: list[str]) -> list[str]:
    """A ``final_status_list`` status: ``alive``, ``dead`` or ``seki``."""
    if len(args) != 1 or args[0].lower() not in ("alive", "dead", "seki"):
        raise ArgumentError("syntax error")
    return [args[0].lower()]


def check_ints(args: list[str], count: int) -> list[str]:
    """Exactly ``count`` non-negative integers (as by :func:`parse_int`), in canonical spelling."""
    if len(args) != count:
        raise ArgumentError("syntax error")
    return [str(parse_int(arg)) for arg in args]


def check_time_left(args: list[str]) -> list[str]:
    """``time_left`` arguments: a colour, seconds and stones."""
    if len(args) != 3:
        raise ArgumentError("syntax error")
    return [parse_colour(args[0]), *check_ints(args[1:], 2)]


_KGS_SYSTEMS = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}


def check_kgs_time(args: list[str]) -> list[str]:
    """``kgs-time_settings`` arguments: a time system and the integers it takes."""
    system = args[0].lower() if args else ""
    if system not in _KGS_SYSTEMS:
        raise ArgumentError("syntax error")
    return [system, *check_ints(args[1:], _KGS_SYSTEMS[system])]
