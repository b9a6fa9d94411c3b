"""Indexed reads of the book: a prefix's node, its children, the longest prefix held, transpositions.

Each read is a primary-key or index lookup (``node.id``, ``node.parent_id``,
``node.position_key``, ``node_book``'s primary key), never a scan of records, so a query
costs the same with a thousand records or a million.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar
from weakref import WeakKeyDictionary

from joseki.book.learnt.profiles import GLOBAL, profile_id_named, require_profile
from joseki.book.query.memo import Memo, kept
from joseki.book.store.bookfile import ReadConnection, rows
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.category import combined, merge_sources
from joseki.core.conditions import from_json
from joseki.core.errors import BadInput
from joseki.core.priority import Record

if TYPE_CHECKING:
    from joseki.book.store.bookfile import BookFile
    from joseki.book.store.database import Store

T = TypeVar("T")
_PROFILES: WeakKeyDictionary[Store | BookFile, dict[str, int]] = WeakKeyDictionary()
_NAMES: WeakKeyDictionary[Store | BookFile, dict[int, str]] = WeakKeyDictionary()

CHILDREN = """
SELECT n.move, n.steps, nb.paths, nb.category, nb.comment, nb.prior_games, nb.prior_wins,
       g.games, g.wins, g.losses, g.draws, p.games, p.wins, p.losses, p.draws, nb.conditions,
       nb.collection_id, l.corners, l.wins, l.losses, l.draws
