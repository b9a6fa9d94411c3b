"""Flattening Kogo's dictionary against sgfmill alone parsing it and reading every node's move.

Both are timed in the same run, alternately, best of N; the ratio is what counts.
Usage: python benchmarks/bench_flatten.py [--repeats N]
"""

from __future__ import annotations

import argparse

from common import KOGO, best_of, need, report, sgfmill_visit

from joseki.sgf.forest import flatten_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    path = need(KOGO)
    forest = flatten_file(path)
    nodes, variations = forest.nodes, len(forest.variations)
    del forest  # nothing else alive, as in a `joseki flatten` or `import` process
    sgfmill_s = flatten_s = float("inf")
    for _ in range(args.repeats):
        sgfmill_s = min(sgfmill_s, best_of(1, lambda: sgfmill_visit(path)))
        flatten_s = min(flatten_s, best_of(1, lambda: flatten_file(path)))
    print(f"Kogo: {nodes} nodes, {variations} variations")
    report({"file": path.name, "nodes": nodes, "variations": variations,
            "flatten_s": round(flatten_s, 4), "sgfmill_s": round(sgfmill_s, 4),
            "ratio": round(flatten_s / sgfmill_s, 3), "repeats": args.repeats})


if __name__ == "__main__":
    main()
