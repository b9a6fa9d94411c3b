"""Generated SGF inputs for the limits: long legal lines, many distinct lines, scaled real collections.

Shared by tests/test_limits.py and benchmarks/bench_limits.py; every move they make is legal
(checked on :class:`~joseki.core.position.LocalBoard` as they are made).
"""

from __future__ import annotations

import random

from joseki.core.geometry import Point
from joseki.core.notation import format_sgf_point
from joseki.core.position import LocalBoard

HEAD = b"(;FF[4]GM[1]SZ[19]CA[UTF-8]"

# A ko on the upper edge of the top-left corner: White's stone at B18 and Black's at C18 take
# each other back and forth (no ko rule is enforced by the book), so a line can be any length.
_KO_SETUP: list[Point] = [(0, 1), (2, 0), (1, 0), (3, 1), (1, 2), (2, 2), (2, 1)]
_KO_TAKES: tuple[Point, Point] = ((1, 1), (2, 1))


def ko_moves(n: int) -> list[Point]:
    """``n`` legal moves, Black first, all in the top-left corner: a setup, then a ko fought forever."""
    moves = _KO_SETUP[:n]
    while len(moves) < n:
        moves.append(_KO_TAKES[(len(moves) - len(_KO_SETUP)) % 2])
    return moves


def line_sgf(points: list[Point]) -> bytes:
    """One line of ``points``, Black first."""
    nodes = [f";{'BW'[i % 2]}[{format_sgf_point(p)}]" for i, p in enumerate(points)]
    return HEAD + "".join(nodes).encode() + b")"


def distinct_lines(count: int, length: int = 12, seed: int = 1) -> bytes:
    """A collection of ``count`` random legal lines of ``length`` moves in the top-right corner (all distinct)."""
    rng = random.Random(seed)
    zone = [(x, y) for x in range(10, 19) for y in range(0, 9)]
    seen: set[tuple[Point, ...]] = set()
    branches = []
    while len(branches) < count:
        board, line = LocalBoard(), []
        while len(line) < length:
            point = rng.choice(zone)
            try:
                board.play("bw"[len(line) % 2], point)  # type: ignore[arg-type]
            except ValueError:
                continue
            line.append(point)
        if tuple(line) not in seen:
            seen.add(tuple(line))
            branches.append("(" + "".join(f";{'BW'[i % 2]}[{format_sgf_point(p)}]" for i, p in enumerate(line))
                            + ")")
    return HEAD + "".join(branches).encode() + b")"


def scaled(data: bytes, times: int) -> bytes:
    """A collection holding ``times`` copies of the game trees of collection ``data``."""
    return data * times
