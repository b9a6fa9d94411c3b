"""The next-move query: for each corner of a move sequence, the book's candidates for the side to move.

A lookup is a few indexed queries: the node of the corner's canonical prefix by primary
key, its children through the ``parent_id`` index. When a prefix is not in the book, a
binary search over its prefixes (the book is prefix-closed) finds the longest one that is,
and the move that left it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, select

from joseki.category import NEVER_FIRST, merge
from joseki.corners import CornerTable, corner_tables
from joseki.geometry import Corner, Point, Transform
from joseki.notation import TENUKI, format_gtp_vertex, format_sgf_point, parse_move
from joseki.position import LocalBoard
from joseki.priority import NEUTRAL
from joseki.steps import Color, canonical, other, parse_steps, to_move
from joseki.store import ROOT_ID, Store, node_id


@dataclass(slots=True)
class Candidate:
    """One book continuation, in the caller's frame and notation."""

    token: str
    move: str
    point: Point | None
    paths: int
    priority: float = NEUTRAL
    category: str | None = None

    def as_json(self) -> dict[str, object]:
        return {"move": self.move, "paths": self.paths, "priority": round(self.priority, 4),
                "category": self.category}


@dataclass(slots=True)
class CornerAnswer:
    """The book's view of one corner."""

    corner: Corner
    steps: str
    state: str
    to_move: Color
    transform: Transform
    candidates: list[Candidate] = field(default_factory=list)
    book_steps: str = ""
    left_at: int | None = None
    left_move: str | None = None
    stones: dict[Point, Color] = field(default_factory=dict)

    def as_json(self, gtp: bool = True) -> dict[str, object]:
        data: dict[str, object] = {
            "corner": self.corner.value, "steps": self.steps, "state": self.state,
            "to_move": "black" if self.to_move == "b" else "white",
            "candidates": [c.as_json() for c in self.candidates]}
        if self.state == "left-book":
            data.update(book_steps=self.book_steps, left_at=self.left_at, left_move=self.left_move)
        return data


class Lookup:
    """Indexed reads of the book, optionally restricted to some collections."""

    def __init__(self, store: Store, conn: Connection, collections: list[str] | None = None) -> None:
        self.store, self.conn = store, conn
        t = store.tables
        self.collection_ids: list[int] | None = None
        if collections:
            c = t["collection"]
            found = dict(conn.execute(select(c.c.name, c.c.id).where(c.c.name.in_(collections))).all())
            missing = sorted(set(collections) - set(found))
            if missing:
                raise ValueError(f"no collection named {', '.join(map(repr, missing))}")
            self.collection_ids = sorted(found.values())

    def _books(self, nid_column: object) -> object:
        nb = self.store.tables["node_book"]
        cond = nb.c.node_id == nid_column
        if self.collection_ids is not None:
            cond = cond & nb.c.collection_id.in_(self.collection_ids)
        return cond

    def has(self, steps: str) -> bool:
        """True if some variation of the selected collections passes through ``steps``."""
        nb = self.store.tables["node_book"]
        if not steps:
            query = select(nb.c.paths).limit(1)
            if self.collection_ids is not None:
                query = query.where(nb.c.collection_id.in_(self.collection_ids))
            return self.conn.execute(query).first() is not None
        query = select(nb.c.paths).where(self._books(node_id(steps))).limit(1)  # type: ignore[arg-type]
        return self.conn.execute(query).first() is not None

    def children(self, steps: str) -> list[tuple[str, int, str | None]]:
        """(token, paths, category) of each continuation of ``steps`` in the book."""
        n, nb = self.store.tables["node"], self.store.tables["node_book"]
        parent = node_id(steps) if steps else ROOT_ID
        query = (select(n.c.move, n.c.steps, nb.c.paths, nb.c.category)
                 .join(nb, self._books(n.c.id))  # type: ignore[arg-type]
                 .where(n.c.parent_id == parent))
        merged: dict[str, tuple[int, str | None]] = {}
        for move, full, paths, category in self.conn.execute(query):
            if full[:-2] != steps:
                raise RuntimeError(f"node key collision between {full!r} and a child of {steps!r}")
            old_paths, old_category = merged.get(move, (0, None))
            merged[move] = (old_paths + paths, merge(old_category, category))
        return [(move, paths, category) for move, (paths, category) in merged.items()]

    def longest_prefix(self, steps: str) -> str:
        """The longest prefix of ``steps`` (at token boundaries) that the book holds."""
        lo, hi = 0, len(steps) // 2
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.has(steps[: 2 * mid]):
                lo = mid
            else:
                hi = mid - 1
        return steps[: 2 * lo]


def rank_key(c: Candidate) -> tuple[bool, float, int, str]:
    """Order of candidates: never a mistake or trick first, then priority, then popularity."""
    return (c.category in NEVER_FIRST, -c.priority, -c.paths, c.token)


