"""Reading game records: the main line of an SGF game, its result and what makes it unusable.

Real files come in many dialects (Fox, KGS, Tygem, AI match records): a missing, wrong or
unknown CA and bytes lost upstream (read by :mod:`joseki.sgf.text`), Fox-scaled komi, results such as ``B+R``,
``B+Resign``, ``W+3.5``, ``B+T``, ``B``, ``0``, ``Draw``, ``D+J``, ``Void`` or ``?``. This
module reads them without failing on anything but broken SGF, a game that is not Go
(``GM`` other than 1), an illegal move (on an occupied point, or a suicide where the rules
``RU`` forbid it) or a file beyond a limit of :mod:`joseki.core.limits`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf_grammar

from joseki.core.errors import BadInput
from joseki.core.gameinfo import normal_date, normal_rank
from joseki.core.geometry import Point
from joseki.core.limits import MAX_LINE_MOVES, beyond
from joseki.core.notation import GTP_COLUMNS, format_gtp_vertex
from joseki.core.readboard import bordered, play_line, stones_of
from joseki.core.steps import Colour
from joseki.sgf.archive import Source, source_bytes
from joseki.sgf.properties import apply_setup, check_go, rules_allow_suicide
from joseki.sgf.sgfparse import parse_game, plain_game, valid
from joseki.sgf.text import charset_of


@dataclass(slots=True)
class Game:
    """A game's main line and the facts about it that matter here."""

    source: str
    size: int
    moves: list[tuple[Colour, Point | None]] = field(default_factory=list)
    result: str = ""
    winner: Colour | None = None
    """``"b"``, ``"w"``, ``"d"`` for a draw, None when unknown or void."""
    handicap: int = 0
    setup: bool = False
    stones: dict[Point, Colour] = field(default_factory=dict)
    """The setup stones (AB/AW: handicap, a problem's position) on the board before the first move."""
    black: str = ""
    white: str = ""
    black_rank: str = ""
    white_rank: str = ""
    """Ranks as :func:`joseki.core.gameinfo.normal_rank` writes them ('' when unknown)."""
    date: str = ""
    """The game's date as :func:`joseki.core.gameinfo.normal_date` writes it ('' when unknown)."""
    event: str = ""
    """The root's ``EV`` (the event or tournament), '' when there is none."""
    captures: dict[int, list[Point]] | None = field(default_factory=dict)
    """The points each move that emptied some emptied (move number from 0: its captures, or a suicide's own
    string with its point), as replayed from the setup :attr:`stones`; None when setup stones came later too (the
    pattern index then replays the moves itself, :func:`joseki.core.movelist.replay`)."""
    warnings: list[str] = field(default_factory=list)
    """What reading its text met: an unknown or wrong ``CA``, bytes that could not be read (:mod:`joseki.sgf.text`)."""

    @property
    def key(self) -> str:
        """Identity of the game for learning: a hash of its moves and result."""
        text = ";".join(map(_KEY_PARTS.__getitem__, self.moves))
        return hashlib.sha256(f"{self.size}|{text}|{self.winner}".encode()).hexdigest()[:32]

    def unusable(self) -> str | None:
        """Why the game cannot be learnt from (another board size, handicap, setup, no result)."""
        if self.size != 19:
            return f"board size {self.size}"
        if self.handicap >= 2 or self.setup:
            return "handicap"
        if self.winner is None:
            return "no usable result"
        return None


class _KeyParts(dict[tuple[Colour, Point | None], str]):
    """Each move's text in :attr:`Game.key` (``b3,15``; ``w`` for a pass), made the first time it is asked for."""

    def __missing__(self, move: tuple[Colour, Point | None]) -> str:
        colour, point = move
        text = self[move] = colour if point is None else f"{colour}{point[0]},{point[1]}"
        return text


_KEY_PARTS = _KeyParts()


