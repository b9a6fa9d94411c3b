"""A corner's whole-board context: who holds the neighbouring corners and sides, in the corner's own frame.

The joseki a strong player chooses in a corner depends on the rest of the board: the side to
approach from, whether to pincer, which way to extend all follow from the stones in the two
adjacent corners and on the two sides between. The **context signature** of a corner, just
before one of its local moves, is seven characters: first one per region of the board in the
frame of the corner's string (zone points ``(col, row)``, :mod:`joseki.core.geometry`):

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
mover's colour swaps too. 4**4 = 256 region signatures: few enough that the common openings
have many games in each.

For a corner's first :data:`FINE_STEPS` local moves, where the games are many and the board
decides most (which stone, which approach, which pincer), three **fine** characters follow
(``---`` after those moves): who holds the opposite corner (col >= 12, row >= 12; same values),
then the first stone played in corner_v and in corner_h, by its lines from the edge it shares
with this corner and from its own other edge (:func:`stone_class`: 3rd line or lower, 4th, 5th
or higher, nine classes): ``a``-``i`` the mover's, ``j``-``u`` the opponent's, ``.`` none. So a
3-4 stone whose 3rd line runs along the side towards this corner reads differently from one
turned away. Reflection reverses the regions and exchanges the two first-stone characters. A
ranking shrinks through the region signature (:data:`CONTEXT_LEVELS`) before the full one, so
a rare fine context leans on its region context's games, not on the context-free ones.

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
from joseki.core.steps import Colour, swap_token

FIELDS = ("corner_v", "side_v", "side_h", "corner_h")
"""The regions of a signature, in order."""
EMPTY, MOVER, OPPONENT, EVEN = ".", "m", "o", "x"
VALUES = (EMPTY, MOVER, OPPONENT, EVEN)
BOARD = 19
CONTEXT_STEPS = 30
"""Local moves per corner whose context is taken (as deep as mining counts; books rarely go deeper)."""
FINE_STEPS = 4
"""Local moves per corner whose signature also carries the fine characters (the rest: ``-``)."""
DIAGONAL = 4
"""The region index of the opposite corner (col >= 12, row >= 12), counted only for the fine characters."""
UNRECORDED = "-"
FIRST_MOVER, FIRST_OPPONENT = "abcdefghi", "jklnpqrsu"
"""A fine character for an adjacent corner's first stone: its class (:func:`stone_class`), the mover's or not."""
SIGNATURE_LENGTH = 7
"""Characters in a signature: four regions, then three fine ones (module docstring)."""


def region(zpoint: Point) -> int | None:
    """The index in :data:`FIELDS` of the region holding zone point ``zpoint`` (unreflected frame), if any
    (:data:`DIAGONAL` for the opposite corner)."""
    col, row = zpoint
    if col <= 6:
        return 0 if row >= 12 else 1 if row >= 7 else None
    if row <= 6:
        return 3 if col >= 12 else 2 if col >= 7 else None
    return DIAGONAL if col >= 12 and row >= 12 else None


def _line(n: int) -> int:
    return 0 if n <= 2 else 1 if n == 3 else 2


def stone_class(zpoint: Point) -> int:
    """0-8: a stone of an adjacent corner by its lines from the edge it shares with this corner and from its own
    other edge (each 3rd line or lower, 4th, 5th or higher)."""
    col, row = zpoint
    if col <= 6:  # corner_v: shares the vertical edge
        return 3 * _line(col) + _line(BOARD - 1 - row)
    return 3 * _line(row) + _line(BOARD - 1 - col)


CONTEXT_LEVELS: tuple[tuple[int, ...], ...] = ((0, 1, 2, 3),)
"""The coarser signatures a ranking shrinks through, coarsest first: the signature's characters each keeps
(:func:`coarse`); the full signature is the finest level."""


def coarse(context: str, kept: tuple[int, ...]) -> str:
    """``context`` with only the characters at ``kept`` (the others ``_``: a LIKE pattern for any)."""
    return "".join(c if i in kept else "_" for i, c in enumerate(context))


def reflect_context(context: str) -> str:
    """The signature in the frame reflected across the corner's diagonal: the regions reversed, the adjacent
    corners' first stones exchanged."""
    return context[3::-1] + context[4:5] + context[6:4:-1]


def _value(mine: int, theirs: int) -> str:
    if mine == theirs:
        return EMPTY if not mine else EVEN
    return MOVER if mine > theirs else OPPONENT


def _first(found: tuple[bool, int] | None) -> str:
    if found is None:
        return EMPTY
    mine, cls = found
    return (FIRST_MOVER if mine else FIRST_OPPONENT)[cls]


