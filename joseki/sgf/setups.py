"""The setup stones of a line: where each group goes down, and the position each of its moves is played in.

A line may put stones down (AB, AW, AE) before or between its moves: Kogo's "if White is already
here", Pachi's lines that start from stones elsewhere. Each move is played in the position those
stones made, so what the line says about it (verdicts, comments, conditions) is that position's,
never the same moves' on a board without them. A :class:`Placement` goes down before the move of
token ``start`` (its node's own move, else the next one); a prefix is played in the position of every
placement before it, merged (:func:`position`: '' when there is none), and a node speaks in the
position of every placement at or before it (:func:`spoken_in`). A record is its moves and its
placements (:func:`stored_stones`, stored as ``variation.setup_stones``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from joseki.core.conditions import Condition, merged_setup, setup
from joseki.core.errors import BadInput
from joseki.core.geometry import Transform

if TYPE_CHECKING:
    from joseki.sgf.forest import NodeNote, Variation


@dataclass(frozen=True, slots=True)
class Placement:
    """Setup stones (a ``setup`` condition, in the record's canonical frame) down before the move of token ``start``."""

    start: int
    stones: Condition


def placements(v: Variation) -> tuple[Placement, ...]:
    """The setup stones of line ``v``, in the order they go down (also those after its last move)."""
    if not v.setup:
        return ()
    found = []
    transform = Transform(v.corner, v.swap)
    for note in v.notes:
        if not note.setup:
            continue
        stones = setup(dict(note.properties), transform, v.first_colour)
        if stones is not None:
            found.append(Placement(note.step if _adds_a_token(note) else note.step + 1, stones))
    return tuple(found)


def _adds_a_token(note: NodeNote) -> bool:
    """Whether a node plays a move of the corner (one that ends its step prefix): its stones go down before it."""
    return note.own and note.moves[-1] > (note.moves[-2] if len(note.moves) > 1 else 0)


def stored_stones(found: tuple[Placement, ...], steps: str) -> str:
    """The setup stones of a record of ``steps`` as stored: ``start:stones`` each, ``|`` between them, for those
    some move is played with; '' for none."""
    return "|".join(f"{p.start}:{p.stones.text}" for p in found if p.start <= len(steps) // 2)


def parse_stones(text: str) -> tuple[Placement, ...]:
    """The placements of a record's stored setup stones (:func:`stored_stones`); BadInput if malformed."""
    if not text:
        return ()
    found = []
    for part in text.split("|"):
        start, sep, stones = part.partition(":")
        if not sep or not start.isdigit():
            raise BadInput(f"bad setup stones {text!r}")
        found.append(Placement(int(start), Condition("setup", stones)))
    return tuple(found)


def position(found: tuple[Placement, ...], tokens: int) -> str:
    """The setup stones the move of token ``tokens`` is played with (a setup condition's text); '' for none."""
    if not found or found[0].start > tokens:
        return ""
    merged = merged_setup(p.stones for p in found if p.start <= tokens)
    return "" if merged is None else merged.text


def spoken_in(v: Variation) -> dict[int, str]:
    """The position each note of line ``v`` speaks in, by the note's ``id``: the setup stones put down at it
    and before it ('' for none). A node after setup stones speaks with them on the board, even when it
    plays no new move of the corner."""
    found: dict[int, str] = {}
    down: list[Condition] = []
    transform = Transform(v.corner, v.swap)
    text = ""
    for note in v.notes:
        if note.setup:
            stones = setup(dict(note.properties), transform, v.first_colour)
            if stones is not None:
                down.append(stones)
                merged = merged_setup(down)
                text = "" if merged is None else merged.text
        found[id(note)] = text
    return found


def positions(steps: str, found: tuple[Placement, ...]) -> list[tuple[str, str]]:
    """Each non-empty prefix of ``steps`` with the setup stones its last move is played with."""
    return [(position(found, end // 2), steps[:end]) for end in range(2, len(steps) + 1, 2)]