def parse_result(text: str) -> Colour | None:
    """Winner of an SGF RE value: ``b``, ``w``, ``d`` (draw) or None (void, unknown, unfinished)."""
    value = text.strip().lower()
    if not value:
        return None
    if value in ("0", "draw", "jigo", "d", "=") or value.startswith(("d+", "draw", "jigo")):
        return "d"
    if value[0] in "bw" and (len(value) == 1 or value[1] in "+ "):
        return value[0]
    return None


def read_game(path: Path | Source) -> Game:
    """The main line of the first game in an SGF file (or archive member, :mod:`joseki.sgf.archive`);
    BadInput for unreadable or broken SGF or an illegal move."""
    if isinstance(path, tuple):
        return game_from_bytes(source_bytes(path), path[0])
    return game_from_bytes(source_bytes(path), str(Path(path)))


def read_learnable(path: Path | Source) -> tuple[Game | None, str | None]:
    """The game at ``path`` and why it cannot be learnt from (None if it can; ``error: ...`` if unreadable,
    not Go, or with an illegal move)."""
    try:
        game = read_game(path)
    except ValueError as exc:
        return None, f"error: {exc}"
    return game, game.unusable()


def game_from_bytes(data: bytes, source: str = "<bytes>") -> Game:
    """The main line of the first game in SGF ``data``, replayed on the board.

    BadInput for broken SGF, a game that is not Go, an illegal move (naming its number and
    point) or a main line beyond :data:`~joseki.core.limits.MAX_LINE_MOVES`.
    """
    plain = plain_game(data)
    tree: sgf_grammar.Coarse_game_tree | None = None
    if plain is None:
        tree = valid(parse_game, data)
        root = tree.sequence[0]
    else:
        root = plain[0]
    check_go(root)
    size_raw = root.get("SZ", [b"19"])[0]
    try:
        size = int(size_raw.split(b":")[0])
    except ValueError:
        raise BadInput(f"bad board size SZ[{size_raw.decode('ascii', 'replace')}]") from None
    game = Game(source, size)
    text = charset_of(data, root.get("CA", [b""])[0])

    def _text(raw: bytes) -> str:
        return text.text(raw).strip()

    game.result = _text(root["RE"][0]) if "RE" in root else ""
    game.winner = parse_result(game.result)
    try:
        game.handicap = int(_text(root.get("HA", [b"0"])[0]) or 0)
    except ValueError:
        game.handicap = 0
    game.black = _text(root["PB"][0]) if "PB" in root else ""
    game.white = _text(root["PW"][0]) if "PW" in root else ""
    game.black_rank = normal_rank(_text(root["BR"][0])) if "BR" in root else ""
    game.white_rank = normal_rank(_text(root["WR"][0])) if "WR" in root else ""
    game.date = normal_date(_text(root["DT"][0])) if "DT" in root else ""
    game.event = _text(root["EV"][0]) if "EV" in root else ""
    game.warnings = [*text.warnings, *text.finish()]
    replayed = 1 <= size <= len(GTP_COLUMNS)
    moves, points = game.moves, _POINTS.setdefault(size, {})
    late: list[tuple[int, dict[str, list[bytes]]]] = []
    # the setup nodes after the first move, each with the number of moves before it
    if plain is not None:  # a root, then nodes that are one move and nothing else
        _setup(game, root, late, replayed)
        known = _PLAIN_MOVES.setdefault(size, {})
        moves += [known[token] if token in known else _plain_move(token, size, known) for token in plain[1]]
        if len(moves) > MAX_LINE_MOVES:
            raise beyond("a game", MAX_LINE_MOVES, "moves")
    node = tree
    while node is not None:
        for props in node.sequence:
            if len(props) == 1 and ((values := props.get("B")) is not None or (values := props.get("W")) is not None):
                # a node that is one move and nothing else, most of a record's
                raw = values[0]
                point = points[raw] if raw in points else _point(raw, size, points)
                moves.append(("b" if "B" in props else "w", point))
                continue
            _setup(game, props, late, replayed)
            for key, colour in _MOVE_KEYS:
                if (values := props.get(key)) is not None:
                    raw = values[0]
                    moves.append((colour, points[raw] if raw in points else _point(raw, size, points)))
        if len(moves) > MAX_LINE_MOVES:
            raise beyond("a game", MAX_LINE_MOVES, "moves")
        node = node.children[0] if node.children else None
    if replayed:
        _replay(game, late, rules_allow_suicide(root))
    return game


