"""``joseki stats``: what each collection holds, counted: records, moves, categories, conditions, verdicts.

Moves are counted per collection (a move two collections share counts in both), a move played
with setup stones once more for each set of stones (``setup_moves`` of them); a move's conditions
are counted by kind. The influence model's verdict is summarised over the
records that have one stored (:func:`joseki.book.query.favour.fill` computes the others).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import case, func, select

from joseki.book.store.database import Store
from joseki.core.category import CATEGORIES
from joseki.core.conditions import KINDS, from_json
from joseki.core.errors import BadInput


@dataclass(slots=True)
class CollectionStats:
    """The counts of one collection."""

    name: str
    files: int = 0
    records: int = 0
    setup_records: int = 0
    moves: int = 0
    setup_moves: int = 0
    categories: dict[str, int] = field(default_factory=dict)
    uncategorised: int = 0
    conditions: dict[str, int] = field(default_factory=dict)
    prior_moves: int = 0
    favour_records: int = 0
    favour_first: float | None = None

    def as_json(self) -> dict[str, object]:
        return {"collection": self.name, "files": self.files, "records": self.records,
                "setup_records": self.setup_records, "moves": self.moves, "setup_moves": self.setup_moves,
                "categories": self.categories,
                "uncategorised": self.uncategorised, "conditions": self.conditions, "prior_moves": self.prior_moves,
                "favourability": {"records": self.favour_records,
                                  "mean_first": None if self.favour_first is None else round(self.favour_first, 4)}}


def stats(store: Store, collections: list[str] | None = None) -> list[CollectionStats]:
    """The counts of every collection (or of those named), in name order; BadInput for an unknown name."""
    t = store.tables
    c, var, nb, sf = t["collection"], t["variation"], t["node_book"], t["source_file"]
    with store.read() as conn:
        names = {cid: name for cid, name in conn.execute(select(c.c.id, c.c.name))}
        if collections:
            missing = sorted(set(collections) - set(names.values()))
            if missing:
                raise BadInput(f"no collection named {', '.join(map(repr, missing))}")
        out = {cid: CollectionStats(name) for cid, name in names.items() if not collections or name in collections}
        for cid, files in conn.execute(select(sf.c.collection_id, func.count()).group_by(sf.c.collection_id)):
            if cid in out:
                out[cid].files = files
        query = select(var.c.collection_id, func.count(), func.sum(case((var.c.setup, 1), else_=0)),
                       func.count(var.c.favour_first), func.avg(var.c.favour_first)).group_by(var.c.collection_id)
        for cid, records, setups, favoured, mean in conn.execute(query):
            if cid in out:
                s = out[cid]
                s.records, s.setup_records, s.favour_records = records, int(setups or 0), favoured
                s.favour_first = None if mean is None else float(mean)
        kinds: dict[int, Counter[str]] = {cid: Counter() for cid in out}
        for book in (nb, t["setup_book"]):
            query = select(book.c.collection_id, book.c.category, func.count(), func.count(book.c.prior_games))
            for cid, category, count, priors in conn.execute(query.group_by(book.c.collection_id, book.c.category)):
                if cid in out:
                    s = out[cid]
                    s.moves += count
                    s.setup_moves += count if book is not nb else 0
                    s.prior_moves += priors
                    if category is None:
                        s.uncategorised += count
                    else:
                        s.categories[category] = s.categories.get(category, 0) + count
            for cid, conditions in conn.execute(select(book.c.collection_id, book.c.conditions)
                                                .where(book.c.conditions.is_not(None))):
                if cid in kinds:
                    kinds[cid].update(condition.kind for condition in from_json(conditions))
    for cid, s in out.items():
        s.categories = {name: s.categories[name] for name in CATEGORIES if name in s.categories}
        s.conditions = {kind: kinds[cid][kind] for kind in KINDS if kinds[cid][kind]}
    return sorted(out.values(), key=lambda s: s.name)
