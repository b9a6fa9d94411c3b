"""The eight transforms: exact inverses, and they compose like the symmetry group of the square."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from joseki.core.geometry import (
    ALL_TRANSFORMS,
    MAX_SIZE,
    MIN_SIZE,
    Corner,
    Transform,
    check_size,
    nearest_corner,
)

sizes = st.integers(MIN_SIZE, MAX_SIZE)
transforms = st.sampled_from(ALL_TRANSFORMS)


@st.composite
def sized_points(draw: st.DrawFn) -> tuple[int, tuple[int, int]]:
    size = draw(sizes)
    return size, (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1)))


def symmetry(source: Transform, target: Transform, size: int) -> dict[tuple[int, int], tuple[int, int]]:
    """The board map that reads a point in ``source``'s frame and writes it in ``target``'s."""
    return {
        (x, y): target.to_board(source.to_zone((x, y), size), size)
        for x in range(size)
        for y in range(size)
    }


@given(sized_points(), transforms)
def test_zone_and_board_are_exact_inverses(sp: tuple[int, tuple[int, int]], t: Transform) -> None:
    size, point = sp
    assert t.to_board(t.to_zone(point, size), size) == point
    assert t.to_zone(t.to_board(point, size), size) == point


@given(sized_points())
def test_the_eight_frames_give_the_eight_images_of_the_square(sp: tuple[int, tuple[int, int]]) -> None:
    size, point = sp
    images = {t.to_zone(point, size) for t in ALL_TRANSFORMS}
    x, y = point
    n = size - 1
    expected = {(x, y), (n - x, y), (x, n - y), (n - x, n - y), (y, x), (n - y, x), (y, n - x), (n - y, n - x)}
    assert images == expected


@given(sizes)
def test_the_maps_between_frames_form_the_dihedral_group(size: int) -> None:
    identity = Transform(Corner.TOP_LEFT)
    group = {tuple(sorted(symmetry(identity, t, size).items())) for t in ALL_TRANSFORMS}
    assert len(group) == 8
    maps = [dict(g) for g in group]
    for f in maps:
        assert sorted(f.values()) == sorted(f.keys())
        for g in maps:
            composed = {p: g[f[p]] for p in f}
            assert tuple(sorted(composed.items())) in group
        inverse = {v: k for k, v in f.items()}
        assert tuple(sorted(inverse.items())) in group
    orders = []
    for f in maps:
        power, order = dict(f), 1
        while any(power[p] != p for p in power):
            power, order = {p: f[power[p]] for p in power}, order + 1
        orders.append(order)
    assert sorted(orders) == [1, 2, 2, 2, 2, 2, 4, 4]  # the dihedral group of order 8


@given(sizes, transforms, transforms, transforms)
def test_frame_changes_compose(size: int, a: Transform, b: Transform, c: Transform) -> None:
    ab, bc, ac = symmetry(a, b, size), symmetry(b, c, size), symmetry(a, c, size)
    assert all(bc[ab[p]] == ac[p] for p in ab)


def test_zone_frame_of_the_top_right_corner() -> None:
    tr = Transform(Corner.TOP_RIGHT)
    assert tr.to_zone((15, 3), 19) == (3, 3)  # Q16 is the 4-4 point
    assert tr.to_zone((17, 5), 19) == (1, 5)
    assert tr.reflected().to_zone((17, 5), 19) == (5, 1)
    assert Transform(Corner.BOTTOM_LEFT).to_zone((0, 18), 19) == (0, 0)


@pytest.mark.parametrize("size", [0, 6, 26, 100, -19])
def test_unsupported_sizes_are_rejected(size: int) -> None:
    with pytest.raises(ValueError, match="not supported"):
        check_size(size)


def test_points_off_the_board_are_rejected() -> None:
    with pytest.raises(ValueError, match="off a 19x19 board"):
        Transform(Corner.TOP_LEFT).to_zone((19, 0), 19)


def test_nearest_corner() -> None:
    assert nearest_corner((15, 3), 19) is Corner.TOP_RIGHT
    assert nearest_corner((3, 15), 19) is Corner.BOTTOM_LEFT
    assert nearest_corner((9, 9), 19) is Corner.TOP_RIGHT
    assert Corner.parse("br") is Corner.BOTTOM_RIGHT
    with pytest.raises(ValueError, match="unknown corner"):
        Corner.parse("middle")
