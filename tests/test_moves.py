"""The moves of a request (joseki.core.moves): parsed and played once, the same tables, board and corners as each
step worked out on its own."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from joseki.core.corners import CornerTable, corner_tables, owner
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.ladder_check import board_after
from joseki.core.limits import MAX_LINE_MOVES, LimitError
from joseki.core.moves import KO, game_moves, parse_game_text, split_tokens, typed_moves
from joseki.core.position import SUICIDE, IllegalMoveError
from joseki.core.steps import Colour

_POINTS = st.tuples(st.integers(0, 18), st.integers(0, 18))
_GAMES = st.lists(st.tuples(st.sampled_from(["b", "w"]), st.one_of(st.none(), _POINTS, _POINTS, _POINTS)),
                  max_size=60)


def _same(one: CornerTable, other: CornerTable) -> bool:
    return (one.corner, one.builder, one.moves, one.bits) == (other.corner, other.builder, other.moves, other.bits)


def _latest_local(played: list[tuple[Colour, Point | None]]) -> Corner | None:
    """The corner whose table holds the latest local move, read off the tables."""
    best: tuple[int, Corner] | None = None
    for corner, table in corner_tables(played).items():
        if table.moves and (best is None or table.moves[-1][0] > best[0]):
            best = (table.moves[-1][0], corner)
    return None if best is None else best[1]


@settings(max_examples=200, deadline=None)
@given(_GAMES)
def test_one_pass_gives_what_each_step_gives_on_its_own(played: list[tuple[Colour, Point | None]]) -> None:
    moves = game_moves(played)
    assert all(_same(moves.tables[c], t) for c, t in corner_tables(played).items())
    assert all(_same(moves.tables_before_last[c], t) for c, t in corner_tables(played[:-1]).items())
    assert moves.board == tuple(sorted(board_after(played).stones.items()))
    assert moves.joined == tuple(None if p is None else owner(p, corner_tables(played[:i]))
                                 for i, (_, p) in enumerate(played))
    assert moves.focus == _latest_local(played) and moves.focus_before_last == _latest_local(played[:-1])
    assert moves.to_move == ({"b": "w", "w": "b"}[played[-1][0]] if played else "b")


def test_typed_moves_say_their_notation_and_colours() -> None:
    gtp, sgf = typed_moves(["Q16", "R14", "pass"]), typed_moves(["pd", "qf"], "w")
    assert gtp.played == (("b", (15, 3)), ("w", (16, 5)), ("b", None)) and not gtp.sgf
    assert sgf.played == (("w", (15, 3)), ("b", (16, 5))) and sgf.sgf and sgf.to_move == "w"
    assert not typed_moves(["pass"]).sgf and typed_moves([], "w").to_move == "w"
    assert [t.corner for t in gtp.active] == [Corner.TOP_RIGHT] and gtp.focus is Corner.TOP_RIGHT


def test_an_illegal_typed_move_is_named_by_its_number_and_token() -> None:
    with pytest.raises(IllegalMoveError, match=r"^move 2 \(q16\) lands on a stone$"):
        typed_moves(["Q16", "q16"])
    with pytest.raises(IllegalMoveError, match=r"^move 4 \(A1\) is suicide$") as caught:
        typed_moves(["B1", "pass", "A2", "A1"])
    assert caught.value.reason == SUICIDE
    again = pickle.loads(pickle.dumps(caught.value))  # as a worker process's error reaches its caller
    assert (str(again), again.reason, again.point) == ("move 4 (A1) is suicide", SUICIDE, (0, 18))
    with pytest.raises(BadInput, match="Z99"):
        typed_moves(["Q16", "Z99"])


def test_a_game_is_played_after_its_setup_and_leniently() -> None:
    moves = game_moves([("b", (0, 1)), ("w", (0, 0))], {(1, 0): "b"})  # White's stone at A19 has no liberty
    assert moves.setup == (((1, 0), "b"),) and moves.board == (((0, 0), "w"), ((0, 1), "b"), ((1, 0), "b"))
    assert moves.tokens == ("A18", "A19") and moves.first == "b" and game_moves([]).to_move == "b"


def test_the_texts_of_a_request() -> None:
    assert split_tokens("Q16, R14 pass,,") == ["Q16", "R14", "pass"]
    assert parse_game_text(" bpdwtt ") == [("b", (15, 3)), ("w", None)]
    for bad in ("bpdw", "xpdwdd", "bzz"):
        with pytest.raises(BadInput):
            parse_game_text(bad)
    with pytest.raises(LimitError):
        split_tokens("pass " * (MAX_LINE_MOVES + 1))


def test_a_ko_is_not_retaken_at_once_by_typed_moves_or_a_strict_game() -> None:
    # Black takes White's C18 from D18; White's retake at C18 at once is refused, after a ko threat it is legal
    shape = ["B18", "C18", "C19", "D19", "C17", "D17", "pass", "E18"]
    typed_moves([*shape, "D18", "pass", "pass", "C18"])  # after a move between: legal
    with pytest.raises(IllegalMoveError, match=r"^move 10 \(C18\) retakes the ko at once$") as caught:
        typed_moves([*shape, "D18", "C18"])
    assert caught.value.reason == KO
    game = [*typed_moves([*shape, "D18"]).played, ("w", (2, 1))]
    game_moves(game)  # a game as learnt: lenient
    with pytest.raises(IllegalMoveError, match="move 10"):
        game_moves(game, strict=True)
    with pytest.raises(IllegalMoveError, match="lands on a stone"):
        game_moves([("b", (15, 3))], {(15, 3): "w"}, strict=True)


def test_setup_stones_are_the_first_moves_of_their_corners() -> None:
    handicap = {(15, 3): "b", (3, 15): "b"}  # Q16 and D4
    moves = game_moves([("w", (16, 5))], handicap)  # White approaches Q16 at R14
    top_right = moves.tables[Corner.TOP_RIGHT]
    assert [m[1:] for m in top_right.moves] == [("b", (15, 3)), ("w", (16, 5))]
    assert top_right.builder.first_colour == "b" and len(top_right.builder.steps) == 4
    assert [t.corner for t in moves.active] == [Corner.TOP_RIGHT, Corner.BOTTOM_LEFT]
    assert moves.focus is Corner.TOP_RIGHT and moves.to_move == "b"
