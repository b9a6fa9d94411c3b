"""Adaptive priorities from game results: learn, profiles, mine, evaluate."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from joseki.book.importer import import_files
from joseki.book.query.answer import Options
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.book.store.keys import node_id
from joseki.core.corners import corner_tables
from joseki.core.priority import Record, priority, summed
from joseki.games.evaluate import evaluate
from joseki.games.learn import learn
from joseki.games.mine import mine
from joseki.sgf.game import read_game

from .conftest import GAMES, KOGO, need
from .games import write_game
from .test_gamerefs import refs_table

KGS = GAMES / "kgs-highdan-2019-04"


def stats_table(store: Store) -> list[tuple[int, ...]]:
    with store.read() as conn:
        return [tuple(r) for r in conn.exec_driver_sql(
            "SELECT node_id, profile_id, games, wins, losses, draws FROM node_stats ORDER BY node_id, profile_id")]


@pytest.fixture()
def starter(new_db: Callable[..., str]) -> Store:
    store = Store(new_db("s"))
    import_files(store, [starter_book()], "starter")
    return store


def record(store: Store, steps: str, profile: str = "global") -> Record:
    with store.read() as conn:
        row = conn.execute(text(
            "SELECT games, wins, losses, draws FROM node_stats JOIN profile ON profile.id = profile_id "
            "WHERE node_id = :node AND profile.name = :profile"), {"node": node_id(steps), "profile": profile}).first()
    return Record(*row) if row else Record()


def test_learn_credits_each_book_move_to_its_player(starter: Store, tmp_path: Path) -> None:
    # 4-4, approach, one-space jump: all starter-book moves; Black wins
    write_game(tmp_path / "g1.sgf", ["Q16", "R14", "R12", "D4"], result="B+R")
    report = learn(starter, [tmp_path], workers=1)
    assert (report.learnt, report.duplicates) == (1, 0)
    # one game, two corners: Black's 4-4 at Q16 won, White's 4-4 at D4 lost
    assert record(starter, "DD") == Record(1, 1, 1, 0) and record(starter, "DD").corners == 2
    assert (report.corners, report.credits) == (2, 4)
    assert record(starter, "DDCF") == Record(1, 0, 1, 0)  # White's approach lost
    assert record(starter, "DDCFCH") == Record(1, 1, 0, 0)
    again = learn(starter, [tmp_path], workers=1)
    assert (again.learnt, again.duplicates) == (0, 1)
    assert record(starter, "DD") == Record(1, 1, 1, 0)


def test_results_and_unusable_games_are_counted_not_guessed(starter: Store, tmp_path: Path) -> None:
    for i, result in enumerate(["B+R", "B+Resign", "W+3.5", "B+T", "B", "0", "Draw", "D+J", "Void", "?"]):
        write_game(tmp_path / f"r{i}.sgf", ["Q16", "R14", f"{'ABCDEFGHJK'[i]}10"], result=result)
    write_game(tmp_path / "handicap.sgf", ["Q16", "R14"], extra="HA[2]AB[dd][dp]")  # not on Q16: legal
    (tmp_path / "nine.sgf").write_text("(;FF[4]SZ[9]RE[B+R];B[ee])")
    (tmp_path / "broken.sgf").write_text("(;FF[4]SZ[19]RE[B+R];B[pd]")
    report = learn(starter, [tmp_path], workers=1)
    assert report.learnt == 8
    assert report.skipped == {"no usable result": 2, "handicap": 1, "board size 9": 1, "error": 1}
    assert record(starter, "DD") == Record(8, 4, 1, 3)


def test_order_does_not_matter_and_profiles_fall_back(new_db: Callable[..., str]) -> None:
    files = sorted(need(KGS).glob("*.sgf"))[:60]
    a, b = Store(new_db("a")), Store(new_db("b"))
    for s in (a, b):
        import_files(s, [starter_book()], "starter")
    learn(a, files, workers=1)
    learn(b, list(reversed(files[30:])), workers=1)
    learn(b, files[:30], workers=1)
    assert stats_table(a) == stats_table(b) and stats_table(a)
    learn(a, files[:10], profile="opponent", workers=1)
    opponent = record(a, "DD", "opponent")
    assert 0 < opponent.games < record(a, "DD").games
    (answer,) = next_moves(a, ["Q16"], options=Options(profile="opponent"))
    (global_answer,) = next_moves(a, ["Q16"])
    by_move = {c.move: c.record for c in answer.candidates}
    global_by_move = {c.move: c.record for c in global_answer.candidates}
    assert any(by_move[m] != global_by_move[m] for m in by_move)
    fallback = [m for m in by_move if record(a, "DD" + next(c.token for c in answer.candidates if c.move == m),
                                              "opponent").games == 0]
    assert all(by_move[m] == global_by_move[m] for m in fallback)


def test_priority_moves_little_with_few_games_and_a_lot_with_many() -> None:
    assert priority(Record()) == 0.5
    few = priority(Record(2, 2, 0, 0))
    many = priority(Record(200, 200, 0, 0))
    assert 0.5 < few < 0.7 < 0.95 < many
    assert priority(Record(), "mistake") < priority(Record(), "ideal")
    assert priority(Record(), None, 1000, 700) == pytest.approx(0.7)
    assert priority(Record(100, 0, 100, 0), None, 1000, 700) < 0.35


def test_mine_builds_a_book_with_statistics(new_db: Callable[..., str]) -> None:
    files = sorted(need(KGS).glob("*.sgf"))[:120]
    store = Store(new_db("m"))
    report, book = mine(store, files, min_games=4, collection="kgs", workers=1)
    assert report.learnt == 120 and book.new > 10
    games_with = {"DD": 0}
    for f in files:
        game = read_game(f)
        corners = [t.builder.steps for t in corner_tables(game.moves).values()]
        games_with["DD"] += any(s.startswith("DD") for s in corners)
    (answer,) = next_moves(store, [], collections=["kgs"])
    dd = next(c for c in answer.candidates if c.token == "DD")
    assert dd.paths > 0
    assert record(store, "DD").games >= games_with["DD"]
    with store.read() as conn:
        leaves = [s for (s,) in conn.exec_driver_sql("SELECT steps FROM variation")]
    assert all(len(s) <= 60 for s in leaves)
    again = learn(store, files[:5], workers=1)
    assert again.duplicates == 5


def test_evaluate_reports_the_figures(new_db: Callable[..., str]) -> None:
    files = sorted(need(KGS).glob("*.sgf"))[:80]
    store = Store(new_db("e"))
    import_files(store, [need(KOGO)], "kogo")
    before = evaluate(store, files).as_json()
    assert {"top1", "top3", "coverage", "positions", "logloss", "logloss_baseline"} <= set(before)
    assert 0 < before["top1"] <= before["top3"] <= 1  # type: ignore[operator]
    assert before["logloss_baseline"] == pytest.approx(0.6931, abs=1e-4)
    learn(store, files, workers=1)
    after = evaluate(store, files, rank="priority").as_json()
    assert after["logloss"] < min(before["logloss"], after["logloss_baseline"])  # type: ignore[operator,type-var]
    assert after["positions"] == before["positions"]


def run_learn(db: Path | str, games: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "joseki", "--db", str(db), "learn", str(games), "--json",
                             "--workers", "1", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_learners_at_once_lose_no_update(tmp_path: Path, new_db: Callable[..., str]) -> None:
    files = sorted(need(KGS).glob("*.sgf"))[:200]
    halves = [tmp_path / "h1", tmp_path / "h2"]
    for i, half in enumerate(halves):
        half.mkdir()
        for f in files[i::2]:
            shutil.copy(f, half)
    shared = new_db("shared")
    reference = Store(new_db("ref"))
    for s in (Store(shared), reference):
        import_files(s, [starter_book()], "starter")
    procs = [run_learn(shared, h) for h in halves]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    assert sum(json.loads(o)["learnt"] for o, _ in outputs) == 200
    learn(reference, halves, workers=1)
    assert stats_table(Store(shared)) == stats_table(reference)


def test_a_killed_learn_can_be_resumed(tmp_path: Path, new_db: Callable[..., str]) -> None:
    games = tmp_path / "games"
    shutil.copytree(need(KGS), games)
    db = new_db("k")
    reference = Store(new_db("ref"))
    for s in (Store(db), reference):
        import_files(s, [need(KOGO)], "kogo")
    proc = run_learn(db, games, "--batch", "25")
    deadline = time.time() + 120
    while time.time() < deadline:
        with Store(db).read() as conn:
            if conn.exec_driver_sql("SELECT count(*) FROM learnt_game").scalar_one() >= 50:
                break
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store(db).read() as conn:
        learnt = conn.exec_driver_sql("SELECT count(*) FROM learnt_game").scalar_one()
        recorded = conn.exec_driver_sql("SELECT count(*) FROM game_record").scalar_one()
    assert 0 < learnt < 502 and learnt % 25 == 0
    assert recorded == learnt  # the games behind the positions went in with their batches' credits
    resumed = run_learn(db, games)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert json.loads(out)["duplicates"] == learnt
    learn(reference, [games], workers=1)
    assert stats_table(Store(db)) == stats_table(reference)
    assert refs_table(Store(db)) == refs_table(reference)


RECORDS = st.builds(Record, *(st.integers(min_value=0, max_value=50) for _ in range(4)))


@given(st.lists(st.dictionaries(st.sampled_from(["DD", "DDCF", ("DD", "AB", "CF")]), RECORDS, max_size=3),
                max_size=5))
def test_summed_adds_each_keys_records_field_by_field(games: list[dict[object, Record]]) -> None:
    total = summed(games)
    assert set(total) == {k for g in games for k in g}
    for key, record in total.items():
        parts = [g[key] for g in games if key in g]
        assert (record.games, record.wins, record.losses, record.draws) == tuple(
            sum(getattr(r, f) for r in parts) for f in ("games", "wins", "losses", "draws"))
