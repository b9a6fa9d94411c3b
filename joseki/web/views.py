"""What each view of the explorer shows, as JSON: the CLI's ``--json`` data plus what a board draws.

Every answer is built by the library functions the CLI uses (:func:`joseki.book.query.next.next_moves`,
:func:`~joseki.book.query.next.next_in_game`, :func:`joseki.book.query.show.show`,
:func:`joseki.book.gamerefs.read.games_at`) and carries their ``as_json`` data unchanged; the web adds
only drawing keys beside it: each candidate's SGF ``point`` and board ``label``, the whole board's
stones, the points conditions and comments name, and the book lines in board coordinates
(``book_position_moves``, ``book_moves``).

Each view is a function of the store and one request, a frozen value of its normalised parameters
(:class:`Explore`, :class:`Review`, :class:`Practise`, :class:`Games`, :class:`Search`), and :data:`VIEWS` lists them:
the server answers a request through its view, and caches the answer (:mod:`joseki.web.cache`) when the
view says it may be cached.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from joseki.book import patternsearch
from joseki.book.gamerefs.read import GameFilter, GameRef, games_at, indexed_source, load_game
from joseki.book.learnt.profiles import require_profile
from joseki.book.query.answer import Candidate, CornerAnswer, Options
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import answer_table, next_in_game, next_moves
from joseki.book.query.show import show
from joseki.book.store.database import Store
from joseki.core.diagram import letters
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point
from joseki.core.moves import Moves, Stones, game_moves, typed_moves
from joseki.core.notation import format_gtp_vertex, format_sgf_point, parse_move
from joseki.core.pattern import Pattern, Placement
from joseki.core.position import LocalBoard
from joseki.core.steps import Colour, other, reflection_needed
from joseki.engine.policy import BookPlayer
from joseki.sgf.game import Game

Names = tuple[str, ...] | None
"""Collections asked for (None: all)."""
Setup = tuple[tuple[Point, Colour], ...]
"""Setup stones, sorted by point."""


@dataclass(frozen=True, slots=True)
class Explore:
    """The explorer's request: typed moves from ``first``, the corner asked about on an empty board, and how to
    answer; favourability for every corner with ``favour_all``, else for the focus corner's only."""

    moves: tuple[str, ...] = ()
    first: Colour = "b"
    corner: Corner = Corner.TOP_RIGHT
    collections: Names = None
    profile: str | None = None
    rank: str = "popularity"
    top: int | None = None
    favour_all: bool = False
    setup: Setup = ()
    """Stones on the board before the moves (a game's setup, explored from one of its moves)."""


@dataclass(frozen=True, slots=True)
class Review:
    """A game reviewed after its moves ``played`` (colour and point each), answered as :class:`Explore` is."""

    played: tuple[tuple[Colour, Point | None], ...] = ()
    setup: Setup = ()
    """The game's setup stones (handicap, a position), on the board before its moves."""
    collections: Names = None
    profile: str | None = None
    rank: str = "popularity"
    top: int | None = None
    favour_all: bool = False


@dataclass(frozen=True, slots=True)
class Practise:
    """A practice move, the last of ``moves``: graded, and answered by the book player drawing with ``seed``."""

    moves: tuple[str, ...] = ()
    first: Colour = "b"
    collections: Names = None
    profile: str | None = None
    seed: int | None = None
    corner: Corner = Corner.TOP_RIGHT
    """Where the book plays its first move when it moves first (no moves yet)."""


@dataclass(frozen=True, slots=True)
class Games:
    """The games behind the focus corner's position after ``moves``: the ``limit`` first in ``order``."""

    moves: tuple[str, ...] = ()
    first: Colour = "b"
    profile: str | None = None
    order: str = "newest"
    limit: int = 20
    only: GameFilter = field(default_factory=GameFilter)
    setup: Setup = ()


@dataclass(frozen=True, slots=True)
class Search:
    """A pattern search (:class:`joseki.book.patternsearch.Query`) drawn with the pattern's top-left point at
    ``origin``, one of the places its placement allows (:func:`drawn_origin`)."""

    query: patternsearch.Query
    origin: Point


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


def candidate_json(c: Candidate, label: str | None, occupied: bool = False) -> dict[str, Any]:
    """The CLI's candidate JSON plus its board point, letter (none on a stone: ``occupied``), the points its
    conditions name and its setup."""
    rate = c.record
    return {**c.as_json(), "point": sgf(c.point), "label": label, "occupied": occupied, "losses": rate.losses,
            "draws": rate.draws,
            "named": sorted({format_sgf_point(p) for p in c.named}),
            "setup": {format_sgf_point(p): col for p, col in c.setup.items()}}


