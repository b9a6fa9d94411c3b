"""Crediting a game to the book: the book nodes each corner passed through, by node and by whole-board context.

Each in-book step of a corner (:func:`joseki.book.query.walk.walk`, tenukis included) credits the
node it reached, by sequence or by transposition, to the player who played the step, with
that player's result. A node's record from one game counts that game once (``games``) and
each of its corners that passed the node once (wins, losses, draws: see
:class:`~joseki.core.priority.Record`).

The same credits go by context too: the signature (:mod:`joseki.core.context`) of each in-book local
move, taken just before the move from every stone on the board in the frame the corner's string is
written in; a credit goes under the book line before the move, with move and context put in that
line's frame (:func:`joseki.core.context.book_frame`): the rule ``learn``, ``mine``, ``evaluate`` and
``next`` share. Only in-book steps are credited, so only their signatures are taken.

A judged corner (:class:`joseki.games.judging.Verdict`) is credited the same way, its local winner
standing for the game's (:func:`local_credits`).

Rows handed from a worker to the parent are flat tuples of numbers and strings (quick to pickle):
:data:`NODE_ROW` values per node, :data:`CONTEXT_ROW` per context key.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter

from joseki.book.learnt.contexts import ContextKey
from joseki.book.query.next import orientation
from joseki.book.query.walk import Book, BookWalk, walk
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.context import CONTEXT_STEPS, book_frame, game_contexts, token_contexts
from joseki.core.corners import CornerTable, GameCorners
from joseki.core.geometry import Corner, Point
from joseki.core.notation import TENUKI
from joseki.core.steps import Colour, other, reflection_needed
from joseki.games.judging import Verdict

OUTCOMES = ("win", "loss", "draw")
_RESULT = {"win": 1, "loss": 2, "draw": 3}
CORNERS = tuple(Corner)
"""A corner's number (:attr:`CornerPlay.corner`, ``game_ref.corner``)."""
NODE_ROW = 5
"""Values per node in :func:`node_rows`: node id, games, wins, losses, draws."""
CONTEXT_ROW = 7
"""Values per key in :func:`context_rows`: parent node id, context, move, games, wins, losses, draws."""

Moves = list[tuple[Colour, Point | None]]


@dataclass(frozen=True, slots=True)
class CornerPlay:
    """What crediting needs of one corner of a game (its :class:`~joseki.core.corners.CornerTable`)."""

    corner: int
    """The corner's number in :data:`CORNERS`."""
    steps: str
    """The corner's canonical play-step string."""
    first: Colour
    swap: bool
    """Whether the string is written reflected (:attr:`joseki.core.corners.CornerTable.transform`)."""
    local: tuple[int, ...]
    """The game move number (from 1) of each local move."""

    def __reduce__(self) -> tuple[type[CornerPlay], tuple[int, str, Colour, bool, tuple[int, ...]]]:
        # pickled as its fields: mine holds tens of thousands of games' corners between its passes
        return CornerPlay, (self.corner, self.steps, self.first, self.swap, self.local)

    @classmethod
    def of(cls, table: CornerTable) -> CornerPlay:
        b = table.builder
        assert b.first_colour is not None
        return cls(CORNERS.index(table.corner), b.steps, b.first_colour, bool(b.swap),
                   tuple(map(_NUMBER, table.moves)))

    def token_moves(self, limit: int) -> list[int]:
        """The game move number of each of the first ``limit`` tokens (an ``XX``: the move after the last local one)."""
        numbers = iter(self.local)
        out: list[int] = []
        for i in range(0, min(len(self.steps), 2 * limit), 2):
            out.append(out[-1] + 1 if self.steps[i : i + 2] == TENUKI else next(numbers))
        return out

    def contexts_needed(self, tokens: int) -> int:
        """How many of the corner's local moves the first ``tokens`` tokens hold (as many signatures are taken)."""
        steps = self.steps[: 2 * tokens]
        return min(tokens - sum(steps[i : i + 2] == TENUKI for i in range(0, len(steps), 2)), CONTEXT_STEPS)


_NUMBER = itemgetter(0)
"""The move number of a :attr:`~joseki.core.corners.CornerTable.moves` entry."""


