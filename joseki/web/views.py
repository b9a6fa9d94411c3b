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

from sqlalchemy import select

from joseki.book.learnt.profiles import require_profile
from joseki.book.query.answer import Candidate, CornerAnswer, Options
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import AnswerTable, answer_table, check_legal, next_in_game, next_moves, parse_moves
from joseki.book.query.show import show
from joseki.book.store.bookfile import BookFile
from joseki.book.store.database import Store
from joseki.core.corners import corner_tables, owner
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.limits import MAX_LINE_MOVES, beyond
from joseki.core.notation import format_gtp_vertex, format_sgf_point
from joseki.core.position import LocalBoard
from joseki.core.steps import Colour, other
from joseki.sgf.game import Game

LABELS = "abcdefghijklmnopqrstuvwxyz"
Played = list[tuple[Colour, Point | None]]


def sgf(point: Point | None) -> str | None:
    """A board point in SGF letters (``pd``), None for a pass or tenuki."""
    return None if point is None else format_sgf_point(point)


def colour(text: str) -> Colour:
    """``b`` or ``w`` from ``b``, ``black``, ``W``...; BadInput otherwise."""
    key = text.strip().lower()
    if key in ("b", "black", "w", "white"):
        return "b" if key[0] == "b" else "w"
    raise BadInput(f"bad colour {text!r} (expected black or white)")


def split_moves(text: str) -> list[str]:
    """Moves from a URL parameter: GTP or SGF tokens (``pass`` for tenuki) separated by commas or spaces."""
    tokens = [t for t in text.replace(",", " ").split() if t]
    if len(tokens) > MAX_LINE_MOVES:
        raise beyond("a line", MAX_LINE_MOVES, "moves")
    return tokens


def parse_played(text: str) -> Played:
    """A game's moves from a URL parameter: ``bpdwdd...``, a colour then an SGF point each (``tt`` a pass)."""
    text = text.strip()
    if len(text) % 3:
        raise BadInput("bad game moves: expected a colour and an SGF point each (bpdwdd...)")
    if len(text) // 3 > MAX_LINE_MOVES:
        raise beyond("a game", MAX_LINE_MOVES, "moves")
    played: Played = []
    for i in range(0, len(text), 3):
        c, x, y = text[i], text[i + 1], text[i + 2]
        if c not in "bw" or not ("a" <= x <= "s" or x == "t") or not ("a" <= y <= "s" or y == "t"):
            raise BadInput(f"bad game move {text[i : i + 3]!r} (move {i // 3 + 1})")
        played.append(("b" if c == "b" else "w", None if x + y == "tt" else (ord(x) - 97, ord(y) - 97)))
    return played


def board_stones(played: Played) -> dict[str, list[str]]:
    """The whole board's stones after ``played`` (captures made), as SGF points per colour."""
    board = LocalBoard(19)
    for c, point in played:
        if point is not None:
            board.play(c, point, lenient=True)
    stones: dict[str, list[str]] = {"black": [], "white": []}
    for point, c in sorted(board.stones.items()):
        stones["black" if c == "b" else "white"].append(format_sgf_point(point))
    return stones


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
    """The answer for the ``focus`` corner, that of the latest local move (:func:`focus_corner`; the first answer
    before any)."""
    return next((a for a in answers if a.corner == focus), answers[0])


def _options(profile: str | None, rank: str, top: int | None, favour: bool, focus: Corner | None) -> Options:
    """Favourability for every corner with ``favour``, else for the ``focus`` corner only (about 15 ms a candidate
    on Kogo: the other corners' tables are not shown, so they go without)."""
    return Options(top=top, rank=rank, profile=profile or None, favour=favour, favour_corner=focus)


def focus_corner(played: Played) -> Corner | None:
    """The corner of the latest local move (the one the player is looking at), None before any."""
    best: tuple[int, Corner] | None = None
    for corner, table in corner_tables(played).items():
        if table.moves and (best is None or table.moves[-1][0] > best[0]):
            best = (table.moves[-1][0], corner)
    return None if best is None else best[1]


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
    played, _ = parse_moves(moves, first)
    focus = focus_corner(played)
    options = _options(profile, rank, top, favour_all or not played, focus)
    answers = next_moves(reads or store, moves, None, first, corner, options, collections, context=True,
                         answer=answer)
    shown = focus_answer(focus, answers)
    to_move = other(played[-1][0]) if played else first
    return {"corners": [corner_json(a) for a in answers], "focus": shown.corner.value,
            "to_move": "black" if to_move == "b" else "white",
            "line": line(reads or store, shown, collections, profile), "board": board_stones(played)}