def corner_json(a: CornerAnswer, board: Stones = ()) -> dict[str, Any]:
    """The CLI's corner JSON with the drawing keys (module docstring); no letter on a stone of ``board``."""
    shown = a.candidates if a.candidates or a.left_at is None else a.alternatives
    stones = {p for p, _ in board} | set(a.stones)
    labels = letters((c.point for c in shown), stones)

    def drawn(cands: list[Candidate]) -> list[dict[str, Any]]:
        return [candidate_json(c, labels.get(c.point) if c.point is not None else None, c.point in stones)
                for c in cands]

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


def _names(collections: Names) -> list[str] | None:
    return list(collections) if collections else None


def _options(asked: Explore | Review, focus: Corner | None, favour_all: bool) -> Options:
    """Favourability for every corner with ``favour_all``, else for the ``focus`` corner only (the other corners'
    tables are not shown, so they go without)."""
    return Options(top=asked.top, rank=asked.rank, profile=asked.profile, favour=favour_all, favour_corner=focus)


def line_json(store: Store, a: CornerAnswer, collections: Names, profile: str | None) -> dict[str, Any]:
    """``joseki show`` of a corner's line (in its own frame), with the points its comments name; {} when empty."""
    if not a.steps:
        return {}
    shown = show(store, None, a.steps, corner_first(a), a.corner, _names(collections), profile, swap=a.transform.swap)
    moves = [{**m.as_json(), "comment_points": [format_sgf_point(p) for p in m.comment_points],
              "named": sorted(format_sgf_point(p) for p in m.named)} for m in shown.moves]
    return {**shown.as_json(), "moves": moves}


def explore(store: Store, asked: Explore) -> dict[str, Any]:
    """The explorer's view after the moves: every active corner (``joseki next --json``), the focus corner's line
    (``joseki show --json``) and the board."""
    moves = typed_moves(asked.moves, asked.first, dict(asked.setup))
    focus = moves.focus
    answers = next_moves(store, moves, corner=asked.corner, collections=_names(asked.collections), context=True,
                         options=_options(asked, focus, asked.favour_all or not moves.played))
    shown = focus_answer(focus, answers)
    return {"corners": [corner_json(a, moves.board) for a in answers], "focus": shown.corner.value,
            "to_move": "black" if moves.to_move == "b" else "white",
            "line": line_json(store, shown, asked.collections, asked.profile), "board": board_stones(moves)}


def review(store: Store, asked: Review) -> dict[str, Any]:
    """Every corner of a game after its setup and moves (``joseki next --sgf --move N --json``), the focus line and
    board; the moves must be legal as typed moves are (:func:`joseki.core.moves.game_moves`, ``strict``)."""
    moves = game_moves(asked.played, dict(asked.setup), strict=True)
    focus = moves.focus
    answers = next_in_game(store, moves, _options(asked, focus, asked.favour_all), _names(asked.collections),
                           context=True)
    shown = next((a for a in answers if a.corner == focus), None)
    return {"corners": [corner_json(a, moves.board) for a in answers], "focus": None if focus is None else focus.value,
            "line": {} if shown is None else line_json(store, shown, asked.collections, asked.profile),
            "board": board_stones(moves), "move": len(asked.played)}


def check_game(played: Sequence[tuple[Colour, Point | None]], setup: Setup = ()) -> None:
    """Refuse a game (all its moves, whichever is shown) that breaks the rule every view plays by
    (:func:`joseki.core.moves.game_moves`, ``strict``): IllegalMoveError naming the move."""
    game_moves(played, dict(setup), strict=True)


def grade(store: Store, moves: Moves, collections: Names = None, profile: str | None = None) -> dict[str, Any]:
    """How the book grades the last of ``moves``: in book, its category, the moves the book played more often.

    The book's moves there are those of the corner the move joined, in the order ``joseki next``
    shows them (popularity: book paths plus games); a move elsewhere is a tenuki of the focus corner.
    Raises BadInput when there is no move.
    """
    if not moves.played:
        raise BadInput("no move to grade")
    mover, point = moves.played[-1]
    where = moves.joined[-1]
    if where is None:  # a move elsewhere: a tenuki of the corner played last
        where, point = moves.focus_before_last, None
    if where is None:
        return {"move": moves.tokens[-1], "corner": None, "tenuki": True, "in_book": False, "state": "elsewhere",
                "category": None, "book_moves": [], "more_popular": [], "rank": None}
    options = Options(profile=profile or None)
    with store.read() as conn:
        require_profile(conn, options.profile)
        found = answer_table(Lookup(store, conn, _names(collections)), moves.tables_before_last[where], mover,
                             options)
    offered = found.candidates if found.state != "left-book" else []
    same = _same_position(found, point)
    index = next((i for i, c in enumerate(offered) if c.point in same), None)
    chosen = offered[index] if index is not None else None
    return {"move": moves.tokens[-1], "corner": where.value, "tenuki": point is None, "state": found.state,
            "in_book": chosen is not None,
            "category": None if chosen is None else chosen.category,
            "category_label": None if chosen is None else chosen.label,
            "rank": None if index is None else index + 1,
            "book_moves": [c.move for c in offered],
            "more_popular": [c.move for c in (offered if index is None else offered[:index])][:5]}


