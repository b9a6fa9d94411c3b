"""The documented limits on what one SGF file may hold: one source of truth for each.

Flattening stores every prefix of every line, so a file's store size and memory grow with
its nodes times its longest line; these limits keep both bounded, and so linear in the
file's size. Each lies well above the largest real input measured (Kogo's Joseki
Dictionary: 1.5 MB, 62,749 nodes, 273 moves in its longest line, a 2.6 KB
comment; game records: 33 KB, 3,702 nodes, 469 moves). Beyond a limit the file is refused
with a :class:`LimitError` naming the limit. Nesting depth needs no limit of its own: every
walk of a tree is iterative, and a tree has at least one node per level.
"""

from __future__ import annotations

from joseki.core.errors import BadInput

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Bytes read from one SGF file (20x Kogo's 1.5 MB); a longer file is refused before it is read whole."""

MAX_NODES = 1_000_000
"""Nodes (``;``) in one SGF file (16x Kogo's 62,749); memory grows with them."""

MAX_LINE_MOVES = 3_000
"""Moves (passes included) along one root-to-leaf line, or a game's main line (11x Kogo's 273,
6x the longest game record's 469).

Every prefix of a line is a node of the book, so a line's store size grows with the square
of its length: this limit bounds it (a 3,000-move line in one corner stores about 11 MB).
"""

MAX_VALUE_BYTES = 64 * 1024
"""Bytes in one property value read as text, such as a comment (24x Kogo's longest, 2.6 KB)."""


class LimitError(BadInput):
    """An SGF input beyond one of the documented limits."""


def beyond(what: str, limit: int, unit: str) -> LimitError:
    """The one-line error for ``what`` past ``limit``, e.g. ``a line of more than 3,000 moves (the limit)``."""
    return LimitError(f"{what} of more than {limit:,} {unit} (the limit)")

MAX_UPLOAD_BYTES = 1024 * 1024
"""Bytes of one game record sent to ``joseki serve`` (30x the largest game record measured, 33 KB); the
upload is then read with the limits above, as ``learn`` reads a file."""
