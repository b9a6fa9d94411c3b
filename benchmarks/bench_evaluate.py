"""Evaluating books on a train/test split of the real games (docs/performance.md, "How good are the books").

Split: within each set of ../shared/data/games (Fox pro, AI, KGS high-dan, Tygem 9-dan), the
files in name order, every fifth one (positions 4, 9, 14, ...) is a test game, the others are
training games. Books evaluated on the test games of Fox, AI and KGS plus the first
``--tygem-test`` Tygem test games:

1. Kogo's dictionary alone (no statistics);
2. Kogo's dictionary after ``learn`` of all training games;
3. a book mined from the training games (``mine --min-games N``), alone.

Usage: python benchmarks/bench_evaluate.py [--min-games 10] [--tygem-test 3000] [--tygem-train N]
"""

from __future__ import annotations

import argparse
import time

from common import CACHE, KOGO, need, report
from games_data import development_split

from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.games.evaluate import evaluate
from joseki.games.learn import learn
from joseki.games.mine import mine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min-games", type=int, default=10)
    parser.add_argument("--tygem-test", type=int, default=3000)
    parser.add_argument("--tygem-train", type=int, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    train, test = development_split(args.tygem_train, args.tygem_test)
    figures: dict[str, object] = {"train_games": len(train), "test_games": len(test)}
    db = CACHE / "evaluate.sqlite"
    db.unlink(missing_ok=True)
    store = Store(str(db))
    import_file(store, need(KOGO), "kogo")
    figures["kogo"] = evaluate(store, test, "popularity", collections=["kogo"]).as_json()
    learnt = learn(store, train)
    figures["learnt"] = learnt.learnt
    figures["kogo_learnt"] = evaluate(store, test, "priority", collections=["kogo"]).as_json()
    figures["kogo_learnt_popularity"] = evaluate(store, test, "popularity", collections=["kogo"]).as_json()
    mined_db = CACHE / "evaluate-mined.sqlite"
    mined_db.unlink(missing_ok=True)
    mined = Store(str(mined_db))
    _, book = mine(mined, train, args.min_games, "mined")
    figures["mined_records"] = book.new
    figures["mined"] = evaluate(mined, test, "popularity", collections=["mined"]).as_json()
    figures["mined_priority"] = evaluate(mined, test, "priority", collections=["mined"]).as_json()
    figures["min_games"] = args.min_games
    figures["seconds"] = round(time.perf_counter() - started, 1)
    for key in ("kogo", "kogo_learnt", "kogo_learnt_popularity", "mined", "mined_priority"):
        f = figures[key]
        assert isinstance(f, dict)
        print(f"{key:24} top1 {f['top1']} top3 {f['top3']} coverage {f['coverage']} logloss {f['logloss']}")
    report(figures)


if __name__ == "__main__":
    main()
