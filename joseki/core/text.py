"""Making outside text safe for a terminal: control characters shown, not obeyed.

Comments, file names and arguments come from outside. Printed as they are, an escape
sequence in an SGF comment (``ESC[2J``, an OSC title) would drive the user's terminal, and
a bidirectional override would reorder what is shown. :func:`visible` writes every such
character as a Python-style escape (``\\x1b``, ``\\u202e``) and keeps newlines and tabs;
:func:`json_safe` does the same inside JSON text with JSON's own escapes, so that the
parsed values stay exact.
"""

from __future__ import annotations

import re

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 controls but newline and tab, DEL, C1 controls, and the bidirectional and line-separator
format characters."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with its control characters written as escapes (``\\x1b``) that a terminal only shows."""
    return UNSAFE.sub(_escape, text)


def json_safe(json_text: str) -> str:
    """JSON text with the control characters :func:`json.dumps` leaves raw written as ``\\uXXXX`` escapes.

    Those characters (DEL, C1, bidirectional format characters) can only occur inside JSON
    strings, where the escape means the same character: the data read back is unchanged.
    """
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)
