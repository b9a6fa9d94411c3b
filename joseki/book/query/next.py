"""The next-move query: each corner's state against the book and the book's moves for the side to move.

A corner's state, decided by walking its play-step string through the book
(:func:`joseki.book.query.walk.walk`, the rule every command shares):

- ``empty``: no local move yet; the candidates are the book's first moves.
- ``in-book``: the string is a book prefix; the candidates are its continuations.
- ``tenuki-variation``: the local side to move played elsewhere and the book itself
  continues after that ``XX``.
- ``in-book-by-transposition``: some step is in the book only by its local position
  (:mod:`joseki.core.position`, with the side to move), and the candidates come from that book
  position (``via``); also when the string left the book but its last position is a book
  position again (``left_at`` then says where it left).
- ``interrupted``: every step is in the book but the last, the local side to move playing
  elsewhere where the book has no tenuki; ``alternatives`` are the moves that side skipped.
- ``left-book``: a step left the book: ``book_steps`` is the book line of the last step in it,
  ``left_at`` the (1-based) step that left it, and ``alternatives`` the book's moves there.

Candidates that reach the same position (after a symmetric prefix such as a lone 4-4
stone) are merged into one: the canonical form keeps the one whose column is before its
row, which on the board is the move on the corner's vertical side (R14, not O17, after Q16).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING

from joseki.book.learnt.beyond import BeyondMove, beyond_book
from joseki.book.learnt.profiles import require_profile
from joseki.book.query.answer import Candidate, CornerAnswer, Options
from joseki.book.query.favour import Favour, main_lines, verdicts
from joseki.book.query.ladders import candidate_ladders
from joseki.book.query.lookup import Child, Lookup
from joseki.book.query.rerank import apply_context
from joseki.book.query.walk import walk
from joseki.core.category import NEVER_FIRST, combined, merge_sources
from joseki.core.conditions import display
from joseki.core.corners import CornerTable
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point, Transform
from joseki.core.ladder import board_of
from joseki.core.moves import Moves, game_moves, typed_moves
from joseki.core.notation import TENUKI, format_gtp_vertex, format_sgf_point
from joseki.core.position import position_key, replay
from joseki.core.priority import RANKS, Record, priority
from joseki.core.steps import Colour, canonical, iter_points, other, parse_steps, reflect, to_move
from joseki.core.wording import point_format

if TYPE_CHECKING:
    from joseki.book.store.bookfile import BookFile
    from joseki.book.store.database import Store


def rank_key(rank: str = "popularity") -> Callable[[Candidate], tuple[bool, float, float, str]]:
    """Order of candidates: never a mistake or trick first, then by ``rank`` (:data:`~joseki.core.priority.RANKS`).

    A mistake or trick is the candidate's combined verdict (:func:`~joseki.core.category.combined`):
    a move disputed between collections is not put last, but its priority is below neutral.

    ``popularity`` (the default for ``next``) counts book paths plus games played: a player
    studying wants what strong players play. ``priority`` orders by the posterior mean: a
    program facing one opponent wants what wins against it. ``context`` is popularity here: the
    whole-board context re-ranks it afterwards, when the board is known (:mod:`joseki.book.query.rerank`).
    """
    if rank not in RANKS:
        raise BadInput(f"unknown rank {rank!r} (expected one of {', '.join(RANKS)})")

    def key(c: Candidate) -> tuple[bool, float, float, str]:
        rate = c.record.win_rate
        primary = {"popularity": c.paths + c.record.games, "context": c.paths + c.record.games, "priority": c.priority,
                   "winrate": -1.0 if rate is None else rate, "games": c.record.games}[rank]
        return (c.category in NEVER_FIRST, -float(primary), -c.priority, c.token)

    return key


def given_order(rank: str) -> str:
    """The order a corner's candidates are given in before any context: ``rank``, popularity for ``context``."""
    return "popularity" if rank == "context" else rank


def favours_of(lookup: Lookup, lines: list[str]) -> dict[str, Favour]:
    """Book moves' favourability: that of each one's main line, the continuation most of the book's variations take."""
    ends = main_lines(lookup, lines)
    judged = verdicts(lookup, sorted(set(ends.values())))
    return {line: judged[end] for line, end in ends.items()}


def _token_point(token: str) -> Point:
    return (ord(token[0]) - 65, ord(token[1]) - 65)


def _placed(token: str, transform: Transform, sgf: bool) -> tuple[str, Point | None]:
    """A book token's move (as the caller writes it: SGF or GTP) and board point; ``tenuki`` and None for XX."""
    if token == TENUKI:
        return "tenuki", None
    point = transform.to_board(_token_point(token), 19)
    return (format_sgf_point(point) if sgf else format_gtp_vertex(point)), point


