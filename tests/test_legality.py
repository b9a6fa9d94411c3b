"""Legal moves only: collections refuse the lines with an illegal move, game records are refused whole.

Each illegal case is a hand-made SGF file; the real collections are checked against an
independent replay with sgfmill's own board (which allows suicide: a suicide there is a
move whose stone is gone after it is played).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards, sgf

from joseki.book.importer import import_files
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.core.position import OCCUPIED, SUICIDE, IllegalMoveError, LocalBoard, allows_suicide
from joseki.games.learn import learn
from joseki.sgf.forest import flatten_bytes, flatten_file
from joseki.sgf.game import game_from_bytes, read_game, read_learnable

from .conftest import GAMES, JOSEKI, KOGO, KOGO_ZH, OGS, need
from .games import write_game
from .test_cli import joseki

HEAD = "(;FF[4]GM[1]SZ[19]CA[UTF-8]"


def collection(tmp: Path, name: str, body: str, head: str = HEAD) -> Path:
    path = tmp / f"{name}.sgf"
    path.write_text(head + body + ")", encoding="utf-8")
    return path


def sgfmill_refused(path: Path) -> int:
    """Leaves below a move that sgfmill's board finds on an occupied point or suicide, found independently.

    As on import, a move may replace a setup stone (the book keeps those as conditions of a move).
    """
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    refused = 0
    stack: list[tuple[sgf.Tree_node, boards.Board, set[tuple[int, int]]]] = [
        (game.get_root(), boards.Board(19), set())]
    while stack:
        node, board, set_up = stack.pop()
        black, white, empty = node.get_setup_stones()
        if black or white or empty:
            board.apply_setup(black, white, empty)
            set_up = set_up | black | white
        colour, move = node.get_move()
        if colour is not None and move is not None:
            if move in set_up:
                board.apply_setup([], [], [move])
                set_up = set_up - {move}
            try:
                board.play(move[0], move[1], colour)
                legal = board.get(move[0], move[1]) == colour
            except ValueError:
                legal = False
            if not legal:
                leaves, below = 0, [node]
                while below:
                    n = below.pop()
                    leaves += not len(n)
                    below.extend(n)
                refused += leaves
                continue
        children = list(node)
        stack.extend((child, board.copy() if i else board, set_up) for i, child in enumerate(children))
    return refused


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=80), st.booleans())
def test_the_board_agrees_with_sgfmills(moves: list[tuple[int, int]], suicide: bool) -> None:
    # random moves crowded into a 5x5 corner, so captures, occupied points and suicides abound
    ours, theirs = LocalBoard(), boards.Board(19)
    for number, (x, y) in enumerate(moves):
        colour = "bw"[number % 2]
        occupied = theirs.get(18 - y, x) is not None
        if not occupied:
            theirs.play(18 - y, x, colour)
        try:
            ours.play(colour, (x, y), suicide=suicide)  # type: ignore[arg-type]
        except IllegalMoveError as exc:
            assert exc.reason == (OCCUPIED if occupied else SUICIDE)
            if not occupied:  # sgfmill took the suicide: take it back
                assert theirs.get(18 - y, x) is None and not suicide
                theirs = _board_of(ours)
            continue
        assert not occupied
        assert ours.stones == {(c, 18 - r): p for p, (r, c) in _stones(theirs)}


def _stones(board: boards.Board) -> list[tuple[str, tuple[int, int]]]:
    return [(colour, point) for colour, point in board.list_occupied_points()]


def _board_of(board: LocalBoard) -> boards.Board:
    copy = boards.Board(19)
    copy.apply_setup(*([(18 - y, x) for (x, y), c in board.stones.items() if c == colour] for colour in "bw"), [])
    return copy


def test_rules_that_allow_suicide() -> None:
    assert all(map(allows_suicide, ("NZ", "New Zealand", "Tromp-Taylor", "tromp taylor", "Ing", "GOE")))
    assert not any(map(allows_suicide, ("Japanese", "Chinese", "AGA", "Korean", "")))


# Lines with a truly illegal move in the real collections, each checked by sgfmill above.
REAL_REFUSED = {KOGO.name: 2, KOGO_ZH.name: 2, OGS.name: 6}


def test_real_collections_refuse_only_their_truly_illegal_lines() -> None:
    files = sorted(need(JOSEKI).rglob("*.sgf"))
    assert len(files) == 18
    found = {}
    for path in files:
        forest = flatten_file(path)
        assert forest.refused == sgfmill_refused(path), path
        if forest.refused:
            found[path.name] = forest.refused
    assert found == REAL_REFUSED


def test_kogo_warnings_name_the_move_and_its_line() -> None:
    warnings = flatten_file(need(KOGO)).warnings
    assert ("game 1, tree path 3.1.0.0.0.1.0.1.0.0.0.1.0.0.0.0.0: move 17 (W N16) is on an occupied point after "
            "... B N15 W N14 B P15 W O14 B P14 W Q16 B Q17 W N16; 1 line refused") in warnings
    assert any(w.startswith("game 1: move 217 (B O2) is suicide after ...") for w in warnings)


def test_stone_on_stone_is_refused_the_rest_imports(new_db: Callable[..., str], tmp_path: Path) -> None:
    # Q16, then White on Q16 (the reported case), beside a good line Q16 R17
    path = collection(tmp_path, "onstone", ";B[pd](;W[pd];B[qc])(;W[qc];B[qd])")
    store = Store(new_db("onstone"))
    (report,) = import_files(store, [path])
    assert (report.error, report.paths, report.new, report.refused) == (None, 2, 1, 1)
    assert report.warnings == ["game 1, tree path 0.0: move 2 (W Q16) is on an occupied point after B Q16; "
                               "1 line refused"]
    (answer,) = next_moves(store, ["Q16"])
    assert [c.move for c in answer.candidates] == ["R17"]


def test_suicide_is_refused_unless_the_rules_allow_it(tmp_path: Path) -> None:
    # White S19 and T18 around the corner point T19: Black T19 is suicide; then White takes T19
    body = ";B[pd];W[ra];B[pp];W[sb];B[sa];W[sa]"
    forest = flatten_file(collection(tmp_path, "suicide", body))
    assert (len(forest.variations), forest.refused) == (0, 1)
    assert forest.warnings == ["game 1, tree path 0.0.0.0.0: move 5 (B T19) is suicide after B Q16 W S19 B Q4 W T18; "
                               "1 line refused"]
    for rules in ("NZ", "New Zealand", "Tromp-Taylor"):
        allowed = flatten_file(collection(tmp_path, "nz", body, HEAD + f"RU[{rules}]"))
        assert (len(allowed.variations), allowed.refused) == (1, 0)  # and T19 is empty again for White
    japanese = flatten_file(collection(tmp_path, "jp", body, HEAD + "RU[Japanese]"))
    assert japanese.refused == 1


def test_captures_anywhere_on_the_board_free_their_points(tmp_path: Path) -> None:
    # a line in the top right; Black captures White's A1 in the bottom left, far outside the zone, and plays there
    body = ";B[pd];W[as];B[bs];W[dp];B[ar];W[dd];B[as]"
    forest = flatten_file(collection(tmp_path, "capture", body))
    assert (len(forest.variations), forest.refused) == (1, 0)
    # without the capture (B2 instead of A2) A1 is still White's
    refused = flatten_file(collection(tmp_path, "nocapture", ";B[pd];W[as];B[bs];W[dp];B[br];W[dd];B[as]"))
    assert refused.refused == 1 and "move 7 (B A1) is on an occupied point" in refused.warnings[0]


def test_a_move_may_replace_a_setup_stone_not_a_played_one(tmp_path: Path) -> None:
    # the book keeps setup stones as a condition of a move, shared by every line through it
    forest = flatten_file(collection(tmp_path, "setup", "(;AB[pd];W[pd];B[pd])(;AW[dd];B[qc];W[dd];B[dd])"))
    assert (len(forest.variations), forest.refused) == (0, 2)
    assert "move 2 (B Q16) is on an occupied point" in forest.warnings[0]
    assert "move 3 (B D16) is on an occupied point" in forest.warnings[1]


def test_many_illegal_moves_are_summed_up_in_one_warning(tmp_path: Path) -> None:
    branches = "".join(f"(;B[{chr(97 + i)}a];W[{chr(97 + i)}a])" for i in range(19))
    more = "".join(f"(;B[{chr(97 + i)}b];W[{chr(97 + i)}b])" for i in range(19))
    forest = flatten_file(collection(tmp_path, "many", branches + more))
    assert (forest.refused, forest.illegal, len(forest.warnings)) == (38, 38, 21)
    assert forest.warnings[-1] == "18 more illegal moves; 38 lines refused in all"


def test_not_go_is_refused(tmp_path: Path, new_db: Callable[..., str]) -> None:
    path = collection(tmp_path, "chess", ";B[pd];W[dd]", "(;FF[4]GM[2]SZ[19]")
    with pytest.raises(ValueError, match=r"game 1 is GM\[2\], not Go \(GM\[1\]\)"):
        flatten_file(path)
    store = Store(new_db("chess"))
    (report,) = import_files(store, [path])
    assert report.status == "failed" and report.error == "game 1 is GM[2], not Go (GM[1])"
    with pytest.raises(ValueError, match=r"GM\[2\]"):
        game_from_bytes(b"(;FF[4]GM[2]SZ[19]RE[B+R];B[pd])")
    assert flatten_bytes(b"(;FF[4]SZ[19];B[pd];W[dd])").variations  # no GM: Go


def test_cli_import_names_the_refused_line_and_counts_it(tmp_path: Path) -> None:
    path = collection(tmp_path, "onstone", ";B[pd](;W[pd];B[qc])(;W[qc];B[qd])")
    db = tmp_path / "book.sqlite"
    result = joseki("import", "--json", str(path), db=db)
    assert result.returncode == 0, result.stderr
    assert (f"warning: {path}: game 1, tree path 0.0: move 2 (W Q16) is on an occupied point after B Q16; 1 line "
            "refused") in " ".join(result.stderr.split())
    (report,) = json.loads(result.stdout)["files"]
    assert (report["paths"], report["new"], report["refused"]) == (2, 1, 1)
    table = joseki("import", "--replace", str(path), db=db)
    assert table.returncode == 0 and "refused" in table.stdout
    answer = joseki("next", "Q16", "--json", db=db)
    moves = [c["move"] for c in json.loads(answer.stdout)["corners"][0]["candidates"]]
    assert "Q16" not in moves


# Game records: refused whole, with the move number and point.

def test_a_game_with_a_stone_on_a_stone_is_refused(tmp_path: Path) -> None:
    game = write_game(tmp_path / "onstone.sgf", ["Q16", "D4", "Q16", "D16"])
    with pytest.raises(ValueError, match=r"^move 3 \(B Q16\) is on an occupied point$"):
        read_game(game)
    suicide = b"(;FF[4]GM[1]SZ[19]RE[B+R];B[ra];W[pd];B[sb];W[sa])"
    with pytest.raises(ValueError, match=r"^move 4 \(W T19\) is suicide$"):
        game_from_bytes(suicide)
    assert len(game_from_bytes(suicide.replace(b"RE[", b"RU[NZ]RE[")).moves) == 4
    handicap = b"(;FF[4]GM[1]SZ[19]HA[2]AB[pd][dp]RE[W+R];W[dp])"
    with pytest.raises(ValueError, match=r"move 1 \(W D4\) is on an occupied point"):
        game_from_bytes(handicap)
    assert read_learnable(game) == (None, "error: move 3 (B Q16) is on an occupied point")


def test_game_commands_refuse_an_illegal_game_in_one_line(tmp_path: Path, new_db: Callable[..., str]) -> None:
    game = write_game(tmp_path / "onstone.sgf", ["Q16", "D4", "Q16", "D16"])
    db = tmp_path / "book.sqlite"
    for command in (["next", "--sgf", str(game)], ["annotate", str(game), "-o", str(tmp_path / "out.sgf")]):
        result = joseki(*command, db=db)
        assert result.returncode == 1
        assert result.stderr.strip().splitlines()[-1] == f"error: {game}: move 3 (B Q16) is on an occupied point"
    assert not (tmp_path / "out.sgf").exists()
    store = Store(new_db("learn"))
    write_game(tmp_path / "good.sgf", ["Q16", "D4", "R14", "D16"])
    report = learn(store, [tmp_path], workers=1)
    assert report.learnt == 1 and report.skipped["error"] == 1
    assert report.errors == [(str(game), "move 3 (B Q16) is on an occupied point")]


def test_real_games_are_legal_but_one() -> None:
    files = sorted(need(GAMES).rglob("*.sgf"))
    refused = {}
    for path in files:
        try:
            read_game(path)
        except ValueError as exc:
            refused[path.name] = str(exc)
    # checked with sgfmill's board: move 242 lands on White's own stone at G16
    assert refused == {"cgdai-06439.sgf": "move 242 (W G16) is on an occupied point"}
    board, number = boards.Board(19), 0
    for node in sgf.Sgf_game.from_bytes((GAMES / "computer-go-dataset-ai" / "cgdai-06439.sgf").read_bytes()) \
            .get_main_sequence():
        colour, move = node.get_move()
        if colour is None:
            continue
        number += 1
        if move is not None:
            if number == 242:
                with pytest.raises(ValueError):
                    board.play(move[0], move[1], colour)
                break
            board.play(move[0], move[1], colour)
    assert number == 242


def test_the_books_own_export_is_not_replayed(tmp_path: Path) -> None:
    # an export holds the book's records, local moves only: captures made elsewhere are not in it
    body = ";B[pd](;W[pd];B[qc])(;W[qc];B[qd])"
    exported = flatten_file(collection(tmp_path, "export", body, HEAD + "AP[joseki:0.1.0]"))
    assert (len(exported.variations), exported.refused) == (2, 0)
    other = flatten_file(collection(tmp_path, "other", body, HEAD + "AP[CGoban:3]"))
    assert (len(other.variations), other.refused) == (1, 1)
