"""The ladder reader's board (joseki.core.readboard) plays by LocalBoard's rules, takes moves back exactly, and keeps
its Zobrist hash equal to the hash of the stones on it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from joseki.core.geometry import Point
from joseki.core.position import LocalBoard
from joseki.core.readboard import CODE, EMPTY, ReadBoard, grid

_MOVES = st.lists(st.tuples(st.sampled_from("bw"), st.integers(0, 6), st.integers(0, 6)), max_size=80)


def _stones(board: ReadBoard) -> dict[Point, str]:
    colours = {code: colour for colour, code in CODE.items()}
    return {p: colours[board.board[i]] for p, i in board.index.items() if board.board[i] != EMPTY}


def _key(board: ReadBoard) -> int:
    """The hash of the stones on ``board``, worked out from scratch."""
    key = 0
    for point, colour in _stones(board).items():
        key ^= board.zobrist[CODE[colour]][board.index[point]]
    return key


@settings(max_examples=300, deadline=None)
@given(moves=_MOVES, size=st.sampled_from([7, 9, 19]))
def test_moves_are_played_as_the_local_board_plays_them(moves: list[tuple[str, int, int]], size: int) -> None:
    local, fast = LocalBoard(size), ReadBoard({}, size)
    for colour, x, y in moves:
        point = (x, y)
        try:
            removed = local.play(colour, point)
        except ValueError:
            removed = None
        played = fast.play(CODE[colour], fast.index[point], None)
        assert (played is None) == (removed is None), (colour, point)
        if played is not None and removed is not None:
            assert {fast.points[i] for i in played[0]} == {p for p, _ in removed}
            alone = not any(local.stones.get(q) == colour for q in _near(point, size))
            one_liberty = sum(q not in local.stones for q in _near(point, size)) == 1
            assert (played[1] is not None) == (len(removed) == 1 and alone and one_liberty)
        assert _stones(fast) == local.stones
        assert fast.key == _key(fast)


@settings(max_examples=200, deadline=None)
@given(moves=_MOVES)
def test_a_move_taken_back_leaves_the_board_and_its_hash_as_they_were(moves: list[tuple[str, int, int]]) -> None:
    board = ReadBoard({}, 7)
    for colour, x, y in moves:
        before, key = list(board.board), board.key
        i = board.index[(x, y)]
        played = board.play(CODE[colour], i, None)
        if played is None:
            assert board.board == before and board.key == key
            continue
        board.undo(i, played[0])
        assert board.board == before and board.key == key
        board.play(CODE[colour], i, None)


def test_a_ko_cannot_be_retaken_at_once_and_indices_sort_as_points() -> None:
    # Black takes the white stone at (1, 1); White may not take back at once at the ko point.
    stones = {(1, 0): "b", (0, 1): "b", (2, 1): "b", (0, 2): "w", (2, 2): "w", (1, 3): "w", (1, 1): "w"}
    board = ReadBoard(stones, 9)
    removed, ko = board.play(CODE["b"], board.index[(1, 2)], None) or ([], None)
    assert [board.points[i] for i in removed] == [(1, 1)] and ko == board.index[(1, 1)]
    assert board.play(CODE["w"], board.index[(1, 1)], ko) is None
    points, index, _ = grid(9)
    assert sorted(index) == [points[i] for i in sorted(index.values())]


def _near(point: Point, size: int) -> list[Point]:
    x, y = point
    return [(a, b) for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if 0 <= a < size and 0 <= b < size]
