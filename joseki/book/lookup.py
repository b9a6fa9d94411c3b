"""Indexed reads of the book: a prefix's node, its children, the longest prefix held, transpositions.

Each read is a primary-key or index lookup (``node.id``, ``node.parent_id``,
``node.position_key``, ``node_book``'s primary key), never a scan of records, so a query
costs the same with a thousand records or a million.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import ColumnElement, Connection, Select, bindparam, func, select

from joseki.book.stats import GLOBAL, require_profile
from joseki.book.store import ROOT_ID, Store, node_id
from joseki.core.category import combined, merge_sources
from joseki.core.conditions import from_json
from joseki.core.priority import Record

_PROFILES: WeakKeyDictionary[Store, dict[str, int]] = WeakKeyDictionary()
_STATEMENTS: WeakKeyDictionary[Store, dict[bool, Select[Any]]] = WeakKeyDictionary()
_NAMES: WeakKeyDictionary[Store, dict[int, str]] = WeakKeyDictionary()


def _children_statement(store: Store, filtered: bool) -> Select[Any]:
    """The children query, built once per store (building it costs more than running it)."""
    cache = _STATEMENTS.setdefault(store, {})
    if filtered not in cache:
        n, nb = store.tables["node"], store.tables["node_book"]
        ns_global = store.tables["node_stats"].alias("ns_global")
        ns_profile = store.tables["node_stats"].alias("ns_profile")
        local = store.tables["node_local"]
        books = nb.c.node_id == n.c.id
        if filtered:
            books = books & nb.c.collection_id.in_(bindparam("collections", expanding=True))
        cache[filtered] = (
            select(n.c.move, n.c.steps, nb.c.paths, nb.c.category, nb.c.comment, nb.c.prior_games, nb.c.prior_wins,
                   ns_global.c.games, ns_global.c.wins, ns_global.c.losses, ns_global.c.draws,
                   ns_profile.c.games, ns_profile.c.wins, ns_profile.c.losses, ns_profile.c.draws, nb.c.conditions,
                   nb.c.collection_id, local.c.corners, local.c.wins, local.c.losses, local.c.draws)
            .join(nb, books)
            .outerjoin(ns_global, (ns_global.c.node_id == n.c.id) & (ns_global.c.profile_id == bindparam("global_id")))
            .outerjoin(ns_profile, (ns_profile.c.node_id == n.c.id)
                       & (ns_profile.c.profile_id == bindparam("profile_id")))
            .outerjoin(local, (local.c.node_id == n.c.id) & (local.c.profile_id == bindparam("local_id")))
            .where(n.c.parent_id == bindparam("parent")))
    return cache[filtered]


@dataclass(slots=True)
class Child:
    """One continuation of a book position, over the selected collections.

    ``sources`` maps each collection holding the move to its verdict (None: silent);
    ``category`` is what the book acts on (:func:`joseki.core.category.combined`).
    """

    token: str
    paths: int
    category: str | None
    sources: dict[str, str | None] = field(default_factory=dict)
    comment: str | None = None
    prior_games: int = 0
    prior_wins: int = 0
    record: Record = field(default_factory=Record)
    conditions: list[str] = field(default_factory=list)
    local: Record = field(default_factory=Record)
    """Judged corners (:mod:`joseki.engine.judge`) under the profile, or the global ones without a profile;
    unlike game results, a profile's local outcomes never fall back to the global ones (the judge's verdicts
    are about one opponent)."""


class Lookup:
    """Reads of the book on one connection, optionally restricted to some collections."""

    def __init__(self, store: Store, conn: Connection, collections: list[str] | None = None) -> None:
        self.store, self.conn = store, conn
        self.node, self.node_book = store.tables["node"], store.tables["node_book"]
        self.collection_ids: list[int] | None = None
        if collections:
            c = store.tables["collection"]
            found = {name: cid for name, cid in conn.execute(select(c.c.name, c.c.id).where(c.c.name.in_(collections)))}
            missing = sorted(set(collections) - set(found))
            if missing:
                raise ValueError(f"no collection named {', '.join(map(repr, missing))}")
            self.collection_ids = sorted(found.values())

    def collection_name(self, collection_id: int) -> str:
        """The name of a collection, by id; names once read are kept for the store (a collection keeps its name)."""
        names = _NAMES.setdefault(self.store, {})
        if collection_id not in names:
            c = self.store.tables["collection"]
            names.update((int(cid), str(name)) for cid, name in self.conn.execute(select(c.c.id, c.c.name)))
        return names[collection_id]

    def profile_id(self, name: str) -> int | None:
        """The id of profile ``name`` (None if it does not exist); ids once found are kept for the store."""
        known = _PROFILES.setdefault(self.store, {})
        if name not in known:
            p = self.store.tables["profile"]
            found = self.conn.execute(select(p.c.id).where(p.c.name == name)).scalar()
            if found is None:
                return None
            known[name] = int(found)
        return known[name]

    def _in_books(self, node: ColumnElement[int] | int) -> ColumnElement[bool]:
        nb = self.node_book
        cond = nb.c.node_id == node
        if self.collection_ids is not None:
            cond = cond & nb.c.collection_id.in_(self.collection_ids)
        return cond

    def has(self, steps: str) -> bool:
        """True if a variation of the selected collections passes through ``steps``."""
        if not steps:
            query = select(self.node_book.c.paths).limit(1)
            if self.collection_ids is not None:
                query = query.where(self.node_book.c.collection_id.in_(self.collection_ids))
        else:
            query = select(self.node_book.c.paths).where(self._in_books(node_id(steps))).limit(1)
        return self.conn.execute(query).first() is not None

    def children(self, steps: str, profile: str | None = None) -> list[Child]:
        """Each continuation of ``steps`` in the book, merged over the selected collections, in one query.

        Each child carries its record under ``profile``, or the global record where the
        profile has none.
        """
        global_id = self.profile_id(GLOBAL)
        profile_id = self.profile_id(profile) if profile and profile != GLOBAL else None
        if profile_id is None and profile and profile != GLOBAL:
            require_profile(self.conn, self.store, profile)
        params: dict[str, object] = {"parent": node_id(steps) if steps else ROOT_ID, "global_id": global_id or -1,
                                     "profile_id": profile_id or -1,
                                     "local_id": profile_id or global_id or -1}
        if self.collection_ids is not None:
            params["collections"] = self.collection_ids
        query = _children_statement(self.store, self.collection_ids is not None)
        merged: dict[str, Child] = {}
        for row in self.conn.execute(query, params):
            move, full, paths, category, comment, prior_games, prior_wins = row[:7]
            if full[:-2] != steps:
                raise RuntimeError(f"node key collision between {full!r} and a child of {steps!r}")
            child = merged.setdefault(move, Child(move, 0, None))
            child.paths += paths
            merge_sources(child.sources, {self.collection_name(row[16]): category})
            child.comment = child.comment or comment
            child.prior_games += prior_games or 0
            child.prior_wins += prior_wins or 0
            if row[11] is not None:
                child.record = Record(*row[11:15])
            elif row[7] is not None:
                child.record = Record(*row[7:11])
            if row[17] is not None:
                child.local = Record(*row[17:21])
            for condition in from_json(row[15]):
                if str(condition) not in child.conditions:
                    child.conditions.append(str(condition))
        for child in merged.values():
            child.category = combined(child.sources)
        return list(merged.values())

    def by_position(self, key: int) -> str | None:
        """The step string of the most travelled book node reaching the position ``key``, if any."""
        n, nb = self.node, self.node_book
        query = (select(n.c.steps, func.sum(nb.c.paths).label("paths"))
                 .join(nb, self._in_books(n.c.id))
                 .where(n.c.position_key == key)
                 .group_by(n.c.id, n.c.steps)
                 .order_by(func.sum(nb.c.paths).desc(), n.c.steps)
                 .limit(1))
        row = self.conn.execute(query).first()
        return None if row is None else str(row[0])
