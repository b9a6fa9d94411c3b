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

from collections.abc import Callable
from dataclasses import replace
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
from joseki.core.corners import CornerTable, corner_tables
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point, Transform
from joseki.core.ladder import board_of
from joseki.core.ladder_check import board_after
from joseki.core.notation import TENUKI, format_gtp_vertex, format_sgf_point, parse_move
from joseki.core.position import LocalBoard, position_key, replay
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
    program facing one opponent wants what wins against it.
    """
    if rank not in RANKS:
        raise BadInput(f"unknown rank {rank!r} (expected one of {', '.join(RANKS)})")

    def key(c: Candidate) -> tuple[bool, float, float, str]:
        rate = c.record.win_rate
        primary = {"popularity": c.paths + c.record.games, "priority": c.priority,
                   "winrate": -1.0 if rate is None else rate, "games": c.record.games}[rank]
        return (c.category in NEVER_FIRST, -float(primary), -c.priority, c.token)

    return key


def favours_of(lookup: Lookup, lines: list[str]) -> dict[str, Favour]:
    """Book moves' favourability: that of each one's main line, the continuation most of the book's variations take."""
    ends = main_lines(lookup, lines)
    judged = verdicts(lookup, sorted(set(ends.values())))
    return {line: judged[end] for line, end in ends.items()}


def _token_point(token: str) -> Point:
    return (ord(token[0]) - 65, ord(token[1]) - 65)


def _candidate(token: str, paths: int, category: str | None, transform: Transform, sgf: bool,
               sources: dict[str, str | None] | None = None) -> Candidate:
    if token == TENUKI:
        return Candidate(token, "tenuki", None, paths, category=category, sources=dict(sources or {}))
    point = transform.to_board(_token_point(token), 19)
    move = format_sgf_point(point) if sgf else format_gtp_vertex(point)
    return Candidate(token, move, point, paths, category=category, sources=dict(sources or {}))


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
        if key in groups:
            kept = groups[key]
            kept.paths += child.paths
            merge_sources(kept.sources, child.sources)
            kept.category = combined(kept.sources)
            kept.record = kept.record + child.record
            kept.judged = kept.judged + child.judged
            kept.prior_games += child.prior_games
            kept.prior_wins += child.prior_wins
            kept.conditions = kept.conditions + [c for c in child.conditions if c not in kept.conditions]
        else:
            groups[key] = replace(child, sources=dict(child.sources))
    return list(groups.values())


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
    answer = CornerAnswer(corner, steps, "in-book", first if to_move(steps) == 0 else other(first), transform)
    answer.stones = _board_stones(steps, first, transform)
    answer.sgf = options.sgf
    order = rank_key(options.rank)

    whole = None if options.board is None else board_of(dict(options.board))

    def mapped(children: list[Child], base: str, reflected: bool = False, read: bool = True) -> list[Candidate]:
        cands = []
        frame, fmt = transform.reflected() if reflected else transform, point_format(options.sgf)
        for ch, record, prio in book_candidates(lookup, base, children, options):
            cand = _candidate(reflect(ch.token) if reflected else ch.token, ch.paths, ch.category, transform,
                              options.sgf, ch.sources)
            cand.record, cand.priority, cand.judged = record, prio, ch.judged
            cand.prior_games, cand.prior_wins = ch.prior_games, ch.prior_wins
            for shown_condition in (display(c, frame, first, fmt) for c in ch.conditions):
                cand.conditions.append(shown_condition.text)
                cand.named.extend(shown_condition.points)
                cand.setup.update(shown_condition.stones)
            if whole is not None and read:
                cand.ladders = candidate_ladders(lookup, whole, base, ch, cand.point, answer.to_move, frame, first, fmt)
            cands.append(cand)
        cands.sort(key=order)
        shown = cands[: options.top] if options.top else cands
        if options.favour or options.favour_corner == corner:
            lines = [base + (reflect(c.token) if reflected else c.token) for c in shown]
            favours = favours_of(lookup, lines)
            for cand, line in zip(shown, lines, strict=True):
                cand.favour = favours[line]
                cand.mover_first = to_move(base) == 0
        return shown

    def answered(base: str, reflected: bool = False) -> None:
        children = lookup.children(base, options.profile)
        answer.candidates = mapped(children, base, reflected)
        for token, games in beyond_book(lookup, base, (ch.token for ch in children)):
            shown = _candidate(reflect(token) if reflected else token, 0, None, transform, options.sgf)
            answer.beyond.append(BeyondMove(shown.move, shown.point, games))

    profile = options.profile
    route = walk(lookup, steps, first)
    if not steps:
        answer.state = "empty"
        answered("")
        return answer
    base = route.base
    answer.in_book = route.in_book
    if route.left_at is None:
        if route.transposed(route.in_book - 1):
            answer.state, answer.via = "in-book-by-transposition", base
            answer.via_reflected = orientation(base, steps)
        else:
            answer.state = "tenuki-variation" if steps.endswith(TENUKI) else "in-book"
        answered(base, orientation(base, steps))
        return answer
    index = route.left_at
    answer.book_steps, answer.left_at = base, index + 1
    answer.left_move = _candidate(steps[2 * index : 2 * index + 2], 0, None, transform, options.sgf).move
    if move_numbers is not None:
        answer.left_move_number = move_numbers[index]
    answer.alternatives = mapped(lookup.children(base, profile), base, orientation(base, steps[: 2 * index]), False)
    if route.rejoined is not None:
        answer.state, answer.via = "in-book-by-transposition", route.rejoined
        answer.via_reflected = orientation(route.rejoined, steps)
        answered(route.rejoined, orientation(route.rejoined, steps))
    elif index == len(steps) // 2 - 1 and steps.endswith(TENUKI):
        answer.state = "interrupted"
    else:
        answer.state = "left-book"
    return answer


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