def _same_position(found: CornerAnswer, point: Point | None) -> set[Point | None]:
    """The moves that reach the same position as ``point`` in ``found``'s corner: itself, and its reflection
    after a line whose stones all lie on the diagonal (the book keeps one of the two, ``merge_symmetric``)."""
    base = found.via if found.via is not None else found.steps
    if point is None or reflection_needed(base) is not None:
        return {point}
    x, y = found.transform.to_zone(point, 19)
    return {point, found.transform.to_board((y, x), 19)}


def practise(store: Store, asked: Practise) -> dict[str, Any]:
    """The player's last move graded (:func:`grade`) and the book's answer by the GTP proxy's policy
    (:class:`joseki.engine.policy.BookPlayer`); with no move yet, the book's first move in ``corner``, chosen by the
    same policy (its tenuki a ``pass``). ``line_ends`` when the book has no answer: the practice is over."""
    moves = typed_moves(asked.moves, asked.first)
    graded = grade(store, moves, asked.collections, asked.profile) if moves.played else None
    reply_colour = moves.to_move
    player = BookPlayer(store, asked.profile or None, asked.seed, _names(asked.collections))
    if moves.played:
        chosen = player.choice_after(moves, reply_colour)
        point, answers = (None, False) if chosen is None else (chosen.point, True)
    else:
        point = player.choose_first(reply_colour, asked.corner)
        answers = point is not None
    side = "black" if reply_colour == "b" else "white"
    reply = (None if not answers else {"point": None, "move": "pass", "color": side, "tenuki": True} if point is None
             else {"point": format_sgf_point(point), "move": format_gtp_vertex(point), "color": side})
    return {"judgement": graded,  # the API's key since its first version (the page reads it)
            "reply": reply, "line_ends": reply is None, "board": board_stones(moves, (reply_colour, point))}


def games(store: Store, asked: Games) -> dict[str, Any]:
    """``joseki games --json`` for the focus corner after the moves (after a tenuki there, the games that played
    that tenuki), each game with how it was mapped onto the position asked (:func:`mapped`)."""
    moves = typed_moves(asked.moves, asked.first, dict(asked.setup))
    where = moves.focus
    data: dict[str, Any] = {"moves": list(asked.moves), "profile": asked.profile or "global", "order": asked.order,
                            "corner": None if where is None else where.value, "filter": asked.only.as_json()}
    builder = moves.tables[where].builder if where is not None else None
    if where is None or builder is None or builder.first_colour is None:
        return {**data, "count": 0, "book_steps": None, "games": []}
    found = games_at(store, builder.steps_to_move(), first=builder.first_colour.upper(), profile=asked.profile,
                     order=asked.order, limit=asked.limit, only=asked.only)
    listed = found.as_json()
    listed["games"] = [{**g, "mapped": mapped(store, ref, where, builder.first_colour, bool(builder.swap))}
                       for g, ref in zip(listed["games"], found.games, strict=True)]  # type: ignore[call-overload]
    return {**data, **listed}


def mapped(store: Store, ref: GameRef, corner: Corner, first: Colour, swap: bool) -> dict[str, Any]:
    """How a game's corner was mapped onto the position asked (``corner``, ``first`` moving first there, its
    string reflected when ``swap``): from another corner, with the colours swapped, reflected; ``known`` is false
    when the game's file can no longer be read."""
    try:
        game = load_game(store, ref.key)
    except BadInput:
        return {"known": False, "corner": ref.corner != corner, "colours": None, "reflected": None}
    table = game_moves(game.moves[: ref.move_number], game.stones).tables[ref.corner]
    theirs = table.builder
    return {"known": True, "corner": ref.corner != corner,
            "colours": theirs.first_colour is not None and theirs.first_colour != first,
            "reflected": bool(theirs.swap) != swap}


