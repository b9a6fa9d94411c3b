"""Zone extent: the share of each collection's moves that lie outside candidate zone shapes.

Every move of every path is read in the frame of the path's corner (the quadrant of its first
move); a shape keeps the zone points it contains. The shapes: squares of 9 to 13 lines, and
"within W lines of one edge and L of the other" for a few (W, L).

Usage: python benchmarks/bench_zones.py
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from common import SHARED, report
from sgfmill import sgf_grammar

from joseki.core.geometry import Point, Transform, nearest_corner

COLLECTIONS = {
    "kogo": ["kogo-kjd-2014/Kogo_s_Joseki_Dictionary.sgf"],
    "kogo07": ["kogo-kjd-2007-zh/Kogo's Joseki Dictionary.sgf"],
    "ogs": ["ogs-joseki-export/OGS_export.sgf"],
    "gnugo": [f"gnugo/{n}.sgf" for n in ("gogo", "hoshi_keima", "hoshi_other", "komoku", "mokuhazushi", "sansan",
                                         "takamoku")],
    "pachi": [f"pachi/joseki_{n}.sgf" for n in ("33", "34", "44", "54")],
    "katago": [f"katago-joseki-extraction/katago_{n}_joseki.sgf" for n in ("rating", "training")],
}


def shapes() -> dict[str, Callable[[Point], bool]]:
    out: dict[str, Callable[[Point], bool]] = {}
    for k in (9, 10, 11, 12, 13):
        out[f"square{k}"] = lambda z, k=k: max(z) < k
    for near, far in ((10, 12), (10, 13), (10, 14), (11, 13)):
        out[f"{near}x{far}"] = lambda z, n=near, f=far: min(z) < n and max(z) < f
    return out


def moves_in_corner_frames(path: str) -> list[Point]:
    """Every move of the file, in the frame of its path's corner."""
    points: list[Point] = []
    with open(SHARED / "joseki" / path, "rb") as f:
        games = sgf_grammar.parse_sgf_collection(f.read())
    for game in games:
        stack: list[tuple[sgf_grammar.Coarse_game_tree, Transform | None]] = [(game, None)]
        while stack:
            tree, frame = stack.pop()
            for props in tree.sequence:
                for key in ("B", "W"):
                    raw = props.get(key, [b""])[0]
                    if len(raw) != 2 or raw == b"tt":
                        continue
                    point = (raw[0] - 97, raw[1] - 97)
                    frame = frame or Transform(nearest_corner(point, 19))
                    points.append(frame.to_zone(point, 19))
            stack.extend((child, frame) for child in tree.children)
    return points


def main() -> None:
    figures: dict[str, dict[str, float]] = {}
    tests = shapes()
    for name, files in COLLECTIONS.items():
        points = [p for f in files for p in moves_in_corner_frames(f)]
        outside = Counter(shape for p in points for shape, inside in tests.items() if not inside(p))
        figures[name] = {shape: round(100 * outside[shape] / len(points), 2) for shape in tests}
        print(name, len(points), " ".join(f"{k}:{v}%" for k, v in figures[name].items()))
    report({"outside_percent": figures})


if __name__ == "__main__":
    main()