AnswerTable = Callable[[Lookup, CornerTable, Colour, Options], CornerAnswer]
"""What :func:`next_moves` and :func:`next_in_game` answer each corner with: :func:`answer_table` or a stand-in."""


def parse_moves(moves: list[str], first: Colour = "b") -> tuple[list[tuple[Colour, Point | None]], bool]:
    """Colours and board points of typed moves (GTP or SGF, ``pass``), and whether they were SGF."""
    colour, out, sgf_count, points = first, [], 0, 0
    for token in moves:
        point = parse_move(token)
        text = token.strip()
        if point is not None:
            points += 1
            sgf_count += len(text) == 2 and text.islower()
        out.append((colour, point))
        colour = other(colour)
    return out, points > 0 and sgf_count == points


def check_legal(played: list[tuple[Colour, Point | None]], tokens: list[str]) -> None:
    """BadInput naming the first move that lands on a stone or is suicide."""
    board = LocalBoard()
    for number, ((colour, point), token) in enumerate(zip(played, tokens, strict=True), start=1):
        if point is not None:
            try:
                board.play(colour, point)
            except ValueError as exc:
                reason = "is suicide" if "suicide" in str(exc) else "lands on a stone"
                raise BadInput(f"move {number} ({token}) {reason}") from None


def next_moves(store: Store | BookFile, moves: list[str] | None = None, steps: str | None = None, first: Colour = "b",
               corner: Corner = Corner.TOP_RIGHT, options: Options = Options(),
               collections: list[str] | None = None, context: bool = False,
               answer: AnswerTable | None = None) -> list[CornerAnswer]:
    """The book's answer for every corner of ``moves`` (or for ``steps`` in ``corner``); with ``context``,
    moves from the empty board are a whole board and ranked by it (:mod:`joseki.book.query.rerank`);
    ``answer`` stands in for :func:`answer_table` (a memory of its answers)."""
    answer = answer or answer_table
    with store.read() as conn:
        require_profile(conn, options.profile)
        lookup = Lookup(store, conn, collections)
        if steps is not None:
            prefix, swap = canonical(parse_steps(steps))
            return [answer_corner(lookup, corner, prefix, swap, first, options)]
        played, sgf = parse_moves(moves or [], first)
        check_legal(played, moves or [])
        options = replace(options, sgf=sgf, board=whole_board(played))
        active = [t for t in corner_tables(played).values() if t.moves]
        if not active:
            next_colour = other(played[-1][0]) if played else first
            return [answer_corner(lookup, corner, "", False, next_colour, options)]
        if not context:
            return [answer(lookup, table, first, options) for table in active]
        answers = [answer(lookup, table, first, replace(options, top=None)) for table in active]
        apply_context(lookup, answers, played, options.profile, options.top)
        return answers


def next_in_game(store: Store | BookFile, played: list[tuple[Colour, Point | None]], options: Options = Options(),
                 collections: list[str] | None = None, setup: dict[Point, Colour] | None = None,
                 context: bool = False, answer: AnswerTable | None = None) -> list[CornerAnswer]:
    """Every corner's state and candidates after the moves of a game (all four corners), ``setup`` stones first;
    with ``context``, ranked by each corner's whole-board context (:mod:`joseki.book.query.rerank`);
    ``answer`` stands in for :func:`answer_table`."""
    answer = answer or answer_table
    next_colour = other(played[-1][0]) if played else "b"
    options = replace(options, board=whole_board(played, setup))
    with store.read() as conn:
        require_profile(conn, options.profile)
        lookup = Lookup(store, conn, collections)
        asked = replace(options, top=None) if context else options
        answers = [answer(lookup, table, next_colour, asked) for table in corner_tables(played).values()]
        if context:
            apply_context(lookup, answers, played, options.profile, options.top)
        return answers


def whole_board(played: list[tuple[Colour, Point | None]],
                setup: dict[Point, Colour] | None = None) -> tuple[tuple[Point, Colour], ...]:
    """The stones on the board after ``setup`` and ``played``, with captures: what ladders are read on."""
    return tuple(sorted(board_after(played, setup=setup).stones.items()))

