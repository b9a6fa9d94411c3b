"""Resources against input size: time, peak memory and store size at 1x, 10x and 100x the largest real input.

Four kinds of growth, each at 1x, 10x and 100x of what Kogo's Joseki Dictionary holds:
``collection`` (Kogo's 2014 file repeated: 1.2 MB, 62,749 nodes each), ``line`` (one legal line
in one corner, 273 moves: a ko fought back and forth), ``lines`` (7,721 distinct random legal
lines of 12 moves) and ``far_line`` (one line of 273 moves whose moves after the first are a ko
fought in another corner, so that ``lint`` finds something at every move); then the hostile
inputs ``/dev/zero`` and 200 MB of ``;``. Each case runs ``import`` (``flatten`` for the hostile
ones; ``lint`` too for the two single lines, ``lint_line_*``, ``lint_far_line_*``) in a fresh
interpreter, into a new SQLite store; the figures are the time of the call, the child's peak
resident memory (``VmHWM`` of /proc/self/status, which unlike ``ru_maxrss`` does not inherit the
parent's; interpreter included: ``baseline_mb`` is an interpreter that only opened the store) and
the store's growth. Inputs beyond a limit of :mod:`joseki.core.limits` end with its error,
reported; but ``far_line`` is read with the limit on a line's moves lifted in the child, so that
its growth past 3,000 moves shows (its record stays one short string, whatever its length).

Usage: python benchmarks/bench_limits.py [--quick]   (--quick: 1x and 10x only)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from common import KOGO, ROOT, need, report

sys.path.insert(0, str(ROOT))
from tests.generated import distinct_lines, ko_moves, line_sgf, scaled

FAR_FIRST = (15, 3)
"""The first move of ``far_line``: Q16, in the top-right corner; the ko after it is in the top-left."""

_CHILD = """
import json, re, sys, time
from pathlib import Path
from joseki.book.store.database import Store
mode, db, path, lifted = sys.argv[1:5]
if lifted == "lifted":
    import joseki.sgf.forest
    joseki.sgf.forest.MAX_LINE_MOVES = 10**9
store = Store(db)
store.close()
size = Path(db).stat().st_size
start = time.perf_counter()
error = None
try:
    if mode == "import":
        from joseki.book.importer import import_file
        error = import_file(Store(db), Path(path)).error
    elif mode == "flatten":
        from joseki.sgf.forest import flatten_file
        flatten_file(path)
    elif mode == "lint":
        from joseki.sgf.lint import lint
        lint(path)
except ValueError as exc:
    error = str(exc)
seconds = time.perf_counter() - start
peak = int(re.search(r"VmHWM:\\s*(\\d+)", Path("/proc/self/status").read_text()).group(1))
print(json.dumps({"seconds": round(seconds, 3), "peak_mb": round(peak / 1024, 1),
                  "store_mb": round((Path(db).stat().st_size - size) / 1e6, 3), "error": error}))
"""


def run(mode: str, path: Path | str, tmp: Path, lifted: bool = False) -> dict[str, Any]:
    db = tmp / "book.sqlite"
    db.unlink(missing_ok=True)
    out = subprocess.run([sys.executable, "-c", _CHILD, mode, str(db), str(path), "lifted" if lifted else "-"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    figures: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if not isinstance(path, str):
        figures["input_mb"] = round(path.stat().st_size / 1e6, 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1x and 10x only")
    args = parser.parse_args()
    kogo = need(KOGO).read_bytes()
    scales = (1, 10) if args.quick else (1, 10, 100)
    makers = {"collection": lambda k: scaled(kogo, k), "line": lambda k: line_sgf(ko_moves(273 * k)),
              "lines": lambda k: distinct_lines(7721 * k),
              "far_line": lambda k: line_sgf([FAR_FIRST, *ko_moves(273 * k - 1)])}
    linted = ("line", "far_line")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        results["baseline_mb"] = run("none", "", tmp)["peak_mb"]
        for kind, make in makers.items():
            for k in scales:
                path = tmp / f"{kind}{k}.sgf"
                path.write_bytes(make(k))
                figures = run("import", path, tmp, lifted=kind == "far_line")
                results[f"{kind}_{k}x"] = figures
                print(f"{kind} {k}x: {figures}", flush=True)
                if kind in linted:
                    figures = run("lint", path, tmp, lifted=kind == "far_line")
                    results[f"lint_{kind}_{k}x"] = figures
                    print(f"lint {kind} {k}x: {figures}", flush=True)
                path.unlink()
        zeros = run("flatten", "/dev/zero", tmp)
        print(f"/dev/zero: {zeros}", flush=True)
        results["dev_zero"] = zeros
        path = tmp / "semicolons.sgf"
        with path.open("wb") as out:
            for _ in range(200):
                out.write(b";" * (1 << 20))
        results["semicolons_200mb"] = run("flatten", path, tmp)
        print(f"200 MB of ';': {results['semicolons_200mb']}", flush=True)
        os.unlink(path)
    report(results)


if __name__ == "__main__":
    main()
