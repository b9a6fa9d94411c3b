"""Play-step strings: the parity rule, the canonical form and its prefix stability."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from joseki.core.geometry import ALL_TRANSFORMS, Corner, Transform
from joseki.core.steps import StepBuilder, canonical, is_canonical, parse_steps, reflect, split_steps, to_move

SEED_EXAMPLE = "DDCFFCCCCDBDBEBCCEEBXXJCECFBGC"

zone_points = st.tuples(st.integers(0, 11), st.integers(0, 11))
# a local move, or None for a move elsewhere; colours alternate as in a game, with passes
games = st.lists(st.one_of(zone_points, st.none()), min_size=1, max_size=30)


def build(moves: list[tuple[int, int] | None], transform: Transform, first: str = "b") -> StepBuilder:
    """Play ``moves`` (zone points of the top-left frame) on the board in ``transform``'s corner."""
    base = Transform(Corner.TOP_LEFT)
    builder = StepBuilder()
    colour = first
    for zpoint in moves:
        if zpoint is None:
            builder.elsewhere(colour)
        else:
            board = base.to_board(zpoint, 19)
            builder.local(colour, Transform(transform.corner).to_zone(transform.to_board(
                Transform(Corner.TOP_LEFT).to_zone(board, 19), 19), 19))
        colour = "w" if colour == "b" else "b"
    return builder


def test_seed_example_is_parsed_and_canonical() -> None:
    assert split_steps(SEED_EXAMPLE)[10] == "XX"
    assert is_canonical(SEED_EXAMPLE)
    assert canonical(reflect(SEED_EXAMPLE)) == (SEED_EXAMPLE, True)


def test_parity_rule() -> None:
    b = StepBuilder()
    b.local("b", (3, 3))
    b.local("w", (2, 5))
    b.elsewhere("b")  # Black tenuki
    assert b.pending_tenuki() and b.steps_to_move() == "DDCFXX"
    b.local("w", (5, 2))  # White plays again locally: XX is written first
    assert b.steps == "DDCFXXFC"
    b.elsewhere("b")
    b.elsewhere("w")  # both played elsewhere: the local order is unbroken
    assert not b.pending_tenuki()
    b.local("b", (2, 2))
    assert b.steps == "DDCFXXFCCC"


def test_first_player_is_whoever_moves_first_locally() -> None:
    w = StepBuilder()
    w.elsewhere("b")
    w.local("w", (3, 3))
    w.local("b", (2, 5))
    assert w.first_colour == "w" and w.steps == "DDCF"


def test_canonical_reflection_is_fixed_by_the_first_off_diagonal_move() -> None:
    assert canonical("DDFC") == ("DDCF", True)
    assert canonical("DDCF") == ("DDCF", False)
    assert canonical("DDCCXXEE") == ("DDCCXXEE", False)


@given(games, st.sampled_from(ALL_TRANSFORMS), st.sampled_from(["b", "w"]))
def test_all_eight_forms_and_both_colours_give_one_string(
    moves: list[tuple[int, int] | None], t: Transform, first: str
) -> None:
    reference = build(moves, Transform(Corner.TOP_LEFT))
    other = build(moves, t, first)
    assert other.steps == reference.steps
    assert other.steps_to_move() == reference.steps_to_move()
    assert is_canonical(other.steps)


@given(games)
def test_canonical_form_is_prefix_stable(moves: list[tuple[int, int] | None]) -> None:
    builder = build(moves, Transform(Corner.TOP_LEFT))
    raw = builder.steps
    unreflected = reflect(raw) if builder.swap else raw
    full = canonical(unreflected)[0]
    for cut in range(0, len(unreflected) + 1, 2):
        assert full.startswith(canonical(unreflected[:cut])[0])


def test_to_move() -> None:
    assert to_move("") == 0 and to_move("DD") == 1 and to_move("DDXX") == 0


@pytest.mark.parametrize("bad", ["DDC", "DDZZ", "dd1", "DDX"])
def test_bad_step_strings_name_the_problem(bad: str) -> None:
    with pytest.raises(ValueError) as info:
        split_steps(bad)
    assert "odd length" in str(info.value) or "ZZ" in str(info.value)


def test_parse_steps_normalises() -> None:
    assert parse_steps("dd cf, xx") == "DDCFXX"
