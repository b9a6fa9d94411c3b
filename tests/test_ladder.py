"""The ladder reader (joseki.core.ladder) on hand-made whole-board positions."""

from __future__ import annotations

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from joseki.core.geometry import ALL_TRANSFORMS, Point, Transform
from joseki.core.ladder import Reading, board_of, ladder_from, read_ladder
from joseki.core.notation import format_gtp_vertex
from joseki.core.steps import Colour, other

# Black D4 in atari, White to chase: the ladder runs up and to the right, towards the upper-right corner.
START: dict[Point, Colour] = {(3, 15): "b", (2, 15): "w", (3, 14): "w", (3, 16): "w", (4, 16): "w"}
PREY = (3, 15)


def read(extra: dict[Point, Colour] | None = None) -> Reading:
    return read_ladder(board_of({**START, **(extra or {})}), PREY)


def test_ladder_on_an_empty_board_works_at_the_edge() -> None:
    r = read()
    assert r.works is True and r.verdict == "works" and r.reason == "captured" and r.edge
    assert format_gtp_vertex(r.line[0]) == "E4"  # the prey extends first
    assert r.point is not None and r.point[0] == 18  # run up to the right edge
    assert len(r.line) > 40


@pytest.mark.parametrize("breaker", [(10, 8), (9, 8), (11, 8), (15, 2), (12, 4)])
def test_breaker_on_the_path_breaks_it_and_a_chaser_stone_there_does_not(breaker: Point) -> None:
    r = read({breaker: "b"})
    assert (r.works, r.reason, r.point) == (False, "breaker", breaker)
    assert read({breaker: "w"}).works is True  # a stone of the chaser's is a ladder maker


@pytest.mark.parametrize("stone", [(16, 16), (2, 2), (17, 0), (0, 18), (3, 5)])
def test_stone_off_the_path_changes_nothing(stone: Point) -> None:
    assert read({stone: "b"}).works is True


def test_breakers_in_each_direction() -> None:
    # the same ladder in the eight symmetries of the board: a breaker on its way in each breaks it
    for transform in ALL_TRANSFORMS:
        def moved(p: Point, t: Transform = transform) -> Point:
            return t.to_board(p, 19)

        stones = {moved(p): c for p, c in START.items()}
        assert read_ladder(board_of(stones), moved(PREY)).works is True
        broken = read_ladder(board_of({**stones, moved((10, 8)): "b"}), moved(PREY))
        assert (broken.works, broken.reason, broken.point) == (False, "breaker", moved((10, 8)))


def test_chaser_stones_captured_on_the_way() -> None:
    # White's D3-E3 pair has one liberty left once Black surrounds it: Black takes it and gets out
    r = read({(2, 16): "b", (3, 17): "b", (4, 17): "b"})
    assert (r.works, r.reason, r.point) == (False, "counter-capture", (3, 16))


def test_chaser_string_captured_mid_ladder() -> None:
    # White's G4 joins the chaser's atari at F4 into a string that Black's H4, G3 and F3 leave short of
    # liberties: some moves into the chase Black takes it and the ladder fails
    r = read({(6, 15): "w", (7, 15): "b", (6, 16): "b", (5, 16): "b"})
    assert (r.works, r.reason, r.point) == (False, "counter-capture", (5, 15))
    assert len(r.line) > 8
    assert read({(6, 15): "w", (7, 15): "b", (6, 16): "b"}).works is True  # one liberty more: it holds


def test_white_stones_shore_up_the_weak_chaser() -> None:
    # with White stones next to it, the same pair is not in atari and the ladder works again
    assert read({(2, 16): "b", (3, 17): "b", (5, 16): "w"}).works is True


def test_ladder_along_the_edge() -> None:
    # Black on the second line chased along the edge towards the first line: captured there
    stones = {(0, 5): "w", (1, 5): "b", (2, 5): "w", (1, 4): "w", (2, 6): "w"}
    r = read_ladder(board_of(stones), (1, 5))
    assert r.works is True and r.edge


def test_chase_with_two_liberties_tries_both_ataris() -> None:
    # two liberties, White to move: one atari drives the prey into the corner and captures it
    stones = {(3, 15): "b", (2, 15): "w", (3, 14): "w", (4, 16): "w"}
    r = read_ladder(board_of(stones), (3, 15))
    assert r.works is True and r.line[0] in {(3, 16), (4, 15)}


def test_escape_in_the_open() -> None:
    stones = {(9, 9): "b", (8, 9): "w"}
    r = read_ladder(board_of({**stones, (9, 8): "w"}), (9, 9))
    assert (r.works, r.reason) == (False, "escape")


def test_ladder_from_an_atari_point() -> None:
    # Pachi's check: White ataris at E4 (the point next to a two-liberty Black string)
    stones = {(3, 15): "b", (2, 15): "w", (3, 14): "w", (4, 16): "w"}
    r = ladder_from(board_of(stones), (3, 16), "w")
    assert r is not None and r.works is True and r.line[0] == (3, 16)
    assert ladder_from(board_of(stones), (10, 10), "w") is None  # no prey next to it
    assert ladder_from(board_of(stones), (2, 15), "w") is None  # point taken


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="no stone"):
        read_ladder(board_of(START), (10, 10))
    with pytest.raises(ValueError, match="liberties"):
        read_ladder(board_of({(10, 10): "b"}), (10, 10))
    with pytest.raises(ValueError, match="own colour"):
        read_ladder(board_of(START), PREY, "b")


