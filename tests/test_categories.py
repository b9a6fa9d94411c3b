"""Categories with a source: GNU Go's classes as its compiler reads them, verdicts on the moves they name,
the merge of several collections' verdicts, and the GTP policy's use of the merged verdict."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from joseki.book.importer import import_file
from joseki.book.query.answer import Candidate
from joseki.book.query.next import next_moves
from joseki.book.query.show import show
from joseki.book.store.database import Store
from joseki.cli.main import app
from joseki.core.category import DISPUTED, NEVER_FIRST, category_label, combined
from joseki.core.geometry import Corner
from joseki.core.moves import typed_moves
from joseki.core.priority import NEUTRAL
from joseki.engine.policy import BookPlayer
from joseki.sgf.booknotes import book_notes
from joseki.sgf.dialects.gnugo import GnuGo
from joseki.sgf.dialects.node import Node
from joseki.sgf.forest import NodeNote, Variation, flatten_bytes
from joseki.sgf.movenotes import BookNotes

from .conftest import JOSEKI, KOGO, Databases, need

HOSHI_KEIMA = JOSEKI / "gnugo" / "hoshi_keima.sgf"
GNUGO = b"This is GNU Go, a Go program.\n"


def notes(text: str, preamble: bytes = b"") -> dict[str, str | None]:
    """Each move's category in one hand-made file."""
    return {p: n.category for p, n in book_notes(flatten_bytes(preamble + text.encode())).moves.items()}


def store_of(db: str, tmp_path: Path, files: dict[str, str]) -> Store:
    """A store at ``db`` with one collection per hand-made file, named by its key."""
    store = Store(db)
    for name, text in files.items():
        path = tmp_path / f"{name}.sgf"
        path.write_text(text, encoding="utf-8")
        assert import_file(store, path, name).error is None
    return store


def candidate(store: Store, steps: str, move: str) -> Candidate:
    [answer] = next_moves(store, steps=steps)
    [found] = [c for c in answer.candidates if c.move == move]
    return found


@pytest.fixture(scope="module")
def kogo_gnugo(databases: Databases) -> Iterator[Store]:
    """Kogo's dictionary and GNU Go's hoshi_keima.sgf in one store, as a new user imports them."""
    url = databases.new("kogo_gnugo")
    store = Store(url)
    assert import_file(store, need(KOGO), "kogo").error is None
    assert import_file(store, need(HOSHI_KEIMA), "gnugo").error is None
    yield store
    store.close()
    databases.drop(url)


# The real collections


def test_the_44_point_is_kogos_ideal_not_gnugos_mistake(kogo_gnugo: Store) -> None:
    [answer] = next_moves(kogo_gnugo)
    [hoshi] = [c for c in answer.candidates if c.move == "Q16"]
    # GNU Go's first node, ;B[pd]C[0], has no square mark: its compiler makes no pattern of it
    assert hoshi.sources == {"kogo": "ideal", "gnugo": None}
    assert hoshi.category == "ideal" and hoshi.label == "ideal (kogo)"
    assert hoshi.priority > NEUTRAL and answer.candidates.index(hoshi) < len(answer.candidates) - 1
    data = answer.as_json()["candidates"][answer.candidates.index(hoshi)]  # type: ignore[index]
    assert data["categories"] == {"kogo": "ideal", "gnugo": None} and data["category_label"] == "ideal (kogo)"


def test_gnugo_patterns_keep_their_class_beside_kogo(kogo_gnugo: Store) -> None:
    # after Q16 R14, GNU Go's R12 is a pattern of class j (lesser joseki); Kogo gives no verdict
    r12 = candidate(kogo_gnugo, "DDCF", "R12")
    assert r12.sources["gnugo"] == "good" and r12.label.endswith("(gnugo)")
    # no move after Q16 R14 is a mistake any more only because GNU Go's unmarked C[0] said so
    assert all(c.sources.get("gnugo") != "mistake" for c in next_moves(kogo_gnugo, steps="DDCF")[0].candidates)


