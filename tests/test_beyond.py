"""Moves played beyond a mined book: what mine keeps after its lines, what next shows, what evaluate ranks."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from joseki.book.importer import expand_paths
from joseki.book.learnt.beyond import BEYOND_MIN_GAMES
from joseki.book.store.database import Store
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.corners import corner_tables
from joseki.games.credit import corner_plays
from joseki.games.evaluate import evaluate
from joseki.games.mine import MINE_DEPTH, PrefixCounter, mine
from joseki.sgf.game import read_game

from .conftest import GAMES, need
from .games import write_game
from .test_cli import joseki

LINE = ["Q16", "R14", "P17"]


def beyond_rows(store: Store) -> dict[tuple[int, str], int]:
    with store.read() as conn:
        return {(p, m): g for p, m, g in conn.exec_driver_sql("SELECT parent_id, move, games FROM beyond_book")}


@pytest.fixture()
def line_end(new_db: Callable[..., str], tmp_path: Path) -> Store:
    """A book mined at 3 games that ends after Q16 R14 P17: R17 was played next in 2 games, O17 in 1."""
    folder = tmp_path / "mined"
    folder.mkdir()
    for i, last in enumerate(["R17", "R17", "O17", None]):  # a last move in the centre keeps the games apart
        write_game(folder / f"g{i}.sgf", LINE + ([last] if last else []) + [f"K{10 + i}"], result="B+R")
    store = Store(new_db())
    mine(store, [folder], 3, workers=1)
    return store


def test_mine_keeps_the_moves_below_its_threshold_after_its_lines(line_end: Store) -> None:
    with line_end.read() as conn:
        (steps,) = conn.exec_driver_sql("SELECT steps FROM variation").scalars().all()
    assert len(steps) == 6, "the book is the line Q16 R14 P17 alone"
    assert beyond_rows(line_end) == {(node_id(steps), "CC"): 2}, "R17 (2 games), never O17 (1 game)"


def test_mining_the_same_games_again_keeps_the_counts(line_end: Store, tmp_path: Path) -> None:
    before = beyond_rows(line_end)
    mine(line_end, [tmp_path / "mined"], 3, workers=1)
    assert beyond_rows(line_end) == before


def test_next_shows_the_moves_played_beyond_the_book_in_the_corner_asked(line_end: Store) -> None:
    answer = json.loads(joseki("next", *LINE, "--json", db=line_end.url).stdout)
    (corner,) = [c for c in answer["corners"] if c["steps"]]
    assert (corner["state"], corner["candidates"], corner["beyond"]) == ("in-book", [], [{"move": "R17", "games": 2}])
    # the same line in the bottom-left corner, turned half a turn: R17 is C3 there
    turned = json.loads(joseki("next", "D4", "C6", "E3", "--json", db=line_end.url).stdout)
    (corner,) = [c for c in turned["corners"] if c["steps"]]
    assert corner["beyond"] == [{"move": "C3", "games": 2}]
    shown = joseki("next", *LINE, db=line_end.url)
    assert shown.returncode == 0, shown.stderr
    assert "played beyond the book (too few games for a book move): R17 (2 games)" in shown.stdout
    # where the book has moves, its own moves are never listed again as beyond it
    first = json.loads(joseki("next", "Q16", "--json", db=line_end.url).stdout)
    (corner,) = [c for c in first["corners"] if c["steps"]]
    assert [c["move"] for c in corner["candidates"]] == ["R14"] and corner["beyond"] == []


def test_evaluate_ranks_them_after_the_book_s_moves(line_end: Store, tmp_path: Path) -> None:
    asked = write_game(tmp_path / "asked.sgf", [*LINE, "R17"], result="W+R")
    result = evaluate(line_end, [asked], collections=["mined"]).as_json()
    assert (result["positions"], result["leaf_positions"]) == (4, 0.25)
    assert (result["top3"], result["context_top3"]) == (1.0, 1.0), "the fourth stone is answered beyond the book"
    assert (result["top3_book"], result["context_top3_book"]) == (0.75, 0.75)
    assert (result["top3_answered"], result["context_top3_answered"]) == (1.0, 1.0)
    other = write_game(tmp_path / "other.sgf", [*LINE, "O17"], result="W+R")
    assert evaluate(line_end, [other], collections=["mined"]).as_json()["top3"] == 0.75


def test_the_kept_moves_are_the_counts_of_the_real_games(new_db: Callable[..., str]) -> None:
    files = sorted(expand_paths([need(GAMES / "kgs-highdan-2019-04")]))[:120]
    min_games = 4
    store = Store(new_db())
    mine(store, files, min_games, workers=1)
    # counted again here, plainly: each game counts each distinct prefix of its corners once
    played: Counter[str] = Counter()
    for path in files:
        tables = corner_tables(read_game(path).moves).values()
        played.update({play.steps[:end] for play in corner_plays(tables)
                       for end in range(2, min(len(play.steps), 2 * MINE_DEPTH) + 1, 2)})
    kept = {p for p, n in played.items() if n >= min_games}
    expected = {(node_id(p[:-2]) if len(p) > 2 else ROOT_ID, p[-2:]): n for p, n in played.items()
                if BEYOND_MIN_GAMES <= n < min_games and (len(p) == 2 or p[:-2] in kept)}
    assert expected, "the sample has moves beyond its book"
    assert beyond_rows(store) == expected


def test_the_explorer_lists_them_too(line_end: Store) -> None:
    import httpx

    from .webserver import running

    with running(line_end) as base, httpx.Client(base_url=base, timeout=120) as http:
        data = http.get("/api/explore", params={"moves": ",".join(LINE)}).json()
    (corner,) = [c for c in data["corners"] if c["steps"]]
    assert corner["beyond"] == [{"move": "R17", "games": 2}]


def test_migration_0009_adds_and_drops_the_table(new_db: Callable[..., str]) -> None:
    from alembic import command

    from joseki.book.store.database import alembic_config

    store = Store(new_db("old"))
    with store.write() as conn:
        command.downgrade(alembic_config(conn), "0008")
        assert "beyond_book" not in store.engine.dialect.get_table_names(conn)
        command.upgrade(alembic_config(conn), "0009")
        assert "beyond_book" in store.engine.dialect.get_table_names(conn)
    store.close()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.text("abc", max_size=2 * MINE_DEPTH + 6).map(lambda t: "".join(c + "a" for c in t)),
                         max_size=4), max_size=12))
def test_the_prefix_counter_counts_each_prefix_s_games_exactly(games: list[list[str]]) -> None:
    counter = PrefixCounter()
    played: Counter[str] = Counter()
    for corners in games:
        counter.add_game(corners)
        played.update({c[:end] for c in corners for end in range(2, min(len(c), 2 * MINE_DEPTH) + 1, 2)})
    assert dict(counter.counts()) == {p: n for p, n in played.items() if n >= 2}
    for min_games in (1, 2, 3):
        assert counter.frequent(min_games) == {p for p, n in played.items() if n >= min_games}
