"""The influence model: hand-worked ray forces, symmetries, the area rule, the distance form and favourability."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from joseki.core.influence import (
    Assessment,
    PointForces,
    area,
    assess,
    distance_influence,
    favourability,
    influence,
)

Point = tuple[int, int]
Stones = dict[Point, str]


def sides(stones: Stones, size: int, point: Point, refraction: int | None = None) -> tuple[int, int, int, int]:
    return influence(stones, size, refraction=refraction)[point].sides()


# --- hand-worked positions (sides are (up, right, down, left) = the side the force arrives from) ---


def test_single_stone_in_the_middle_of_a_7x7_board() -> None:
    # Black at (3, 3). Its up ray brings 32 to (3, 2), 16 to (3, 1), 8 to (3, 0) (all arriving
    # from below). The mirror half a step above row 0 sends it back onto (3, 0) with 4 (arriving
    # from above), then 2 to (3, 1), 1 to (3, 2), and it stops at the stone.
    stones = {(3, 3): "b"}
    assert sides(stones, 7, (3, 2)) == (1, 0, 32, 0)
    assert sides(stones, 7, (3, 1)) == (2, 0, 16, 0)
    assert sides(stones, 7, (3, 0)) == (4, 0, 8, 0)
    # Down and right are the mirror images.
    assert sides(stones, 7, (3, 4)) == (32, 0, 1, 0)
    assert sides(stones, 7, (3, 6)) == (8, 0, 4, 0)
    assert sides(stones, 7, (5, 3)) == (0, 2, 0, 16)
    # The stone's own point holds 64 in every slot; points off its lines get nothing.
    assert sides(stones, 7, (3, 3)) == (64, 64, 64, 64)
    assert sides(stones, 7, (4, 2)) == (0, 0, 0, 0)
    assert influence(stones, 7)[(3, 0)].total == 12


def test_black_and_white_facing_each_other_stop_at_each_other() -> None:
    # Black (1, 3), White (5, 3). Black's right ray: 32, 16, 8 to (2..4, 3), then stops at White.
    # White's left ray: -32, -16, -8 to (4..2, 3), then stops at Black.
    stones = {(1, 3): "b", (5, 3): "w"}
    assert sides(stones, 7, (2, 3)) == (0, -8, 0, 32)
    assert sides(stones, 7, (3, 3)) == (0, -16, 0, 16)
    assert sides(stones, 7, (4, 3)) == (0, -32, 0, 8)
    # Beyond White only White's ray: -32 arriving from the left, reflected -16 from the right.
    assert sides(stones, 7, (6, 3)) == (0, -16, 0, -32)
    # Beyond Black: 32 from the right, reflected 16 from the left.
    assert sides(stones, 7, (0, 3)) == (0, 32, 0, 16)
    middle = influence(stones, 7)[(3, 3)]
    assert (middle.total, middle.modulus, middle.balance) == (0, 32, 32)


def test_reflection_between_stone_and_edge() -> None:
    # Black on the third line at (3, 2): (3, 1) gets 32, (3, 0) gets 16; the ray comes back onto
    # (3, 0) with 8 and onto (3, 1) with 4, then stops at the stone. The edge adds 8 and 4.
    stones = {(3, 2): "b"}
    assert sides(stones, 7, (3, 1)) == (4, 0, 32, 0)
    assert sides(stones, 7, (3, 0)) == (8, 0, 16, 0)
    # The same totals as the distance form with a mirror-image stone at (3, -3) off the board.
    for y in (0, 1):
        assert influence(stones, 7)[(3, y)].total == (64 >> (2 - y)) + (64 >> (y + 3))


def test_stone_on_the_edge_and_forces_below_one_vanish() -> None:
    # Black at (3, 0): the up ray is reflected straight back onto the stone and stops.
    # The down ray brings 32, 16, 8, 4, 2, 1 to rows 1..6; at the edge 1 // 2 = 0 comes back.
    stones = {(3, 0): "b"}
    assert sides(stones, 7, (3, 1)) == (32, 0, 0, 0)
    assert sides(stones, 7, (3, 6)) == (1, 0, 0, 0)
    # On a 19x19 board the ray is gone after six steps.
    assert sides(stones, 19, (3, 6)) == (1, 0, 0, 0)
    assert sides(stones, 19, (3, 7)) == (0, 0, 0, 0)


def test_refraction_with_rate_one_sixteenth() -> None:
    # Rate 2**-4: only the 32 at the neighbours spawns anything (32 >> 4 = 2), which brings
    # 2 // 2 = 1 to the diagonal points. So (4, 2) gets 1 from the left (the up ray bent right)
    # and 1 from below (the right ray bent up). Everything else is unchanged.
    stones = {(3, 3): "b"}
    plain = influence(stones, 7)
    bent = influence(stones, 7, refraction=4)
    assert bent[(4, 2)].sides() == (0, 0, 1, 1)
    assert bent[(2, 4)].sides() == (1, 1, 0, 0)
    diagonals = {(2, 2), (4, 2), (2, 4), (4, 4)}
    assert {p for p in plain if plain[p] != bent[p]} == diagonals


def test_refraction_spreads_influence_off_the_lines() -> None:
    stones = {(3, 3): "b"}
    bent = influence(stones, 9, refraction=1)
    assert bent[(5, 5)].total > 0
    assert influence(stones, 9)[(5, 5)].total == 0
    # A shift of 6 or more makes every spawned ray vanish: no refraction at all.
    assert influence(stones, 9, refraction=6) == influence(stones, 9)


def test_region_limits_the_output() -> None:
    stones = {(3, 3): "b"}
    region = {(3, 2), (0, 0)}
    result = influence(stones, 7, region)
    assert set(result) == region
    assert result[(3, 2)] == influence(stones, 7)[(3, 2)]


# --- symmetries ---


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, Stones]:
    size = draw(st.integers(2, 9))
    point = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
    return size, draw(st.dictionaries(point, st.sampled_from(["b", "w"]), max_size=12))


refractions = st.sampled_from([None, 1, 2, 4])


def mirror(point: Point, size: int) -> Point:
    return (size - 1 - point[0], point[1])


def other(colour: str) -> str:
    return "w" if colour == "b" else "b"


@given(positions(), refractions)
def test_mirroring_left_right_swaps_left_and_right(pos: tuple[int, Stones], refraction: int | None) -> None:
    size, stones = pos
    forces = influence(stones, size, refraction=refraction)
    mirrored = influence({mirror(p, size): c for p, c in stones.items()}, size, refraction=refraction)
    for p, f in forces.items():
        assert mirrored[mirror(p, size)] == PointForces(up=f.up, right=f.left, down=f.down, left=f.right)


@given(positions(), refractions)
def test_transposing_swaps_up_with_left(pos: tuple[int, Stones], refraction: int | None) -> None:
    size, stones = pos
    forces = influence(stones, size, refraction=refraction)
    transposed = influence({(y, x): c for (x, y), c in stones.items()}, size, refraction=refraction)
    for (x, y), f in forces.items():
        assert transposed[(y, x)] == PointForces(up=f.left, right=f.down, down=f.right, left=f.up)


@given(positions(), refractions)
def test_swapping_colours_negates_forces_and_swaps_areas(pos: tuple[int, Stones], refraction: int | None) -> None:
    size, stones = pos
    swapped = {p: other(c) for p, c in stones.items()}
    forces = influence(stones, size, refraction=refraction)
    negated = influence(swapped, size, refraction=refraction)
    for p, f in forces.items():
        assert negated[p].sides() == tuple(-v for v in f.sides())
    areas, swapped_areas = area(forces, stones), area(negated, swapped)
    assert areas["b"] == swapped_areas["w"]
    assert areas["w"] == swapped_areas["b"]
    assert not (areas["b"] | areas["w"]) & stones.keys()


@given(positions())
def test_distance_form_symmetries(pos: tuple[int, Stones]) -> None:
    size, stones = pos
    values = distance_influence(stones, size)
    mirrored = distance_influence({mirror(p, size): c for p, c in stones.items()}, size)
    negated = distance_influence({p: other(c) for p, c in stones.items()}, size)
    for p, v in values.items():
        assert mirrored[mirror(p, size)] == v
        assert negated[p] == -v


# --- the area rule ---


def test_point_surrounded_by_black_forces_is_black_area() -> None:
    stones = {(3, 2): "b", (4, 3): "b", (3, 4): "b", (2, 3): "b"}
    forces = influence(stones, 7)
    assert forces[(3, 3)].sides() == (32, 32, 32, 32)
    assert (3, 3) in area(forces, stones)["b"]
    assert not area(forces, stones)["w"] & {(3, 3)}


def test_point_with_one_white_direction_is_nobodys_area() -> None:
    stones = {(3, 2): "b", (4, 3): "w", (3, 4): "b", (2, 3): "b"}
    forces = influence(stones, 7)
    assert forces[(3, 3)].sides() == (32, -32, 32, 32)
    assert forces[(3, 3)].total == 64
    result = area(forces, stones)
    assert (3, 3) not in result["b"] | result["w"]


def test_area_needs_total_above_twenty() -> None:
    forces = {(0, 0): PointForces(5, 5, 5, 5), (1, 0): PointForces(5, 5, 5, 6), (2, 0): PointForces(-6, -5, -5, -5)}
    assert area(forces, {}) == {"b": {(1, 0)}, "w": {(2, 0)}}


def test_balance_and_modulus() -> None:
    f = PointForces(up=8, right=-2, down=4, left=-4)
    assert (f.total, f.modulus, f.balance) == (6, 18, 12)
    assert PointForces(1, 2, 3, 4).balance == 0


# --- the distance form ---


def test_distance_form_halves_per_step() -> None:
    values = distance_influence({(9, 9): "b"}, 19)
    assert values[(9, 9)] == 64
    assert values[(10, 9)] == values[(9, 8)] == 32
    assert values[(10, 10)] == values[(11, 9)] == 16  # diagonal and one-space jump
    assert values[(11, 10)] == values[(9, 12)] == 8  # knight's move and two-space jump
    assert values[(12, 12)] == 1  # six steps away
    assert values[(13, 12)] == values[(16, 9)] == 0  # seven steps away
    assert sum(1 for v in values.values() if v) == 1 + 4 * (1 + 2 + 3 + 4 + 5 + 6)


def test_distance_form_sums_with_sign() -> None:
    values = distance_influence({(2, 2): "b", (4, 2): "w"}, 9, region={(3, 2), (2, 2), (1, 2)})
    assert values == {(3, 2): 0, (2, 2): 64 - 16, (1, 2): 32 - 8}


# --- assessment and favourability ---

CORNER = {(x, y) for x in range(4) for y in range(4)}
# A black enclosure of the 3x3 top-left corner: the fourth line and the fourth column.
ENCLOSURE = {**{(x, 3): "b" for x in range(4)}, **{(3, y): "b" for y in range(3)}}


def test_enclosed_corner_is_all_black_area() -> None:
    # E.g. (1, 1): 16 from below and from the right, 2 reflected from above and from the left.
    assert sides(ENCLOSURE, 19, (1, 1)) == (2, 16, 16, 2)
    assert sides(ENCLOSURE, 19, (0, 0)) == (4, 8, 8, 4)
    result = assess(ENCLOSURE, CORNER)
    assert result == Assessment(
        black_area=9, white_area=0, black_influence=9, white_influence=0, black_stones=7, white_stones=0, empty=9
    )


def test_black_wall_is_favourable_for_black() -> None:
    alone = favourability(assess(ENCLOSURE, CORNER), "b")
    assert alone == (1.0, -1.0)
    # White lives small in the corner: still good for Black, but less so.
    region = {(x, y) for x in range(7) for y in range(7)}
    wall = {**{(x, 2): "b" for x in range(5)}, **{(4, y): "b" for y in range(2)}, (0, 1): "w", (1, 1): "w"}
    black_first, white_second = favourability(assess(wall, region), "b")
    assert 0 < black_first < 1
    assert white_second == -black_first
    # Antisymmetric in colour: swap the stones, or ask from White's side.
    swapped = {p: other(c) for p, c in wall.items()}
    assert favourability(assess(swapped, region), "w") == (black_first, white_second)
    assert favourability(assess(wall, region), "w") == (white_second, black_first)


def test_empty_zone_is_even() -> None:
    assert favourability(assess({}, CORNER), "b") == (0.0, 0.0)


def test_influence_weight_counts() -> None:
    a = Assessment(
        black_area=0, white_area=0, black_influence=4, white_influence=0, black_stones=1, white_stones=1, empty=10
    )
    assert favourability(a, "b") == (0.5, -0.5)  # (1 + 2 - 1) / (3 + 1)
    assert favourability(a, "b", influence_weight=0) == (0.0, 0.0)


# --- bad input ---


@pytest.mark.parametrize(
    ("stones", "size", "message"),
    [
        ({(7, 0): "b"}, 7, "off a 7x7 board"),
        ({(-1, 0): "b"}, 7, "off a 7x7 board"),
        ({(0, 0): "B"}, 7, "not 'b' or 'w'"),
        ({(0, 0): "b"}, 0, "positive integer"),
    ],
)
def test_bad_stones_and_sizes_are_rejected(stones: Stones, size: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        influence(stones, size)
    with pytest.raises(ValueError, match=message):
        distance_influence(stones, size)


def test_other_bad_input_is_rejected() -> None:
    with pytest.raises(ValueError, match="off a 7x7 board"):
        influence({}, 7, region={(0, 9)})
    with pytest.raises(ValueError, match="refraction"):
        influence({}, 7, refraction=-1)
    with pytest.raises(ValueError, match="not 'b' or 'w'"):
        area({}, {(0, 0): "x"})
    with pytest.raises(ValueError, match="not 'b' or 'w'"):
        favourability(assess({}, CORNER), "black")
    with pytest.raises(ValueError, match="off a 19x19 board"):
        assess({(19, 0): "b"}, CORNER)
