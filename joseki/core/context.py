"""A corner's whole-board context: who holds the neighbouring corners and sides, in the corner's own frame.

The joseki a strong player chooses in a corner depends on the rest of the board: the side to
approach from, whether to pincer, which way to extend all follow from the stones in the two
adjacent corners and on the two sides between. The **context signature** of a corner, just
before one of its local moves, is four characters, one per region of the board in the frame
of the corner's string (zone points ``(col, row)``, :mod:`joseki.core.geometry`):

====  ==========  =============================================================
 #    region      zone points (19x19, 0-based lines from the corner's edges)
====  ==========  =============================================================
 0    corner_v    the adjacent corner along the vertical edge: col <= 6, row >= 12
 1    side_v      the side between, along the vertical edge: col <= 6, 7 <= row <= 11
 2    side_h      the side along the horizontal edge: row <= 6, 7 <= col <= 11
 3    corner_h    the adjacent corner along the horizontal edge: row <= 6, col >= 12
====  ==========  =============================================================

Each character says who holds the region, relative to the player about to move in the corner
(so both colours share statistics, and whose turn it is is part of every character): ``.``
no stone, ``m`` more of the mover's stones, ``o`` more of the opponent's, ``x`` as many of
each. Stones are the moves played so far (a capture in these regions this early is rare
enough not to pay for a whole-board replay). Reflecting the frame across the corner's
diagonal exchanges the vertical and horizontal regions, which reverses the string
(:func:`reflect_context`); swapping the colours of every stone leaves it unchanged, since the
mover's colour swaps too. 4**4 = 256 signatures: few enough that the common openings have
many games in each.

:func:`book_frame` is the one rule that puts a game's context and move into the frame of the
book line they are credited to or looked up under (a transposition may reach the reflected
line; after a line whose stones all lie on the diagonal, such as a lone 4-4 stone, the frame
is chosen by the context itself, so that "approach from the side of my own corner" is one
statistic whichever side that is).
"""

from __future__ import annotations

from collections.abc import Iterable

from joseki.core.geometry import Corner, Point, Transform
from joseki.core.notation import TENUKI
from joseki.core.steps import Color, swap_token

FIELDS = ("corner_v", "side_v", "side_h", "corner_h")
"""The regions of a signature, in order."""
EMPTY, MOVER, OPPONENT, EVEN = ".", "m", "o", "x"
VALUES = (EMPTY, MOVER, OPPONENT, EVEN)
BOARD = 19
CONTEXT_STEPS = 30
"""Local moves per corner whose context is taken (as deep as mining counts; books rarely go deeper)."""


def region(zpoint: Point) -> int | None:
    """The index in :data:`FIELDS` of the region holding zone point ``zpoint`` (unreflected frame), if any."""
    col, row = zpoint
    if col <= 6:
        return 0 if row >= 12 else 1 if row >= 7 else None
    if row <= 6:
        return 3 if col >= 12 else 2 if col >= 7 else None
    return None


def reflect_context(context: str) -> str:
    """The signature in the frame reflected across the corner's diagonal."""
    return context[::-1]


def _value(mine: int, theirs: int) -> str:
    if mine == theirs:
        return EMPTY if not mine else EVEN
    return MOVER if mine > theirs else OPPONENT


def signature(stones: Iterable[tuple[Color, Point]], transform: Transform, mover: Color) -> str:
    """The signature of the corner of ``transform`` (in that frame) for ``mover``, from the board's ``stones``."""
    counts = [[0, 0] for _ in FIELDS]
    for color, point in stones:
        index = region(transform.to_zone(point, BOARD))
        if index is not None:
            counts[index][color != mover] += 1
    return "".join(_value(a, b) for a, b in counts)


def _regions() -> dict[Point, tuple[tuple[int, int], ...]]:
    """For each board point, (corner number, region) of each corner's unreflected region holding it."""
    table: dict[Point, tuple[tuple[int, int], ...]] = {}
    for x in range(BOARD):
        for y in range(BOARD):
            found = []
            for number, corner in enumerate(Corner):
                index = region(Transform(corner).to_zone((x, y), BOARD))
                if index is not None:
                    found.append((number, index))
            table[(x, y)] = tuple(found)
    return table


_REGIONS = _regions()
_SLOTS = tuple({p: tuple(n * 8 + 2 * i + shift for n, i in found) for p, found in _REGIONS.items()} for shift in (0, 1))
"""For black (0) and white (1), the counters of :func:`game_contexts` a stone on each point adds to."""


def game_contexts(moves: list[tuple[Color, Point | None]], local: dict[Corner, tuple[list[int], bool]],
                  limit: int = CONTEXT_STEPS) -> dict[Corner, list[str]]:
    """Each corner's signature before each of its first ``limit`` local moves, in one pass over the game.

    ``moves`` are the game's (colour, board point or None); ``local[corner]`` is (the move
    numbers from 1 of the corner's local moves, whether the corner's string is written
    reflected: :attr:`joseki.core.corners.CornerTable.transform`). The same as
    :func:`signature` over the stones before each move, only faster.
    """
    corners = list(Corner)
    wanted: dict[int, list[int]] = {}
    for number, corner in enumerate(corners):
        for move_number in local.get(corner, ((), False))[0][:limit]:
            wanted.setdefault(move_number, []).append(number)
    out: dict[Corner, list[str]] = {corner: [] for corner in local}
    counts = [0] * 32  # corner * 8 + region * 2 + (0 black, 1 white)
    last = max(wanted, default=0)
    value, slots = _value, _SLOTS
    for move_number, (color, point) in enumerate(moves[:last], start=1):
        if move_number in wanted:
            mover = color != "b"
            for number in wanted[move_number]:
                m, o = number * 8 + mover, number * 8 + 1 - mover
                out[corners[number]].append(value(counts[m], counts[o]) + value(counts[m + 2], counts[o + 2])
                                            + value(counts[m + 4], counts[o + 4]) + value(counts[m + 6], counts[o + 6]))
        if point is not None:
            for slot in slots[color != "b"][point]:
                counts[slot] += 1
    for corner, (_, reflected) in local.items():
        if reflected:
            out[corner] = [reflect_context(c) for c in out[corner]]
    return out


def token_contexts(steps: str, contexts: list[str]) -> list[str | None]:
    """``contexts`` (one per local move) aligned with the tokens of ``steps``: None for each ``XX``
    and for the local moves past the last context given."""
    local = iter(contexts)
    return [None if steps[i : i + 2] == TENUKI else next(local, None) for i in range(0, len(steps), 2)]



def book_frame(context: str, token: str, reflected: bool, symmetric: bool) -> tuple[str, str]:
    """A game's ``context`` and ``token`` in the frame of the book line they go under.

    ``reflected``: the book line's position is the reflection of the game's (a transposition);
    ``symmetric``: the book line's stones all lie on the diagonal, so its frame is not fixed by
    the line: the reflection with the smaller signature is taken, and with a symmetric
    signature the token's canonical form (column before row).
    """
    if reflected:
        context, token = reflect_context(context), swap_token(token)
    if symmetric:
        other = reflect_context(context)
        if other < context or (other == context and token[0] > token[1]):
            context, token = other, swap_token(token)
    return context, token
