"""SGF points, GTP vertices, zone letters and passes, with ValueError naming the bad token."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from joseki.core.geometry import MAX_SIZE, MIN_SIZE
from joseki.core.notation import (
    format_gtp_vertex,
    format_sgf_point,
    format_zone_point,
    is_pass,
    parse_gtp_vertex,
    parse_move,
    parse_sgf_point,
    parse_zone_point,
)


@st.composite
def sized_points(draw: st.DrawFn) -> tuple[int, tuple[int, int]]:
    size = draw(st.integers(MIN_SIZE, MAX_SIZE))
    return size, (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1)))


@given(sized_points())
def test_round_trips(sp: tuple[int, tuple[int, int]]) -> None:
    size, point = sp
    assert parse_gtp_vertex(format_gtp_vertex(point, size), size) == point
    sgf = format_sgf_point(point, size)
    if not (sgf == "tt" and size <= 19):
        assert parse_sgf_point(sgf, size) == point
    letters = format_zone_point(point)
    if letters != "XX":  # (23, 23) on a 25x25 board is spelt like the tenuki marker; zones never reach it
        assert parse_zone_point(letters, size) == point


def test_known_points() -> None:
    assert parse_gtp_vertex("Q16") == (15, 3)
    assert parse_gtp_vertex("q16") == (15, 3)
    assert parse_gtp_vertex("J1") == (8, 18)
    assert parse_sgf_point("pd") == (15, 3)
    assert format_gtp_vertex((15, 3)) == "Q16"
    assert format_sgf_point((15, 3)) == "pd"
    assert parse_move("R14") == parse_move("qf") == (16, 5)
    assert parse_zone_point("DC") == (3, 2)


@pytest.mark.parametrize("token", ["pass", "PASS", "tt", "", "  "])
def test_passes(token: str) -> None:
    assert is_pass(token)
    assert parse_move(token) is None


def test_tt_is_a_point_on_big_boards() -> None:
    assert parse_sgf_point("tt", 21) == (19, 19)


@pytest.mark.parametrize(
    ("token", "parser"),
    [("Z99", parse_gtp_vertex), ("I5", parse_gtp_vertex), ("T20", parse_gtp_vertex), ("A0", parse_gtp_vertex),
     ("zz", parse_sgf_point), ("p", parse_sgf_point), ("Pd", parse_sgf_point),
     ("ZA", parse_zone_point), ("XX", parse_zone_point), ("D", parse_zone_point),
     ("Z99", parse_move), ("I5", parse_move), ("pd5", parse_move), ("hello", parse_move)],
)
def test_bad_tokens_are_named(token: str, parser: object) -> None:
    with pytest.raises(ValueError) as info:
        parser(token)  # type: ignore[operator]
    assert repr(token) in str(info.value)