FROM node AS n
JOIN node_book AS nb ON nb.node_id = n.id {books}
LEFT OUTER JOIN node_stats AS g ON g.node_id = n.id AND g.profile_id = :global_id
LEFT OUTER JOIN node_stats AS p ON p.node_id = n.id AND p.profile_id = :profile_id
LEFT OUTER JOIN node_local AS l ON l.node_id = n.id AND l.profile_id = :local_id
WHERE n.parent_id = :parent"""
"""A book position's children with their sources, records under the global profile and one other, and local
outcomes: one indexed query (``node.parent_id``, then primary keys)."""
BEYOND = """
SELECT nb.move, sum(nb.games) FROM beyond_book AS nb WHERE nb.parent_id = :parent {books}
GROUP BY nb.move ORDER BY sum(nb.games) DESC, nb.move"""
"""The moves played beyond the book after a line (:mod:`joseki.book.learnt.beyond`), over the selected collections."""
BY_POSITION = """
SELECT n.steps, sum(nb.paths) AS paths FROM node AS n
JOIN node_book AS nb ON nb.node_id = n.id {books}
WHERE n.position_key = :key GROUP BY n.id, n.steps ORDER BY sum(nb.paths) DESC, n.steps LIMIT 1"""


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
    judged: Record = field(default_factory=Record)
    """Judged corners (:mod:`joseki.engine.judge`) under the profile, or the global ones without a profile;
    unlike game results, a profile's local outcomes never fall back to the global ones (the judge's verdicts
    are about one opponent)."""


class Lookup:
    """Reads of the book on one connection, optionally restricted to some collections.

    Its reads of nodes are kept in the store's :class:`~joseki.book.query.memo.Memo` when it has one
    (:meth:`kept`), keyed by the collections too."""

    def __init__(self, store: Store | BookFile, conn: ReadConnection, collections: list[str] | None = None) -> None:
        self.store, self.conn = store, conn
        self.memo: Memo | None = getattr(store, "memo", None)
        self.epoch = self.memo.epoch if self.memo is not None else 0
        self.collection_ids: list[int] | None = None
        if collections:
            found = {str(name): int(cid) for name, cid in rows(conn, "SELECT name, id FROM collection WHERE name IN "
                                                                    "(:names)", {"names": collections})}
            missing = sorted(set(collections) - set(found))
            if missing:
                raise BadInput(f"no collection named {', '.join(map(repr, missing))}")
            self.collection_ids = sorted(found.values())
        self.books_key = None if self.collection_ids is None else tuple(self.collection_ids)
        """The collections in a memory's keys."""

    def kept(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()`` of this transaction's book, remembered under ``key`` if the store has a memo."""
        return kept(self.memo, self.epoch, key, compute)

    def collection_name(self, collection_id: int) -> str:
        """The name of a collection, by id; names once read are kept for the store (a collection keeps its name)."""
        names = _NAMES.setdefault(self.store, {})
        if collection_id not in names:
            names.update((int(cid), str(name)) for cid, name in rows(self.conn, "SELECT id, name FROM collection"))
        return names[collection_id]

    def profile_id(self, name: str) -> int | None:
        """The id of profile ``name`` (None if it does not exist); ids once found are kept for the store."""
        known = _PROFILES.setdefault(self.store, {})
        if name not in known:
            found = profile_id_named(self.conn, name)
            if found is None:
                return None
            known[name] = found
        return known[name]

    def books(self) -> tuple[str, dict[str, object]]:
        """The collection restriction of a query on ``node_book`` (as ``nb``), and its parameters."""
        if self.collection_ids is None:
            return "", {}
        return "AND nb.collection_id IN (:collections)", {"collections": self.collection_ids}

    def has(self, steps: str) -> bool:
        """True if a variation of the selected collections passes through ``steps``."""
        return self.kept(("has", self.books_key, steps), lambda: self._has(steps))

    def _has(self, steps: str) -> bool:
        books, params = self.books()
        if steps:
            books, params = f"AND nb.node_id = :node {books}", {**params, "node": node_id(steps)}
        return bool(rows(self.conn, f"SELECT nb.paths FROM node_book AS nb WHERE 1 = 1 {books} LIMIT 1", params))

    def children(self, steps: str, profile: str | None = None) -> list[Child]:
        """Each continuation of ``steps`` in the book, merged over the selected collections, in one query.

        Each child carries its record under ``profile``, or the global record where the
        profile has none. The children may be shared with the lookup's memory: read them, never change them.
        """
        return list(self.kept(("children", self.books_key, steps, profile or None),
                              lambda: self._children(steps, profile)))

    def _children(self, steps: str, profile: str | None) -> list[Child]:
        global_id = self.profile_id(GLOBAL)
        profile_id = self.profile_id(profile) if profile and profile != GLOBAL else None
        if profile_id is None and profile and profile != GLOBAL:
            require_profile(self.conn, profile)
        params: dict[str, object] = {"parent": node_id(steps) if steps else ROOT_ID, "global_id": global_id or -1,
                                     "profile_id": profile_id or -1,
                                     "local_id": profile_id or global_id or -1}
        books, restriction = self.books()
        merged: dict[str, Child] = {}
        for row in rows(self.conn, CHILDREN.format(books=books), {**params, **restriction}):
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
                child.judged = Record(*row[17:21])
            for condition in from_json(row[15]):
                if str(condition) not in child.conditions:
                    child.conditions.append(str(condition))
        for child in merged.values():
            child.category = combined(child.sources)
        return list(merged.values())

    def beyond(self, steps: str) -> list[tuple[str, int]]:
        """The moves played beyond the book after ``steps`` (:mod:`joseki.book.learnt.beyond`) with their games, most
        played first; use :func:`joseki.book.learnt.beyond.beyond_book`, which leaves out the book's own moves."""
        return list(self.kept(("beyond", self.books_key, steps), lambda: self._beyond(steps)))

    def _beyond(self, steps: str) -> list[tuple[str, int]]:
        books, params = self.books()
        found = rows(self.conn, BEYOND.format(books=books), {**params, "parent": node_id(steps) if steps else ROOT_ID})
        return [(str(move), int(games)) for move, games in found]

    def by_position(self, key: int) -> str | None:
        """The step string of the most travelled book node reaching the position ``key``, if any."""
        return self.kept(("position", self.books_key, key), lambda: self._by_position(key))

    def _by_position(self, key: int) -> str | None:
        books, params = self.books()
        found = rows(self.conn, BY_POSITION.format(books=books), {**params, "key": key})
        return str(found[0][0]) if found else None
