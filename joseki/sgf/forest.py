"""Flattening an SGF joseki forest: every root-to-leaf path becomes one :class:`Variation`.

The file is parsed with sgfmill's grammar and walked iteratively (no recursion, so Kogo's
273-move lines are no problem). A path's corner is the quadrant of its first move; its moves
inside that corner's zone (:mod:`joseki.core.zone`) are local and written by the parity rule
(:class:`~joseki.core.steps.StepBuilder`), the others are "elsewhere". A path that ends with the
local side to move having played elsewhere ends with ``XX``: the book offers a tenuki there.

Each path is replayed on the whole board with captures (moves elsewhere can capture stones of
the corner): a move on an occupied point, or a suicide where the file's rules (``RU``) forbid
it, refuses the lines through it with a warning, and the rest of the file is read (but for
files written by ``joseki export``, see :func:`is_export`). Setup
stones (AB, AW, AE) are put on that board, but a move may replace a setup stone: the book
keeps setup stones as a condition of a move, shared by every line through it, so its own
export writes them on lines they never belonged to. A game
tree that is not Go (``GM`` other than 1), or a file beyond one of the limits of
:mod:`joseki.core.limits`, is refused whole (ValueError).

Setup stones (AB/AW/AE) inside a tree are kept as notes on the step they precede and flag
the variation (``setup``): the step string holds moves only, so such a variation is matched
by its moves, and the setup stones are shown as a condition it depends on.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path

from sgfmill import sgf_grammar

from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Point, Transform, nearest_corner
from joseki.core.limits import MAX_FILE_BYTES, MAX_LINE_MOVES, beyond
from joseki.core.notation import format_gtp_vertex
from joseki.core.position import IllegalMoveError, LocalBoard
from joseki.core.steps import Colour, StepBuilder
from joseki.core.zone import ZONE_BOARD_SIZE, in_zone
from joseki.sgf.properties import apply_setup, board_points, check_go, is_export, rules_allow_suicide
from joseki.sgf.sgfparse import parse_collection, valid
from joseki.sgf.text import SgfText, charset_of

NOTE_PROPERTIES = ("N", "BM", "TE", "DO", "IT", "GB", "GW", "UC", "DM", "HO",
                   "LB", "MA", "SQ", "TR", "CR", "AB", "AW", "AE", "JC", "JK", "JS", "JP")
"""Node properties kept along a path, besides the comment C (``J*``: this project's own, see
:mod:`joseki.book.export`)."""

SETUP_PROPERTIES = frozenset({"AB", "AW", "AE"})
GAME_INFO = ("GN", "DT", "C")
_NOTE_ORDER = {key: i for i, key in enumerate(NOTE_PROPERTIES)}
SHOWN_ILLEGAL = 20
"""Illegal moves of one file given a warning each; the others are counted in one more."""
SHOWN_PATH = 80
"""The longest tree path shown in a warning (a longer line is told by its moves)."""


@dataclass(frozen=True, slots=True)
class NodeNote:
    """What one SGF node says besides its move, attached to the step prefix after that node.

    ``step`` is the number of tokens of that prefix (0 = before the first move). ``moves``
    holds, for each move of the path up to this node (passes and moves elsewhere included,
    so ``len(moves)`` is the node's move number), the number of tokens after it; ``passes``
    the numbers of those moves that were passes (no stone, so a diagram numbers no stone for
    them); ``own`` is True when the node itself holds a move, ``setup`` when it holds setup stones.
    """

    step: int
    comment: str
    properties: tuple[tuple[str, tuple[str, ...]], ...]
    moves: tuple[int, ...] = ()
    own: bool = False
    setup: bool = False
    passes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Variation:
    """One root-to-leaf path of a joseki forest, flattened."""

    steps: str
    first_colour: Colour
    corner: Corner
    swap: bool
    game: int
    tree_path: str
    notes: tuple[NodeNote, ...]
    setup: bool


@dataclass(slots=True)
class Forest:
    """The flattened content of one SGF file."""

    source: str
    encoding: str
    preamble: str = ""
    game_info: dict[str, str] = field(default_factory=dict)
    """The first game tree's own name, date and comment (``GN``, ``DT``, ``C``), as text, where it has them."""
    nodes: int = 0
    variations: list[Variation] = field(default_factory=list)
    skipped: int = 0
    refused: int = 0
    """Lines refused for an illegal move (see :func:`flatten_bytes`)."""
    illegal: int = 0
    """Illegal moves found (each refuses every line through it)."""
    warnings: list[str] = field(default_factory=list)


def read_sgf_bytes(path: Path) -> bytes:
    """The bytes of an SGF file; BadInput for a missing, unreadable, empty or too big file.

    At most :data:`~joseki.core.limits.MAX_FILE_BYTES` are read (plus one, to tell), so a
    device such as ``/dev/zero`` or a huge file is refused without being read whole.
    """
    try:
        with path.open("rb") as handle:
            info = os.fstat(handle.fileno())
            regular = stat.S_ISREG(info.st_mode)
            if regular and info.st_size > MAX_FILE_BYTES:
                raise beyond("a file", MAX_FILE_BYTES, "bytes")
            # a file's own size, not the limit, bounds what read() takes (one byte more: a file that grew is read on)
            size = info.st_size + 1 if regular else MAX_FILE_BYTES + 1
            data = handle.read(size)
            if len(data) == size < MAX_FILE_BYTES + 1:
                data += handle.read(MAX_FILE_BYTES + 1 - size)
    except FileNotFoundError:
        raise BadInput("no such file") from None
    except IsADirectoryError:
        raise BadInput("is a directory") from None
    except OSError as exc:
        raise BadInput(f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise beyond("a file", MAX_FILE_BYTES, "bytes")
    if not data.strip():
        raise BadInput("empty file")
    return data


def _board_point(raw: bytes) -> tuple[int, int] | None:
    if len(raw) != 2:
        if raw.strip() == b"":
            return None
        raise BadInput(f"bad move {raw.decode('ascii', 'replace')!r}")
    x, y = raw[0] - 97, raw[1] - 97
    if x == 19 and y == 19:
        return None
    if not (0 <= x < 19 and 0 <= y < 19):
        raise BadInput(f"move {raw.decode('ascii', 'replace')!r} is off the 19x19 board")
    return (x, y)


def flatten_bytes(data: bytes, source: str = "<bytes>") -> Forest:
    """Flatten every game tree of SGF ``data``; BadInput for malformed SGF or a non-19x19 board.

    Lines with an illegal move are refused (counted in ``refused``, with a warning); a game
    tree that is not Go or a file beyond a limit raises ValueError.
    """
    games = valid(parse_collection, data)
    if not games:
        raise BadInput("no SGF game tree found")
    root_props = games[0].sequence[0]
    decoder = charset_of(data, root_props.get("CA", [b""])[0])
    start = data.find(b"(")
    preamble = decoder.decode(data[:start]).strip() if start > 0 else ""
    info = {key: decoder.text(root_props[key][0], key).strip() for key in GAME_INFO if key in root_props}
    forest = Forest(source=source, encoding=decoder.encoding, preamble=preamble, game_info=info,
                    warnings=list(decoder.warnings))
    for game_index, game in enumerate(games):
        check_go(game.sequence[0], f"game {game_index + 1}")
        size_raw = game.sequence[0].get("SZ", [b"19"])[0]
        try:
            size = int(size_raw.split(b":")[0])
        except ValueError:
            raise BadInput(f"bad board size SZ[{size_raw.decode('ascii', 'replace')}]") from None
        if size != ZONE_BOARD_SIZE:
            raise BadInput(f"board size {size}x{size}: joseki collections must be 19x19")
        _flatten_game(game, game_index, decoder, forest)
    if forest.illegal > SHOWN_ILLEGAL:
        forest.warnings.append(f"{forest.illegal - SHOWN_ILLEGAL} more illegal moves; {forest.refused} lines "
                               "refused in all")
    forest.warnings.extend(decoder.finish())
    return forest


def flatten_file(path: Path | str) -> Forest:
    """Flatten the SGF file at ``path``; BadInput (without the file name) for bad input."""
    path = Path(path)
    return flatten_bytes(read_sgf_bytes(path), str(path))


_UNSEEN: Point = (-1, -1)
"""A move not yet looked up in a frame's cache of zone points."""


def _local_point(raw: bytes, transform: Transform) -> Point | None:
    """The zone point of an SGF move in ``transform``'s zone; None for a pass or a move outside it."""
    point = _board_point(raw)
    zpoint = None if point is None else transform.to_zone(point, ZONE_BOARD_SIZE)
    return zpoint if zpoint is not None and in_zone(zpoint) else None


def _note(props: dict[str, list[bytes]], step: int, decoder: SgfText, moves: list[int],
          own: bool, passes: list[int]) -> NodeNote | None:
    comment = decoder.text(props["C"][0], "C").strip() if "C" in props else ""
    kept = tuple(
        (key, tuple(decoder.text(v, key) for v in props[key]))
        for key in sorted((k for k in props if k in _NOTE_ORDER), key=_NOTE_ORDER.__getitem__)
    )
    if not comment and not kept:
        return None
    return NodeNote(step, comment, kept, tuple(moves), own, not SETUP_PROPERTIES.isdisjoint(props), tuple(passes))


def _flatten_game(game: sgf_grammar.Coarse_game_tree, game_index: int, decoder: SgfText,
                  forest: Forest) -> None:
    """Walk one game tree depth first, replaying each path on the board, emitting a variation at each leaf."""
    Frame = tuple[sgf_grammar.Coarse_game_tree, int | None, StepBuilder, Transform | None,
                  dict[bytes, Point | None], list[str], list[NodeNote], bool, list[int], list[int], LocalBoard]
    stack: list[Frame] = [(game, None, StepBuilder(), None, {}, [], [], False, [], [], LocalBoard())]
    zones: dict[Transform, dict[bytes, Point | None]] = {}
    points: dict[bytes, Point | None] = {}
    suicide = rules_allow_suicide(game.sequence[0])
    checked = not is_export(game.sequence[0])
    nodes = 0
    while stack:
        tree, child_index, builder, transform, known, path, notes, setup, moves, passes, board = stack.pop()
        for position, props in enumerate(tree.sequence):
            nodes += 1
            if position:
                path.append("0")
            elif child_index is not None:
                path.append(str(child_index))
            colour: Colour | None = "b" if "B" in props else "w" if "W" in props else None
            has_setup = len(props) > (colour is not None) and not SETUP_PROPERTIES.isdisjoint(props)
            if has_setup:
                apply_setup(board.stones, board.size, props)
            if colour is not None:
                raw = props["B" if colour == "b" else "W"][0]
                point = points.get(raw, _UNSEEN)
                if point is _UNSEEN:
                    point = points[raw] = _board_point(raw)
                if point is not None and checked:
                    try:
                        if (setup or has_setup) and point in board.stones and _set_up(game, path, point):
                            del board.stones[point]  # a setup stone gives way to a move (see the module's doc)
                        board.play(colour, point, suicide=suicide)
                    except IllegalMoveError as exc:
                        below = _refuse(forest, game, game_index, tree, path, len(moves) + 1, colour, point,
                                        exc.reason)
                        nodes += below - position - 1  # the refused nodes still count as read
                        break
                if point is not None and transform is None:
                    transform = Transform(nearest_corner(point, ZONE_BOARD_SIZE))
                    known = zones.setdefault(transform, {})
                local = known.get(raw, _UNSEEN)
                if local is _UNSEEN:
                    local = known[raw] = None if transform is None else _local_point(raw, transform)
                if local is None:
                    builder.elsewhere(colour)
                else:
                    builder.local(colour, local)
                moves.append(len(builder.tokens) + builder.pending_tenuki())
                if len(moves) > MAX_LINE_MOVES:
                    raise beyond(f"game {game_index + 1}: a line", MAX_LINE_MOVES, "moves")
                if point is None:
                    passes.append(len(moves))
            if len(props) > (colour is not None):
                if has_setup:
                    setup = True
                note = _note(props, len(builder.tokens) + builder.pending_tenuki(), decoder, moves,
                             colour is not None, passes)
                if note is not None:
                    notes.append(note)
        else:
            children = tree.children
            if not children:
                _emit(forest, builder, transform, game_index, path, notes, setup)
                continue
            for index in range(len(children) - 1, -1, -1):
                if index == 0:
                    stack.append((children[0], 0, builder, transform, known, path, notes, setup, moves, passes,
                                  board))
                else:
                    stack.append((children[index], index, builder.copy(), transform, known, list(path),
                                  list(notes), setup, list(moves), list(passes), board.copy()))
    forest.nodes += nodes


def _size(tree: sgf_grammar.Coarse_game_tree) -> tuple[int, int]:
    """The number of root-to-leaf paths of ``tree``, and of its nodes."""
    leaves, nodes, stack = 0, 0, [tree]
    while stack:
        top = stack.pop()
        leaves += not top.children
        nodes += len(top.sequence)
        stack.extend(top.children)
    return leaves, nodes


def _refuse(forest: Forest, game: sgf_grammar.Coarse_game_tree, game_index: int,
            tree: sgf_grammar.Coarse_game_tree, path: list[str], number: int, colour: Colour, point: Point,
            reason: str) -> int:
    """Count the lines through an illegal move as refused, with a warning naming its place and the move.

    Returns the number of nodes of ``tree``, the subtree that holds the move.
    """
    lines, nodes = _size(tree)
    forest.refused += lines
    forest.illegal += 1
    if forest.illegal > SHOWN_ILLEGAL:
        return nodes
    where = ".".join(path) or "root"
    where = f", tree path {where}" if len(where) <= SHOWN_PATH else ""
    line = _moves_along(game, path)[:-1]
    before = ("... " if len(line) > 8 else "") + " ".join(line[-8:])
    forest.warnings.append(
        f"game {game_index + 1}{where}: move {number} ({'B' if colour == 'b' else 'W'} "
        f"{format_gtp_vertex(point)}) {reason}{f' after {before}' if line else ''}; "
        f"{lines} line{'s' if lines != 1 else ''} refused")
    return nodes


def _set_up(game: sgf_grammar.Coarse_game_tree, path: list[str], point: Point) -> bool:
    """Whether the stone at ``point``, at the node at tree path ``path``, was put there by setup (AB, AW)."""
    by_setup = False
    nodes = _nodes_along(game, path)
    for index, props in enumerate(nodes):
        if any(point in board_points(v) for key in ("AB", "AW") for v in props.get(key, ())):
            by_setup = True
        if index < len(nodes) - 1 and any(_board_point(props[k][0]) == point for k in ("B", "W") if k in props):
            by_setup = False  # a played stone (the last node's own move is the one asking)
    return by_setup


def _nodes_along(game: sgf_grammar.Coarse_game_tree, path: list[str]) -> list[dict[str, list[bytes]]]:
    """The nodes from the root to the node at tree path ``path``."""
    tree, position, nodes = game, 0, []
    for step in [None, *path]:
        if step is not None:
            if position + 1 < len(tree.sequence):
                position += 1
            else:
                tree, position = tree.children[int(step)], 0
        nodes.append(tree.sequence[position])
    return nodes


def _moves_along(game: sgf_grammar.Coarse_game_tree, path: list[str]) -> list[str]:
    """The moves (``B Q16``) from the root to the node at tree path ``path``."""
    shown = []
    for props in _nodes_along(game, path):
        for key, name in (("B", "B"), ("W", "W")):
            if key in props:
                point = _board_point(props[key][0])
                shown.append(f"{name} {format_gtp_vertex(point)}")
    return shown


def _emit(forest: Forest, builder: StepBuilder, transform: Transform | None, game_index: int,
          path: list[str], notes: list[NodeNote], setup: bool) -> None:
    steps = builder.steps_to_move()
    if not steps or transform is None or builder.first_colour is None:
        forest.skipped += 1
        return
    length = len(steps) // 2
    kept = tuple(n if n.step <= length else replace(n, step=length) for n in notes)
    forest.variations.append(Variation(
        steps=steps, first_colour=builder.first_colour, corner=transform.corner,
        swap=bool(builder.swap), game=game_index, tree_path=".".join(path), notes=kept,
        setup=setup))
