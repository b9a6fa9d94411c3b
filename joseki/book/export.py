"""``joseki export``: the store as an SGF forest, with what the book knows about each move.

Each collection becomes one game tree (``GN`` its name), laid out in the upper-right corner
with Black first, in the records' canonical frame, its variations in the order the records
were stored (so an SGF main line stays first). Each move carries:

- ``C``: the collections' comments, as imported;
- its category as an SGF move annotation (``TE[2]`` ideal, ``TE[1]`` good, ``DO``
  question, ``IT`` trick, ``BM[1]`` mistake; tenuki-ok has none) and as ``JC[category]``;
- its conditions as ``JK[kind: text]``;
- its statistics (global profile, for the player who chose the move) as
  ``JS[games,wins,losses,draws]``, and a source's prior statistics as ``JP[games,wins]``;
- the markup it was imported with (labels, marks), moved into the export's frame.

A tenuki (``XX``) is a pass by the player whose turn it is; a record's setup stones are a node of
their own (``AB``/``AW``/``AE``) before the first move played with them, and what the collection says
of the moves after them is that position's (``setup_book``); a record that ends where another goes
on gets an empty leaf node. So importing the file gives back the same records
(:func:`joseki.sgf.booknotes.book_notes` reads the ``J*`` properties exactly).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, select

from joseki import __version__
from joseki.book.learnt.profiles import records_for
from joseki.book.store.database import Store, batched
from joseki.book.store.keys import node_id
from joseki.core.conditions import Condition, from_json, setup_points, sgf_points
from joseki.core.errors import BadInput
from joseki.core.geometry import Corner, Transform
from joseki.core.notation import TENUKI, format_sgf_point
from joseki.core.priority import Record
from joseki.sgf.output import check_output, write_output
from joseki.sgf.setups import Placement, parse_stones, position, stored_stones

EXPORT_FRAME = Transform(Corner.TOP_RIGHT)
CATEGORY_MARKS = {"ideal": ("TE", "2"), "good": ("TE", "1"), "question": ("DO", ""), "trick": ("IT", ""),
                  "mistake": ("BM", "1")}
MARKUP = ("N", "GB", "GW", "UC", "DM", "HO", "LB", "MA", "SQ", "TR", "CR")
"""Imported properties written back; the point-valued ones are moved into the export's frame."""
POINT_MARKUP = frozenset({"LB", "MA", "SQ", "TR", "CR"})
EXPORT_MARK = "joseki export"


@dataclass(slots=True)
class _Node:
    category: str | None = None
    comment: str | None = None
    conditions: list[Condition] = field(default_factory=list)
    prior_games: int = 0
    prior_wins: int = 0
    properties: dict[str, list[str]] = field(default_factory=dict)
    record: Record | None = None


@dataclass(slots=True)
class ExportReport:
    """What :func:`export` wrote."""

    path: str
    collections: list[str] = field(default_factory=list)
    records: int = 0
    nodes: int = 0


def export(store: Store, output: Path | str, collection: str | None = None) -> ExportReport:
    """Write the store (or one collection) to ``output`` as an SGF forest; BadInput for bad input."""
    path = Path(output)
    check_output(path)
    report = ExportReport(str(path))
    trees: list[str] = []
    with store.read() as conn:
        c = store.tables["collection"]
        query = select(c.c.id, c.c.name).order_by(c.c.id)
        if collection is not None:
            query = query.where(c.c.name == collection)
        chosen = list(conn.execute(query))
        if collection is not None and not chosen:
            raise BadInput(f"no collection named {collection!r}")
        if not chosen:
            raise BadInput("the store holds no collection to export")
        for cid, name in chosen:
            text, records, nodes = _tree(conn, store, cid, str(name))
            trees.append(text)
            report.collections.append(str(name))
            report.records += records
            report.nodes += nodes
    write_output(path, "\n".join(trees) + "\n")
    return report


Key = tuple[str, str]
"""A node of the exported tree: the setup stones put down so far (as stored) and the moves so far;
a node that puts setup stones down has ``+`` after its moves."""