def corner_plays(tables: Iterable[CornerTable]) -> list[CornerPlay]:
    """Each corner with local moves, in corner order."""
    return [CornerPlay.of(t) for t in tables if t.builder.first_colour is not None]


def outcome(mover: Colour, winner: Colour | None) -> str | None:
    """The result of a game for ``mover``: win, loss, draw, or None when unknown."""
    if winner is None:
        return None
    if winner == "d":
        return "draw"
    return "win" if winner == mover else "loss"


def corner_credits(book: Book, steps: str, first: Colour, winner: Colour | None) -> list[tuple[int, str]]:
    """(node id, outcome for its mover) of each in-book step of one corner; none when the result is unknown."""
    if winner is None:
        return []
    return route_credits(walk(book, steps, first, rejoin=False), first, winner)


def route_credits(route: BookWalk, first: Colour, winner: Colour) -> list[tuple[int, str]]:
    """:func:`corner_credits` of a corner already walked."""
    results = (outcome(first, winner), outcome(other(first), winner))
    out: list[tuple[int, str]] = []
    for index, line in enumerate(route.nodes):
        result = results[index & 1]
        assert result is not None
        out.append((node_id(line), result))
    return out


@dataclass(frozen=True, slots=True)
class CornerCredit:
    """One corner walked through the book, and the credit of each of its in-book steps."""

    play: CornerPlay
    route: BookWalk
    credits: list[tuple[int, str]]
    """(node id, outcome for its mover) of each in-book step."""


def credit_corners(book: Book, plays: Iterable[CornerPlay], winner: Colour) -> list[CornerCredit]:
    """Each corner of a game with a known ``winner`` walked through ``book``, with its credits."""
    out = []
    for play in plays:
        route = walk(book, play.steps, play.first, rejoin=False)
        out.append(CornerCredit(play, route, route_credits(route, play.first, winner)))
    return out


FIRST_LOOK = 80
"""Moves of a game read before its corners are first walked (:func:`credit_game`): most corners leave the book by
then; the read goes on, twice as far each time, for those that have not."""


READ_ON = 16
"""Moves :func:`corners_to` reads at a time after :data:`FIRST_LOOK`."""


def corners_to(moves: Moves, steps: int) -> list[CornerPlay]:
    """Each corner with local moves, read only as far as every corner holds ``steps`` steps with its reflection fixed.

    A string only grows as the moves are read (a reflection fixed later changes none of the steps before it: they
    lie on the diagonal), so each corner's first ``steps`` steps, its first colour and its reflection are the whole
    game's; its later steps and local moves may be missing.
    """
    corners = GameCorners(moves)
    stop = FIRST_LOOK
    while True:
        tables = corners.read_to(stop)
        if corners.finished or all(len(t.builder.tokens) >= steps and t.builder.swap is not None
                                   for t in tables.values()):
            return corner_plays(tables.values())
        stop += READ_ON


def credit_game(book: Book, moves: Moves, winner: Colour) -> list[CornerCredit]:
    """:func:`credit_corners` of each corner of a game with a known ``winner``, reading the moves only as far as
    its corners need: a corner that left the book within the moves read is credited as it will be after every move
    (a walk without ``rejoin`` reads its string only up to the step that leaves), so the rest of the game is read
    only while some corner is still in the book or not yet started. A corner's :class:`CornerPlay` may therefore
    hold only the start of its string, up to and past the step that left the book.
    """
    corners = GameCorners(moves)
    settled: dict[int, CornerCredit] = {}
    stop = FIRST_LOOK
    while True:
        tables = corners.read_to(stop)
        out: list[CornerCredit] = []
        for number, table in enumerate(tables.values()):
            credit = settled.get(number)
            if credit is None:
                if table.builder.first_colour is None:
                    continue
                play = CornerPlay.of(table)
                route = walk(book, play.steps, play.first, rejoin=False)
                credit = CornerCredit(play, route, route_credits(route, play.first, winner))
                if route.left_at is not None:
                    settled[number] = credit
            out.append(credit)
        if len(settled) == len(tables) or corners.finished:
            return out
        stop *= 2


