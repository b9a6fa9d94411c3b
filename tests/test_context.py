"""The context signature (joseki/core/context.py): it follows the corner's frame and ignores colours."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from joseki.core.context import (
    DIAGONAL,
    FINE_STEPS,
    FIRST_MOVER,
    FIRST_OPPONENT,
    SIGNATURE_LENGTH,
    book_frame,
    game_contexts,
    reflect_context,
    region,
    signature,
    stone_class,
    token_contexts,
)
from joseki.core.corners import corner_tables
from joseki.core.geometry import ALL_TRANSFORMS, Corner, Point, Transform
from joseki.core.steps import Colour, other

SIZE = 19
points = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))
boards = st.dictionaries(points, st.sampled_from("bw"), max_size=60)
transforms = st.sampled_from(ALL_TRANSFORMS)
colours = st.sampled_from("bw")

SYMMETRIES: list[Callable[[Point], Point]] = [
    lambda p: p, lambda p: (SIZE - 1 - p[0], p[1]), lambda p: (p[0], SIZE - 1 - p[1]),
    lambda p: (SIZE - 1 - p[0], SIZE - 1 - p[1]), lambda p: (p[1], p[0]), lambda p: (SIZE - 1 - p[1], p[0]),
    lambda p: (p[1], SIZE - 1 - p[0]), lambda p: (SIZE - 1 - p[1], SIZE - 1 - p[0])]


def image(transform: Transform, sym: Callable[[Point], Point]) -> Transform:
    """The frame that sees the board moved by ``sym`` as ``transform`` saw the board."""
    probes = [(0, 1), (3, 2), (5, 9)]
    for candidate in ALL_TRANSFORMS:
        if all(candidate.to_zone(sym(transform.to_board(z, SIZE)), SIZE) == z for z in probes):
            return candidate
    raise AssertionError("no frame")


def stones_of(board: dict[Point, Colour]) -> list[tuple[Colour, Point]]:
    return [(c, p) for p, c in board.items()]


@given(boards, transforms, colours, st.sampled_from(range(8)))
def test_signature_follows_the_corner_frame(board: dict[Point, Colour], transform: Transform, mover: Colour,
                                            which: int) -> None:
    sym = SYMMETRIES[which]
    moved = [(c, sym(p)) for c, p in stones_of(board)]
    assert signature(moved, image(transform, sym), mover) == signature(stones_of(board), transform, mover)


@given(boards, transforms, colours)
def test_reflected_frame_reverses_and_colours_do_not_matter(board: dict[Point, Colour], transform: Transform,
                                                            mover: Colour) -> None:
    stones = stones_of(board)
    sig = signature(stones, transform, mover)
    assert len(sig) == SIGNATURE_LENGTH and set(sig[:5]) <= set(".mox")
    assert signature(stones, transform.reflected(), mover) == reflect_context(sig)
    assert signature([(other(c), p) for c, p in stones], transform, other(mover)) == sig


def test_regions_and_a_hand_made_board() -> None:
    assert [region(z) for z in ((3, 15), (3, 9), (9, 3), (15, 3), (9, 9), (3, 3), (15, 15))] == [
        0, 1, 2, 3, None, None, DIAGONAL]
    # Black's 4-4 at Q16 (top right), Black on D16 (top left), White on Q4 (bottom right), White on K4 (side)
    stones = [("b", (15, 3)), ("b", (3, 3)), ("w", (15, 15)), ("w", (9, 15))]
    tr = Transform(Corner.TOP_RIGHT)
    # unreflected top-right frame: col from the right edge, row from the top: bottom right is corner_v
    # then the opposite corner (bottom left: empty), the first stones of corner_v (Q4) and corner_h (D16),
    # both 4-4 stones (class 4: e the mover's, p the opponent's)
    assert signature(stones, tr, "w") == "m..o.ep"
    assert signature(stones, tr, "b") == "o..m.pe"
    assert signature(stones, tr.reflected(), "w") == "o..m.pe"
    # bottom left: D16 is corner_v's first stone, Q4 corner_h's, Q16 (Black's) the opposite corner
    assert signature(stones, Transform(Corner.BOTTOM_LEFT), "b") == "m.oomep"
    assert signature(stones, tr, "w", local=FINE_STEPS + 1) == "m..o---"


def test_stone_class_tells_a_3_4_stone_turned_towards_the_corner_from_one_turned_away() -> None:
    # corner_v's stones: lines from the shared (vertical) edge, then from its own far (horizontal) edge
    assert stone_class((2, 15)) == 1 and stone_class((3, 16)) == 3  # 3-4 and 4-3 differ
    assert stone_class((3, 15)) == 4 and stone_class((2, 16)) == 0  # 4-4, 3-3
    # corner_h's: the same lines, the roles of col and row exchanged (the reflected frame sees the same)
    assert stone_class((15, 2)) == 1 and stone_class((16, 3)) == 3
    assert stone_class((12, 5)) == 8


moves_lists = st.lists(st.tuples(colours, st.one_of(st.none(), points)), max_size=80)


@given(moves_lists)
def test_game_contexts_match_the_signature(moves: list[tuple[Colour, Point | None]]) -> None:
    board: dict[Point, Colour] = {}
    unique: list[tuple[Colour, Point | None]] = []
    for colour, point in moves:
        if point is None or point not in board:
            unique.append((colour, point))
            if point is not None:
                board[point] = colour
    tables = corner_tables(unique)
    local = {c: ([n for n, _, _ in t.moves], bool(t.builder.swap)) for c, t in tables.items()}
    found = game_contexts(unique, local, limit=8)
    for corner, table in tables.items():
        expected = [signature([(c, p) for c, p in unique[: n - 1] if p is not None], table.transform, colour, k)
                    for k, (n, colour, _) in enumerate(table.moves, start=1)][:8]
        assert found[corner] == expected
        aligned = token_contexts(table.builder.steps, found[corner])
        assert [c for c in aligned if c is not None] == expected
        tokens = [table.builder.steps[i : i + 2] for i in range(0, len(table.builder.steps), 2)]
        local_number = [sum(t != "XX" for t in tokens[: i + 1]) for i in range(len(tokens))]
        assert all((c is None) == (t == "XX" or n > 8) for c, t, n in zip(aligned, tokens, local_number, strict=True))


fine_contexts = st.tuples(st.text(".mox", min_size=5, max_size=5),
                          st.text(FIRST_MOVER + FIRST_OPPONENT + ".", min_size=2, max_size=2)).map("".join)


@given(fine_contexts, st.sampled_from(["CF", "FC", "DD", "XX", "CE"]), st.booleans())
def test_book_frame_is_the_same_from_either_reflection(context: str, token: str, reflected: bool) -> None:
    flipped = reflect_context(context), token[::-1]
    assert book_frame(context, token, reflected, True) == book_frame(*flipped, not reflected, True)
    assert book_frame(context, token, reflected, False) == book_frame(*flipped, not reflected, False)
    assert book_frame(context, token, False, False) == (context, token)
