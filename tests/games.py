"""Hand-made game records for the tests."""

from __future__ import annotations

from pathlib import Path

from joseki.core.geometry import Corner, Transform
from joseki.core.notation import format_sgf_point, parse_move


def sgf_text(moves: list[str], result: str = "B+R", first: str = "B", extra: str = "") -> str:
    """An SGF game of ``moves`` (GTP or SGF notation, ``pass``) alternating from ``first``."""
    colour, nodes = first, []
    for move in moves:
        nodes.append(f";{colour}[{format_sgf_point(parse_move(move))}]")
        colour = "W" if colour == "B" else "B"
    return f"(;FF[4]GM[1]SZ[19]KM[6.5]RE[{result}]{extra}" + "".join(nodes) + ")"


def write_game(path: Path, moves: list[str], result: str = "B+R", first: str = "B", extra: str = "") -> Path:
    path.write_text(sgf_text(moves, result, first, extra), encoding="utf-8")
    return path


def steps_to_moves(steps: str, corner: Corner = Corner.TOP_RIGHT, swap: bool = False) -> list[str]:
    """Board moves (SGF notation) of a play-step string in ``corner``; ``XX`` becomes a pass."""
    t = Transform(corner, swap)
    out = []
    for i in range(0, len(steps), 2):
        token = steps[i : i + 2]
        out.append("pass" if token == "XX" else format_sgf_point(t.to_board((ord(token[0]) - 65, ord(token[1]) - 65),
                                                                           19)))
    return out