def _candidate(token: str, paths: int, category: str | None, transform: Transform, sgf: bool) -> Candidate:
    if token == TENUKI:
        return Candidate(token, "tenuki", None, paths, category=category)
    point = transform.to_board((ord(token[0]) - 65, ord(token[1]) - 65), 19)
    move = format_sgf_point(point) if sgf else format_gtp_vertex(point)
    return Candidate(token, move, point, paths, category=category)


def answer_corner(lookup: Lookup, corner: Corner, steps: str, first: Color, swap: bool, top: int | None,
                  sgf: bool = False) -> CornerAnswer:
    """The book's answer for one corner whose canonical prefix is ``steps``."""
    transform = Transform(corner, swap)
    mover = first if to_move(steps) == 0 else other(first)
    answer = CornerAnswer(corner, steps, "in-book", mover, transform)
    if steps and not lookup.has(steps):
        answer.state = "left-book"
        answer.book_steps = lookup.longest_prefix(steps)
        index = len(answer.book_steps) // 2
        answer.left_at = index + 1
        token = steps[2 * index : 2 * index + 2]
        answer.left_move = _candidate(token, 0, None, transform, sgf).move
    elif not steps:
        answer.state = "empty"
    rows = lookup.children(answer.book_steps if answer.state == "left-book" else steps)
    cands = [_candidate(token, paths, category, transform, sgf) for token, paths, category in rows]
    cands.sort(key=rank_key)
    answer.candidates = cands[:top] if top else cands
    return answer


def parse_moves(moves: list[str], first: Color = "b") -> tuple[list[tuple[Color, Point | None]], bool]:
    """Colours and board points of typed moves (GTP or SGF, ``pass``), and whether they were SGF."""
    color, out, sgf_count = first, [], 0
    for token in moves:
        point = parse_move(token)
        text = token.strip()
        sgf_count += len(text) == 2 and text.isalpha() and text.islower() and text != "tt"
        out.append((color, point))
        color = other(color)
    return out, sgf_count > 0 and sgf_count == sum(1 for m in moves if parse_move(m) is not None)


def check_legal(played: list[tuple[Color, Point | None]], tokens: list[str]) -> None:
    """ValueError naming the first move that lands on a stone or is suicide."""
    board = LocalBoard()
    for number, ((color, point), token) in enumerate(zip(played, tokens, strict=True), start=1):
        if point is not None:
            try:
                board.play(color, point)
            except ValueError as exc:
                reason = "is suicide" if "suicide" in str(exc) else "lands on a stone"
                raise ValueError(f"move {number} ({token}) {reason}") from None


def next_moves(store: Store, moves: list[str] | None = None, steps: str | None = None, first: Color = "b",
               corner: Corner = Corner.TOP_RIGHT, top: int | None = None,
               collections: list[str] | None = None) -> list[CornerAnswer]:
    """The book's candidates for every corner of ``moves`` (or for ``steps`` in ``corner``)."""
    answers: list[CornerAnswer] = []
    if steps is not None:
        prefix, swap = canonical(parse_steps(steps))
        with store.read() as conn:
            lookup = Lookup(store, conn, collections)
            answer = answer_corner(lookup, corner, prefix, first, swap, top)
            board = LocalBoard()
            _place(board, prefix, first, answer.transform)
            answer.stones = board.stones
            answers.append(answer)
        return answers
    played, sgf = parse_moves(moves or [], first)
    check_legal(played, moves or [])
    tables = corner_tables(played)
    active = [t for t in tables.values() if t.moves]
    with store.read() as conn:
        lookup = Lookup(store, conn, collections)
        if not active:
            next_color = other(played[-1][0]) if played else first
            answers.append(answer_corner(lookup, corner, "", next_color, False, top, sgf))
            return answers
        for table in active:
            answers.append(_answer_table(lookup, table, top, sgf))
    return answers


def _answer_table(lookup: Lookup, table: CornerTable, top: int | None, sgf: bool) -> CornerAnswer:
    b = table.builder
    assert b.first_color is not None
    answer = answer_corner(lookup, table.corner, b.steps_to_move(), b.first_color, bool(b.swap), top, sgf)
    board = LocalBoard()
    for _, color, point in table.moves:
        board.play(color, point)
    answer.stones = board.stones
    return answer


def _place(board: LocalBoard, steps: str, first: Color, transform: Transform) -> None:
    """Play a canonical string on a board-frame ``board`` in ``transform``'s corner."""
    color = first
    for i in range(0, len(steps), 2):
        token = steps[i : i + 2]
        if token != TENUKI:
            board.play(color, transform.to_board((ord(token[0]) - 65, ord(token[1]) - 65), 19))
        color = other(color)
