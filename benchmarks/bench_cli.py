"""How fast the command line starts: ``joseki --help`` and ``joseki next Q16 R14`` on an existing
store, against ``python -c pass`` in the same run.

Each command runs as a whole process, alternately, ``--repeats`` times; the medians and the
ratios to the bare interpreter are reported (the ratios are the figures to compare across
machines; the targets are 0.15 s and 0.3 s on a quiet one).

Usage: python benchmarks/bench_cli.py [--repeats N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import joseki_command, report, wall_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "book.sqlite")
        subprocess.run([*joseki_command(), "--db", db, "next", "Q16"], check=True, capture_output=True)  # starter book
        commands = {"python_pass": [sys.executable, "-c", "pass"],
                    "help": [*joseki_command(), "--help"],
                    "next": [*joseki_command(), "--db", db, "next", "Q16", "R14"]}
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.repeats):
            for name, command in commands.items():
                times[name].append(wall_seconds(command))
    medians = {name: statistics.median(t) for name, t in times.items()}
    base = medians["python_pass"]
    for name, seconds in medians.items():
        print(f"{name:>12}: {seconds:.3f} s  ({seconds / base:.1f}x python -c pass)")
    report({"repeats": args.repeats, **{f"{k}_s": round(v, 4) for k, v in medians.items()},
            "help_ratio": round(medians["help"] / base, 2), "next_ratio": round(medians["next"] / base, 2)})


if __name__ == "__main__":
    main()
