"""Patterns for the pattern search: Kombilo's letters, where a pattern may lie, and its images on the board (pure).

A pattern is a rectangle of letters: ``.`` empty, ``X`` black, ``O`` white, ``x`` black or empty, ``o``
white or empty, ``*`` anything. It is drawn at its *home* on the 19x19 board: in a corner
(:attr:`Where.CORNER`), along a side (:attr:`Where.SIDE`, sliding along it), anywhere
(:attr:`Where.ANYWHERE`, at any place), or at a fixed place (:attr:`Where.FIXED`). The eight symmetries
of the board (:data:`SYMMETRIES`) and the colour swap carry the home placements to the others: a
:class:`Family` is one symmetry and one colour choice with every place the placement allows.
:func:`families` lists them with duplicates removed (a symmetric pattern has fewer distinct images), and
:func:`symmetry_group` the images that leave the pattern as it is, to merge its continuations.

Board points are ``(x, y)`` from the top-left, as everywhere in the package; a pattern's *cell*
``(dx, dy)`` is its column and row from its own top-left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.movelist import SIZE

LETTERS = ".XOxo*"
ALLOWS: dict[str, frozenset[int]] = {".": frozenset({0}), "X": frozenset({1}), "O": frozenset({2}),
                                     "x": frozenset({0, 1}), "o": frozenset({0, 2}), "*": frozenset({0, 1, 2})}
"""The point states (0 empty, 1 black, 2 white) each letter allows."""
_SWAP = str.maketrans("XOxo", "OXox")
ROW_SEPARATORS = "/,;|"


def swap_letters(text: str) -> str:
    """``text`` with the colours exchanged (``X`` for ``O``, ``x`` for ``o``, and back)."""
    return text.translate(_SWAP)


class Where(StrEnum):
    """Where a pattern may lie on the board."""

    CORNER = "corner"
    SIDE = "side"
    ANYWHERE = "anywhere"
    FIXED = "fixed"


class Side(StrEnum):
    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"

    @classmethod
    def parse(cls, text: str) -> Side:
        """The side named ``text`` (``top``, ``t``, ...); BadInput if none."""
        key = text.strip().lower()
        for side in cls:
            if key in (side.value, side.value[0]):
                return side
        raise BadInput(f"unknown side {text!r} (expected top, bottom, left or right)")


@dataclass(frozen=True, slots=True)
class Pattern:
    """A rectangle of letters, rows from the top."""

    rows: tuple[str, ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def letter(self, cell: Point) -> str:
        return self.rows[cell[1]][cell[0]]

    def cells(self) -> list[tuple[Point, str]]:
        """Every cell with its letter, row by row."""
        return [((dx, dy), ch) for dy, row in enumerate(self.rows) for dx, ch in enumerate(row)]

    @property
    def stones(self) -> int:
        """How many cells must hold a stone (``X`` or ``O``)."""
        return sum(row.count("X") + row.count("O") for row in self.rows)


def parse_pattern(text: str, name: str = "pattern") -> Pattern:
    """The pattern written in ``text``: rows on lines (or separated by ``/``), spaces ignored.

    ``name`` (a file or argument) begins each error. Raises BadInput for no rows, rows of
    different lengths (a pattern is a rectangle), an unknown letter, or more rows or columns than
    the board has.
    """
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    for sep in ROW_SEPARATORS:
        lines = [part for line in lines for part in line.split(sep)]
    rows = ["".join(line.split()) for line in lines]
    rows = [row for row in rows if row]
    if not rows:
        raise BadInput(f"{name}: empty pattern (give rows of . X O x o *)")
    for number, row in enumerate(rows, 1):
        bad = sorted(set(row) - set(LETTERS))
        if bad:
            raise BadInput(f"{name}: unknown letter {bad[0]!r} in row {number} (expected . X O x o *)")
        if len(row) != len(rows[0]):
            raise BadInput(f"{name}: row {number} has {len(row)} points, row 1 has {len(rows[0])} "
                             "(a pattern is a rectangle)")
    if len(rows) > SIZE or len(rows[0]) > SIZE:
        raise BadInput(f"{name}: {len(rows[0])}x{len(rows)} points do not fit on a {SIZE}x{SIZE} board")
    return Pattern(tuple(rows))


@dataclass(frozen=True, slots=True)
class Symmetry:
    """One of the eight symmetries of the board: transpose first, then mirror the columns, then the rows."""

    transpose: bool = False
    flip_x: bool = False
    flip_y: bool = False

    def apply(self, point: Point) -> Point:
        x, y = point
        if self.transpose:
            x, y = y, x
        return (SIZE - 1 - x if self.flip_x else x, SIZE - 1 - y if self.flip_y else y)

    def invert(self, point: Point) -> Point:
        """The point this symmetry carries to ``point`` (the inverse of :meth:`apply`)."""
        x, y = point
        x, y = (SIZE - 1 - x if self.flip_x else x, SIZE - 1 - y if self.flip_y else y)
        return (y, x) if self.transpose else (x, y)

    def linear(self) -> tuple[Point, Point]:
        """Where a step of one column and one row of the board go: ``(dx, dy)`` for each."""
        ox, oy = self.apply((0, 0))
        ax, ay = self.apply((1, 0))
        bx, by = self.apply((0, 1))
        return (ax - ox, ay - oy), (bx - ox, by - oy)

    @property
    def name(self) -> str:
        """How the image lies against the pattern as drawn."""
        return ORIENTATION_NAMES[(self.transpose, self.flip_x, self.flip_y)]


ORIENTATION_NAMES = {
    (False, False, False): "as drawn",
    (False, True, False): "mirrored left-right",
    (False, False, True): "mirrored top-bottom",
    (False, True, True): "rotated 180",
    (True, False, False): "mirrored on the diagonal",
    (True, True, False): "rotated 90 clockwise",
    (True, False, True): "rotated 90 anticlockwise",
    (True, True, True): "mirrored on the other diagonal",
}
SYMMETRIES: tuple[Symmetry, ...] = tuple(Symmetry(t, fx, fy) for t in (False, True) for fx in (False, True)
                                         for fy in (False, True))
"""The eight symmetries, the identity first."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the pattern's home is: ``where``, with the corner, side or top-left point it names."""

    where: Where
    corner: Corner = Corner.TOP_LEFT
    side: Side = Side.TOP
    at: Point = (0, 0)

    def home(self, pattern: Pattern) -> tuple[Point, list[Point]]:
        """The pattern's top-left point at home and the offsets from there that the placement allows.

        Raises BadInput when the pattern runs off the board at its fixed place.
        """
        w, h = pattern.width, pattern.height
        if self.where is Where.CORNER:
            return (SIZE - w if self.corner.right else 0, SIZE - h if self.corner.bottom else 0), [(0, 0)]
        if self.where is Where.SIDE:
            if self.side in (Side.TOP, Side.BOTTOM):
                return (0, 0 if self.side is Side.TOP else SIZE - h), [(d, 0) for d in range(SIZE - w + 1)]
            return (0 if self.side is Side.LEFT else SIZE - w, 0), [(0, d) for d in range(SIZE - h + 1)]
        if self.where is Where.ANYWHERE:
            return (0, 0), [(dx, dy) for dy in range(SIZE - h + 1) for dx in range(SIZE - w + 1)]
        x, y = self.at
        if x < 0 or y < 0 or x + w > SIZE or y + h > SIZE:
            raise BadInput(f"a {w}x{h} pattern at column {x + 1}, row {y + 1} from the top-left runs off "
                             f"the {SIZE}x{SIZE} board")
        return (x, y), [(0, 0)]