def merge_symmetric(base: str, children: list[Child]) -> list[Child]:
    """Merge continuations of ``base`` that reach the same position (only possible if ``base`` is symmetric)."""
    board, mover = replay(base)
    if len(children) < 2 or board.stones != {(r, c): s for (c, r), s in board.stones.items()}:
        return children
    groups: dict[int, Child] = {}
    for child in sorted(children, key=lambda c: (-c.paths, c.token)):
        after = board.copy()
        if child.token != TENUKI:
            after.play(mover, _token_point(child.token), lenient=True)
        key = position_key(after.stones, other(mover))
        groups[key] = child if key not in groups else _merged(groups[key], child)
    return list(groups.values())


def _merged(first: Child, second: Child) -> Child:
    """One continuation for two that reach the same position: ``first``'s move, both's paths, sources and records."""
    sources = dict(first.sources)
    merge_sources(sources, second.sources)
    return replace(first, paths=first.paths + second.paths, sources=sources, category=combined(sources),
                   record=first.record + second.record, judged=first.judged + second.judged,
                   prior_games=first.prior_games + second.prior_games, prior_wins=first.prior_wins + second.prior_wins,
                   conditions=first.conditions + [c for c in second.conditions if c not in first.conditions])


def orientation(book_steps: str, steps: str) -> bool:
    """Whether the book position of ``book_steps`` is the reflection of the position of ``steps``."""
    (book, book_mover), (mine, my_mover) = replay(book_steps), replay(steps)
    book_rel = {p: c == book_mover for p, c in book.stones.items()}
    mine_rel = {p: c == my_mover for p, c in mine.stones.items()}
    return book_rel != mine_rel


def book_candidates(lookup: Lookup, base: str, children: list[Child],
                    options: Options) -> list[tuple[Child, Record, float]]:
    """The book's continuations of ``base`` (symmetric ones merged) with their records and priorities."""
    return [(ch, ch.record, priority(ch.record, ch.category, ch.prior_games, ch.prior_wins, ch.judged))
            for ch in merge_symmetric(base, children)]


