"""The book as a player after a tenuki: it continues the corner the tenuki left when its book says how."""

from __future__ import annotations

from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.core.geometry import Corner
from joseki.core.moves import typed_moves
from joseki.engine.policy import BookPlayer, corner_to_answer


def offered(store: Store, moves: list[str], corner: Corner) -> set[tuple[int, int] | None]:
    """The points the book offers in ``corner`` after ``moves`` (a tenuki offers None)."""
    [answer] = [a for a in next_moves(store, moves) if a.corner is corner]
    return {c.point for c in answer.candidates}


def choices(store: Store, moves: list[str], colour: str) -> set[tuple[int, int] | None]:
    played = list(typed_moves(moves).played)
    return {BookPlayer(store, seed=seed).choose(played, colour, 19) for seed in range(12)}


def test_a_tenuki_is_answered_in_the_corner_it_left(book: str) -> None:
    with Store(book) as store:
        double_approach = offered(store, ["Q16", "R14", "pass"], Corner.TOP_RIGHT)
        assert double_approach - {None}, "the starter book has a move for White after Black tenukis"
        for tenuki in ("pass", "K10"):  # a pass, and a move that joins no corner
            chosen = choices(store, ["Q16", "R14", tenuki], "w")
            assert chosen - {None} and chosen <= double_approach, tenuki


def test_a_move_in_another_corner_is_answered_there(book: str) -> None:
    with Store(book) as store:
        bottom_left = offered(store, ["Q16", "R14", "D4"], Corner.BOTTOM_LEFT)
        chosen = choices(store, ["Q16", "R14", "D4"], "w")
        assert chosen - {None} and chosen <= bottom_left


def test_a_tenuki_the_book_has_no_answer_to_leaves_the_move_to_the_engine(book: str) -> None:
    with Store(book) as store:
        [answer] = next_moves(store, ["Q16", "R14", "R11", "pass"])
        assert answer.state == "interrupted"
        assert choices(store, ["Q16", "R14", "R11", "pass"], "b") == {None}


def test_the_corner_to_answer() -> None:
    def corner(*moves: str) -> Corner | None:
        return corner_to_answer(typed_moves(moves))

    assert corner("Q16") is Corner.TOP_RIGHT
    assert corner("Q16", "D4") is Corner.BOTTOM_LEFT
    assert corner("Q16", "R14", "pass") is Corner.TOP_RIGHT
    assert corner("Q16", "R14", "K10") is Corner.TOP_RIGHT
    assert corner("pass") is None and corner("K10") is None
