"""The moves of one request, parsed and played once: what every command and view needs of them.

A request names a whole-board position by moves: typed tokens (GTP ``Q16`` or SGF ``pd``,
``pass``) with the colour of the first, or a game's record (colour and point each, after its
setup stones). :func:`typed_moves` and :func:`game_moves` make one :class:`Moves` of either, in
one pass over the moves: the colours and points, the notation typed, the whole board after them
(captures made), each corner's step table (:mod:`joseki.core.corners`) and the corner each move
joined. The query, the views and the book player read these and never parse or replay the moves
again.

Typed moves must be legal (a stone on a stone, a suicide or retaking a ko at once is the user's
mistake, named by its move number and token); a game's moves are played as every game is,
leniently (its reader checked them against the game's own rules, :mod:`joseki.sgf.game`), or by
the same rule as typed moves when asked (``strict``: a game a player sends in). A game's setup
stones (handicap, a problem's position) are on the board and, where they lie in a corner, that
corner's first local moves (Black's first), so a handicap game's corners meet the book as they stand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from joseki.core.corners import CornerTable, add_move
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.limits import MAX_LINE_MOVES, beyond
from joseki.core.notation import format_gtp_vertex, parse_move
from joseki.core.position import OCCUPIED, IllegalMoveError, LocalBoard, neighbour_table
from joseki.core.steps import Colour, other

Played = tuple[tuple[Colour, Point | None], ...]
"""Moves as colour and board point each (None: a pass)."""
Stones = tuple[tuple[Point, Colour], ...]
"""Stones on a board, sorted by point."""
KO = "retakes the ko at once"
_SAID = {OCCUPIED: "lands on a stone"}
"""How a typed move's illegality is told, by :attr:`IllegalMoveError.reason` (else the reason itself)."""


@dataclass(frozen=True, slots=True)
class Moves:
    """A whole-board position's moves, parsed and played (module docstring). Its tables are read, never changed."""

    tokens: tuple[str, ...]
    """The moves as written: the typed tokens, or a game's points as GTP vertices (``pass``)."""
    played: Played
    first: Colour
    """The colour of the first move (the one to move on an empty board)."""
    sgf: bool
    """Whether the moves were typed as SGF points (answers are then shown in SGF points too)."""
    setup: Stones
    """The stones put down before the moves (a game's setup)."""
    board: Stones
    """The whole board after the setup and the moves, captures made: what ladders are read on and boards drawn."""
    tables: Mapping[Corner, CornerTable]
    """Each corner's table after the moves (all four, in :class:`Corner` order)."""
    tables_before_last: Mapping[Corner, CornerTable]
    """Each corner's table before the last move (the position the last move was played in)."""
    joined: tuple[Corner | None, ...]
    """The corner each move joined; None for a pass or a move elsewhere."""

    @property
    def to_move(self) -> Colour:
        """The colour to play next."""
        return other(self.played[-1][0]) if self.played else self.first

    @property
    def focus(self) -> Corner | None:
        """The corner of the latest local move (the one a player looks at), None before any."""
        return _latest(self.joined)

    @property
    def focus_before_last(self) -> Corner | None:
        """The corner of the latest local move before the last move."""
        return _latest(self.joined[:-1])

    @property
    def active(self) -> list[CornerTable]:
        """The tables of the corners that hold a local move, in :class:`Corner` order."""
        return [t for t in self.tables.values() if t.moves]


def _latest(joined: Sequence[Corner | None]) -> Corner | None:
    return next((c for c in reversed(joined) if c is not None), None)


def split_tokens(text: str) -> list[str]:
    """Typed moves from one text (a URL parameter): tokens separated by commas or spaces.

    Raises LimitError past :data:`~joseki.core.limits.MAX_LINE_MOVES` moves."""
    tokens = [t for t in text.replace(",", " ").split() if t]
    if len(tokens) > MAX_LINE_MOVES:
        raise beyond("a line", MAX_LINE_MOVES, "moves")
    return tokens


def parse_game_text(text: str) -> list[tuple[Colour, Point | None]]:
    """A game's moves from one text, ``bpdwdd...``: a colour then an SGF point each (``tt`` a pass).

    Raises BadInput for a text not of that form, LimitError past
    :data:`~joseki.core.limits.MAX_LINE_MOVES` moves."""
    text = text.strip()
    if len(text) % 3:
        raise BadInput("bad game moves: expected a colour and an SGF point each (bpdwdd...)")
    if len(text) // 3 > MAX_LINE_MOVES:
        raise beyond("a game", MAX_LINE_MOVES, "moves")
    played: list[tuple[Colour, Point | None]] = []
    for i in range(0, len(text), 3):
        c, x, y = text[i], text[i + 1], text[i + 2]
        if c not in "bw" or not ("a" <= x <= "s" or x == "t") or not ("a" <= y <= "s" or y == "t"):
            raise BadInput(f"bad game move {text[i : i + 3]!r} (move {i // 3 + 1})")
        played.append(("b" if c == "b" else "w", None if x + y == "tt" else (ord(x) - 97, ord(y) - 97)))
    return played