def signature(stones: Iterable[tuple[Colour, Point]], transform: Transform, mover: Colour, local: int = 1) -> str:
    """The signature of the corner of ``transform`` (in that frame) for ``mover`` from the board's ``stones`` (in
    the order played), before the corner's local move number ``local`` (fine characters up to :data:`FINE_STEPS`)."""
    counts = [[0, 0] for _ in range(5)]
    first: list[tuple[bool, int] | None] = [None, None]
    for colour, point in stones:
        zpoint = transform.to_zone(point, BOARD)
        index = region(zpoint)
        if index is not None:
            counts[index][colour != mover] += 1
            if index in (0, 3) and first[index == 3] is None:
                first[index == 3] = (colour == mover, stone_class(zpoint))
    text = "".join(_value(a, b) for a, b in counts[:4])
    if local > FINE_STEPS:
        return text + UNRECORDED * 3
    return text + _value(*counts[DIAGONAL]) + _first(first[0]) + _first(first[1])


def _regions() -> dict[Point, tuple[tuple[int, int, int], ...]]:
    """For each board point, (corner number, region, stone class) of each corner's unreflected region holding it."""
    table: dict[Point, tuple[tuple[int, int, int], ...]] = {}
    for x in range(BOARD):
        for y in range(BOARD):
            found = []
            for number, corner in enumerate(Corner):
                zpoint = Transform(corner).to_zone((x, y), BOARD)
                index = region(zpoint)
                if index is not None:
                    found.append((number, index, stone_class(zpoint) if index in (0, 3) else -1))
            table[(x, y)] = tuple(found)
    return table


_REGIONS = _regions()
_SLOTS = tuple({p: tuple(n * 10 + 2 * i + shift for n, i, _ in found) for p, found in _REGIONS.items()}
               for shift in (0, 1))
"""For black (0) and white (1), the counters of :func:`game_contexts` a stone on each point adds to."""
_REGION_SLOTS = tuple({p: tuple(n * 10 + 2 * i + shift for n, i, _ in found if i != DIAGONAL)
                       for p, found in _REGIONS.items()} for shift in (0, 1))
"""The same without the opposite corners' counters (needed only for the fine characters)."""
_FIRSTS = {p: tuple((n * 2 + (i == 3), cls) for n, i, cls in found if i in (0, 3)) for p, found in _REGIONS.items()}
"""For each point, (corner number * 2 + (0 vertical, 1 horizontal), stone class) of the adjacent corners holding it."""


def game_contexts(moves: list[tuple[Colour, Point | None]], local: dict[Corner, tuple[list[int], bool]],
                  limit: int = CONTEXT_STEPS) -> dict[Corner, list[str]]:
    """Each corner's signature before each of its first ``limit`` local moves, in one pass over the game.

    ``moves`` are the game's (colour, board point or None); ``local[corner]`` is (the move
    numbers from 1 of the corner's local moves, whether the corner's string is written
    reflected: :attr:`joseki.core.corners.CornerTable.transform`). The same as
    :func:`signature` over the stones before each move, only faster.
    """
    corners = list(Corner)
    wanted: dict[int, list[tuple[int, int]]] = {}
    last_fine = 0
    for number, corner in enumerate(corners):
        for k, move_number in enumerate(local.get(corner, ((), False))[0][:limit], start=1):
            wanted.setdefault(move_number, []).append((number, k))
            if k <= FINE_STEPS and move_number > last_fine:
                last_fine = move_number
    found: list[list[str]] = [[], [], [], []]
    counts = [0] * 40  # corner * 10 + region * 2 + (0 black, 1 white)
    firsts: list[tuple[int, int] | None] = [None] * 8  # corner * 2 + side: (0 black, 1 white), class
    last = max(wanted, default=0)
    value, first, slots, regions, fine = _VALUES, _first, _SLOTS, _REGION_SLOTS, FINE_STEPS
    for move_number, (colour, point) in enumerate(moves[:last], start=1):
        if move_number in wanted:
            mover = colour != "b"
            for number, k in wanted[move_number]:
                m, o = number * 10 + mover, number * 10 + 1 - mover
                text = (value[(counts[m] > counts[o]) - (counts[m] < counts[o])] if counts[m] or counts[o] else EMPTY)
                for shift in (2, 4, 6) if k > fine else (2, 4, 6, 8):
                    a, b = counts[m + shift], counts[o + shift]
                    text += value[(a > b) - (a < b)] if a or b else EMPTY
                if k > fine:
                    text += UNRECORDED * 3
                else:
                    fv, fh = firsts[2 * number], firsts[2 * number + 1]
                    text += first(None if fv is None else (fv[0] == mover, fv[1]))
                    text += first(None if fh is None else (fh[0] == mover, fh[1]))
                found[number].append(text)
        if point is None:
            continue
        side = colour != "b"
        if move_number >= last_fine:  # no fine character is asked for again: the four regions only
            for slot in regions[side][point]:
                counts[slot] += 1
            continue
        for slot in slots[side][point]:
            counts[slot] += 1
        for slot, cls in _FIRSTS[point]:
            if firsts[slot] is None:
                firsts[slot] = (side, cls)
    out: dict[Corner, list[str]] = {}
    for corner, (_, reflected) in local.items():
        texts = found[corners.index(corner)]
        out[corner] = [reflect_context(c) for c in texts] if reflected else texts
    return out


_VALUES = (EVEN, MOVER, OPPONENT)
""":func:`_value` of two counts not both zero, by the sign of their difference (index -1: the opponent's more)."""


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
