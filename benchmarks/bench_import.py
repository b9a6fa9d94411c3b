"""``joseki import`` of Kogo's dictionary into a new SQLite store, from the command line, against
sgfmill alone parsing the same file and visiting every node, in the same run.

Both are timed as whole processes (interpreter start-up, module imports, creating the store's
schema: what a user waits for). Each runs once untimed first (the file and both programs' code
in the page cache), then alternately, sgfmill first, ``--repeats`` times; each side's median,
min and max and the ratio of each pair are reported: the ratio is the figure to read, since the
machine is shared and its absolute speed varies.

Repeat it: ``cd benchmarks && python bench_import.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import KOGO, joseki_command, load, need, report, spread, wall_seconds

_SGFMILL = """
import sys
from sgfmill import sgf
game = sgf.Sgf_game.from_bytes(open(sys.argv[1], "rb").read())
stack = [game.get_root()]
while stack:
    node = stack.pop()
    node.get_move()
    stack.extend(node)
"""
"""sgfmill alone, as a process: parse the file and read every node's move (as common.sgfmill_visit does)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    path = need(KOGO)
    imports: list[float] = []
    sgfmill: list[float] = []
    records = 0
    with tempfile.TemporaryDirectory() as tmp:
        wall_seconds([sys.executable, "-c", _SGFMILL, str(path)])
        wall_seconds([*joseki_command(), "--db", str(Path(tmp) / "warm.sqlite"), "import", str(path)])
        for run in range(args.repeats):
            sgfmill.append(wall_seconds([sys.executable, "-c", _SGFMILL, str(path)]))
            db = Path(tmp) / f"book{run}.sqlite"
            imports.append(wall_seconds([*joseki_command(), "--db", str(db), "import", str(path)]))
        out = subprocess.run([*joseki_command(), "--db", str(db), "stats", "--json"], capture_output=True,
                             text=True, check=True).stdout
        records = sum(c["records"] for c in json.loads(out)["collections"])
    import_s, sgfmill_s = statistics.median(imports), statistics.median(sgfmill)
    print(f"Kogo: {records} records; joseki import {import_s:.3f} s, sgfmill parse and visit {sgfmill_s:.3f} s "
          f"(medians of {args.repeats})")
    report({"file": path.name, "records": records, "import_s": spread(imports, 4), "sgfmill_s": spread(sgfmill, 4),
            "ratio": spread([a / b for a, b in zip(imports, sgfmill, strict=True)]), "repeats": args.repeats,
            "load": load()})


if __name__ == "__main__":
    main()
