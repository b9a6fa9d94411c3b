"""What the store holds, by name and count: the explorer's choosers and ``joseki db info``."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from joseki.book.store.database import Store, current_revision

COUNTED = ("collection", "source_file", "variation", "node")
"""The tables ``joseki db info`` counts the rows of."""


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The names of the store's collections and profiles, each in name order."""

    collections: list[str]
    profiles: list[str]


@dataclass(frozen=True, slots=True)
class Summary:
    """The store's schema revision (None: no schema) and the rows of each of :data:`COUNTED`."""

    revision: str | None
    counts: dict[str, int]


def catalogue(store: Store) -> Catalogue:
    """The collections and profiles the store holds."""
    c, p = store.tables["collection"], store.tables["profile"]
    with store.read() as conn:
        collections = [str(n) for n in conn.execute(select(c.c.name).order_by(c.c.name)).scalars()]
        profiles = [str(n) for n in conn.execute(select(p.c.name).order_by(p.c.name)).scalars()]
    return Catalogue(collections, profiles)


def summary(store: Store) -> Summary:
    """The store's revision and row counts, read in one transaction."""
    with store.read() as conn:
        counts = {name: int(conn.execute(select(func.count()).select_from(store.tables[name])).scalar_one())
                  for name in COUNTED}
        return Summary(current_revision(conn), counts)


def deepest_line(store: Store) -> int:
    """The number of steps of the store's longest book line (0 with no book)."""
    node = store.tables["node"]
    with store.read() as conn:
        return int(conn.execute(select(func.max(node.c.depth))).scalar() or 0)
