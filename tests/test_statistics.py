"""Statistics that mean one thing: games count games, corners count corners, whichever command wrote them.

``learn`` and ``mine`` credit a game the same way, so running both on the same real games, in
either order, gives what ``mine`` alone gives on a fresh store; a profile that does not exist
is an error for commands that only read; an option with no effect is an error; a run that read
nothing usable fails, names each file skipped and writes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from joseki.book.importer import import_files
from joseki.book.query.answer import Options
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.core.priority import Record
from joseki.games.evaluate import evaluate
from joseki.games.learn import learn
from joseki.games.mine import mine
from joseki.games.signals import ContextWriter, NodeWriter, summed

from .conftest import GAMES, GNUGO_PATH, need
from .games import write_game
from .test_cli import joseki
from .test_learn import record, stats_table

FOX = GAMES / "fox-pro"


def starter_store(url: str) -> Store:
    store = Store(url)
    import_files(store, [starter_book()], "starter")
    return store


def test_learn_and_mine_in_either_order_equal_mine_alone(new_db: Callable[..., str]) -> None:
    files = sorted(need(FOX).glob("*.sgf"))[:80]
    alone, learn_first, mine_first = (starter_store(new_db(n)) for n in ("alone", "lm", "ml"))
    mined, _ = mine(alone, files, min_games=3, workers=1)
    assert mined.learnt == len(files) - mined.duplicates - sum(mined.skipped.values())
    learnt = learn(learn_first, files, workers=1)
    assert learnt.learnt == mined.learnt
    then_mined, _ = mine(learn_first, files, min_games=3, workers=1)
    assert then_mined.learnt == 0 and then_mined.duplicates == mined.learnt + mined.duplicates
    mine(mine_first, files, min_games=3, workers=1)
    then_learnt = learn(mine_first, files, workers=1)
    assert then_learnt.learnt == 0
    reference = stats_table(alone)
    assert len(reference) > 50
    assert stats_table(learn_first) == reference == stats_table(mine_first)
    # on a store holding the mined book already, learn alone gives the same statistics again
    book_only = starter_store(new_db("book"))
    mine(book_only, files, min_games=3, profile="scratch", workers=1)
    learn(book_only, files, workers=1)
    assert [row for row in stats_table(book_only) if row[1] == 1] == reference


def test_mine_credits_every_corner_and_counts_games_once(new_db: Callable[..., str], tmp_path: Path) -> None:
    # both players take a 4-4 and approach the other's: the same line in two corners; Black wins
    write_game(tmp_path / "g.sgf", ["Q16", "D4", "C6", "R14"], result="B+R")
    store = Store(new_db("two"))
    report, book = mine(store, [tmp_path], min_games=1, workers=1)
    assert book is not None and report.learnt == 1 and report.corners == 2
    assert record(store, "DD") == Record(1, 1, 1, 0)  # one game; Black's 4-4 won, White's lost
    assert record(store, "DD").corners == 2 and record(store, "DD").win_rate == 0.5
    assert record(store, "DDCF") == Record(1, 1, 1, 0)  # White's approach (top right) lost, Black's won
    assert report.credits == 2 * 2


def test_learn_json_names_games_and_corners(new_db: Callable[..., str], tmp_path: Path) -> None:
    db = new_db("json")
    write_game(tmp_path / "g.sgf", ["Q16", "D4", "C6", "R14"], result="W+R")
    joseki("import", str(starter_book()), "--collection", "starter", db=db)
    done = joseki("learn", str(tmp_path), "--json", db=db)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["learnt"], data["corners"], data["credits"]) == (1, 2, 4)
    shown = joseki("next", "Q16", "--json", db=db)
    (corner,) = json.loads(shown.stdout)["corners"]
    approach = next(c for c in corner["candidates"] if c["move"] == "R14")
    assert (approach["games"], approach["corners"]) == (1, 2)


def test_unknown_profile_is_an_error_for_readers_and_created_by_writers(new_db: Callable[..., str],
                                                                        tmp_path: Path) -> None:
    db = new_db("profiles")
    game = write_game(tmp_path / "g.sgf", ["Q16", "R14", "D4"])
    joseki("import", str(starter_book()), "--collection", "starter", db=db)
    for args in (["next", "Q16"], ["next", "--sgf", str(game)], ["show", "Q16"], ["evaluate", str(game)],
                 ["gtp", "--engine", f"{GNUGO_PATH} --mode gtp"]):
        failed = joseki(*args, "--profile", "nosuch", db=db)
        assert failed.returncode == 1, (args, failed.stdout)
        assert "no profile named 'nosuch'" in failed.stderr and "Traceback" not in failed.stderr, args
    assert joseki("learn", str(game), "--profile", "nosuch", db=db).returncode == 0
    assert joseki("next", "Q16", "--profile", "nosuch", db=db).returncode == 0
    store = Store(db)
    with pytest.raises(ValueError, match="no profile named 'other'"):
        next_moves(store, ["Q16"], options=Options(profile="other"))
    with pytest.raises(ValueError, match="no profile named 'other'"):
        evaluate(store, [game], profile="other")


def test_an_option_without_effect_is_an_error(new_db: Callable[..., str], tmp_path: Path) -> None:
    db = new_db("options")
    game = write_game(tmp_path / "g.sgf", ["Q16", "R14", "D4"])
    for args, words in ((["next", "Q16", "--move", "2"], "--move needs --sgf"),
                        (["next", "--sgf", str(game), "--first", "white"], "no effect with --sgf"),
                        (["next", "--sgf", str(game), "--corner", "top-left"], "no effect with --sgf")):
        failed = joseki(*args, db=db)
        assert failed.returncode == 1 and words in failed.stderr, (args, failed.stderr)
    assert joseki("next", "--sgf", str(game), "--move", "2", db=db).returncode == 0


def test_nothing_usable_fails_names_each_file_and_writes_nothing(new_db: Callable[..., str],
                                                                 tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "broken.sgf").write_text("(;FF[4]SZ[19]RE[B+R];B[pd]")
    (bad / "nine.sgf").write_text("(;FF[4]SZ[9]RE[B+R];B[ee])")
    write_game(bad / "noresult.sgf", ["Q16", "R14"], result="?")
    db = new_db("bad")
    for command in ("learn", "mine"):
        failed = joseki(command, str(bad), db=db)
        assert failed.returncode == 1, (command, failed.stdout)
        for name, reason in (("broken.sgf", ""), ("nine.sgf", "board size 9"), ("noresult.sgf", "no usable result")):
            assert f"{bad / name}: {reason}" in failed.stderr, (command, failed.stderr)
        assert "no usable game" in failed.stderr
    with Store(db).read() as conn:
        for table in ("collection", "node_stats", "learnt_game"):
            assert conn.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar_one() == 0, table
        assert conn.exec_driver_sql("SELECT count(*) FROM profile WHERE name != 'global'").scalar_one() == 0
    shown = joseki("next", "Q16", db=db)  # no empty mined collection stands in the starter book's way
    assert shown.returncode == 0 and "starter book" in shown.stderr
    empty = tmp_path / "empty.sgf"
    empty.write_text("(;FF[4]GM[1]SZ[19])")
    imported = joseki("import", str(empty), db=new_db("import"))
    assert imported.returncode == 1 and "nothing usable" in imported.stderr


def test_node_ids_of_mined_moves_have_statistics_after_learn(new_db: Callable[..., str]) -> None:
    files = sorted(need(FOX).glob("*.sgf"))[:40]
    store = starter_store(new_db("lm2"))
    learn(store, files, workers=1)
    mine(store, files, min_games=2, collection="fox", workers=1)
    with store.read() as conn:
        mined = [s for (s,) in conn.exec_driver_sql(
            "SELECT node.steps FROM node JOIN node_book ON node_book.node_id = node.id "
            "JOIN collection ON collection.id = node_book.collection_id WHERE collection.name = 'fox'")]
    assert mined and all(record(store, s).games for s in mined if s), [s for s in mined if not record(store, s).games]


ROWS = st.lists(st.tuples(st.sampled_from([-(2**63), -5, 0, 7, 2**63 - 1]), st.sampled_from(["", "mo.x", "m.o.a-j"]),
                          st.sampled_from(["dd", "XX"]), *(st.integers(-4, 4) for _ in range(4))), max_size=40)


@given(st.lists(ROWS, max_size=6), st.booleans())
def test_rows_summed_at_once_are_the_rows_summed_one_by_one(games: list[list[tuple[int, str, str, int, int, int,
                                                                                      int]]], drop: bool) -> None:
    # the writers' numpy sum against a dict updated a row at a time: every key once, in key order, its four
    # counts the sums of its rows (node ids over the whole signed 64-bit range, counts negative when a game moves)
    expected: dict[tuple[int, str, str], list[int]] = {}
    for rows in games:
        for parent, context, move, *counts in rows:
            total = expected.setdefault((parent, context, move), [0, 0, 0, 0])
            total[:] = [a + b for a, b in zip(total, counts, strict=True)]
    words = sorted({w for rows in games for _, c, m, *_ in rows for w in (c, m)})
    flat = [r for rows in games for r in rows]
    keys = [np.array([r[0] for r in flat], np.int64), np.array([words.index(r[1]) for r in flat], np.int64),
            np.array([words.index(r[2]) for r in flat], np.int64)]
    table = np.array([r[3:] for r in flat], np.int64).reshape(-1, 4)
    columns, sums = summed(keys, table, drop_empty=drop)
    parents, contexts, moves = (column.tolist() for column in columns)
    got = {(p, words[c], words[m]): list(row) for p, c, m, *row in zip(parents, contexts, moves, *sums.T.tolist(),
                                                                        strict=True)}
    assert got == {k: v for k, v in expected.items() if any(v) or not drop}
    assert list(zip(parents, contexts, moves, strict=True)) == sorted(zip(parents, contexts, moves, strict=True))


def test_the_writers_hold_a_games_rows_as_columns() -> None:
    nodes, contexts = NodeWriter(None), ContextWriter(None)  # type: ignore[arg-type]  # adding reads no store
    nodes.add((2**63 - 1, 1, 1, 0, 0, -(2**63), 1, 0, 1, 0))
    contexts.add((5, "mo.x", "dd", 1, 0, 1, 0, 5, "mo.x", "XX", -1, -1, 0, 0))
    assert [list(c) for c in nodes.columns] == [[2**63 - 1, -(2**63)], [1, 1], [1, 0], [0, 1], [0, 0]]
    assert [list(c) for c in contexts.columns] == [[5, 5], [0, 0], [1, 2], [1, -1], [0, -1], [1, 0], [0, 0]]
    assert contexts.names == ["mo.x", "dd", "XX"]
