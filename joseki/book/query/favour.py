"""Favourability: the influence model's verdict on the end of a variation, for the first and the second player.

A record's step string is replayed (:func:`joseki.core.position.replay`) into its corner's zone
frame, which is a board frame with the corner at the top left. :func:`joseki.core.influence.assess`
measures the zone (the points of :func:`joseki.core.zone.in_zone`) with the forces of all its
stones, and :func:`joseki.core.influence.favourability` turns each player's area, stones and
influence into a score in [-1, 1]. Like step strings, the result is colour-blind: ``first``
is the player of the first local move, whatever its colour.

The verdict is stored per variation once computed (:func:`fill`); a move offered by
``next`` is judged by its main line (:func:`main_line`): from the move on, the continuation
most variations take, down to the end of a record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from joseki.book.query.lookup import Lookup
from joseki.book.query.memo import MISSING
from joseki.book.store.bookfile import ReadConnection, rows
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.influence import assess, favourability
from joseki.core.position import replay
from joseki.core.zone import ZONE_BOARD_SIZE, in_zone

ZONE_POINTS = tuple((col, row) for col in range(ZONE_BOARD_SIZE) for row in range(ZONE_BOARD_SIZE)
                    if in_zone((col, row)))
COLUMNS = ("area_first", "area_second", "influence_first", "influence_second", "favour_first", "favour_second")
STORED = f"""
SELECT steps, {", ".join(COLUMNS)} FROM variation
WHERE steps IN (:lines) AND favour_first IS NOT NULL AND collection_id IN ({{collections}}) ORDER BY id"""
"""The stored verdicts of some records; the records' index is (collection_id, steps), so the collections are
named, all of them if need be."""
CHILD_PATHS = """
SELECT n.parent_id, n.steps, sum(nb.paths) FROM node AS n JOIN node_book AS nb ON nb.node_id = n.id
WHERE n.parent_id IN (:parents) {books} GROUP BY n.id, n.parent_id, n.steps"""
"""How many variations of the selected collections pass through each child of some nodes."""
MAIN_LINES = """
WITH RECURSIVE line(start, node, steps, depth) AS (
    SELECT n.id, n.id, n.steps, 0 FROM node AS n WHERE n.id IN (:starts)
    UNION ALL
    SELECT line.start, n.id, n.steps, line.depth + 1 FROM line JOIN node AS n ON n.id = (
        SELECT c.id FROM node AS c JOIN node_book AS nb ON nb.node_id = c.id {books}
        WHERE c.parent_id = line.node GROUP BY c.id, c.steps ORDER BY sum(nb.paths) DESC, c.steps LIMIT 1))
SELECT start, steps, depth FROM line"""
"""Each start node's main line, node by node down to its end (its main child: that of :data:`CHILD_PATHS` with the
most variations, then the first in step order), with each node's depth below its start."""

if TYPE_CHECKING:
    from joseki.book.store.database import Store

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Favour:
    """Each player's area and influence in the zone at the end of a line, and the favourability for each."""

    area_first: int
    area_second: int
    influence_first: int
    influence_second: int
    first: float
    second: float

    def row(self) -> tuple[int, int, int, int, float, float]:
        """The values in :data:`COLUMNS` order."""
        return (self.area_first, self.area_second, self.influence_first, self.influence_second, self.first,
                self.second)

    def as_json(self) -> dict[str, object]:
        return {"first": round(self.first, 4), "second": round(self.second, 4),
                "area": [self.area_first, self.area_second], "influence": [self.influence_first,
                                                                          self.influence_second]}


@lru_cache(maxsize=4096)
def measure(steps: str) -> Favour:
    """The influence model's verdict on the zone after the canonical step string ``steps``."""
    board, _ = replay(steps, "b")
    a = assess(board.stones, ZONE_POINTS, ZONE_BOARD_SIZE)
    first, second = favourability(a, "b")
    return Favour(a.black_area, a.white_area, a.black_influence, a.white_influence, first, second)


def stored(conn: ReadConnection, lines: Sequence[str],
           collection_ids: Sequence[int] | None = None) -> dict[str, Favour]:
    """The stored verdicts of those of the records ``lines`` (in any of ``collection_ids``) that have one."""
    params: dict[str, object] = {"lines": sorted(set(lines))}
    if collection_ids is not None:
        params["collections"] = list(collection_ids)
    query = STORED.format(collections=":collections" if collection_ids is not None else "SELECT id FROM collection")
    found: dict[str, Favour] = {}
    for steps, *values in rows(conn, query, params):
        found.setdefault(steps, Favour(*values))
    return found


