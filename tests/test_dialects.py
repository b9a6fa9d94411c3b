"""The dialect registry: each real collection is told as its own, the order decides, and a new dialect is one module.

A toy dialect registered beside the others is detected, gives its verdicts and conditions to an
import, and its lint findings to ``lint``, with nothing else changed.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from pathlib import Path

import pytest

from joseki.book.importer import import_file
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.core.conditions import Condition
from joseki.sgf import dialects
from joseki.sgf.booknotes import book_notes
from joseki.sgf.dialects import detect
from joseki.sgf.dialects.dialect import Dialect, Finding, sgf_marks
from joseki.sgf.dialects.node import Node
from joseki.sgf.forest import flatten_bytes, flatten_file
from joseki.sgf.lint import kinds, lint

from .conftest import JOSEKI, need

REAL = {
    "gnugo": ["gogo", "hoshi_keima", "hoshi_other", "komoku", "mokuhazushi", "sansan", "takamoku"],
    "katago-joseki-extraction": ["katago_rating_joseki", "katago_training_joseki"],
    "kogo-kjd-2007-zh": ["Kogo's Joseki Dictionary"],
    "kogo-kjd-2014": ["Kogo_s_Joseki_Dictionary"],
    "ogs-joseki-export": ["OGS_export"],
    "pachi": ["fusekifix", "joseki_33", "joseki_34", "joseki_44", "joseki_54", "josekifix"],
}
DIALECT_OF = {"gnugo": "gnugo", "katago-joseki-extraction": "katago", "kogo-kjd-2007-zh": "text",
              "kogo-kjd-2014": "text", "ogs-joseki-export": "ogs", "pachi": "pachi"}


@pytest.mark.parametrize(("folder", "stem"), [(f, s) for f, stems in REAL.items() for s in stems],
                         ids=lambda x: str(x))
def test_each_real_collection_is_told_as_its_own(folder: str, stem: str) -> None:
    assert book_notes(flatten_file(need(JOSEKI / folder / f"{stem}.sgf"))).dialect == DIALECT_OF[folder]


def test_the_registry_order_decides() -> None:
    counts = '{"count": 3, "b_win": 2, "w_win": 1}'
    assert [d.name for d in dialects.DIALECTS] == ["export", "gnugo", "katago", "pachi", "ogs", "text"]
    assert detect("This is GNU Go", [counts, "<bad>"]).name == "gnugo"  # the file's preamble first
    assert detect("", ["## Joseki", "<bad>", counts]).name == "katago"  # then the first dialect any comment shows
    assert detect("", ["## Joseki", "<bad> mistake"]).name == "pachi"
    assert detect("", ["## Joseki"], ["JC"]).name == "export"
    assert detect("", ["<bad>", "joseki export of collection x"]).name == "export"
    assert detect("", ["'a' is correct."]).name == "text"  # and else Kogo's free text


class Marks(Dialect):
    """A made-up dialect: ``!!`` (a best move) or ``??`` (a mistake) open a comment, ``needs:`` lines are conditions."""

    name = "marks"
    pass_kinds = ("rated-pass",)
    comment_kinds = ("empty-needs",)

    def by_comment(self, comment: str) -> bool:
        return comment.startswith(("!!", "??"))

    def own_verdicts(self, node: Node) -> list[str | None]:
        return [*sgf_marks(node.properties), {"!!": "ideal", "??": "mistake"}.get(node.comment[:2])]

    def read(self, node: Node) -> None:
        for line in node.comment.splitlines():
            if line.startswith("needs:") and line[6:].strip():
                node.book.condition(node.prefix, Condition("nearby", line[6:].strip()))

    def pass_findings(self, comment: str, who: str) -> list[Finding]:
        return [("rated-pass", f"{who}'s pass is rated")] if comment.startswith(("!!", "??")) else []

    def comment_findings(self, comment: str, labels: Set[str]) -> list[Finding]:
        return [("empty-needs", "a needs: line says nothing")] if "needs:\n" in comment + "\n" else []


TOY = ("(;FF[4]CA[UTF-8]SZ[19];B[pd]C[!! the star point]"
       ";W[qf]C[?? too close\nneeds: a White stone on the left side]"
       ";B[]C[!! elsewhere\nneeds:];W[qh])")


@pytest.fixture()
def with_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry with the toy dialect before the last one (Kogo's free text, the one no other claims)."""
    monkeypatch.setattr(dialects, "DIALECTS", (*dialects.DIALECTS[:-1], Marks(), dialects.DIALECTS[-1]))


def test_without_its_module_the_toy_file_is_free_text() -> None:
    notes = book_notes(flatten_bytes(TOY.encode()))
    assert notes.dialect == "text" and all(n.category is None and not n.conditions for n in notes.moves.values())


@pytest.mark.usefixtures("with_marks")
def test_a_registered_dialect_is_imported(new_db: Callable[..., str], tmp_path: Path) -> None:
    path = tmp_path / "toy.sgf"
    path.write_text(TOY, encoding="utf-8")
    with Store(new_db()) as store:
        assert import_file(store, path, "toy").error is None
        [empty] = next_moves(store)
        assert [(c.move, c.category) for c in empty.candidates] == [("Q16", "ideal")]
        [after] = next_moves(store, steps="DD")
        [approach] = after.candidates
        assert approach.move == "R14" and approach.category == "mistake"
        assert approach.conditions == ["nearby: a White stone on the left side"]
        [tenuki] = next_moves(store, steps="DDCF")[0].candidates
        assert tenuki.move == "tenuki" and tenuki.category == "tenuki-ok"  # a best move that is a tenuki


@pytest.mark.usefixtures("with_marks")
def test_a_registered_dialect_lints(tmp_path: Path) -> None:
    path = tmp_path / "toy.sgf"
    path.write_text(TOY, encoding="utf-8")
    report = lint(path)
    assert report.dialect == "marks"
    assert report.counts() == {"rated-pass": 1, "empty-needs": 1}
    assert kinds().index("rated-pass") < kinds().index("illegal") < kinds().index("empty-needs")


def test_conditions_only_where_the_text_states_one() -> None:
    from joseki.sgf.dialects.text_conditions import text_conditions

    stated = ["This is possible with support at the top.", "This works well with a White presence at the bottom.",
              "'b' if Black is in the lower right.", "This is played with an extension at the top."]
    told = ["White 2 is not joseki, but illustrates possibilities without considering surrounding stones.",
            "White continues with 'a' to take the corner or top.", "White 4 is a mistake, even with support at top.",
            "White continues with a pincer around 'a'."]
    assert [bool(text_conditions(s)) for s in stated] == [True] * len(stated)
    assert [text_conditions(s) for s in told] == [()] * len(told)
