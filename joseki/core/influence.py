"""Influence of stones: how strongly each colour controls each point of the board.

Used to judge who comes out ahead in a corner once a joseki is over. Colours are ``"b"``
and ``"w"``; black forces are positive, white negative. Points are ``(x, y)`` as in
:mod:`joseki.core.geometry`, ``y`` counted from the top.

The main model (:func:`influence`) sends rays in four directions. A stone sends one ray
up, right, down and left. A ray has strength 64 at the stone and halves with each step:
it brings 32 to the neighbour, 16 to the next point, then 8, 4, 2, 1. Halving is an
integer right shift; because 64 = 2**6 every value is exact until the force drops below 1
and vanishes, six steps out.

- An empty point receives the ray's strength and passes the ray on.
- An occupied point (either colour) receives nothing from the ray, and the ray stops there.
- At the board edge the ray is reflected with rate 1. The mirror lies half a step beyond the
  edge line, so a ray bringing ``s`` to an edge point comes back onto that same point with
  ``s // 2``, travelling the other way. This is the same as a mirror-image stone off the board.
  A returning ray stops at its own stone, so a ray is reflected at most once.
- Refraction (optional, ``refraction=r``): at every point a ray reaches, it spawns two
  perpendicular rays of the same sign with strength ``s >> r`` (rate ``2**-r``). These rays
  propagate, reflect and refract in the same way.

Each point records its forces by the side they arrive from. ``up`` is the force arriving
from above (carried by rays travelling down); ``right``, ``down`` and ``left`` work the same way.
A reflected ray arrives from the edge side. A stone's own point holds its own 64 (with sign)
in all four slots, and nothing else; :func:`area` counts empty points only.

The simpler distance form (:func:`distance_influence`) gives each stone 64 at its point,
halving with each step of Manhattan distance. So it is zero beyond six steps, and it takes
no account of blocking stones or edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from joseki.core.geometry import Point

COLOURS = ("b", "w")
STONE_FORCE = 64
AREA_THRESHOLD = 20
INFLUENCE_WEIGHT = 0.5

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (dx, dy) of travel, indexed by direction


@dataclass(frozen=True, slots=True)
class PointForces:
    """The four forces at a point, named by the side they arrive from."""

    up: int
    right: int
    down: int
    left: int

    @property
    def total(self) -> int:
        """F = F0 + F1 + F2 + F3: positive where black is stronger, negative where white is."""
        return self.up + self.right + self.down + self.left

    @property
    def modulus(self) -> int:
        """The sum of absolute values. It is small at open points and large at settled ones."""
        return abs(self.up) + abs(self.right) + abs(self.down) + abs(self.left)

    @property
    def balance(self) -> int:
        """The force that cancels out: ``modulus - |total|``, twice the smaller colour's sum.

        This is 0 where only one colour reaches the point. It equals ``modulus`` where black
        and white forces exactly balance, so a high value marks a contested point.
        """
        return self.modulus - abs(self.total)

    def sides(self) -> tuple[int, int, int, int]:
        """The forces as ``(up, right, down, left)``."""
        return (self.up, self.right, self.down, self.left)


@dataclass(frozen=True, slots=True)
class Assessment:
    """A summary of one zone: area, influence and stones of each colour, and its empty points."""

    black_area: int
    white_area: int
    black_influence: int
    white_influence: int
    black_stones: int
    white_stones: int
    empty: int


def _check_size(size: int) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"board size {size!r} must be a positive integer")
    return size


def _check_point(point: Point, size: int) -> Point:
    if type(point) is tuple and len(point) == 2:  # the common case, at a glance
        x, y = point
        if type(x) is int and type(y) is int and 0 <= x < size and 0 <= y < size:
            return point
    if not (
        isinstance(point, tuple)
        and len(point) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) for c in point)
    ):
        raise ValueError(f"point {point!r} is not an (x, y) pair of integers")
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"point {point!r} is off a {size}x{size} board")
    return point


def _check_colour(colour: str) -> str:
    if colour not in COLOURS:
        raise ValueError(f"colour {colour!r} is not 'b' or 'w'")
    return colour


def _check_stones(stones: Mapping[Point, str], size: int) -> dict[Point, int]:
    """The stones as point -> sign (+1 black, -1 white), after checking them."""
    return {_check_point(p, size): 1 if _check_colour(c) == "b" else -1 for p, c in stones.items()}


def _check_region(region: Iterable[Point] | None, size: int) -> list[Point]:
    if region is None:
        return [(x, y) for y in range(size) for x in range(size)]
    return [_check_point(p, size) for p in region]


def influence(
    stones: Mapping[Point, str],
    size: int = 19,
    region: Iterable[Point] | None = None,
    refraction: int | None = None,
) -> dict[Point, PointForces]:
    """The forces at every point of the board, or only at the points of ``region``.

    ``refraction`` is the shift ``r`` of the refraction rate ``2**-r``; leave it None for
    no refraction.
    """
    _check_size(size)
    signs = _check_stones(stones, size)
    points = _check_region(region, size)
    acc = _forces(signs, size, refraction)
    result = {}
    for p in points:
        if p in signs:
            result[p] = PointForces(*(signs[p] * STONE_FORCE,) * 4)
        else:
            result[p] = PointForces(*acc.get(p, (0, 0, 0, 0)))
    return result


def _forces(signs: Mapping[Point, int], size: int, refraction: int | None) -> dict[Point, list[int]]:
    """The forces (up, right, down, left) at each empty point some ray reaches, from stones as point -> sign."""
    if refraction is not None and (isinstance(refraction, bool) or not isinstance(refraction, int) or refraction < 0):
        raise ValueError(f"refraction {refraction!r} must be a non-negative integer shift")
    acc: dict[Point, list[int]] = {}
    for origin, sign in signs.items():
        # A ray is (point it is at, direction of travel, strength it brought there).
        rays = [(origin, d, STONE_FORCE) for d in range(4)]
        while rays:
            (x, y), d, strength = rays.pop()
            strength >>= 1
            if not strength:
                continue
            dx, dy = _STEP[d]
            nxt = (x + dx, y + dy)
            if not (0 <= nxt[0] < size and 0 <= nxt[1] < size):
                nxt, d = (x, y), (d + 2) % 4  # the mirror half a step beyond the edge
            if nxt in signs:
                continue
            acc.setdefault(nxt, [0, 0, 0, 0])[(d + 2) % 4] += sign * strength
            rays.append((nxt, d, strength))
            if refraction is not None:
                rays.append((nxt, (d + 1) % 4, strength >> refraction))
                rays.append((nxt, (d + 3) % 4, strength >> refraction))
    return acc


def distance_influence(
    stones: Mapping[Point, str], size: int = 19, region: Iterable[Point] | None = None
) -> dict[Point, int]:
    """The distance form: the sum over stones of ``±64 >> d``, ``d`` the Manhattan distance.

    The result covers every point of the board, or the points of ``region``, stones included.
    """
    _check_size(size)
    signs = _check_stones(stones, size)
    result = {}
    for x, y in _check_region(region, size):
        result[(x, y)] = sum(
            sign * (STONE_FORCE >> d) for (sx, sy), sign in signs.items() if (d := abs(sx - x) + abs(sy - y)) <= 6
        )
    return result


def area(forces: Mapping[Point, PointForces], stones: Mapping[Point, str]) -> dict[str, set[Point]]:
    """Each colour's area among the empty points of ``forces``.

    A point is black's area when all four forces are positive and F > 20. It is white's
    area when all four are negative and F < -20. Points in ``stones`` are never area.
    """
    for colour in stones.values():
        _check_colour(colour)
    result: dict[str, set[Point]] = {"b": set(), "w": set()}
    for point, f in forces.items():
        if point in stones:
            continue
        if min(f.sides()) > 0 and f.total > AREA_THRESHOLD:
            result["b"].add(point)
        elif max(f.sides()) < 0 and f.total < -AREA_THRESHOLD:
            result["w"].add(point)
    return result


def assess(
    stones: Mapping[Point, str], region: Iterable[Point], size: int = 19, refraction: int | None = None
) -> Assessment:
    """Summarise the zone ``region`` (such as a corner), with forces from every stone on the board.

    A colour's area is its number of area points in the region (see :func:`area`). Its
    influence is the number of empty region points where the total force favours it
    (F > 0 for black, F < 0 for white), so area points count as influence too.
    """
    _check_size(size)
    signs = _check_stones(stones, size)
    points = set(_check_region(region, size))
    acc = _forces(signs, size, refraction)
    counts = {"area_b": 0, "area_w": 0, "influence_b": 0, "influence_w": 0, "b": 0, "w": 0, "empty": 0}
    for p in points:  # as :func:`area` and the totals of :func:`influence` count them, without their objects
        sign = signs.get(p)
        if sign is not None:
            counts["b" if sign > 0 else "w"] += 1
            continue
        counts["empty"] += 1
        forces = acc.get(p)
        if forces is None:
            continue
        total = sum(forces)
        if total > 0:
            counts["influence_b"] += 1
            if total > AREA_THRESHOLD and min(forces) > 0:
                counts["area_b"] += 1
        elif total < 0:
            counts["influence_w"] += 1
            if total < -AREA_THRESHOLD and max(forces) < 0:
                counts["area_w"] += 1
    return Assessment(counts["area_b"], counts["area_w"], counts["influence_b"], counts["influence_w"], counts["b"],
                      counts["w"], counts["empty"])


def favourability(
    assessment: Assessment, first: str, influence_weight: float = INFLUENCE_WEIGHT
) -> tuple[float, float]:
    """Scores in [-1, 1] for ``first`` and for the other player; each is the other's negative.

    A colour's worth is ``area + stones + influence_weight * influence``. The score is
    ``(first's worth - other's worth) / (sum of both)``, or 0 when both are 0. So 1 means
    only ``first`` has anything in the zone.

    This is a count of material and territory shape only. It does not capture life and
    death, weaknesses and aji, whose turn it is, or how the zone works with the rest of
    the board.
    """
    _check_colour(first)
    if influence_weight < 0:
        raise ValueError(f"influence weight {influence_weight!r} must not be negative")
    a = assessment
    black = a.black_area + a.black_stones + influence_weight * a.black_influence
    white = a.white_area + a.white_stones + influence_weight * a.white_influence
    if black + white == 0:
        return (0.0, 0.0)
    score = (black - white) / (black + white)
    if first == "w":
        score = -score
    return (score, -score) if score else (0.0, 0.0)
