"""Lines that start from setup stones, or put stones down on the way, speak of their own positions only.

On every real collection: what the book holds for a board without setup stones is exactly what the
file says when each of its lines is cut before its first setup stones; with every collection
imported, the empty corner's 4-4 and 3-5 points carry no verdict of Pachi's lines from setup stones.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from joseki.book.importer import import_files
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.core.conditions import from_json
from joseki.sgf.booknotes import book_notes
from joseki.sgf.forest import Forest, flatten_file
from joseki.sgf.movenotes import BookNotes
from joseki.sgf.setups import placements

from .conftest import JOSEKI, Databases, need

FILES = sorted(JOSEKI.rglob("*.sgf")) if JOSEKI.exists() else []


def cut_before_setup(forest: Forest) -> Forest:
    """``forest`` with each line cut before its first setup stones (the node that puts them down and all after)."""
    lines = []
    for v in forest.variations:
        found = placements(v)
        if not v.setup:
            lines.append(v)
            continue
        first = next((i for i, n in enumerate(v.notes) if n.setup), len(v.notes))
        end = found[0].start - 1 if found else len(v.steps) // 2
        if end > 0:
            lines.append(replace(v, steps=v.steps[: 2 * end], notes=v.notes[:first], setup=False))
    return replace(forest, variations=lines)


def said(notes: BookNotes) -> dict[str, tuple[object, ...]]:
    return {p: (n.category, n.comments, n.conditions) for p, n in notes.moves.items()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_board_without_setup_stones_hears_only_lines_without_them(path: Path) -> None:
    forest = flatten_file(need(path))
    full, cut = book_notes(forest), book_notes(cut_before_setup(forest))
    assert said(full) == said(cut)
    assert not any(c.kind == "setup" for n in full.moves.values() for c in n.conditions)
    if any(v.setup for v in forest.variations):
        assert full.positions  # and what the lines from setup stones say is kept, by their stones


@pytest.fixture(scope="module")
def everything(databases: Databases) -> Iterator[Store]:
    """Every real collection, imported as a new user does: one collection per file, no names given."""
    url = databases.new("everything")
    store = Store(url)
    assert not [r for r in import_files(store, [need(JOSEKI)]) if r.error]
    yield store
    store.close()
    databases.drop(url)


def test_the_store_shows_an_empty_board_only_what_lines_without_setup_stones_say(everything: Store) -> None:
    t = everything.tables
    n, nb, sf = t["node"], t["node_book"], t["source_file"]
    with everything.read() as conn:
        files = {str(p): cid for p, cid in conn.execute(sf.select().with_only_columns(sf.c.path, sf.c.collection_id))}
        for path in FILES:
            cut = book_notes(cut_before_setup(flatten_file(path)))
            rows = conn.execute(nb.select().with_only_columns(n.c.steps, nb.c.category, nb.c.conditions)
                                .join_from(nb, n, n.c.id == nb.c.node_id)
                                .where(nb.c.collection_id == files[str(path)]))
            for steps, category, conditions in rows:
                note = cut.moves.get(steps)
                assert (category, from_json(conditions)) == ((note.category, note.conditions) if note else (None, []))


def test_the_empty_corner_takes_only_empty_corner_verdicts(everything: Store) -> None:
    [answer] = next_moves(everything)
    labels = {c.move: c.label for c in answer.candidates}
    assert "ideal" in labels["Q16"] and "mistake" not in labels["Q16"]  # Pachi's <don't> after setup stones
    assert "mistake" not in labels["R15"]
    # Pachi's own verdicts on an empty corner stay: its 5-4 file opens with <avoid>, its 3-3 file with <don't>
    assert "mistake" in labels["Q15"] and "mistake" in labels["R17"]