def test_kogo_tenuki_after_the_approach_is_not_the_trick(kogo_gnugo: Store) -> None:
    # the tenuki node's comment says "White 'b' is a trick"; 'b' is R16 on its diagram
    tenuki = candidate(kogo_gnugo, "DDCF", "tenuki")
    assert tenuki.category not in NEVER_FIRST and "trick" not in tenuki.label
    r16 = candidate(kogo_gnugo, "DDCFXX", "R16")
    assert r16.sources["kogo"] == "trick" and r16.category == "trick"


def test_show_gives_each_moves_sources(kogo_gnugo: Store) -> None:
    shown = show(kogo_gnugo, steps="DDCF")
    first = shown.moves[0].as_json()
    assert first["categories"] == {"gnugo": None, "kogo": "ideal"} and first["category_label"] == "ideal (kogo)"


# GNU Go's classes, as patterns/joseki.c reads them


@pytest.mark.parametrize(("comment", "category"), [
    ("U", "ideal"), ("u", "ideal"), ("J", "good"), ("S", "good"), ("j", "good"), ("s", "good"),
    ("t", "tenuki-ok"), ("T", "trick"), ("0", "mistake"), ("a", "mistake"), ("A", "mistake"),
    ("", "good"), ("#hasami", "good"), ("F", "good"), (":8,sj", "good")])
def test_gnugo_class_letters(comment: str, category: str) -> None:
    def own(properties: dict[str, tuple[str, ...]], stone: bool = True) -> list[str | None]:
        note = NodeNote(1, comment, tuple(properties.items()), (1,), True, False, () if stone else (1,))
        line = Variation("DD", "b", Corner.TOP_RIGHT, False, 0, "0", (note,), False)
        return GnuGo().own_verdicts(Node(BookNotes("gnugo"), line, note))

    assert own({"MA": ("mj",)}) == [category]
    assert own({"SQ": ("mj",)}) == [category]
    assert own({}) == []
    assert own({"MA": ("mj",)}, stone=False) == []


def test_gnugo_rates_marked_stone_moves_only() -> None:
    found = notes("(;FF[4]SZ[19];B[pd]C[0];W[qf]MA[mj]C[T];B[tt]MA[mj]C[0];W[qh]C[0]MA[mj])", GNUGO)
    assert found == {"DD": None, "DDCF": "trick", "DDCFXX": None, "DDCFXXCH": "mistake"}


# Free text: the move a verdict names


def test_a_label_on_a_tenuki_node_rates_the_labelled_move() -> None:
    found = notes("(;FF[4]SZ[19];B[pd];W[qf];B[]LB[qd:b]C[Black plays elsewhere. White 'b' is a trick.];W[qd])")
    assert found.get("DDCFXX") is None and found["DDCFXXCD"] == "trick"


def test_a_number_names_a_stone_of_its_colour() -> None:
    # counted without the pass (as Kogo's diagrams number stones): White 3 is W[qd], not Black's pass
    assert notes("(;FF[4]SZ[19];B[pd];W[qf];B[];W[qd]C[White 3 is a trick play.])") == {
        "DDCFXXCD": "trick"}
    # counted with the pass (as an SGF editor numbers moves): White 4 is W[qd] too
    assert notes("(;FF[4]SZ[19];B[pd];W[qf];B[];W[qd]C[White 4 is a trick play.])") == {"DDCFXXCD": "trick"}
    # a number whose colour fits no stone rates nothing
    assert notes("(;FF[4]SZ[19];B[pd];W[qf];B[qh];W[qc]C[White 3 is a mistake.])") == {"DDCFCHCC": None}
    assert notes("(;FF[4]SZ[19];B[pd];W[qf];B[qh];W[qc]C[Black 3 is a mistake.])")["DDCFCH"] == "mistake"


# Precedence inside one collection


def test_a_verdict_on_the_moves_own_node_beats_one_naming_it() -> None:
    def note(parent: str, own: str) -> tuple[str | None, str | None, str | None]:
        text = f"(;FF[4]SZ[19];B[pd];W[qf]LB[qh:a]C[{parent}];B[qh]{own})"
        found = book_notes(flatten_bytes(text.encode())).moves["DDCFCH"]
        return found.own, found.named, found.category

    assert note("Black continues with 'a'.", "C[* Joseki *]") == ("ideal", "good", "ideal")
    assert note("'a' is correct.", "C[Black 3 is slow.]") == ("question", "ideal", "question")
    assert note("'a' is correct.", "BM[1]") == ("mistake", "ideal", "mistake")
    assert note("'a' is a mistake.", "") == (None, "mistake", "mistake")
    # a warning said on another node is never hidden by an offer on the move's own node
    assert note("'a' is a mistake.", "C[Joseki.]") == ("ideal", "mistake", "mistake")
    assert note("'a' is a trick.", "TE[1]") == ("good", "trick", "trick")


