"""Do learnt priorities carry information about results? Per game set, on a development split.

For each set of ../shared/data/games (Fox pro, AI, KGS high-dan, Tygem 9-dan), the files in
name order are split as in bench_evaluate.py (every fifth one a test game), Kogo's dictionary
learns the training games into a profile named after the set, and
:func:`joseki.games.evaluate.evaluate` scores the test games: the log-loss of the played move's
priority as the mover's chance to win (against the constant 0.5, 0.6931), the log-loss of the
priority relative to the alternatives there, and the mover's win rate when the played move's
priority was above or below the alternatives' mean (the test's :attr:`ahead` / :attr:`behind`).

Usage: python benchmarks/bench_priority.py [--tygem-train 20000] [--tygem-test 3000]
"""

from __future__ import annotations

import argparse
import math
import shutil
import time

from common import CACHE, KOGO, need, report
from games_data import SETS, set_files, split

from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.games.evaluate import evaluate
from joseki.games.learn import learn


def z_test(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float | None:
    """Two-sided p of equal win rates ahead and behind (pooled z-test)."""
    if not n_a or not n_b:
        return None
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return None
    z = abs(wins_a / n_a - wins_b / n_b) / se
    return math.erfc(z / math.sqrt(2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tygem-train", type=int, default=20000)
    parser.add_argument("--tygem-test", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    root = CACHE / "priority"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    import_file(Store(str(root / "kogo.sqlite")), need(KOGO), "kogo")
    figures: dict[str, object] = {}
    for name in (*SETS, "tygem"):
        train, test = split(sorted(set_files(name)))
        if name == "tygem":
            train, test = train[: args.tygem_train], test[: args.tygem_test]
        db = root / f"{name}.sqlite"
        shutil.copy(root / "kogo.sqlite", db)
        store = Store(str(db))
        learnt = learn(store, train, name, args.workers)
        result = evaluate(store, test, "priority", name, ["kogo"])
        f = result.as_json()
        f["train_games"], f["learnt"], f["test_games"] = len(train), learnt.learnt, len(test)
        f["p_ahead_vs_behind"] = z_test(result.ahead_wins, result.ahead, result.behind_wins, result.behind)
        figures[name] = f
        print(f"{name:24} logloss {f['logloss']} relative {f['logloss_relative']} (0.5: {f['logloss_baseline']}); "
              f"win rate ahead {f['win_rate_ahead']} ({result.ahead}) behind {f['win_rate_behind']} "
              f"({result.behind})", flush=True)
        store.close()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    report(figures)


if __name__ == "__main__":
    main()
