"""The book in memory, for walking many games fast: its node ids, and each position's chosen book line."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, func, select

from joseki.book.store.database import Store


@dataclass(slots=True)
class InMemoryBook:
    """All collections' nodes; a :class:`joseki.book.query.walk.Book` that answers without the database.

    For a position reached by several book lines it keeps the one
    :meth:`joseki.book.query.lookup.Lookup.by_position` chooses (most paths, then the smallest string),
    so that a walk through the index and a walk through the store agree.
    """

    lines: set[str] = field(default_factory=set)
    """Every node's step string (a string is looked up faster than its node id is computed)."""
    by_key: dict[int, str] = field(default_factory=dict)

    @classmethod
    def load(cls, store: Store, conn: Connection | None = None) -> InMemoryBook:
        """The index of the book as ``conn`` sees it (a new read connection when None)."""
        if conn is None:
            with store.read() as read:
                return cls.load(store, read)
        n, nb = store.tables["node"], store.tables["node_book"]
        paths = func.sum(nb.c.paths)
        query = (select(n.c.id, n.c.steps, n.c.position_key, paths).join(nb, nb.c.node_id == n.c.id)
                 .group_by(n.c.id, n.c.steps, n.c.position_key))
        index = cls()
        chosen: dict[int, tuple[int, str]] = {}
        for _nid, steps, key, total in conn.execute(query):
            index.lines.add(steps)
            if key is None:
                continue
            best = chosen.get(key)
            if best is None or (-total, steps) < (-best[0], best[1]):
                chosen[key] = (int(total), steps)
        index.by_key = {key: steps for key, (_, steps) in chosen.items()}
        return index

    def has(self, steps: str) -> bool:
        return bool(self.lines) if not steps else steps in self.lines

    def by_position(self, key: int) -> str | None:
        return self.by_key.get(key)
