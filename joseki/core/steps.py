"""Play-step strings: a corner's local moves as two letters each, ``XX`` for a tenuki.

The parity rule (seed notes section 4): passes and moves outside the zone are not written;
``XX`` is written before a local move whose colour is the same as the previous local
move's, so that the tokens of a string alternate between the first local mover ("the first
player", whatever its colour) and the other. Token ``i`` is the first player's when ``i`` is
even.

The canonical form is the one of the two reflections of a corner frame in which the first
move off the corner's diagonal has its column before its row (``CF``, not ``FC``). It is
prefix-stable: the canonical form of a prefix is a prefix of the canonical form of every
continuation, because the reflection is fixed by the first off-diagonal move and never
changes afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from joseki.core.errors import BadInput
from joseki.core.geometry import Point
from joseki.core.notation import TENUKI, format_zone_point, parse_zone_point

Colour = str
"""``"b"`` or ``"w"``."""

_TOKENS = {(col, row): format_zone_point((col, row)) for col in range(19) for row in range(19)}
"""The zone letters of the 19x19 points, formatted once (:func:`~joseki.core.notation.format_zone_point`)."""


def other(colour: Colour) -> Colour:
    """The opponent's colour."""
    return "w" if colour == "b" else "b"


def split_steps(steps: str, size: int = 19) -> list[str]:
    """The two-letter tokens of ``steps``; BadInput naming the bad token or odd length."""
    if len(steps) % 2:
        raise BadInput(f"step string {steps!r} has odd length {len(steps)}")
    tokens = [steps[i : i + 2] for i in range(0, len(steps), 2)]
    for token in tokens:
        if token != TENUKI:
            parse_zone_point(token, size)
    return tokens


def parse_steps(steps: str, size: int = 19) -> str:
    """``steps`` validated and upper-cased (spaces and commas ignored)."""
    cleaned = "".join(steps.replace(",", " ").split()).upper()
    split_steps(cleaned, size)
    return cleaned


def iter_points(steps: str) -> Iterator[Point | None]:
    """Zone point of each token, None for ``XX``; no validation (use :func:`split_steps`)."""
    for i in range(0, len(steps), 2):
        token = steps[i : i + 2]
        yield None if token == TENUKI else (ord(token[0]) - 65, ord(token[1]) - 65)


def player_of(index: int) -> int:
    """0 if token ``index`` is the first player's, 1 if the second player's."""
    return index & 1


def to_move(steps: str) -> int:
    """0 if the first player is to move after ``steps``, 1 if the second player is."""
    return (len(steps) // 2) & 1


def swap_token(token: str) -> str:
    """The token reflected across the corner's diagonal."""
    return token if token == TENUKI else token[1] + token[0]


def reflect(steps: str) -> str:
    """``steps`` reflected across the corner's diagonal."""
    return "".join(swap_token(steps[i : i + 2]) for i in range(0, len(steps), 2))


def reflection_needed(steps: str) -> bool | None:
    """Whether ``steps`` must be reflected to be canonical; None while all moves lie on the diagonal."""
    for i in range(0, len(steps), 2):
        a, b = steps[i], steps[i + 1]
        if a != b:
            return a > b
    return None


def canonical(steps: str) -> tuple[str, bool]:
    """The canonical form of ``steps`` and whether it was reflected to get it."""
    swap = bool(reflection_needed(steps))
    return (reflect(steps) if swap else steps), swap


def is_canonical(steps: str) -> bool:
    """True if ``steps`` is its own canonical form."""
    return not reflection_needed(steps)


@dataclass(slots=True)
class StepBuilder:
    """Builds one corner's play-step string from its moves in game order, by the parity rule.

    Feed local moves with :meth:`local` and anything else (passes, moves elsewhere) with
    :meth:`elsewhere`. Points are zone points in the corner's unreflected frame; the string is
    kept in canonical form, with ``swap`` telling which reflection was applied (None until the
    first off-diagonal move fixes it).
    """

    tokens: list[str] = field(default_factory=list)
    first_colour: Colour | None = None
    last_local: Colour | None = None
    next_colour: Colour | None = None
    swap: bool | None = None

    def local(self, colour: Colour, zpoint: Point) -> int:
        """Record a local move; returns the index of its token."""
        self.extend(((colour, zpoint),))
        return len(self.tokens) - 1

    def extend(self, moves: Iterable[tuple[Colour, Point]]) -> None:
        """Record local moves in order, each as :meth:`local` does (a game's corner feeds hundreds at once)."""
        append, known = self.tokens.append, _TOKENS
        first, last, swap = self.first_colour, self.last_local, self.swap
        played = False
        for colour, zpoint in moves:
            played = True
            if first is None:
                first = colour
            elif colour == last:
                append(TENUKI)
            col, row = zpoint
            if swap is None and col != row:
                swap = col > row
            point = (row, col) if swap else zpoint
            append(known.get(point) or format_zone_point(point))
            last = colour
        self.first_colour, self.swap = first, swap
        if played:
            assert last is not None
            self.last_local, self.next_colour = last, "w" if last == "b" else "b"

    def elsewhere(self, colour: Colour) -> None:
        """Record a pass or a move outside the zone by ``colour``."""
        self.next_colour = other(colour)

    @property
    def steps(self) -> str:
        """The string so far, local moves only."""
        return "".join(self.tokens)

    def pending_tenuki(self) -> bool:
        """True if the local side to move has played elsewhere since the last local move."""
        return self.last_local is not None and self.next_colour == self.last_local

    def steps_to_move(self) -> str:
        """The string as a prefix for the next local move: ends with ``XX`` when :meth:`pending_tenuki`."""
        steps = self.steps
        return steps + TENUKI if self.pending_tenuki() else steps

    def copy(self) -> StepBuilder:
        return StepBuilder(list(self.tokens), self.first_colour, self.last_local, self.next_colour, self.swap)


def steps_from_moves(moves: list[tuple[Colour, Point | None]]) -> StepBuilder:
    """A builder fed with ``moves`` (colour, zone point or None for elsewhere) in order."""
    builder = StepBuilder()
    for colour, zpoint in moves:
        if zpoint is None:
            builder.elsewhere(colour)
        else:
            builder.local(colour, zpoint)
    return builder
