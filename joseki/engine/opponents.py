"""Named opponents for matches: GNU Go at two levels and GNU Go without its joseki database.

Each is meant to be its own profile (``match --opponent gnugo-1 --learn gnugo-1``), so the book
can learn that a line works against one and not another.
"""

from __future__ import annotations

import shlex

from joseki.core.errors import BadInput
from joseki.engine.judge import gnugo_path

OPPONENTS = {
    "gnugo-1": "--level 1",
    "gnugo-10": "--level 10",
    "gnugo-nojoseki": "--level 1 --nojosekidb",
}
"""Name -> GNU Go's options (besides ``--mode gtp``)."""


def opponent_command(name: str) -> str:
    """The command line of the opponent ``name``; BadInput for an unknown name."""
    if name not in OPPONENTS:
        raise BadInput(f"unknown opponent {name!r} (expected {', '.join(OPPONENTS)})")
    return f"{shlex.quote(gnugo_path())} --mode gtp {OPPONENTS[name]}"
