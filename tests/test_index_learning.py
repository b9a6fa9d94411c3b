"""``learn --index`` and ``mine --index``: the games a learning run reads go into the pattern index too.

The index they build must be the one ``joseki index`` builds from the same games: the same searches give
the same answers, games are kept relative to the folder given, a game already indexed is kept, and the
index is filled even when every game was learnt before. A game's captures, kept when it is read, give the
records the index's own replay gives.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from joseki.book.patternsearch import forget
from joseki.cli.main import app
from joseki.core.movelist import encode, encode_replayed, replay
from joseki.core.position import IllegalMoveError, LocalBoard
from joseki.games.indexing import index_game
from joseki.sgf.archive import expand_games
from joseki.sgf.game import game_from_bytes
from tests.conftest import GAMES, need

PATTERNS = ("....../....../...O../...X../....../......", ".O./OX./...", "....../....../...X..")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of 30 real KGS games and one 9x9 game."""
    games = tmp_path_factory.mktemp("games") / "kgs"
    games.mkdir()
    for name in expand_games([need(GAMES / "kgs-highdan-2019-04")])[:30]:
        shutil.copy(name, games)
    (games / "small.sgf").write_text("(;GM[1]FF[4]SZ[9]RE[B+R];B[cc];W[gg];B[cg])")
    return games


def _run(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _searches(url: str) -> list[dict[str, Any]]:
    forget()
    answers = []
    for pattern in PATTERNS:
        data = _run(["--db", url, "search", "--json", "--limit", "0", pattern])
        data.pop("seconds", None)
        answers.append(data)
    return answers


def test_learn_and_mine_index_what_joseki_index_indexes(new_db: Callable[..., str], folder: Path) -> None:
    reference = new_db("indexed")
    indexed = _run(["--db", reference, "index", "--json", str(folder)])
    assert indexed["added"] == 30 and len(indexed["skipped"]) == 1
    expected = _searches(reference)
    assert expected[0]["hits"] > 0 and expected[0]["results"][0]["source"].startswith("kgs-")
    for command in (["learn", "--workers", "1"], ["mine", "--min-games", "3"]):
        url = new_db(command[0])
        data = _run(["--db", url, *command, "--index", "--json", str(folder)])
        assert data["index"]["added"] == 30 and data["index"]["indexed"] == 30, data["index"]
        assert data["index"]["index_bytes_per_game"] == indexed["index_bytes_per_game"]
        assert _searches(url) == expected, command


def test_games_learnt_before_are_still_indexed(new_db: Callable[..., str], folder: Path) -> None:
    url = new_db("learnt")
    files = sorted(str(p) for p in folder.glob("kgs-*.sgf"))
    first = _run(["--db", url, "learn", "--workers", "1", "--json", *files[:10]])
    assert "index" not in first
    refused = CliRunner().invoke(app, ["--db", url, "search", "....../....../...X.."])
    assert refused.exit_code == 1 and "older than the store's games" in refused.output
    again = _run(["--db", url, "learn", "--workers", "1", "--index", "--json", *files[:20]])
    assert again["learnt"] == 10 and again["duplicates"] == 10
    assert again["index"]["added"] == 20 and again["index"]["already_indexed"] == 0
    third = _run(["--db", url, "learn", "--workers", "1", "--index", "--json", *files[:20]])
    assert third["index"]["added"] == 0 and third["index"]["already_indexed"] == 20
    forget()
    found = _run(["--db", url, "search", "--json", "....../....../...X.."])
    assert found["games"] > 0


def test_learn_index_in_worker_processes_names_what_it_skips(new_db: Callable[..., str], folder: Path) -> None:
    url = new_db("workers")
    result = CliRunner().invoke(app, ["--db", url, "learn", "--workers", "2", "--index", str(folder)])
    assert result.exit_code == 0, result.output
    assert "pattern index: 30 games added" in " ".join(result.output.split())
    assert "small.sgf" in result.output and "board size 9" in result.output


def _same_records(data: bytes) -> bool:
    game = game_from_bytes(data)
    assert game.captures is not None
    return encode_replayed(game.moves, game.stones, game.captures) == encode(replay(game.moves, game.stones))


def test_the_captures_kept_when_read_give_the_replayed_records_on_real_games() -> None:
    files = [*expand_games([need(GAMES / "kgs-highdan-2019-04")])[:200],
             *expand_games([need(GAMES / "fox-pro")])[:200]]
    captured = 0
    for name in files:
        with open(name, "rb") as f:
            data = f.read()
        assert _same_records(data), name
        captured += len(game_from_bytes(data).captures or {})
    assert captured > 1000


@settings(max_examples=150, deadline=None)
@example(points=[(0, 2), (0, 0)], suicide=True, setup=[(0, 1), (1, 0)])  # a lone stone's suicide
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=120), st.booleans(),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=4))
def test_the_captures_kept_when_read_give_the_replayed_records(points: list[tuple[int, int]], suicide: bool,
                                                               setup: list[tuple[int, int]]) -> None:
    """Random legal games in a corner (many captures and, under New Zealand rules, suicides) and setup stones."""
    board = LocalBoard(19)
    stones = {p: "b" for p in setup}
    board.stones.update(stones)
    nodes, colour = [], "b"
    for point in points:
        try:
            board.play(colour, point, suicide=suicide)
        except IllegalMoveError:
            continue
        nodes.append(f";{colour.upper()}[{chr(97 + point[0])}{chr(97 + point[1])}]")
        colour = "w" if colour == "b" else "b"
    head = "AB" + "".join(f"[{chr(97 + x)}{chr(97 + y)}]" for x, y in stones) if stones else ""
    rules = "RU[NZ]" if suicide else ""
    assert _same_records(f"(;GM[1]SZ[19]{rules}{head}{''.join(nodes)})".encode())


def test_setup_stones_after_the_first_move_are_replayed_by_the_index() -> None:
    game = game_from_bytes(b"(;GM[1]SZ[19];B[aa];W[ba];AB[ca];W[bb])")
    assert game.captures is None
    assert index_game(game, "/").record == encode(replay(game.moves, game.stones))
