"""Predictions with and without the whole-board context, on held-out games (docs/architecture.md).

Split as ``bench_evaluate.py``: within each set of ../shared/data/games (Fox pro, AI, KGS
high-dan, Tygem 9-dan), files in name order, every fifth one (positions 4, 9, 14, ...) is a
test game, the others are training games. A book is mined from the training games
(``mine --min-games N``, which also stores the statistics per context); it is evaluated on
the test games of Fox, AI and KGS plus the first ``--tygem-test`` Tygem test games, ranking
by popularity, without and with context, overall and per local move number.

``--reuse`` keeps the store mined by the last run with the same split (benchmarks/.cache, named by
the split) and only evaluates again: for trying rankings. ``--validation`` evaluates instead on
a validation part of the *training* games (every fifth training game is held out of mining
and evaluated on; the test games are not read): the split any constant is tuned on.

Usage: python benchmarks/bench_context.py [--min-games 5] [--tygem-test 3000] [--tygem-train N] [--reuse]
       [--validation]
"""

from __future__ import annotations

import argparse
import time

from common import CACHE, report
from games_data import development_split

from joseki.book.learnt.contexts import CONTEXT_MIN_GAMES
from joseki.book.store.database import Store
from joseki.games.evaluate import evaluate
from joseki.games.mine import mine


def validation_split(train: list[str]) -> tuple[list[str], list[str]]:
    """Training games cut for tuning: every fifth (positions 2, 7, 12, ...) is held out to evaluate on."""
    return [f for i, f in enumerate(train) if i % 5 != 2], [f for i, f in enumerate(train) if i % 5 == 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--tygem-test", type=int, default=3000)
    parser.add_argument("--tygem-train", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reuse", action="store_true", help="evaluate on the store the last run mined")
    parser.add_argument("--validation", action="store_true", help="hold out and test on part of the training games")
    args = parser.parse_args()
    started = time.perf_counter()
    train, test = development_split(args.tygem_train, args.tygem_test)
    if args.validation:
        train, test = validation_split(train)
    figures: dict[str, object] = {"train_games": len(train), "test_games": len(test), "min_games": args.min_games,
                                  "context_min_games": CONTEXT_MIN_GAMES, "validation": args.validation}
    name = f"context-{args.tygem_train or 'all'}-{args.min_games}{'-validation' if args.validation else ''}"
    db = CACHE / f"{name}.sqlite"
    if not (args.reuse and db.exists()):
        db.unlink(missing_ok=True)
        store = Store(str(db))
        t = time.perf_counter()
        _, book = mine(store, train, args.min_games, "mined", workers=args.workers)
        figures["mine_s"] = round(time.perf_counter() - t, 1)
        figures["mined_records"] = book.new if book is not None else 0
    else:
        store = Store(str(db))
        figures["reused"] = str(db.name)
    t = time.perf_counter()
    result = evaluate(store, test, "popularity", collections=["mined"]).as_json()
    figures["evaluate_s"] = round(time.perf_counter() - t, 1)
    by_index = result.pop("by_index")
    assert isinstance(by_index, list)
    figures["evaluation"] = result
    figures["by_index"] = by_index
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print("move positions top1 ctx_top1 side_top1 top3 ctx_top3 side_top3 decided coverage")
    for row in by_index:
        print(" ".join(str(row[k]) for k in ("local_move", "positions", "top1", "context_top1", "side_top1", "top3",
                                             "context_top3", "side_top3", "context_decided", "coverage")))
    reply = result["reply"]
    assert isinstance(reply, dict)
    print("reply " + " ".join(str(reply[k]) for k in ("positions", "top1", "context_top1", "side_top1", "top3",
                                                      "context_top3", "side_top3", "context_decided", "coverage")))
    print({k: result[k] for k in ("positions", "top1", "context_top1", "side_top1", "top3", "context_top3",
                                  "side_top3", "coverage")})
    report(figures)


if __name__ == "__main__":
    main()