def node_rows(corners: Iterable[CornerCredit]) -> tuple[int, ...]:
    """The game's record at each node its corners were credited to, :data:`NODE_ROW` values a node."""
    counts: dict[int, list[int]] = {}
    for corner in corners:
        for nid, result in corner.credits:
            row = counts.get(nid)
            if row is None:
                row = counts[nid] = [1, 0, 0, 0]
            row[_RESULT[result]] += 1
    out: list[int] = []
    for nid, row in counts.items():
        out += (nid, *row)
    return tuple(out)


def step_key(route: BookWalk, index: int, context: str, parent: int) -> ContextKey:
    """The context key of in-book step ``index`` of ``route`` played in ``context`` (game frame);
    ``parent`` is the node id of the book line before it."""
    steps = route.steps
    token = steps[2 * index : 2 * index + 2]
    base = route.nodes[index - 1] if index else ""
    prefix = steps[: 2 * index]
    reflected = base != prefix and orientation(base, prefix)
    context, token = book_frame(context, token, reflected, reflection_needed(base) is None)
    return parent, context, token


def context_rows(corners: Sequence[CornerCredit], moves: Moves) -> tuple[int | str, ...]:
    """The game's credits by context (:data:`CONTEXT_ROW` values a key, the game counted once per key).

    Only the in-book steps' signatures are taken, in one pass over the game's ``moves``.
    """
    wanted = {CORNERS[c.play.corner]: (list(c.play.local[: c.play.contexts_needed(len(c.credits))]), c.play.swap)
              for c in corners if c.credits}
    found = game_contexts(moves, wanted)
    counts: dict[ContextKey, list[int]] = {}
    for c in corners:
        if not c.credits:
            continue
        contexts = token_contexts(c.play.steps[: 2 * len(c.credits)], found[CORNERS[c.play.corner]])
        for index, ((_, result), context) in enumerate(zip(c.credits, contexts, strict=True)):
            if context is None:
                continue
            key = step_key(c.route, index, context, c.credits[index - 1][0] if index else ROOT_ID)
            row = counts.get(key)
            if row is None:
                row = counts[key] = [1, 0, 0, 0]
            row[_RESULT[result]] += 1
    out: list[int | str] = []
    for (parent, context, move), row in counts.items():
        out += (parent, context, move, *row)
    return tuple(out)


def rows_of(flat: Sequence[int | str], width: int) -> Iterator[tuple[int | str, ...]]:
    """The rows of a flat tuple of ``width`` values a row."""
    it = iter(flat)
    return iter(lambda: tuple(islice(it, width)), ())


def changed(old: Sequence[int | str], new: Sequence[int | str], width: int) -> tuple[int | str, ...]:
    """What to add to move a game's rows (key columns, then counts) from ``old`` to ``new``: counts may be negative,
    keys whose counts do not change are left out."""
    keys = width - 4
    before = {row[:keys]: row[keys:] for row in rows_of(old, width)}
    after = {row[:keys]: row[keys:] for row in rows_of(new, width)}
    out: list[int | str] = []
    for key in before.keys() | after.keys():
        a, b = before.get(key, (0, 0, 0, 0)), after.get(key, (0, 0, 0, 0))
        delta = [int(y) - int(x) for x, y in zip(a, b, strict=True)]
        if any(delta):
            out += [*key, *delta]
    return tuple(out)


def local_credits(book: Book, verdicts: Iterable[Verdict]) -> list[tuple[int, ...]]:
    """The node id of each in-book step of each judged corner, in order (the credit goes to the step's chooser)."""
    return [tuple(nid for nid, _ in corner_credits(book, v.steps, v.first, v.winner)) for v in verdicts]


def add_local(totals: dict[int, list[float]], verdict: Verdict, nodes: Sequence[int]) -> None:
    """Add one judged corner to ``totals`` (node id -> [corners, wins, losses, draws, margin]), each step's
    node credited to its chooser with the verdict's result and margin from the chooser's view."""
    for index, nid in enumerate(nodes):
        mover = verdict.first if index % 2 == 0 else other(verdict.first)
        result = outcome(mover, verdict.winner)
        assert result is not None
        row = totals.setdefault(nid, [0, 0, 0, 0, 0.0])
        row[0] += 1
        row[_RESULT[result]] += 1
        row[4] += verdict.margin_for(mover)
