"""What each view of the explorer shows, as JSON: the CLI's ``--json`` data plus what a board draws.

Every answer is built by the library functions the CLI uses (:func:`joseki.book.query.next.next_moves`,
:func:`~joseki.book.query.next.next_in_game`, :func:`joseki.book.query.show.show`) and carries their
``as_json`` data unchanged; the web adds only drawing keys beside it: each candidate's SGF
``point`` and board ``label``, the whole board's stones, the points conditions and comments name,
and the book lines in board coordinates (``book_position_moves``, ``book_moves``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from joseki.book.learnt.profiles import require_profile
from joseki.book.query.answer import Candidate, CornerAnswer, Options
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import AnswerTable, answer_table, next_in_game, next_moves
from joseki.book.query.show import show
from joseki.book.store.bookfile import BookFile
from joseki.book.store.database import Store
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.moves import Moves, game_moves, typed_moves
from joseki.core.notation import format_gtp_vertex, format_sgf_point
from joseki.core.position import LocalBoard
from joseki.core.steps import Colour, other
from joseki.sgf.game import Game

LABELS = "abcdefghijklmnopqrstuvwxyz"


def sgf(point: Point | None) -> str | None:
    """A board point in SGF letters (``pd``), None for a pass or tenuki."""
    return None if point is None else format_sgf_point(point)


def colour(text: str) -> Colour:
    """``b`` or ``w`` from ``b``, ``black``, ``W``...; BadInput otherwise."""
    key = text.strip().lower()
    if key in ("b", "black", "w", "white"):
        return "b" if key[0] == "b" else "w"
    raise BadInput(f"bad colour {text!r} (expected black or white)")


def board_stones(moves: Moves, reply: tuple[Colour, Point | None] | None = None) -> dict[str, list[str]]:
    """The whole board's stones after ``moves`` (captures made) and a ``reply`` played on it, as SGF points per
    colour."""
    stones = dict(moves.board)
    if reply is not None and reply[1] is not None:
        board = LocalBoard(19)
        board.stones = stones
        board.play(reply[0], reply[1], lenient=True)
    drawn: dict[str, list[str]] = {"black": [], "white": []}
    for point, c in sorted(stones.items()):
        drawn["black" if c == "b" else "white"].append(format_sgf_point(point))
    return drawn


def candidate_json(c: Candidate, label: str | None) -> dict[str, Any]:
    """The CLI's candidate JSON plus its board point, letter, the points its conditions name and its setup."""
    rate = c.record
    return {**c.as_json(), "point": sgf(c.point), "label": label, "losses": rate.losses, "draws": rate.draws,
            "named": sorted({format_sgf_point(p) for p in c.named}),
            "setup": {format_sgf_point(p): col for p, col in c.setup.items()}}


def corner_json(a: CornerAnswer) -> dict[str, Any]:
    """The CLI's corner JSON with the drawing keys (module docstring)."""
    shown = a.candidates if a.candidates or a.left_at is None else a.alternatives
    points = [c.point for c in shown if c.point is not None]
    labels = {p: LABELS[i] for i, p in enumerate(points[: len(LABELS)])}

    def drawn(cands: list[Candidate]) -> list[dict[str, Any]]:
        return [candidate_json(c, labels.get(c.point) if c.point is not None else None) for c in cands]

    data = a.as_json(drawn)
    if "alternatives" in data:
        data["book_moves"] = a.line(a.steps[: 2 * ((a.left_at or 1) - 1)]).split()
    if a.via is not None:
        data["book_position_moves"] = a.line(a.via, a.via_reflected).split()
    data["moves"] = a.line(a.steps).split()
    data["first"] = "black" if corner_first(a) == "b" else "white"
    data["swapped"] = a.transform.swap
    return data


def corner_first(a: CornerAnswer) -> Colour:
    """The colour that played the corner's first local step."""
    return a.to_move if len(a.steps) // 2 % 2 == 0 else other(a.to_move)


def focus_answer(focus: Corner | None, answers: list[CornerAnswer]) -> CornerAnswer:
    """The answer for the ``focus`` corner, that of the latest local move (:attr:`~joseki.core.moves.Moves.focus`;
    the first answer before any)."""
    return next((a for a in answers if a.corner == focus), answers[0])


def _options(profile: str | None, rank: str, top: int | None, favour: bool, focus: Corner | None) -> Options:
    """Favourability for every corner with ``favour``, else for the ``focus`` corner only (about 15 ms a candidate
    on Kogo: the other corners' tables are not shown, so they go without)."""
    return Options(top=top, rank=rank, profile=profile or None, favour=favour, favour_corner=focus)


LineFn = Callable[["Store | BookFile", CornerAnswer, "list[str] | None", "str | None"], dict[str, Any]]
"""How a view gets the focus corner's line: :func:`line_json`, or a memory of it (:class:`joseki.web.cache.Cache`)."""


def line_key(a: CornerAnswer) -> tuple[str, Colour, Corner, bool]:
    """What :func:`line_json` of ``a`` depends on besides the store, the collections and the profile."""
    return a.steps, corner_first(a), a.corner, a.transform.swap


def line_json(store: Store | BookFile, a: CornerAnswer, collections: list[str] | None,
              profile: str | None) -> dict[str, Any]:
    """``joseki show`` of a corner's line (in its own frame), with the points its comments name; {} when empty."""
    steps, first, corner, swap = line_key(a)
    if not steps:
        return {}
    shown = show(store, None, steps, first, corner, collections, profile, swap=swap)
    moves = [{**m.as_json(), "comment_points": [format_sgf_point(p) for p in m.comment_points],
              "named": sorted(format_sgf_point(p) for p in m.named)} for m in shown.moves]
    return {**shown.as_json(), "moves": moves}