def verdicts(lookup: Lookup, lines: Sequence[str]) -> dict[str, Favour]:
    """Each line's stored verdict (read in one query), else one measured now; each remembered for the lookup."""
    return _each(lookup, "favour", lines, lambda todo: _verdicts(lookup, todo))


def _verdicts(lookup: Lookup, lines: Sequence[str]) -> dict[str, Favour]:
    read = stored(lookup.conn, lines, lookup.collection_ids)
    return {line: read.get(line) or measure(line) for line in lines}


def _each(lookup: Lookup, kind: str, items: Sequence[str],
          compute: Callable[[list[str]], dict[str, V]]) -> dict[str, V]:
    """Each item's answer: those the lookup remembers under ``kind``, the others computed in one call of
    ``compute`` and remembered."""
    known = {item: lookup.recall((kind, item)) for item in items}
    todo = [item for item, found in known.items() if found is MISSING]
    if todo:
        for item, value in compute(todo).items():
            known[item] = value
            lookup.remember((kind, item), value)
    return {item: known[item] for item in items}


def verdict(lookup: Lookup, steps: str) -> Favour:
    """The stored verdict of ``steps``, else one measured now."""
    return verdicts(lookup, [steps])[steps]


def main_lines(lookup: Lookup, starts: Sequence[str]) -> dict[str, str]:
    """Each start's main line: from it on, the continuation most variations of the lookup's collections take
    (ties to the first in step order), down to a record's end; each remembered for the lookup."""
    return _each(lookup, "end", starts, lambda todo: _main_lines(lookup, todo))


def _main_lines(lookup: Lookup, starts: Sequence[str]) -> dict[str, str]:
    """:func:`main_lines` of ``starts``: one query walks every start's line (:data:`MAIN_LINES`); the empty start
    first takes its main child."""
    firsts = main_children(lookup, [ROOT_ID]) if "" in starts else {}
    begun = {start: firsts.get(ROOT_ID, "") if start == "" else start for start in starts}
    ends = dict(begun)
    walked = [node_id(line) for line in set(begun.values()) if line]
    if walked:
        books, restriction = lookup.books()
        deepest: dict[int, tuple[int, str]] = {}
        for start, steps, depth in rows(lookup.conn, MAIN_LINES.format(books=books),
                                        {**restriction, "starts": walked}):
            if start not in deepest or depth > deepest[start][0]:
                deepest[start] = (int(depth), str(steps))
        for start, line in begun.items():
            if line and node_id(line) in deepest:
                ends[start] = deepest[node_id(line)][1]
    return ends


def main_children(lookup: Lookup, parents: list[int]) -> dict[int, str]:
    """The main child (most variations of the lookup's collections, then the first in step order) of each of
    ``parents`` (node ids) that has one, in one query."""
    books, restriction = lookup.books()
    best: dict[int, tuple[int, str]] = {}
    for parent, steps, paths in rows(lookup.conn, CHILD_PATHS.format(books=books), {**restriction, "parents": parents}):
        key = (-int(paths), str(steps))
        if parent not in best or key < best[parent]:
            best[parent] = key
    return {parent: steps for parent, (_, steps) in best.items()}


def main_line(lookup: Lookup, steps: str) -> str:
    """From ``steps`` on, the continuation most variations of the lookup's collections take, to a record's end."""
    return main_lines(lookup, [steps])[steps]


def fill(store: Store, collections: list[str] | None = None,
         progress: Callable[[int, int], None] | None = None) -> int:
    """Compute and store the verdict of every variation that lacks one; returns how many were computed."""
    from sqlalchemy import bindparam, select, update

    from joseki.book.store.database import batched

    var, col = store.tables["variation"], store.tables["collection"]
    query = select(var.c.id, var.c.steps).where(var.c.favour_first.is_(None))
    if collections:
        query = query.join(col, col.c.id == var.c.collection_id).where(col.c.name.in_(collections))
    with store.read() as conn:
        todo = list(conn.execute(query.order_by(var.c.id)))
    done = 0
    measured: dict[str, Favour] = {}
    for chunk in batched(todo, 2000):
        values = []
        for vid, steps in chunk:
            if steps not in measured:
                measured[steps] = measure(steps)
            values.append({"k_id": vid, **{f"k_{name}": v for name, v in zip(COLUMNS, measured[steps].row(),
                                                                              strict=True)}})
        with store.write() as conn:
            conn.execute(update(var).where(var.c.id == bindparam("k_id"))
                         .values({name: bindparam(f"k_{name}") for name in COLUMNS}), values)
        done += len(chunk)
        if progress is not None:
            progress(done, len(todo))
    return done
