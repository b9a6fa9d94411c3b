"""Text diagrams of a corner: stones, and candidate moves as letters (pure, no I/O)."""

from __future__ import annotations

from joseki.core.geometry import Corner, Point
from joseki.core.notation import GTP_COLUMNS

SPAN = 12
"""How many lines of the corner a diagram shows."""


def corner_diagram(corner: Corner, stones: dict[Point, str], labels: dict[Point, str], size: int = 19,
                   span: int = SPAN) -> list[str]:
    """The corner as text rows: ``X`` black, ``O`` white, labels as given, ``.`` empty, ``+`` star points.

    Columns carry GTP letters and rows GTP numbers, so the picture reads like the board.
    """
    xs = range(size - span, size) if corner.right else range(span)
    ys = range(size - span, size) if corner.bottom else range(span)
    stars = {(a, b) for a in (3, size // 2, size - 4) for b in (3, size // 2, size - 4)}
    header = "    " + " ".join(GTP_COLUMNS[x] for x in xs)
    rows = [header]
    for y in ys:
        cells = []
        for x in xs:
            if (x, y) in labels:
                cells.append(labels[(x, y)])
            elif (x, y) in stones:
                cells.append("X" if stones[(x, y)] == "b" else "O")
            else:
                cells.append("+" if (x, y) in stars else ".")
        rows.append(f"{size - y:>3} " + " ".join(cells))
    return rows