def _tree(conn: Connection, store: Store, collection_id: int, name: str) -> tuple[str, int, int]:
    """One collection as an SGF game tree; returns the text, its records and its moves."""
    var = store.tables["variation"]
    rows = list(conn.execute(select(var.c.steps, var.c.corner, var.c.swapped, var.c.setup_stones)
                             .where(var.c.collection_id == collection_id).order_by(var.c.id)))
    root: Key = ("", "")
    children: dict[Key, list[Key]] = {root: []}
    frames: dict[Key, Transform] = {}
    stones: dict[Key, tuple[Placement, ...]] = {}
    ends = set()
    for steps, corner, swapped, setup_stones in rows:
        frame = Transform(Corner(corner), bool(swapped))
        placed = parse_stones(setup_stones)
        parent = root
        for end in range(2, len(steps) + 1, 2):
            down = tuple(p for p in placed if p.start <= end // 2)
            here = tuple(p for p in down if p.start == end // 2)
            if here:
                parent = _child(children, parent, (stored_stones(down, steps), steps[: end - 2] + "+"))
                stones[parent] = here
            parent = _child(children, parent, (stored_stones(down, steps), steps[:end]))
            frames.setdefault(parent, frame)
        ends.add(parent)
    nodes = _nodes(conn, store, collection_id, [k[1] for k in children if k[1] and not k[0]])
    root_text = (f"(;GM[1]FF[4]CA[UTF-8]SZ[19]AP[joseki:{__version__}]GN[{_escape(name)}]"
                 f"C[{_escape(f'{EXPORT_MARK} of collection {name}: {len(rows)} records')}]")
    out = [root_text]
    moves = 0

    def text(key: Key) -> str:
        nonlocal moves
        if key in stones:
            return _setup_text(stones[key])
        moves += 1
        setup = position(parse_stones(key[0]), len(key[1]) // 2)
        return _node_text(key[1], nodes.get((setup, key[1])), frames.get(key))

    tasks: list[tuple[bool, str | Key]] = [(False, root)]
    while tasks:
        is_text, value = tasks.pop()
        if is_text:
            assert isinstance(value, str)
            out.append(value)
            continue
        assert isinstance(value, tuple)
        kids = children[value]
        branches: list[Key | None] = [*([None] if value in ends and kids else []), *kids]
        if len(branches) == 1:
            only = branches[0]
            assert only is not None
            out.append(text(only))
            tasks.append((False, only))
            continue
        for kid in reversed(branches):
            tasks.append((True, ")"))
            if kid is not None:
                tasks.append((False, kid))
            tasks.append((True, "(" + (text(kid) if kid is not None else ";")))
    out.append(")")
    return "".join(out), len(rows), moves


def _child(children: dict[Key, list[Key]], parent: Key, key: Key) -> Key:
    if key not in children:
        children[key] = []
        children[parent].append(key)
    return key


def _setup_text(placed: tuple[Placement, ...]) -> str:
    """The SGF node putting down setup stones (AB, AW, AE), in the export's frame."""
    parts = [";"]
    for p in placed:
        for key, zpoints in setup_points(p.stones).items():
            parts.append(key + "".join(f"[{format_sgf_point(EXPORT_FRAME.to_board(z, 19))}]" for z in zpoints))
    return "".join(parts)


def _nodes(conn: Connection, store: Store, collection_id: int, prefixes: list[str]) -> dict[tuple[str, str], _Node]:
    """What the collection says about each of its moves (by setup stones and prefix), and the moves' global
    statistics (those without setup stones)."""
    n, nb, sb = store.tables["node"], store.tables["node_book"], store.tables["setup_book"]
    found: dict[tuple[str, str], _Node] = {}
    query = (select(n.c.steps, nb.c.category, nb.c.comment, nb.c.conditions, nb.c.prior_games, nb.c.prior_wins,
                    nb.c.properties)
             .join(nb, nb.c.node_id == n.c.id).where(nb.c.collection_id == collection_id))
    for steps, category, comment, conditions, prior_games, prior_wins, properties in conn.execute(query):
        found[("", str(steps))] = _Node(category, comment, from_json(conditions), prior_games or 0, prior_wins or 0,
                                        json.loads(properties) if properties else {})
    query = (select(sb.c.setup, n.c.steps, sb.c.category, sb.c.comment, sb.c.conditions, sb.c.prior_games,
                    sb.c.prior_wins, sb.c.properties)
             .join(sb, sb.c.node_id == n.c.id).where(sb.c.collection_id == collection_id))
    for row in conn.execute(query):
        values: tuple[Any, ...] = tuple(row)
        stones, steps, category, comment, conditions, prior_games, prior_wins, properties = values
        found[(str(stones), str(steps))] = _Node(category, comment, from_json(conditions), prior_games or 0,
                                                 prior_wins or 0, json.loads(properties) if properties else {})
    ids = {node_id(p): p for p in prefixes}
    for chunk in batched(list(ids)):
        for nid, record in records_for(conn, list(chunk), None).items():
            found.setdefault(("", ids[nid]), _Node()).record = record
    return found


def _node_text(prefix: str, node: _Node | None, frame: Transform | None) -> str:
    """The SGF node of the last move of ``prefix``, with its notes."""
    index = len(prefix) // 2 - 1
    token = prefix[-2:]
    colour = "B" if index % 2 == 0 else "W"
    point = "" if token == TENUKI else format_sgf_point(EXPORT_FRAME.to_board((ord(token[0]) - 65,
                                                                              ord(token[1]) - 65), 19))
    parts = [f";{colour}[{point}]"]
    if node is None:
        return parts[0]
    if node.category is not None:
        key, value = CATEGORY_MARKS.get(node.category, ("", ""))
        if key:
            parts.append(f"{key}[{value}]")
        parts.append(f"JC[{node.category}]")
    if node.conditions:
        parts.append("JK" + "".join(f"[{_escape(str(c))}]" for c in node.conditions))
    if node.record is not None and node.record.games:
        r = node.record
        parts.append(f"JS[{r.games},{r.wins},{r.losses},{r.draws}]")
    if node.prior_games:
        parts.append(f"JP[{node.prior_games},{node.prior_wins}]")
    for key in MARKUP:
        values = list(dict.fromkeys(m for v in node.properties.get(key, ()) for m in _moved(key, v, frame)))
        if values:
            parts.append(key + "".join(f"[{_escape(v)}]" for v in values))
    if node.comment:
        parts.append(f"C[{_escape(node.comment)}]")
    return "".join(parts)


def _moved(key: str, value: str, frame: Transform | None) -> list[str]:
    """A markup value moved from the source's frame into the export's (rectangles as points); [] if unreadable."""
    if key not in POINT_MARKUP:
        return [value]
    if frame is None:
        return []
    point, _, label = value.partition(":") if key == "LB" else (value, "", "")
    try:
        points = sgf_points(point)
    except ValueError:
        return []
    moved = [format_sgf_point(EXPORT_FRAME.to_board(frame.to_zone(p, 19), 19)) for p in points]
    return [f"{m}:{label}" for m in moved] if key == "LB" else moved


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")