def explore(store: Store, moves: list[str], first: Colour = "b", corner: Corner = Corner.TOP_RIGHT,
            collections: list[str] | None = None, profile: str | None = None, rank: str = "popularity",
            top: int | None = None, favour_all: bool = False, line: LineFn = line_json,
            answer: AnswerTable = answer_table, reads: Store | BookFile | None = None) -> dict[str, Any]:
    """The explorer's view after ``moves``: every active corner (``joseki next --json``), the focus corner's line
    (``joseki show --json``) and the board; favourability for the focus corner only unless ``favour_all``.

    ``line`` and ``answer`` give the focus line and each corner's book answer (a server passes its memory of
    them, :class:`joseki.web.cache.Cache`); the book is read from ``reads`` (:mod:`joseki.web.reads`) if given,
    else from ``store``."""
    parsed = typed_moves(moves, first)
    focus = parsed.focus
    options = _options(profile, rank, top, favour_all or not parsed.played, focus)
    answers = next_moves(reads or store, parsed, corner=corner, options=options, collections=collections,
                         context=True, answer=answer)
    shown = focus_answer(focus, answers)
    return {"corners": [corner_json(a) for a in answers], "focus": shown.corner.value,
            "to_move": "black" if parsed.to_move == "b" else "white",
            "line": line(reads or store, shown, collections, profile), "board": board_stones(parsed)}


def review(store: Store, played: list[tuple[Colour, Point | None]], collections: list[str] | None = None,
           profile: str | None = None, rank: str = "popularity", top: int | None = None, favour_all: bool = False,
           line: LineFn = line_json, answer: AnswerTable = answer_table,
           reads: Store | BookFile | None = None) -> dict[str, Any]:
    """Every corner of a game after ``played`` (``joseki next --sgf --move N --json``), the focus line and board;
    favourability for the focus corner only unless ``favour_all``; ``line``, ``answer`` and ``reads`` as for
    :func:`explore`."""
    game = game_moves(played)
    focus = game.focus
    answers = next_in_game(reads or store, game, _options(profile, rank, top, favour_all, focus), collections,
                           context=True, answer=answer)
    shown = next((a for a in answers if a.corner == focus), None)
    return {"corners": [corner_json(a) for a in answers], "focus": None if focus is None else focus.value,
            "line": {} if shown is None else line(reads or store, shown, collections, profile),
            "board": board_stones(game), "move": len(played)}


def game_json(game: Game, source: str) -> dict[str, Any]:
    """A game record for the review board: players, result and the main line (colour and SGF point per move)."""
    return {"source": source, "black": game.black, "white": game.white, "result": game.result,
            "size": game.size, "handicap": game.handicap,
            "moves": [[c, sgf(p) or "tt"] for c, p in game.moves]}


def judge(store: Store | BookFile, moves: Moves | list[str], first: Colour = "b", collections: list[str] | None = None,
          profile: str | None = None, answer: AnswerTable = answer_table) -> dict[str, Any]:
    """How the book judges the last of ``moves``: in book, its category, the moves the book played more often.

    The book's moves there are those of the corner the move joined, in the order ``joseki next``
    shows them (popularity: book paths plus games); a move elsewhere is a tenuki of the focus corner.
    """
    parsed = moves if isinstance(moves, Moves) else typed_moves(moves, first)
    if not parsed.played:
        raise BadInput("no move to judge")
    mover, point = parsed.played[-1]
    before = parsed.tables_before_last
    where = parsed.joined[-1]
    if where is None:  # a move elsewhere: a tenuki of the corner played last
        where, point = parsed.focus_before_last, None
    if where is None:
        return {"move": parsed.tokens[-1], "corner": None, "tenuki": True, "in_book": False, "state": "elsewhere",
                "category": None, "book_moves": [], "more_popular": [], "rank": None}
    options = Options(profile=profile or None)
    with store.read() as conn:
        require_profile(conn, options.profile)
        found = answer(Lookup(store, conn, collections), before[where], mover, options)
    offered = found.candidates if found.state != "left-book" else []
    index = next((i for i, c in enumerate(offered) if c.point == point), None)
    chosen = offered[index] if index is not None else None
    return {"move": parsed.tokens[-1], "corner": where.value, "tenuki": point is None, "state": found.state,
            "in_book": chosen is not None,
            "category": None if chosen is None else chosen.category,
            "category_label": None if chosen is None else chosen.label,
            "rank": None if index is None else index + 1,
            "book_moves": [c.move for c in offered],
            "more_popular": [c.move for c in (offered if index is None else offered[:index])][:5]}


def practise(store: Store, moves: list[str], first: Colour = "b", collections: list[str] | None = None,
             profile: str | None = None, seed: int | None = None, answer: AnswerTable = answer_table,
             reads: Store | BookFile | None = None) -> dict[str, Any]:
    """The player's last move judged (:func:`judge`) and the book's answer by the GTP proxy's policy, each corner
    answered by ``answer`` from ``reads`` if given."""
    from joseki.engine.policy import BookPlayer

    parsed = typed_moves(moves, first)
    judged = judge(reads or store, parsed, first, collections, profile, answer)
    reply_colour = parsed.to_move
    player = BookPlayer(reads or store, profile or None, seed, collections, answer=answer)
    point = player.choose_after(parsed, reply_colour)
    reply = None if point is None else {"point": format_sgf_point(point), "move": format_gtp_vertex(point),
                                        "color": "black" if reply_colour == "b" else "white"}
    return {"judgement": judged, "reply": reply, "board": board_stones(parsed, (reply_colour, point))}
