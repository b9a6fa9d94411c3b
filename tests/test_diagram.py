"""The CLI's corner diagrams and the explorer's letters: never a letter on a stone."""

from __future__ import annotations

from joseki.book.query.answer import Candidate, CornerAnswer
from joseki.core.diagram import corner_diagram, letters
from joseki.core.geometry import Corner, Transform
from joseki.web.views import corner_json


def test_letters_skip_stones_and_tenuki_and_stay_in_order() -> None:
    assert letters([(16, 5), None, (15, 3), (16, 8)], occupied=[(15, 3)]) == {(16, 5): "a", (16, 8): "b"}
    assert letters([(1, 1), (1, 1)]) == {(1, 1): "a"}


def test_a_diagram_draws_the_stone_not_a_letter_on_it() -> None:
    rows = corner_diagram(Corner.TOP_RIGHT, {(15, 3): "b"}, {(15, 3): "a", (16, 5): "b"})
    q16 = rows[4].split()  # row 16: the header, then rows 19 to 16
    assert q16[0] == "16" and "X" in q16 and "a" not in q16
    assert "b" in rows[6].split()


def test_the_explorer_letters_no_candidate_on_a_stone_of_the_board() -> None:
    answer = CornerAnswer(Corner.TOP_RIGHT, "", "empty", "b", Transform(Corner.TOP_RIGHT, False),
                          candidates=[Candidate("DD", "Q16", (15, 3), 10), Candidate("DC", "R16", (16, 3), 5),
                                      Candidate("CD", "Q17", (15, 2), 3)])
    data = corner_json(answer, (((15, 3), "w"),))  # a white stone stands on Q16
    assert [(c["move"], c["label"], c["occupied"]) for c in data["candidates"]] == [
        ("Q16", None, True), ("R16", "a", False), ("Q17", "b", False)]