@dataclass(frozen=True, slots=True)
class Family:
    """The images of the pattern under one symmetry and colour choice, at each place in ``offsets``.

    ``points[k]`` is the board point of ``cells[k]`` at offset ``(0, 0)``; an offset ``(ox, oy)`` moves
    every point by ``ox`` times ``step_x`` and ``oy`` times ``step_y``. ``letters[k]`` is the cell's
    letter with the colours exchanged when ``swapped``."""

    symmetry: Symmetry
    swapped: bool
    cells: tuple[Point, ...]
    letters: tuple[str, ...]
    points: tuple[Point, ...]
    step_x: Point
    step_y: Point
    offsets: tuple[Point, ...]

    def point(self, k: int, offset: Point) -> Point:
        (px, py), (ax, ay), (bx, by) = self.points[k], self.step_x, self.step_y
        return (px + offset[0] * ax + offset[1] * bx, py + offset[0] * ay + offset[1] * by)

    def requirements(self, offset: Point) -> dict[Point, str]:
        """Every board point of the image at ``offset`` with the letter it must satisfy."""
        return {self.point(k, offset): letter for k, letter in enumerate(self.letters)}


def _image(pattern: Pattern, home: Point, symmetry: Symmetry, swapped: bool) -> tuple[tuple[Point, ...],
                                                                                          tuple[str, ...],
                                                                                          tuple[Point, ...]]:
    """The pattern's cells, their letters (colours exchanged when ``swapped``) and their board points under
    ``symmetry`` with the pattern at ``home``."""
    w, h = pattern.width, pattern.height
    cells = tuple((dx, dy) for dy in range(h) for dx in range(w))
    text = "".join(pattern.rows)
    letters = tuple(swap_letters(text) if swapped else text)
    points = tuple(_places(symmetry.apply(home), *symmetry.linear(), cells))
    return cells, letters, points