def typed_moves(tokens: Sequence[str], first: Colour = "b", setup: Mapping[Point, Colour] | None = None) -> Moves:
    """Typed moves, colours alternating from ``first``, after ``setup`` stones (a game's, explored from a move).

    Raises BadInput for a token that is no move, IllegalMoveError (a BadInput) naming the first move (its
    number and token) that lands on a stone or is suicide."""
    played: list[tuple[Colour, Point | None]] = []
    colour, points, sgf_points = first, 0, 0
    for token in tokens:
        point = parse_move(token)
        if point is not None:
            text = token.strip()
            points += 1
            sgf_points += len(text) == 2 and text.islower()
        played.append((colour, point))
        colour = other(colour)
    return _moves(tuple(tokens), tuple(played), first, points > 0 and sgf_points == points, setup or {}, strict=True)


def game_moves(played: Sequence[tuple[Colour, Point | None]], setup: Mapping[Point, Colour] | None = None,
               strict: bool = False) -> Moves:
    """A game's moves after its ``setup`` stones, played leniently, or with ``strict`` by the rule typed moves
    follow (module docstring: IllegalMoveError naming the move); Black first on an empty record."""
    tokens = tuple(format_gtp_vertex(point) for _, point in played)
    return _moves(tokens, tuple(played), played[0][0] if played else "b", False, setup or {}, strict=strict)


def _moves(tokens: tuple[str, ...], played: Played, first: Colour, sgf: bool, setup: Mapping[Point, Colour],
           strict: bool) -> Moves:
    """The one pass over the moves: the board played (``strict``: a stone on a stone, a suicide or a ko retaken at
    once raises IllegalMoveError), the corners' tables (the setup stones first), the corner each move joined."""
    board = LocalBoard(19)
    board.stones = dict(setup)
    tables = {c: CornerTable(c) for c in Corner}
    for stone, placed in sorted(setup.items(), key=lambda s: (s[1] != "b", s[0])):
        add_move(tables, 0, placed, stone)
    before_last = tables
    joined: list[Corner | None] = []
    ko: Point | None = None
    for number, ((colour, point), token) in enumerate(zip(played, tokens, strict=True), start=1):
        if number == len(played):
            before_last = _copies(tables, played[-2][0] if number > 1 else None)
        if point is None:
            joined.append(None)
            ko = None
            continue
        try:
            if strict and point == ko:
                raise IllegalMoveError(point, KO)
            removed = board.play(colour, point, lenient=not strict)
        except IllegalMoveError as exc:
            told = _SAID.get(exc.reason, exc.reason)
            raise IllegalMoveError(point, exc.reason, f"move {number} ({token}) {told}") from None
        ko = _ko_point(board, point, removed) if strict else None
        joined.append(add_move(tables, number, colour, point))
    if played:
        for table in tables.values():
            table.builder.elsewhere(played[-1][0])
    return Moves(tokens, played, first, sgf, tuple(sorted(setup.items())), tuple(sorted(board.stones.items())),
                 MappingProxyType(tables), MappingProxyType(before_last), tuple(joined))


def _ko_point(board: LocalBoard, point: Point, removed: list[tuple[Point, Colour]]) -> Point | None:
    """The point the opponent may not retake at once after a move at ``point`` that removed ``removed``: the one
    stone it took, when the move is a lone stone whose only liberty is that point (a ko)."""
    if len(removed) != 1:
        return None
    taken, colour = removed[0][0], board.stones[point]
    around = _NEIGHBOURS[point]
    if any(board.stones.get(q) == colour for q in around):
        return None
    return taken if [q for q in around if q not in board.stones] == [taken] else None


_NEIGHBOURS = neighbour_table(19)


def _copies(tables: dict[Corner, CornerTable], last: Colour | None) -> dict[Corner, CornerTable]:
    """Copies of ``tables`` as they stand after moves whose last was by ``last`` (None: no move yet)."""
    copies = {corner: table.copy() for corner, table in tables.items()}
    if last is not None:
        for table in copies.values():
            table.builder.elsewhere(last)
    return copies