def test_board_left_as_it_was() -> None:
    board = board_of({**START, (10, 8): "b"})
    before = dict(board.stones)
    read_ladder(board, PREY)
    assert board.stones == before


_ANY = st.tuples(st.integers(0, 18), st.integers(0, 18))
_NEAR = st.builds(lambda k, d: (min(18, max(0, 3 + k + d)), 15 - k), st.integers(0, 15), st.integers(-2, 2))
"""Points within two lines of the ladder's path, where stones change it."""


@settings(max_examples=150, deadline=None)
@example(extra={(5, 12): "b", (4, 12): "w"}, index=1, swap=False)  # two ways out: name one whatever the frame
@given(extra=st.dictionaries(st.one_of(_NEAR, _ANY), st.sampled_from("bw"), max_size=6), index=st.integers(0, 7),
       swap=st.booleans())
def test_verdict_invariant_under_symmetry_and_colour_swap(extra: dict[Point, Colour], index: int, swap: bool) -> None:
    stones = {**{p: c for p, c in extra.items() if p not in START}, **START}
    board = board_of(stones)
    libs = len(_libs(board, PREY))
    if libs not in (1, 2) or any(len(_libs(board, p)) == 0 for p in stones):
        return
    plain = read_ladder(board, PREY)
    transform = ALL_TRANSFORMS[index]
    moved = {transform.to_board(p, 19): (other(c) if swap else c) for p, c in stones.items()}
    seen = read_ladder(board_of(moved), transform.to_board(PREY, 19))
    assume(plain.works is not None and seen.works is not None)  # read to the end: the search is then exact
    assert (seen.works, seen.reason) == (plain.works, plain.reason)


def _libs(board: object, point: Point) -> set[Point]:
    from joseki.core.ladder import string_at
    from joseki.core.position import LocalBoard

    assert isinstance(board, LocalBoard)
    return string_at(board, point)[1]


@pytest.mark.parametrize(("text", "needed"), [
    ("{c:2:White} must have the ladder to play this way.", "works"),
    ("{c:1:Black} needs the ladder for {p:CE}.", "works"),
    ("{c:1:Black} can only play 16 with a favorable ladder.", "works"),
    ("{c:1:Black} extends if the ladder is unfavorable.", "fails"),
    ("{p:DC} punishes if {c:2:White} doesn't have the ladder.", "fails"),
    ("{c:1:Black} continues with {p:CG} or {p:BF}, regardless of the ladder.", None),
    ("{c:2:White} plays {p:CC} if the ladder is favorable, {p:DD} if not.", None),
    ("Ladder.", None),
])
def test_what_the_words_need(text: str, needed: str | None) -> None:
    from joseki.core.conditions import Condition
    from joseki.core.geometry import Corner
    from joseki.core.ladder_check import Setting, check_ladders
    from joseki.sgf.dialects import ladder_questions

    setting = Setting(board_of({}), (15, 3), "b", Transform(Corner.TOP_RIGHT), "b")
    [check] = check_ladders(ladder_questions([Condition("ladder", text)]), setting)
    assert check.needed == needed and check.ladder == "unknown" and check.holds is None  # nothing to ladder here


def test_pachi_key_on_a_hand_made_board() -> None:
    from joseki.core.conditions import Condition
    from joseki.core.geometry import Corner
    from joseki.core.ladder_check import Setting, check_ladders
    from joseki.sgf.dialects import ladder_questions

    # White (the side to play, "own") ataris at E4 (zone point of the lower-left frame) a two-liberty Black stone
    stones = {(3, 15): "b", (2, 15): "w", (3, 14): "w", (4, 16): "w"}
    corner = Transform(Corner.BOTTOM_LEFT)
    key = "{p:" + "".join(chr(65 + v) for v in corner.to_zone((3, 16), 19)) + "}"
    setting = Setting(board_of(stones), None, "w", corner, "b")
    [works] = check_ladders(ladder_questions([Condition("ladder", f"ladder_own = {key}")]), setting)
    assert (works.ladder, works.needed, works.holds, works.chaser) == ("works", "works", True, "w")
    [against] = check_ladders(ladder_questions([Condition("ladder", f"noladder_own = {key}")]), setting)
    assert (against.ladder, against.holds) == ("works", False)
    # a setup stone of the other side's (Black) on the way breaks it
    setup = "{p:" + "".join(chr(65 + v) for v in corner.to_zone((10, 8), 19)) + "}"
    [broken] = check_ladders(ladder_questions([Condition("ladder", f"ladder_own = {key}"),
                                               Condition("ladder", f"ladder_own_setup_other = {setup}")]), setting)
    assert (broken.ladder, broken.holds) == ("fails", False) and "breaker" in broken.reason
