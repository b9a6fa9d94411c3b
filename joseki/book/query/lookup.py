"""Indexed reads of the book: a prefix's node, its children, the longest prefix held, transpositions.

Each read is a primary-key or index lookup (``node.id``, ``node.parent_id``,
``node.position_key``, ``node_book``'s primary key), never a scan of records, so a query
costs the same with a thousand records or a million.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from joseki.book.learnt.profiles import GLOBAL, profile_id_named, require_profile
from joseki.book.query.memo import MISSING
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


@dataclass(frozen=True, slots=True)
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
    """Reads of the book on one connection, optionally restricted to some collections; remembered in the store's
    memo when it has one (:meth:`remembered`). Raises BadInput for a collection the store does not hold."""

    def __init__(self, store: Store | BookFile, conn: ReadConnection, collections: list[str] | None = None) -> None:
        self.store, self.conn, self.memo = store, conn, store.memo
        self.epoch = self.memo.begin(store.version()) if self.memo is not None else -1
        self.collection_ids: list[int] | None = None
        if collections:
            found = {str(name): int(cid) for name, cid in rows(conn, "SELECT name, id FROM collection WHERE name IN "
                                                                    "(:names)", {"names": collections})}
            missing = sorted(set(collections) - set(found))
            if missing:
                raise BadInput(f"no collection named {', '.join(map(repr, missing))}")
            self.collection_ids = sorted(found.values())
        self.books_key = None if self.collection_ids is None else tuple(self.collection_ids)

    def remembered(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, a pure read of the lookup's collections named by ``key``, remembered in the store's memo
        (:mod:`joseki.book.query.memo`) when it has one."""
        found = self.recall(key)
        if found is MISSING:
            found = compute()
            self.remember(key, found)
        return found  # type: ignore[no-any-return]

    def recall(self, key: Hashable) -> Any:
        """What the store's memo holds for the read ``key`` of the lookup's collections, else
        :data:`~joseki.book.query.memo.MISSING` (always without a memo)."""
        return MISSING if self.memo is None else self.memo.get((key, self.books_key))

    def remember(self, key: Hashable, value: Any) -> None:
        """Remember ``value`` as the answer of the read ``key`` in the store's memo, if it has one."""
        if self.memo is not None:
            self.memo.put((key, self.books_key), value, self.epoch)

    def collection_name(self, collection_id: int) -> str:
        """The name of a collection, by id; names once read are remembered for the store (a collection keeps its
        name)."""
        names = _NAMES.setdefault(self.store, {})
        if collection_id not in names:
            names.update((int(cid), str(name)) for cid, name in rows(self.conn, "SELECT id, name FROM collection"))
        return names[collection_id]

    def profile_id(self, name: str) -> int | None:
        """The id of profile ``name`` (None if it does not exist); ids once found are remembered for the store."""
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
        return self.remembered(("has", steps), lambda: self._has(steps))

    def _has(self, steps: str) -> bool:
        books, params = self.books()
        if steps:
            books, params = f"AND nb.node_id = :node {books}", {**params, "node": node_id(steps)}
        return bool(rows(self.conn, f"SELECT nb.paths FROM node_book AS nb WHERE 1 = 1 {books} LIMIT 1", params))

    def children(self, steps: str, profile: str | None = None) -> list[Child]:
        """Each continuation of ``steps`` in the book, merged over the selected collections, in one query.

        Each child carries its record under ``profile``, or the global record where the
        profile has none.
        """
        return self.remembered(("children", steps, profile or None), lambda: self._children(steps, profile))

    def _children(self, steps: str, profile: str | None) -> list[Child]:
        global_id = self.profile_id(GLOBAL)
        profile_id = self.profile_id(profile) if profile and profile != GLOBAL else None
        if profile_id is None and profile and profile != GLOBAL:
            require_profile(self.conn, profile)
        params: dict[str, object] = {"parent": node_id(steps) if steps else ROOT_ID, "global_id": global_id or -1,
                                     "profile_id": profile_id or -1,
                                     "local_id": profile_id or global_id or -1}
        books, restriction = self.books()
        by_move: dict[str, list[tuple[Any, ...]]] = {}
        for row in rows(self.conn, CHILDREN.format(books=books), {**params, **restriction}):
            if row[1][:-2] != steps:
                raise RuntimeError(f"node key collision between {row[1]!r} and a child of {steps!r}")
            by_move.setdefault(row[0], []).append(row)
        return [self._child(move, found) for move, found in by_move.items()]

    def _child(self, move: str, found: list[tuple[Any, ...]]) -> Child:
        """One continuation from its rows of :data:`CHILDREN` (one a collection): paths and priors summed, sources
        merged, conditions once each; the records of the last row that has them."""
        sources: dict[str, str | None] = {}
        conditions: list[str] = []
        comment, record, judged = None, Record(), Record()
        for row in found:
            merge_sources(sources, {self.collection_name(row[16]): row[3]})
            comment = comment or row[4]
            if row[11] is not None:
                record = Record(*row[11:15])
            elif row[7] is not None:
                record = Record(*row[7:11])
            if row[17] is not None:
                judged = Record(*row[17:21])
            for condition in map(str, from_json(row[15])):
                if condition not in conditions:
                    conditions.append(condition)
        return Child(move, sum(row[2] for row in found), combined(sources), sources, comment,
                     sum(row[5] or 0 for row in found), sum(row[6] or 0 for row in found), record, conditions, judged)

    def beyond(self, steps: str) -> list[tuple[str, int]]:
        """The moves played beyond the book after ``steps`` (:mod:`joseki.book.learnt.beyond`) with their games, most
        played first; use :func:`joseki.book.learnt.beyond.beyond_book`, which leaves out the book's own moves."""
        return self.remembered(("beyond", steps), lambda: self._beyond(steps))

    def _beyond(self, steps: str) -> list[tuple[str, int]]:
        books, params = self.books()
        found = rows(self.conn, BEYOND.format(books=books), {**params, "parent": node_id(steps) if steps else ROOT_ID})
        return [(str(move), int(games)) for move, games in found]

    def by_position(self, key: int) -> str | None:
        """The step string of the most travelled book node reaching the position ``key``, if any."""
        return self.remembered(("position", key), lambda: self._by_position(key))

    def _by_position(self, key: int) -> str | None:
        books, params = self.books()
        found = rows(self.conn, BY_POSITION.format(books=books), {**params, "key": key})
        return str(found[0][0]) if found else None