def _setup(game: Game, props: dict[str, list[bytes]], late: list[tuple[int, dict[str, list[bytes]]]],
           replayed: bool) -> None:
    """A node's setup stones (AB, AW, AE), if any: on the board before the first move, else kept in ``late`` with
    the number of moves before them."""
    if "AB" in props or "AW" in props or "AE" in props:
        if "AB" in props or "AW" in props:
            game.setup = True
        if game.moves:
            late.append((len(game.moves), props))
        elif replayed:
            apply_setup(game.stones, game.size, props)


def _replay(game: Game, late: list[tuple[int, dict[str, list[bytes]]]], suicide: bool) -> None:
    """Replay ``game``'s moves from its setup stones, the ``late`` setup nodes among them, keeping the captures;
    BadInput naming the first illegal move."""
    cells = bordered(game.stones, game.size)
    captures: dict[int, list[Point]] = {}
    start = 0
    for stop, props in [*late, (len(game.moves), None)]:
        found, illegal = play_line(cells, game.size, game.moves, start, stop, suicide)
        captures.update(found)
        if illegal is not None:
            number, reason = illegal
            colour, point = game.moves[number]
            assert point is not None
            raise _illegal(reason, colour, point, number + 1, game.size)
        if props is not None:
            stones = stones_of(cells, game.size)
            apply_setup(stones, game.size, props)
            cells = bordered(stones, game.size)
        start = stop
    game.captures = None if late else captures


_MOVE_KEYS: tuple[tuple[str, Colour], ...] = (("B", "b"), ("W", "w"))


def _illegal(reason: str, colour: Colour, point: Point, number: int, size: int) -> BadInput:
    """The error for move ``number``, illegal for ``reason``."""
    return BadInput(f"move {number} ({'B' if colour == 'b' else 'W'} {format_gtp_vertex(point, size)}) {reason}")


_POINTS: dict[int, dict[bytes, Point | None]] = {}
"""Per board size, :func:`_point` of each two-byte value read so far (at most 52 * 52)."""


_PLAIN_MOVES: dict[int, dict[bytes, tuple[Colour, Point | None]]] = {}
"""Per board size, the move of each :func:`~joseki.sgf.sgfparse.plain_game` move read so far."""


def _plain_move(token: bytes, size: int,
                known: dict[bytes, tuple[Colour, Point | None]]) -> tuple[Colour, Point | None]:
    """The move of a :func:`~joseki.sgf.sgfparse.plain_game` move (``B[pd``), kept in ``known``."""
    move = known[token] = ("b" if token[0] == 66 else "w", _point(token[2:], size))
    return move


def _point(raw: bytes, size: int, known: dict[bytes, Point | None] | None = None) -> Point | None:
    """The point of a move's value (None for a pass); a two-byte value's is kept in ``known``."""
    value = raw.strip()
    if not value or (value == b"tt" and size <= 19):
        point = None
    elif len(value) != 2:
        raise BadInput(f"bad move {value.decode('ascii', 'replace')!r}")
    else:
        x, y = value[0] - 97, value[1] - 97
        if not (0 <= x < size and 0 <= y < size):
            raise BadInput(f"move {value.decode('ascii', 'replace')!r} is off the {size}x{size} board")
        point = (x, y)
    if known is not None and len(raw) == 2:
        known[raw] = point
    return point