def answer_corner(lookup: Lookup, corner: Corner, steps: str, swap: bool, first: Colour,
                  options: Options = Options(), move_numbers: list[int] | None = None) -> CornerAnswer:
    """The book's answer for one corner whose canonical play-step string is ``steps``."""
    transform = Transform(corner, swap)
    mover = first if to_move(steps) == 0 else other(first)
    order = rank_key(options.rank)
    whole = None if options.board is None else board_of(dict(options.board))

    def mapped(children: list[Child], base: str, reflected: bool = False, read: bool = True) -> list[Candidate]:
        frame, fmt = transform.reflected() if reflected else transform, point_format(options.sgf)
        cands = []
        for ch, record, prio in book_candidates(lookup, base, children, options):
            token = reflect(ch.token) if reflected else ch.token
            move, point = _placed(token, transform, options.sgf)
            shown = [display(c, frame, first, fmt) for c in ch.conditions]
            ladders = (candidate_ladders(lookup, whole, base, ch, point, mover, frame, first, fmt)
                       if whole is not None and read else [])
            cands.append(Candidate(token, move, point, ch.paths, prio, ch.category, record, ch.judged, ch.prior_games,
                                   ch.prior_wins, [s.text for s in shown], [p for s in shown for p in s.points],
                                   dict(stone for s in shown for stone in s.stones), sources=ch.sources,
                                   ladders=ladders))
        cands.sort(key=order)
        listed = cands[: options.top] if options.top else cands
        if not (options.favour or options.favour_corner == corner):
            return listed
        lines = [base + (reflect(c.token) if reflected else c.token) for c in listed]
        favours = favours_of(lookup, lines)
        return [replace(c, favour=favours[line], mover_first=to_move(base) == 0)
                for c, line in zip(listed, lines, strict=True)]

    def answered(base: str, reflected: bool = False) -> tuple[list[Candidate], list[BeyondMove]]:
        children = lookup.children(base, options.profile)
        beyond = [BeyondMove(*_placed(reflect(token) if reflected else token, transform, options.sgf), games)
                  for token, games in beyond_book(lookup, base, (ch.token for ch in children))]
        return mapped(children, base, reflected), beyond

    made = partial(CornerAnswer, corner, steps, to_move=mover, transform=transform,
                   stones=_board_stones(steps, first, transform), sgf=options.sgf, order=given_order(options.rank))
    route = walk(lookup, steps, first)
    if not steps:
        candidates, beyond = answered("")
        return made("empty", candidates=candidates, beyond=beyond)
    base = route.base
    if route.left_at is None:
        reflected = orientation(base, steps)
        candidates, beyond = answered(base, reflected)
        if route.transposed(route.in_book - 1):
            return made("in-book-by-transposition", candidates=candidates, beyond=beyond, in_book=route.in_book,
                        via=base, via_reflected=reflected)
        return made("tenuki-variation" if steps.endswith(TENUKI) else "in-book", candidates=candidates, beyond=beyond,
                    in_book=route.in_book)
    index = route.left_at
    left = partial(made, book_steps=base, left_at=index + 1, in_book=route.in_book,
                   left_move=_placed(steps[2 * index : 2 * index + 2], transform, options.sgf)[0],
                   left_move_number=None if move_numbers is None else move_numbers[index],
                   alternatives=mapped(lookup.children(base, options.profile), base,
                                       orientation(base, steps[: 2 * index]), False))
    if route.rejoined is not None:
        reflected = orientation(route.rejoined, steps)
        candidates, beyond = answered(route.rejoined, reflected)
        return left("in-book-by-transposition", candidates=candidates, beyond=beyond, via=route.rejoined,
                    via_reflected=reflected)
    return left("interrupted" if index == len(steps) // 2 - 1 and steps.endswith(TENUKI) else "left-book")


def _board_stones(steps: str, first: Colour, transform: Transform) -> dict[Point, Colour]:
    """The corner's stones on the board after ``steps`` (local captures only)."""
    board, _ = replay(steps, first)
    return {transform.to_board(p, 19): c for p, c in board.stones.items()}


def move_numbers(table: CornerTable, limit: int | None = None) -> list[int]:
    """The game move number of each token (the first ``limit``) of the corner's string (to move: with a pending ``XX``).

    A tenuki ``XX`` gets the number of the move after the previous local move: the move played elsewhere.
    """
    numbers = iter(number for number, _, _ in table.moves)
    out: list[int] = []
    for token in islice(iter_points(table.builder.steps_to_move()), limit):
        out.append(out[-1] + 1 if token is None else next(numbers))
    return out


def answer_table(lookup: Lookup, table: CornerTable, first: Colour, options: Options = Options(),
                 pending: bool = True) -> CornerAnswer:
    """The book's answer for a corner of a game; an empty corner gets the book's first moves for ``first``.

    This is where a game's corner stands against the book for every command: in book for
    ``in_book`` steps, where it left (step and game move), what the book offered there. With
    ``pending`` the string ends with a tenuki the side to move has just played (as for the next
    move); without, it holds only the tenukis that local moves followed (as for a whole game).
    """
    b = table.builder
    if b.first_colour is None:
        return answer_corner(lookup, table.corner, "", False, first, options)
    return answer_corner(lookup, table.corner, b.steps_to_move() if pending else b.steps, bool(b.swap),
                         b.first_colour, options, move_numbers(table))


def next_moves(store: Store | BookFile, moves: Moves | Sequence[str] = (), steps: str | None = None,
               first: Colour = "b", corner: Corner = Corner.TOP_RIGHT, options: Options = Options(),
               collections: list[str] | None = None, context: bool = False) -> list[CornerAnswer]:
    """The book's answer for every corner of ``moves`` (or for ``steps`` in ``corner``, ``first`` moving first);
    with ``context``, moves are a whole board: each corner's context is read and, when the order asked is
    ``context``, ranks the candidates (:mod:`joseki.book.query.rerank`); any other order is kept as asked.

    ``moves`` is best given parsed (:func:`joseki.core.moves.typed_moves`); tokens are parsed here, colours
    alternating from ``first``. Raises BadInput for bad moves or steps, an unknown profile or collection."""
    if steps is None and not isinstance(moves, Moves):
        moves = typed_moves(moves, first)
    with store.book_read() as conn:
        require_profile(conn, options.profile)
        lookup = Lookup(store, conn, collections)
        if steps is not None:
            prefix, swap = canonical(parse_steps(steps))
            return [answer_corner(lookup, corner, prefix, swap, first, options)]
        assert isinstance(moves, Moves)
        options = replace(options, sgf=moves.sgf, board=moves.board)
        active = moves.active
        if not active:
            return [answer_corner(lookup, corner, "", False, moves.to_move, options)]
        if not context:
            return [answer_table(lookup, table, moves.first, options) for table in active]
        answers = [answer_table(lookup, table, moves.first, replace(options, top=None)) for table in active]
        return apply_context(lookup, answers, moves.played, options.profile, options.top,
                             reorder=options.rank == "context")


def next_in_game(store: Store | BookFile, played: Moves | Sequence[tuple[Colour, Point | None]],
                 options: Options = Options(), collections: list[str] | None = None,
                 setup: dict[Point, Colour] | None = None, context: bool = False) -> list[CornerAnswer]:
    """Every corner's state and candidates after the moves of a game (all four corners), ``setup`` stones first;
    with ``context``, each corner's whole-board context read, and ranking the candidates when the order asked is
    ``context`` (:mod:`joseki.book.query.rerank`).

    ``played`` is best given as :func:`joseki.core.moves.game_moves` made of the game (``setup`` is then
    its own); colours and points are made into that here."""
    moves = played if isinstance(played, Moves) else game_moves(played, setup)
    options = replace(options, board=moves.board)
    with store.book_read() as conn:
        require_profile(conn, options.profile)
        lookup = Lookup(store, conn, collections)
        asked = replace(options, top=None) if context else options
        answers = [answer_table(lookup, table, moves.to_move, asked) for table in moves.tables.values()]
        if not context:
            return answers
        return apply_context(lookup, answers, moves.played, options.profile, options.top,
                             reorder=options.rank == "context")
