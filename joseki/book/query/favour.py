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
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from joseki.book.store.database import Store


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
    """Each line's stored verdict, else one measured now; remembered in the lookup's memory, the rest read in
    one query."""
    memo, found = lookup.memo, {}
    todo = list(lines)
    if memo is not None:
        todo = []
        for line in lines:
            known = memo.get(("favour", lookup.books_key, line))
            if known is MISSING:
                todo.append(line)
            else:
                found[line] = known
    if todo:
        read = stored(lookup.conn, todo, lookup.collection_ids)
        for line in todo:
            found[line] = read.get(line) or measure(line)
            if memo is not None:
                memo.put(("favour", lookup.books_key, line), found[line], lookup.epoch)
    return {line: found[line] for line in lines}


def verdict(lookup: Lookup, steps: str) -> Favour:
    """The stored verdict of ``steps``, else one measured now."""
    return verdicts(lookup, [steps])[steps]


def main_lines(lookup: Lookup, starts: Sequence[str]) -> dict[str, str]:
    """Each start's main line: from it on, the continuation most variations of the lookup's collections take
    (ties to the first in step order), down to a record's end. One query a depth serves all the starts; with a
    memory, the end is kept for every node walked through (a node's main line is its main child's), so a start
    on a line walked before is answered at once."""
    memo, books = lookup.memo, lookup.books_key
    current = {start: start for start in starts}
    walked: dict[str, list[int]] = {start: [] for start in current}
    ends: dict[str, str] = {}
    active = set(current)
    while active:
        at: dict[int, list[str]] = {}
        for start in active:
            at.setdefault(node_id(current[start]) if current[start] else ROOT_ID, []).append(start)
        if memo is not None:
            for parent in list(at):
                known = memo.get(("end", books, parent))
                if known is not MISSING:
                    ends.update(dict.fromkeys(at.pop(parent), known))
        best = main_children(lookup, list(at)) if at else {}
        active = set()
        for parent, there in at.items():
            for start in there:
                walked[start].append(parent)
                if parent in best:
                    current[start] = best[parent]
                    active.add(start)
                else:
                    ends[start] = current[start]
    if memo is not None:
        for start, path in walked.items():
            for parent in path:
                memo.put(("end", books, parent), ends[start], lookup.epoch)
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