def test_equal_verdicts_give_the_more_cautious() -> None:
    assert notes("(;FF[4]SZ[19];B[pd];W[qf]TE[1]DO[])")["DDCF"] == "question"


# Precedence between collections


def test_the_combined_verdict_and_its_label() -> None:
    assert combined({}) is None and category_label({}) == ""
    assert combined({"a": None, "b": None}) is None and category_label({"a": None}) == ""
    assert (combined({"a": "good", "b": "good"}), category_label({"a": "good", "b": "good"})) == ("good", "good")
    assert (combined({"a": "ideal", "b": None}), category_label({"a": "ideal", "b": None})) == ("ideal", "ideal (a)")
    same_side = {"b": "good", "a": "ideal"}
    assert combined(same_side) == "good" and category_label(same_side) == "ideal (a) / good (b)"
    warnings = {"a": "trick", "b": "mistake"}
    assert combined(warnings) == "mistake" and category_label(warnings) == "trick (a) / mistake (b)"
    disputed = {"kogo": "ideal", "gnugo": "mistake", "ogs": "ideal"}
    assert combined(disputed) == DISPUTED and DISPUTED not in NEVER_FIRST
    assert category_label(disputed) == "ideal (kogo, ogs) / mistake (gnugo)"


def test_a_disputed_move_is_offered_but_not_preferred(new_db: Callable[..., str], tmp_path: Path) -> None:
    store = store_of(new_db("book"), tmp_path, {
        "one": "(;FF[4]SZ[19];B[pd];W[qf](;B[qh]TE[2])(;B[oc]))",
        "two": "(;FF[4]SZ[19];B[pd];W[qf](;B[qh]BM[1])(;B[oc]))"})
    disputed, plain = candidate(store, "DDCF", "R12"), candidate(store, "DDCF", "P17")
    assert disputed.sources == {"one": "ideal", "two": "mistake"} and disputed.category == DISPUTED
    assert disputed.label == "ideal (one) / mistake (two)"
    assert disputed.priority < plain.priority == NEUTRAL
    moves = typed_moves(["Q16", "R14"])
    chosen = {BookPlayer(store, seed=seed).choose_after(moves, "b") for seed in range(20)}
    assert disputed.point in chosen and plain.point in chosen


def test_a_mistake_in_one_collection_alone_is_never_played(new_db: Callable[..., str], tmp_path: Path) -> None:
    store = store_of(new_db("book"), tmp_path, {"one": "(;FF[4]SZ[19];B[pd];W[qf];B[qh]BM[1])",
                                        "two": "(;FF[4]SZ[19];B[pd];W[qf];B[qh])"})
    warned = candidate(store, "DDCF", "R12")
    assert warned.sources == {"one": "mistake", "two": None} and warned.label == "mistake (one)"
    assert BookPlayer(store, seed=1).choose_after(typed_moves(["Q16", "R14"]), "b") is None


def test_next_json_maps_sources(new_db: Callable[..., str], tmp_path: Path) -> None:
    from typer.testing import CliRunner

    url = new_db("book")
    store_of(url, tmp_path, {"one": "(;FF[4]SZ[19];B[pd]TE[2])", "two": "(;FF[4]SZ[19];B[pd]IT[])"}).close()
    result = CliRunner().invoke(app, ["--db", url, "next", "--json"])
    assert result.exit_code == 0, result.output
    [cand] = json.loads(result.output)["corners"][0]["candidates"]
    assert cand["categories"] == {"one": "ideal", "two": "trick"} and cand["category"] == DISPUTED
    assert cand["category_label"] == "ideal (one) / trick (two)"
    table = CliRunner().invoke(app, ["--db", url, "next"], env={"COLUMNS": "200"})
    assert "ideal (one) / trick (two)" in table.output
