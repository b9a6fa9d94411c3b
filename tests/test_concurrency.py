"""Many writers on one book: four ``joseki learn`` processes at once, on the backend under test.

SQLite queues the writers (``BEGIN IMMEDIATE`` and a busy timeout); PostgreSQL runs them at
once, and they must neither lose an update (counts are added in the database) nor deadlock
(each transaction takes its rows in key order). The learners' game sets overlap and come in
different orders, with small batches, so that their transactions interleave and contend for
the same ``learnt_game`` and ``node_stats`` rows; every game must still be learnt exactly once.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from joseki.book.importer import import_files
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.games.learn import learn

from .conftest import GAMES, need
from .test_learn import stats_table

KGS = GAMES / "kgs-highdan-2019-04"
FOX = GAMES / "fox-pro"


def learner(db: str, files: list[Path], batch: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "joseki", "--db", db, "learn", *map(str, files), "--json",
                             "--workers", "1", "--batch", str(batch)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_four_learners_at_once_lose_no_update_and_never_deadlock(new_db: Callable[..., str]) -> None:
    files = sorted(need(KGS).glob("*.sgf"))[:160] + sorted(need(FOX).glob("*.sgf"))[:80]
    # overlapping shares in different orders: the same games are claimed by several learners at once
    rng = random.Random(8)
    shares = [rng.sample(files, 150) for _ in range(4)]
    files = sorted({f for share in shares for f in share})
    shared, reference = new_db("shared"), Store(new_db("reference"))
    for url in (shared, reference.url):
        with Store(url) as store:
            import_files(store, [starter_book()], "starter")
    procs = [learner(shared, share, batch=4) for share in shares]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outputs]
    assert not any("deadlock" in err.lower() for _, err in outputs)
    reports = [json.loads(out) for out, _ in outputs]
    assert [r["files"] for r in reports] == [len(s) for s in shares]
    single = learn(reference, files, workers=1)
    # every usable game learnt by exactly one learner; the others saw it as a duplicate
    assert sum(r["learnt"] for r in reports) == single.learnt > 200
    assert sum(r["learnt"] + r["duplicates"] for r in reports) == sum(
        len(s) for s in shares) - sum(sum(r["skipped"].values()) for r in reports)
    with Store(shared) as store:
        assert stats_table(store) == stats_table(reference) and stats_table(reference)
        with store.read() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM learnt_game").scalar_one() == single.learnt
    reference.close()
