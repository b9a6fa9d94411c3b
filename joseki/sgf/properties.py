"""What a node's SGF properties say about the board and the game: setup points, the game type, the rules.

Shared by the collection reader (:mod:`joseki.sgf.forest`) and the game-record reader
(:mod:`joseki.sgf.game`), so that both apply setup stones, refuse a game that is not Go and read
the suicide rule the same way.
"""

from __future__ import annotations

from joseki.core.errors import BadInput
from joseki.core.geometry import Point
from joseki.core.position import allows_suicide
from joseki.core.steps import Colour
from joseki.core.zone import ZONE_BOARD_SIZE


def board_points(raw: bytes, size: int = ZONE_BOARD_SIZE) -> list[Point]:
    """The points of a setup value: one SGF point or a compressed rectangle (``aa:cc``); [] if malformed."""
    corners = raw.strip().split(b":")
    if len(corners) > 2 or any(len(c) != 2 for c in corners):
        return []
    (x1, y1), (x2, y2) = ((c[0] - 97, c[1] - 97) for c in (corners[0], corners[-1]))
    if min(x1, y1, x2, y2) < 0 or max(x1, y1, x2, y2) >= size:
        return []
    return [(x, y) for x in range(min(x1, x2), max(x1, x2) + 1) for y in range(min(y1, y2), max(y1, y2) + 1)]


def apply_setup(stones: dict[Point, Colour], size: int, props: dict[str, list[bytes]]) -> None:
    """Put a node's setup stones (AB, AW) into ``stones`` (a ``size`` board's) and take its AE points off."""
    for key, colour in (("AE", None), ("AB", "b"), ("AW", "w")):
        for value in props.get(key, ()):
            for point in board_points(value, size):
                if colour is None:
                    stones.pop(point, None)
                else:
                    stones[point] = colour


def check_go(root: dict[str, list[bytes]], what: str = "the game") -> None:
    """BadInput unless a root node's ``GM`` is 1 (Go) or absent."""
    value = root.get("GM", [b"1"])[0].strip()
    if value not in (b"1", b""):
        raise BadInput(f"{what} is GM[{value.decode('ascii', 'replace')}], not Go (GM[1])")


def is_export(root: dict[str, list[bytes]]) -> bool:
    """Whether a game tree was written by ``joseki export`` (``AP[joseki:...]``).

    Its lines are the book's records: local moves only, the moves elsewhere that made some
    of their captures left out, so they are not replayed on the board.
    """
    return root.get("AP", [b""])[0].startswith(b"joseki:")


def rules_allow_suicide(root: dict[str, list[bytes]]) -> bool:
    """Whether a root node's rules (``RU``) allow suicide."""
    return "RU" in root and allows_suicide(root["RU"][0].decode("ascii", "replace"))
