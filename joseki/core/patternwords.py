"""The pattern search's placement and ``--next`` sequence read from their words (pure).

One reading for the CLI's options (``joseki search``) and the explorer's parameters (``/api/search``): a
placement named by a corner, a side, anywhere, or a point for the pattern's top-left; and moves that follow a
hit, as pattern cells counted from where the pattern is drawn.
"""

from __future__ import annotations

from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.notation import parse_move
from joseki.core.pattern import Pattern, Placement, Side, Where

Sequence = tuple[tuple[str, Point], ...]
"""Moves after a hit: colour (``b`` the pattern's ``X``, ``w`` its ``O``) and pattern cell each."""


def placement(pattern: Pattern, corner: str | None, side: str | None, anywhere: bool, at: str | None) -> Placement:
    """The placement named by at most one of ``corner``, ``side``, ``anywhere`` and ``at`` (the pattern's top-left
    point); the top-left corner when none is. BadInput for two of them, an unknown name, or a pattern that runs off
    the board at its point."""
    chosen = [name for name, on in (("--corner", corner is not None), ("--side", side is not None),
                                    ("--anywhere", anywhere), ("--at", at is not None)) if on]
    if len(chosen) > 1:
        raise BadInput(f"{' and '.join(chosen)}: choose one placement")
    if side is not None:
        return Placement(Where.SIDE, side=Side.parse(side))
    if anywhere:
        return Placement(Where.ANYWHERE)
    if at is not None:
        point = parse_move(at)
        if point is None:
            raise BadInput(f"--at {at!r}: a point, not a pass")
        found = Placement(Where.FIXED, at=point)
        found.home(pattern)
        return found
    return Placement(Where.CORNER, corner=Corner.parse(corner or "top-left"))


def sequence(moves: list[str], pattern: Pattern, origin: Point, where: str = "where it lies at home") -> Sequence:
    """Moves (``B:Q16`` or ``Q16``, colours alternating from Black) as cells of ``pattern`` drawn with its top-left
    point at ``origin``; BadInput for a pass, a bad colour or a point outside the pattern (``where`` says where it
    was drawn)."""
    x0, y0 = origin
    found = []
    colour = "b"
    for token in moves:
        text = token
        if ":" in token:
            head, text = token.split(":", 1)
            if head.strip().lower() not in ("b", "w"):
                raise BadInput(f"--next {token!r}: colour B or W")
            colour = head.strip().lower()
        point = parse_move(text)
        if point is None:
            raise BadInput(f"--next {token!r}: a point inside the pattern, not a pass")
        cell = (point[0] - x0, point[1] - y0)
        if not (0 <= cell[0] < pattern.width and 0 <= cell[1] < pattern.height):
            raise BadInput(f"--next {token!r}: outside the pattern {where}")
        found.append((colour, cell))
        colour = "w" if colour == "b" else "b"
    return tuple(found)
