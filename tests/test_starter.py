"""The starter book that ships in db/: enough lines, legal, and every move found in Kogo's dictionary."""

from __future__ import annotations

from collections import Counter

from joseki.book.store.files import starter_book
from joseki.core.position import replay
from joseki.sgf.forest import flatten_file

from .conftest import KOGO, need


def test_starter_covers_the_five_points() -> None:
    forest = flatten_file(starter_book())
    assert not forest.warnings and forest.skipped == 0
    assert len(forest.variations) >= 40
    first = Counter(v.steps[:2] for v in forest.variations)
    # 4-4, 3-4, 3-3, 5-4 and 5-3 points, each with several lines
    for point in ("DD", "CD", "CC", "DE", "CE"):
        assert first[point] >= 6, first
    for v in forest.variations:
        replay(v.steps, v.first_colour)  # legal: no stone on a stone, no suicide


def test_every_starter_line_is_a_line_of_kogos_dictionary() -> None:
    kogo = sorted({v.steps for v in flatten_file(need(KOGO)).variations})
    for v in flatten_file(starter_book()).variations:
        assert any(k.startswith(v.steps) for k in kogo), f"{v.steps} ({v.tree_path}) is not in Kogo"
