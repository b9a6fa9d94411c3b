"""Reading SGF fast: sgfmill's coarse game trees, built a node at a time.

sgfmill's grammar (:mod:`sgfmill.sgf_grammar`) reads a token at a time; a joseki dictionary
has some 60,000 nodes and 260,000 tokens, a game record a few hundred nodes.
:func:`parse_collection` and :func:`parse_game` match a whole node (its ``;`` and every
property with its values), or a run of nodes that are a move each, with one regular expression and build the same
:class:`~sgfmill.sgf_grammar.Coarse_game_tree` objects as sgfmill's ``parse_sgf_collection``
and ``parse_sgf_game``. They read well-formed SGF only: at the first thing they do not
expect, the whole input is read again by sgfmill, so malformed data gets sgfmill's own
result or error message. :func:`plain_game` reads the commonest game record, a root node and then
nodes that are one move each, with one match and no tree at all.

Both paths keep to the limits of :mod:`joseki.core.limits` (nodes per file):
the fast one counts as it goes; sgfmill, which first makes a list of every token, is only
given data whose ``;`` count (an upper bound on its nodes) is within the limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from sgfmill import sgf_grammar

from joseki.core.errors import BadInput
from joseki.core.limits import MAX_NODES, LimitError, beyond

T = TypeVar("T")

_VALUE = rb"\[[^\\\]]*(?:\\.[^\\\]]*)*\]"
_START = re.compile(rb"\(\s*;")
_PLAIN = rb";[BW]\[[A-Za-z]{0,2}\]\s*"
"""A node that is one move and nothing else (most of a game record's)."""
_TOKEN = re.compile(rb"\s*(?:([()])|((?:" + _PLAIN + rb"){1,1000})(?=[;()])|;((?:\s*[A-Za-z]{1,64}\s*(?:" + _VALUE
                    + rb"\s*)+)*)|(.))", re.DOTALL)
"""A delimiter, a run of :data:`_PLAIN` nodes (up to 1000, so the node limit is checked on the way), a node's
properties after its ``;``, or anything else (which ends the fast path)."""
_MOVES = re.compile(rb";([BW])\[([A-Za-z]{0,2})\]")
"""Each move of a run of :data:`_PLAIN` nodes."""
_VALUES = re.compile(rb"([A-Za-z]{0,64})\s*\[([^\\\]]*(?:\\.[^\\\]]*)*)\]", re.DOTALL)
"""Each value of a node's properties, with its property's identifier before the first one."""
_PLAIN_GAME = re.compile(rb"\(\s*;((?>(?:\s*[A-Za-z]{1,64}\s*(?:" + _VALUE + rb"\s*)+)*))\s*((?:" + _PLAIN
                         + rb")*+)\)", re.DOTALL)
"""A game tree that is a root node then :data:`_PLAIN` nodes only: the root's properties, then the moves. Neither
part is matched again another way when what follows fails (an atomic group, a possessive repeat): the whitespace
between properties could otherwise be shared out in exponentially many ways."""
_PLAIN_MOVE = re.compile(rb"[BW]\[[A-Za-z]{0,2}")
"""Each move of a run of :data:`_PLAIN` nodes, as its colour, ``[`` and value."""
_LOWER = bytes(range(ord("a"), ord("z") + 1))
_NAMES = {b"B": "B", b"W": "W"}


class _Irregular(Exception):
    """Something the fast path leaves to sgfmill."""


def valid(read: Callable[[bytes], T], data: bytes) -> T:
    """``read(data)`` (:func:`parse_game` or :func:`parse_collection`) for a file's content: BadInput ``not valid
    SGF: ...`` if the data is malformed (a LimitError as it is)."""
    try:
        return read(data)
    except LimitError:
        raise
    except ValueError as exc:
        raise BadInput(f"not valid SGF: {exc}") from None


def parse_collection(data: bytes) -> list[sgf_grammar.Coarse_game_tree]:
    """The game trees of SGF ``data``, as :func:`sgfmill.sgf_grammar.parse_sgf_collection` gives them.

    BadInput (sgfmill's) for malformed data or when no game is found.
    """
    games: list[sgf_grammar.Coarse_game_tree] = []
    position = 0
    budget = [MAX_NODES]
    try:
        while (start := _START.search(data, position)) is not None:
            game, position = _parse_game(data, start.start(), budget)
            games.append(game)
    except _Irregular:
        return _sgfmill(data)
    return games or _sgfmill(data)


def parse_game(data: bytes) -> sgf_grammar.Coarse_game_tree:
    """The first game tree of SGF ``data``, as :func:`sgfmill.sgf_grammar.parse_sgf_game` gives it.

    BadInput (sgfmill's) for malformed data or when no game is found.
    """
    start = _START.search(data)
    if start is not None:
        try:
            return _parse_game(data, start.start(), [MAX_NODES])[0]
        except _Irregular:
            pass
    _check_nodes(data)
    game: sgf_grammar.Coarse_game_tree = sgf_grammar.parse_sgf_game(data)
    return game


def plain_game(data: bytes) -> tuple[dict[str, list[bytes]], list[bytes]] | None:
    """The root's properties and the moves (``B[pd``: colour, ``[`` and value) of SGF ``data`` whose first game tree
    is a root node that plays no move, then nodes that are one move and nothing else (most game records); None for
    any other data. Both are what :func:`parse_game` reads of such data, without making a node a move.

    LimitError for more nodes than :data:`~joseki.core.limits.MAX_NODES`.
    """
    start = _START.search(data)
    if start is None or (match := _PLAIN_GAME.match(data, start.start())) is None:
        return None
    block, plain = match.groups()
    root = _properties(block)
    if "B" in root or "W" in root:
        return None
    moves = _PLAIN_MOVE.findall(plain)
    if len(moves) + 1 > MAX_NODES:
        raise beyond("a file", MAX_NODES, "nodes")
    return root, moves


def _properties(block: bytes) -> dict[str, list[bytes]]:
    """A node's properties, from the text after its ``;``."""
    node: dict[str, list[bytes]] = {}
    values: list[bytes] = []
    for ident, value in _VALUES.findall(block):
        if ident:
            name = (ident if ident.isupper() else ident.translate(None, _LOWER)).decode("ascii")
            values = node.setdefault(name, [])
        values.append(value)
    return node


def _sgfmill(data: bytes) -> list[sgf_grammar.Coarse_game_tree]:
    _check_nodes(data)
    games: list[sgf_grammar.Coarse_game_tree] = sgf_grammar.parse_sgf_collection(data)
    return games


def _check_nodes(data: bytes) -> None:
    """LimitError before sgfmill reads ``data`` if it may hold more nodes than the limit (sgfmill keeps every token)."""
    if data.count(b";") > MAX_NODES:
        raise beyond("a file", MAX_NODES, "nodes")


def _parse_game(data: bytes, start: int, budget: list[int]) -> tuple[sgf_grammar.Coarse_game_tree, int]:
    """The game tree opening at ``start``, and the position after its closing parenthesis.

    ``budget`` holds how many more nodes the file may have; LimitError beyond it.
    """
    Tree = sgf_grammar.Coarse_game_tree
    moves_of = _MOVES.findall
    stack: list[sgf_grammar.Coarse_game_tree | None] = []
    tree: sgf_grammar.Coarse_game_tree | None = None
    sequence: list[dict[str, list[bytes]]] | None = None
    for match in _TOKEN.finditer(data, start):
        delimiter, plain, block, other = match.groups()
        if plain is not None:
            if sequence is None:
                raise _Irregular
            found = len(sequence)
            sequence += [{_NAMES[ident]: [value]} for ident, value in moves_of(plain)]
            budget[0] -= len(sequence) - found
            if budget[0] < 0:
                raise beyond("a file", MAX_NODES, "nodes")
            continue
        if block is not None:
            if sequence is None:
                raise _Irregular
            sequence.append(_properties(block))
            budget[0] -= 1
            if budget[0] < 0:
                raise beyond("a file", MAX_NODES, "nodes")
            continue
        if other is not None:
            raise _Irregular
        if sequence is not None:
            if not sequence:
                raise _Irregular
            assert tree is not None
            tree.sequence = sequence
            sequence = None
        if delimiter == b"(":
            stack.append(tree)
            tree = Tree()
            sequence = []
        else:
            assert tree is not None
            finished, tree = tree, stack.pop()
            if tree is None:
                return finished, match.end()
            tree.children.append(finished)
    raise _Irregular