def game_json(game: Game, source: str) -> dict[str, Any]:
    """A game record for the review board: players, result, setup stones and the main line (colour and SGF point
    per move), checked by the rule every view plays by (:func:`joseki.core.moves.game_moves`, ``strict``)."""
    game_moves(game.moves, game.stones, strict=True)
    return {"source": source, "black": game.black, "white": game.white, "result": game.result,
            "size": game.size, "handicap": game.handicap,
            "setup": [[c, format_sgf_point(p)] for p, c in sorted(game.stones.items())],
            "moves": [[c, sgf(p) or "tt"] for c, p in game.moves]}


def drawn_origin(pattern: Pattern, placement: Placement, text: str | None) -> Point:
    """Where the page drew the pattern (its top-left point, ``text``; None: at home): one of the places
    ``placement`` allows, so that the continuations drawn there are the library's moved along with it; BadInput
    otherwise."""
    home, offsets = placement.home(pattern)
    if text is None or not text.strip():
        return home
    point = parse_move(text)
    if point is None or (point[0] - home[0], point[1] - home[1]) not in offsets:
        raise BadInput(f"origin {text!r}: a {pattern.width}x{pattern.height} pattern placed {placement.where.value} "
                       "cannot have its top-left point there")
    return point


def search(store: Store, asked: Search) -> dict[str, Any]:
    """``joseki search --json`` (:func:`joseki.book.patternsearch.search`) with the keys to draw it where the page
    drew the pattern: the region, its letters, the stones of the pattern and of the sequence, each continuation's
    board ``point`` and ``vertex`` there (``occupied`` when a drawn stone stands on it), each hit's
    ``next_vertex``. A game's ``root`` (a folder of the server) is left out and its ``source`` is its path below it."""
    query = asked.query
    found = patternsearch.search(store, query)
    data = found.as_json()
    pattern = query.pattern
    (hx, hy), _ = query.placement.home(pattern)
    ox, oy = asked.origin

    def drawn(point: Point) -> Point:
        """A point of the pattern at home moved to where it is drawn."""
        return (point[0] - hx + ox, point[1] - hy + oy)

    stones: dict[Point, str] = {(ox + dx, oy + dy): "black" if ch == "X" else "white"
                                for (dx, dy), ch in pattern.cells() if ch in "XO"}
    for move, (colour_, (dx, dy)) in zip(data["sequence"], query.sequence, strict=True):  # type: ignore[call-overload]
        point = (ox + dx, oy + dy)
        stones[point] = "black" if colour_ == "b" else "white"
        move.update(point=format_sgf_point(point), vertex=format_gtp_vertex(point))
    for shown, c in zip(data["continuations"], found.continuations, strict=True):  # type: ignore[call-overload]
        point = drawn(c.point)
        shown.update(point=format_sgf_point(point), vertex=format_gtp_vertex(point), occupied=point in stones)
    for game, result in zip(data["results"], found.results, strict=True):  # type: ignore[call-overload]
        game.pop("root", None)
        game["source"] = indexed_source(result.facts.source)
        for hit, h in zip(game["hits"], result.hits, strict=True):
            hit["next_vertex"] = None if h.next_point is None else format_gtp_vertex(drawn(h.next_point))
    last = (ox + pattern.width - 1, oy + pattern.height - 1)
    data.update(origin=format_gtp_vertex(asked.origin),
                region={"from": format_sgf_point(asked.origin), "to": format_sgf_point(last),
                        "from_vertex": format_gtp_vertex(asked.origin), "to_vertex": format_gtp_vertex(last)},
                cells=[{"point": format_sgf_point((ox + dx, oy + dy)), "letter": ch}
                       for (dx, dy), ch in pattern.cells() if ch != "."],
                board={colour_: sorted(format_sgf_point(p) for p, c in stones.items() if c == colour_)
                       for colour_ in ("black", "white")})
    return data


Request = Explore | Review | Practise | Games | Search


@dataclass(frozen=True, slots=True)
class View:
    """One view: its name (the route's last part), its parameters (the request's type), the function answering a
    request, and whether an answer may be cached (it is a function of the request and the store alone)."""

    name: str
    parameters: type[Request]
    function: Callable[[Store, Any], dict[str, Any]]
    cacheable: Callable[[Any], bool]


def _always(asked: Request) -> bool:
    return True


def _seeded(asked: Practise) -> bool:
    """A practice move's answer is the store's only with a seed (else the book player draws at random)."""
    return asked.seed is not None


VIEWS = (
    View("explore", Explore, explore, _always),
    View("review", Review, review, _always),
    View("practise", Practise, practise, _seeded),
    View("games", Games, games, _always),
    View("search", Search, search, _always),
)
"""The views the server answers through its cache."""
_BY_PARAMETERS = {view.parameters: view for view in VIEWS}


def view_for(asked: Request) -> View:
    """The view that answers ``asked``."""
    return _BY_PARAMETERS[type(asked)]