def review(store: Store, played: Played, collections: list[str] | None = None, profile: str | None = None,
           rank: str = "popularity", top: int | None = None, favour_all: bool = False,
           line: LineFn = line_json, answer: AnswerTable = answer_table,
           reads: Store | BookFile | None = None) -> dict[str, Any]:
    """Every corner of a game after ``played`` (``joseki next --sgf --move N --json``), the focus line and board;
    favourability for the focus corner only unless ``favour_all``; ``line``, ``answer`` and ``reads`` as for
    :func:`explore`."""
    focus = focus_corner(played)
    answers = next_in_game(reads or store, played, _options(profile, rank, top, favour_all, focus), collections,
                           context=True, answer=answer)
    shown = next((a for a in answers if a.corner == focus), None)
    return {"corners": [corner_json(a) for a in answers], "focus": None if focus is None else focus.value,
            "line": {} if shown is None else line(reads or store, shown, collections, profile),
            "board": board_stones(played), "move": len(played)}


def game_json(game: Game, source: str) -> dict[str, Any]:
    """A game record for the review board: players, result and the main line (colour and SGF point per move)."""
    return {"source": source, "black": game.black, "white": game.white, "result": game.result,
            "size": game.size, "handicap": game.handicap,
            "moves": [[c, sgf(p) or "tt"] for c, p in game.moves]}


def catalogue(store: Store) -> dict[str, Any]:
    """The collections and profiles the store holds, for the explorer's choosers."""
    c, p = store.tables["collection"], store.tables["profile"]
    with store.read() as conn:
        collections = [str(n) for n in conn.execute(select(c.c.name).order_by(c.c.name)).scalars()]
        profiles = [str(n) for n in conn.execute(select(p.c.name).order_by(p.c.name)).scalars()]
    return {"collections": collections, "profiles": profiles}


def judge(store: Store | BookFile, moves: list[str], first: Colour = "b", collections: list[str] | None = None,
          profile: str | None = None, answer: AnswerTable = answer_table) -> dict[str, Any]:
    """How the book judges the last of ``moves``: in book, its category, the moves the book played more often.

    The book's moves there are those of the corner the move joined, in the order ``joseki next``
    shows them (popularity: book paths plus games); a move elsewhere is a tenuki of the focus corner.
    """
    played, _ = parse_moves(moves, first)
    check_legal(played, moves)
    if not played:
        raise BadInput("no move to judge")
    mover, point = played[-1]
    before = corner_tables(played[:-1])
    where = owner(point, before) if point is not None else None
    if where is None:  # a move elsewhere: a tenuki of the corner played last
        where, point = focus_corner(played[:-1]), None
    if where is None:
        return {"move": moves[-1], "corner": None, "tenuki": True, "in_book": False, "state": "elsewhere",
                "category": None, "book_moves": [], "more_popular": [], "rank": None}
    options = Options(profile=profile or None)
    with store.read() as conn:
        require_profile(conn, options.profile)
        found = answer(Lookup(store, conn, collections), before[where], mover, options)
    offered = found.candidates if found.state != "left-book" else []
    index = next((i for i, c in enumerate(offered) if c.point == point), None)
    chosen = offered[index] if index is not None else None
    return {"move": moves[-1], "corner": where.value, "tenuki": point is None, "state": found.state,
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

    judged = judge(reads or store, moves, first, collections, profile, answer)
    played, _ = parse_moves(moves, first)
    reply_colour = other(played[-1][0])
    player = BookPlayer(reads or store, profile or None, seed, collections, answer=answer)
    point = player.choose(played, reply_colour, 19)
    reply = None if point is None else {"point": format_sgf_point(point), "move": format_gtp_vertex(point),
                                        "color": "black" if reply_colour == "b" else "white"}
    after = played + ([(reply_colour, point)] if point is not None else [])
    return {"judgement": judged, "reply": reply, "board": board_stones(after)}