def _grid(pattern: Pattern, home: Point, symmetry: Symmetry, swapped: bool) -> tuple[Point, tuple[str, ...]]:
    """The image's top-left board point and its rows of letters as they lie on the board (the pattern's rows
    transposed, mirrored and swapped as the symmetry and colour choice say)."""
    w, h = pattern.width, pattern.height
    ends = [symmetry.apply((home[0] + dx, home[1] + dy)) for dx in (0, w - 1) for dy in (0, h - 1)]
    rows = [swap_letters(row) for row in pattern.rows] if swapped else list(pattern.rows)
    if symmetry.transpose:
        rows = ["".join(column) for column in zip(*rows, strict=True)]
    if symmetry.flip_x:
        rows = [row[::-1] for row in rows]
    if symmetry.flip_y:
        rows.reverse()
    return (min(x for x, _ in ends), min(y for _, y in ends)), tuple(rows)


def _places(corner: Point, step_x: Point, step_y: Point, offsets: Sequence[Point]) -> list[Point]:
    """The board point ``offsets`` away from ``corner`` along ``step_x`` and ``step_y``: an image's top-left point
    at each of its offsets, or its cells' points from its home."""
    (cx, cy), (ax, ay), (bx, by) = corner, step_x, step_y
    return [(cx + ox * ax + oy * bx, cy + ox * ay + oy * by) for ox, oy in offsets]


def families(pattern: Pattern, placement: Placement, *, fixed_orientation: bool = False,
             fixed_colour: bool = False) -> list[Family]:
    """The distinct images of ``pattern`` at ``placement``: each place on the board with its letters once.

    Two images that ask the same of the same points are one (a symmetric pattern, or one without stones,
    has fewer than sixteen families); each family keeps only the offsets no earlier family has.
    """
    home, offsets = placement.home(pattern)
    seen: dict[tuple[str, ...], tuple[Point, Point, Point, list[Point]] | set[Point]] = {}
    """The places taken by the images with each grid of letters so far (the first image's worked out only when
    another has the same letters)."""
    found: list[Family] = []
    for symmetry in SYMMETRIES[:1] if fixed_orientation else SYMMETRIES:
        for swapped in (False,) if fixed_colour else (False, True):
            step_x, step_y = symmetry.linear()
            corner, rows = _grid(pattern, home, symmetry, swapped)
            kept = offsets
            if rows not in seen:
                seen[rows] = (corner, step_x, step_y, offsets)
            else:
                earlier = seen[rows]
                taken = set(_places(*earlier)) if isinstance(earlier, tuple) else earlier
                places = _places(corner, step_x, step_y, offsets)
                kept = [offset for offset, place in zip(offsets, places, strict=True) if place not in taken]
                taken.update(places)
                seen[rows] = taken
            if kept:
                cells, letters, points = _image(pattern, home, symmetry, swapped)
                found.append(Family(symmetry, swapped, cells, letters, points, step_x, step_y, tuple(kept)))
    return found


@dataclass(frozen=True, slots=True)
class CellMap:
    """A symmetry of the pattern itself: cell ``k`` is where cell ``cells[k]`` was, colours exchanged when
    ``swapped``."""

    cells: tuple[int, ...]
    swapped: bool


def symmetry_group(pattern: Pattern, placement: Placement) -> list[CellMap]:
    """The images of the pattern (symmetry and colour choice) that ask the same of the same points as the pattern
    itself, as maps of its cells; the identity first.

    A continuation at a cell and one at its image under one of these are the same move.
    """
    home, _ = placement.home(pattern)
    _, _, base_points = _image(pattern, home, SYMMETRIES[0], False)
    corner, rows = _grid(pattern, home, SYMMETRIES[0], False)
    where = {(x - corner[0], y - corner[1]): k for k, (x, y) in enumerate(base_points)}
    group: list[CellMap] = []
    for symmetry in SYMMETRIES:
        for swapped in (False, True):
            image_corner, image_rows = _grid(pattern, home, symmetry, swapped)
            if image_rows != rows or (placement.where in (Where.CORNER, Where.FIXED) and image_corner != corner):
                continue
            if placement.where is Where.SIDE and not _same_line(placement.side, image_corner, corner):
                continue
            _, _, points = _image(pattern, home, symmetry, swapped)
            group.append(CellMap(tuple(where[(x - image_corner[0], y - image_corner[1])] for x, y in points),
                                 swapped))
    return group


def _same_line(side: Side, image: Point, base: Point) -> bool:
    """Whether an image lies on the home's side (a side pattern slides along its side only)."""
    return image[1] == base[1] if side in (Side.TOP, Side.BOTTOM) else image[0] == base[0]


def matches(board: Sequence[int], requirements: dict[Point, str]) -> bool:
    """Whether ``board`` (a state per point index) holds what each point's letter allows."""
    return all(board[x * SIZE + y] in ALLOWS[letter] for (x, y), letter in requirements.items())


def home_point(pattern: Pattern, placement: Placement, cell: Point) -> Point:
    """The board point of ``cell`` when the pattern lies at home (a sliding one at its first place)."""
    (x0, y0), _ = placement.home(pattern)
    return (x0 + cell[0], y0 + cell[1])
