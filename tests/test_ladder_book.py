"""Ladder conditions of real books read on the board asked: next (library, CLI, JSON) and the GTP policy."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from joseki.book.importer import import_file
from joseki.book.query.answer import Candidate
from joseki.book.query.next import next_in_game, next_moves
from joseki.book.store.database import Store
from joseki.core.geometry import Corner, Transform
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.core.steps import iter_points
from joseki.core.zone import in_zone
from joseki.engine.policy import BookPlayer
from joseki.sgf.game import read_game

from .conftest import JOSEKI, KOGO, Databases, need
from .test_cli import joseki

JOSEKIFIX = JOSEKI / "pachi" / "josekifix.sgf"
# Kogo: after these moves in the upper right, Black O15 "is strange but possible; Black must have the ladder"
# (the ladder on White O16, running to the lower left)
KOGO_LINE = "R16 P17 M16 P14 P16 O16"
GAME = "(;GM[1]FF[4]SZ[19]KM[6.5]RU[Japanese];B[dd];W[{w}];B[qd];W[oc];B[ld];W[of];B[od];W[nd])"


def _store(databases: Databases, path: Path, name: str) -> Iterator[Store]:
    url = databases.new(name)
    store = Store(url)
    assert import_file(store, need(path), name).error is None
    yield store
    store.close()
    databases.drop(url)


@pytest.fixture(scope="module")
def kogo(databases: Databases) -> Iterator[Store]:
    yield from _store(databases, KOGO, "kogo")


@pytest.fixture(scope="module")
def josekifix(databases: Databases) -> Iterator[Store]:
    yield from _store(databases, JOSEKIFIX, "fix")


def _o15(answers: list) -> Candidate:  # type: ignore[type-arg]
    [top_right] = [a for a in answers if a.corner is Corner.TOP_RIGHT]
    [o15] = [c for c in top_right.candidates if c.move == "O15"]
    return o15


def _game(tmp_path: Path, white: str) -> Path:
    path = tmp_path / f"ladder-{white}.sgf"
    path.write_text(GAME.format(w=white))
    return path


def test_kogo_ladder_works_on_an_open_board(kogo: Store) -> None:
    o15 = _o15(next_moves(kogo, KOGO_LINE.split()))
    assert o15.ladders and all(c.ladder == "works" and c.needed == "works" and c.holds for c in o15.ladders)
    assert "Black's ladder on O16" in o15.ladders[0].reason and "at the edge" in o15.ladders[0].reason


def test_kogo_ladder_broken_in_the_other_corner(kogo: Store, tmp_path: Path) -> None:
    # a game: White's 4-4 stone in the lower left stands on the ladder's path
    broken = _o15(next_in_game(kogo, read_game(_game(tmp_path, "dp")).moves))
    assert [(c.ladder, c.holds) for c in broken.ladders] == [("fails", False)] * len(broken.ladders)
    assert broken.ladders[0].reason == "Black's ladder on O16: breaker at D4"
    # the same game with White's stone in the lower right instead: the ladder works
    fine = _o15(next_in_game(kogo, read_game(_game(tmp_path, "pp")).moves))
    assert all(c.holds for c in fine.ladders)
    # a ladder maker: Black's own stone on the path changes nothing
    maker = _o15(next_moves(kogo, ["D4", "D16", *KOGO_LINE.split()]))
    assert all(c.holds for c in maker.ladders)


def test_next_without_a_board_reads_nothing(kogo: Store) -> None:
    [answer] = next_moves(kogo, steps="CDECHDEFEDFD")  # the same line as zone letters: no whole board
    assert all(c.ladders == [] for c in answer.candidates)


def test_cli_json_and_table(kogo: Store, tmp_path: Path) -> None:
    db = kogo.url
    result = joseki("next", "--sgf", str(_game(tmp_path, "dp")), "--json", db=db)
    assert result.returncode == 0, result.stderr
    corners = {c["corner"]: c for c in json.loads(result.stdout)["corners"]}
    [o15] = [c for c in corners["top-right"]["candidates"] if c["move"] == "O15"]
    assert o15["ladders"][0] == {"condition": o15["conditions"][0], "ladder": "fails", "needed": "works",
                                 "holds": False, "reason": "Black's ladder on O16: breaker at D4",
                                 "chaser": "black"}
    assert all(c["ladders"] == [] for c in corners["top-right"]["candidates"] if c["move"] != "O15")
    table = joseki("next", "--sgf", str(_game(tmp_path, "dp")), db=db, env={"COLUMNS": "200"})
    assert table.returncode == 0 and "ladder fails here (Black's ladder on O16: breaker at D4)" in table.stdout


def test_policy_never_plays_a_line_whose_ladder_fails(kogo: Store, tmp_path: Path) -> None:
    o15 = parse_gtp_vertex("O15")
    broken = read_game(_game(tmp_path, "dp")).moves
    fine = read_game(_game(tmp_path, "pp")).moves
    offered = [c.move for c in _answer(kogo, fine).candidates][:4]
    assert "O15" in offered  # among the moves the policy draws from
    assert o15 not in {BookPlayer(kogo, seed=seed).choose(broken, "b", 19) for seed in range(40)}
    assert o15 in {BookPlayer(kogo, seed=seed).choose(fine, "b", 19) for seed in range(200)}


def _answer(store: Store, moves: list) -> object:  # type: ignore[type-arg]
    [answer] = [a for a in next_in_game(store, moves) if a.corner is Corner.TOP_RIGHT]
    return answer


# Pachi's josekifix keys name the ladder exactly: the side, the atari point, the setup stones

PACHI = {"DDCFFCBDCHCCCEBEDFCG": "ladder_other", "CDEDGCCCDCDDECFCCBFD": "ladder_own",
         "CDEDCFCCDCDDCBBCDEEC": "noladder_other"}


@pytest.mark.parametrize("steps", sorted(PACHI))
def test_pachi_keys_read_and_broken(josekifix: Store, steps: str) -> None:
    corner = Transform(Corner.BOTTOM_LEFT)
    points = [corner.to_board(z, 19) if z is not None else None for z in iter_points(steps)]
    moves = ["pass" if p is None else format_gtp_vertex(p) for p in points[:-1]]
    candidate = _candidate(next_moves(josekifix, moves), points[-1])
    checks = [c for c in candidate.ladders if c.condition.startswith(f"ladder: {PACHI[steps]} =")]
    assert checks and all(c.ladder in ("works", "fails") for c in checks), candidate.ladders
    first = checks[0]
    assert first.chaser is not None and first.line
    # break (or make) the ladder from another corner: a stone of the prey's on the chase, outside the corner
    outside = [p for p in first.line if not in_zone(corner.to_zone(p, 19))]
    if not outside:
        pytest.skip("this ladder is decided inside the corner")
    far = format_gtp_vertex(outside[len(outside) // 2])
    prefix = [far, "pass"] if first.chaser == "w" else ["pass", far]
    again = _candidate(next_moves(josekifix, prefix + moves), points[-1])
    [second] = [c for c in again.ladders if c.condition == first.condition]
    assert second.ladder == "fails"
    if first.ladder == "works":
        assert second.holds is not first.holds


def _candidate(answers: list, point: object) -> Candidate:  # type: ignore[type-arg]
    return next(c for a in answers for c in a.candidates if c.point == point)


def test_kogo_ladder_found_along_the_book_line(kogo: Store) -> None:
    # "White needs the ladder for R15": the ladder shows only after the book's next moves
    moves = ["Q16", "R14", "Q12", "O16", "Q14", "Q13", "R13", "P13"]
    r15 = _candidate(next_moves(kogo, moves), parse_gtp_vertex("R15"))
    [check] = r15.ladders
    assert check.condition == "ladder: White needs the ladder for R15."
    assert (check.ladder, check.needed, check.chaser) == ("works", "works", "w")
    assert "after the book's" in check.reason
    corner = Transform(Corner.TOP_RIGHT)
    outside = [p for p in check.line if not in_zone(corner.to_zone(p, 19))]
    far = format_gtp_vertex(outside[len(outside) // 2])
    broken = _candidate(next_moves(kogo, [far, "pass", *moves]), parse_gtp_vertex("R15"))
    assert [(c.ladder, c.holds) for c in broken.ladders] == [("fails", False)]
    assert broken.ladders[0].reason.endswith(f"breaker at {far}")


def test_setup_stones_of_a_game_break_the_ladder(kogo: Store, tmp_path: Path) -> None:
    # a position set up with White's stone on D4 (AW), then the Kogo line: the setup stone is the breaker
    path = tmp_path / "setup.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]AW[dp];B[qd];W[oc];B[ld];W[of];B[od];W[nd])")
    game = read_game(path)
    assert game.stones == {(3, 15): "w"}
    broken = _o15(next_in_game(kogo, game.moves, setup=game.stones))
    assert broken.ladders and all(c.holds is False for c in broken.ladders)
    assert not all(c.holds is False for c in _o15(next_in_game(kogo, game.moves)).ladders)
    result = joseki("next", "--sgf", str(path), "--json", db=kogo.url)
    assert result.returncode == 0, result.stderr
    [top_right] = [c for c in json.loads(result.stdout)["corners"] if c["corner"] == "top-right"]
    [o15] = [c for c in top_right["candidates"] if c["move"] == "O15"]
    assert o15["ladders"][0]["reason"] == "Black's ladder on O16: breaker at D4"
