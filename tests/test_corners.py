"""Corner tables: the bit-mask distances and joins equal the module's rule worked out plainly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from joseki.core.corners import CornerTable, corner_tables
from joseki.core.geometry import Corner, Point, Transform, nearest_corner
from joseki.core.steps import Colour
from joseki.core.zone import REACH, ZONE_BOARD_SIZE, can_start, in_zone

_POINTS = st.tuples(st.integers(0, ZONE_BOARD_SIZE - 1), st.integers(0, ZONE_BOARD_SIZE - 1))
_MOVES = st.lists(st.tuples(st.sampled_from(["b", "w"]), st.one_of(st.none(), _POINTS, _POINTS)), max_size=90)


def plain_distance(stones: list[Point], point: Point) -> int | None:
    d = min((abs(point[0] - x) + abs(point[1] - y) for x, y in stones), default=None)
    return d if d is not None and d <= REACH else None


def plain_owner(point: Point, stones: dict[Corner, list[Point]]) -> Corner | None:
    """The corners module's docstring, step by step, with every distance measured afresh."""
    near: list[tuple[int, str, Corner]] = []
    for corner in Corner:
        if in_zone(Transform(corner).to_zone(point, ZONE_BOARD_SIZE)):
            d = plain_distance(stones[corner], point)
            if d is not None:
                near.append((d, corner.value, corner))
    if near:
        return min(near)[2]
    home = nearest_corner(point, ZONE_BOARD_SIZE)
    zpoint = Transform(home).to_zone(point, ZONE_BOARD_SIZE)
    return home if in_zone(zpoint) and not stones[home] and can_start(zpoint) else None


@settings(max_examples=300)
@given(st.lists(_POINTS, max_size=30), _POINTS)
def test_distance_is_the_nearest_stone_within_reach(stones: list[Point], point: Point) -> None:
    table = CornerTable(Corner.TOP_LEFT)
    for number, stone in enumerate(stones, start=1):
        table.add(number, "b", stone, stone)
    assert table.distance(point) == plain_distance(stones, point)


def joins_as_the_rule_names(moves: list[tuple[Colour, Point | None]]) -> None:
    stones: dict[Corner, list[Point]] = {c: [] for c in Corner}
    expected: dict[Corner, list[int]] = {c: [] for c in Corner}
    for number, (_, point) in enumerate(moves, start=1):
        if point is not None and (corner := plain_owner(point, stones)) is not None:
            stones[corner].append(point)
            expected[corner].append(number)
    tables = corner_tables(moves)
    assert {c: [n for n, _, _ in t.moves] for c, t in tables.items()} == expected


@settings(max_examples=300)
@given(_MOVES)
def test_each_move_joins_the_corner_the_rule_names(moves: list[tuple[Colour, Point | None]]) -> None:
    joins_as_the_rule_names(moves)


_MIDDLE = st.tuples(st.integers(5, 13), st.integers(5, 13))


@settings(max_examples=300)
@given(st.lists(st.tuples(st.sampled_from(["b", "w"]), st.one_of(_MIDDLE, _MIDDLE, _POINTS)), max_size=60))
def test_where_zones_overlap_the_nearest_stone_then_the_name_decides(moves: list[tuple[Colour, Point | None]]) -> None:
    # moves around the centre, where two to four corners' zones hold a point and several have stones near it (a
    # stone played again on a point counts at distance 0)
    joins_as_the_rule_names(moves)
