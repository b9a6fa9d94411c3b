"""What a note speaks of: the node's own move, a continuation by its label, or a move of the line by its number.

Free text rarely speaks only of the move it sits on ("'a' is correct, 'b' is a mistake",
"White 3 is a trick play"), so what it says is given to a :class:`Target`, which the reader of
the line (:meth:`joseki.sgf.dialects.node.Node.resolve`) turns into the move it names.
"""

from __future__ import annotations

from dataclasses import dataclass

SELF, LABEL, MOVE = "self", "label", "move"


@dataclass(frozen=True, slots=True)
class Target:
    """The node's own move (``self``), a labelled continuation (``label``, key lower case), or move ``key`` of the line.

    A move named by number ("White 3") also carries the colour named (``b`` or ``w``): the
    move it names must be that colour's.
    """

    kind: str
    key: str | int | None = None
    colour: str | None = None
