"""Flattening Kogo's dictionary against sgfmill alone parsing it and reading every node's move.

Both run once untimed first (the file in the page cache, the code warm), then alternately,
sgfmill first, ``--repeats`` times in one process; each side's median, min and max and the
ratio of each pair are reported: the ratio is what counts.

Repeat it: ``cd benchmarks && python bench_flatten.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import time

from common import KOGO, load, need, report, sgfmill_visit, spread

from joseki.sgf.forest import flatten_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    path = need(KOGO)
    forest = flatten_file(path)
    nodes, variations = forest.nodes, len(forest.variations)
    del forest  # nothing else alive, as in a `joseki flatten` or `import` process
    sgfmill_visit(path)
    sgfmill: list[float] = []
    flatten: list[float] = []
    for _ in range(args.repeats):
        started = time.perf_counter()
        sgfmill_visit(path)
        sgfmill.append(time.perf_counter() - started)
        started = time.perf_counter()
        flatten_file(path)
        flatten.append(time.perf_counter() - started)
    print(f"Kogo: {nodes} nodes, {variations} variations")
    report({"file": path.name, "nodes": nodes, "variations": variations,
            "flatten_s": spread(flatten, 4), "sgfmill_s": spread(sgfmill, 4),
            "ratio": spread([a / b for a, b in zip(flatten, sgfmill, strict=True)]), "repeats": args.repeats,
            "load": load()})


if __name__ == "__main__":
    main()
