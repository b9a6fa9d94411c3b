"""Text diagrams of a corner: stones, candidate moves as letters, and marked points (pure, no I/O)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from joseki.core.geometry import Corner, Point
from joseki.core.notation import GTP_COLUMNS

SPAN = 12
"""How many lines of the corner a diagram shows."""

MARK_LEGEND = "* # @: a point (empty, black stone, white stone) a condition names"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def letters(points: Iterable[Point | None], occupied: Iterable[Point] = ()) -> dict[Point, str]:
    """The letters of candidate moves, in their order: one per empty point, none on a stone (``occupied``) or for
    a tenuki, so no letter ever stands on a stone."""
    taken = set(occupied)
    empty = [p for p in dict.fromkeys(points) if p is not None and p not in taken]
    return {p: LETTERS[i] for i, p in enumerate(empty[: len(LETTERS)])}


def marks_of(points: Iterable[Point], stones: Mapping[Point, str],
             setup: Mapping[Point, str] | None = None) -> dict[Point, str]:
    """Diagram marks for the points conditions name: ``#`` a black stone, ``@`` a white one, ``*`` an empty point.

    The stones are the board's, else the setup stones a condition puts there. ``#`` and ``@``
    are Sensei's Library's marked stones; no mark is a letter, so none reads as a candidate, and
    the text names the same points by their coordinates.
    """
    out: dict[Point, str] = {}
    for p in points:
        colour = stones.get(p) or (setup or {}).get(p)
        out[p] = "#" if colour == "b" else "@" if colour == "w" else "*"
    return out


def corner_diagram(corner: Corner, stones: dict[Point, str], labels: dict[Point, str], size: int = 19,
                   span: int = SPAN, marks: Mapping[Point, str] | None = None) -> list[str]:
    """The corner as text rows: ``X`` black, ``O`` white, labels as given, ``.`` empty, ``+`` star points.

    Columns carry GTP letters and rows GTP numbers, so the picture reads like the board.
    ``marks`` (:func:`marks_of`) are drawn where no label is, and a legend row follows when
    one is in view; a label is never drawn on a stone (the stone is).
    """
    xs = range(size - span, size) if corner.right else range(span)
    ys = range(size - span, size) if corner.bottom else range(span)
    stars = {(a, b) for a in (3, size // 2, size - 4) for b in (3, size // 2, size - 4)}
    header = "    " + " ".join(GTP_COLUMNS[x] for x in xs)
    rows = [header]
    marked = False
    for y in ys:
        cells = []
        for x in xs:
            if (x, y) in labels and (x, y) not in stones:
                cells.append(labels[(x, y)])
            elif marks and (x, y) in marks:
                cells.append(marks[(x, y)])
                marked = True
            elif (x, y) in stones:
                cells.append("X" if stones[(x, y)] == "b" else "O")
            else:
                cells.append("+" if (x, y) in stars else ".")
        rows.append(f"{size - y:>3} " + " ".join(cells))
    return [*rows, MARK_LEGEND] if marked else rows
