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

from sqlalchemy import Connection, bindparam, select, text, update

from joseki.book.lookup import Lookup
from joseki.book.store import ROOT_ID, Store, batched, node_id
from joseki.core.influence import assess, favourability
from joseki.core.position import replay
from joseki.core.zone import ZONE_BOARD_SIZE, in_zone

ZONE_POINTS = tuple((col, row) for col in range(ZONE_BOARD_SIZE) for row in range(ZONE_BOARD_SIZE)
                    if in_zone((col, row)))
COLUMNS = ("area_first", "area_second", "influence_first", "influence_second", "favour_first", "favour_second")


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


def stored(conn: Connection, store: Store, steps: str, collection_ids: Sequence[int] | None = None) -> Favour | None:
    """The stored verdict of the record ``steps`` (in any of ``collection_ids``), if it has one."""
    var = store.tables["variation"]
    query = select(*(var.c[name] for name in COLUMNS)).where(var.c.steps == steps, var.c.favour_first.is_not(None))
    # the records' index is (collection_id, steps): naming the collections, all of them if need be, uses it
    ids = list(collection_ids) if collection_ids is not None else select(store.tables["collection"].c.id)
    query = query.where(var.c.collection_id.in_(ids))
    row = conn.execute(query.limit(1)).first()
    return None if row is None else Favour(*row)


def verdict(conn: Connection, store: Store, steps: str, collection_ids: Sequence[int] | None = None) -> Favour:
    """The stored verdict of ``steps``, else one measured now."""
    return stored(conn, store, steps, collection_ids) or measure(steps)


_MAIN_LINE = """WITH RECURSIVE line(id, steps, depth) AS (
  SELECT :start, :steps, 0
  UNION ALL
  SELECT n.id, n.steps, line.depth + 1 FROM line JOIN {node} n ON n.id = (
    SELECT c.id FROM {node} c JOIN {node_book} nb ON nb.node_id = c.id
    WHERE c.parent_id = line.id{only}
    GROUP BY c.id, c.steps ORDER BY SUM(nb.paths) DESC, c.steps LIMIT 1))
SELECT steps FROM line ORDER BY depth DESC LIMIT 1"""


def main_line(lookup: Lookup, steps: str) -> str:
    """From ``steps`` on, the continuation most variations of the lookup's collections take, to a record's end.

    One recursive query walks down the book, at each node to the child with the most paths (ties: the
    first step string), so the cost is one round trip however long the line.
    """
    only = "" if lookup.collection_ids is None else " AND nb.collection_id IN :ids"
    query = text(_MAIN_LINE.format(node=lookup.node.name, node_book=lookup.node_book.name, only=only))
    params: dict[str, object] = {"start": node_id(steps) if steps else ROOT_ID, "steps": steps}
    if lookup.collection_ids is not None:
        query = query.bindparams(bindparam("ids", expanding=True))
        params["ids"] = list(lookup.collection_ids)
    return str(lookup.conn.execute(query, params).scalar())


def fill(store: Store, collections: list[str] | None = None,
         progress: Callable[[int, int], None] | None = None) -> int:
    """Compute and store the verdict of every variation that lacks one; returns how many were computed."""
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
