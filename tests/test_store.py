"""The store end to end: importing real collections, re-importing, and the next-move query."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from joseki.book.importer import import_files, position_counts
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store, current_revision
from joseki.book.store.files import head_revision
from joseki.core.geometry import ALL_TRANSFORMS, Corner, Transform
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.sgf.forest import flatten_file
from joseki.sgf.setups import placements, stored_stones

from .conftest import JOSEKI, KOGO, KOGO_ZH, OGS, Databases, need


@pytest.fixture(scope="module")
def kogo_store(databases: Databases) -> Iterator[Store]:
    url = databases.new("kogo")
    store = Store(url)
    (report,) = import_files(store, [need(KOGO)], "kogo")
    assert report.error is None
    yield store
    store.close()
    databases.drop(url)


def test_kogo_imports_every_distinct_path(kogo_store: Store) -> None:
    forest = flatten_file(KOGO)
    distinct = {(v.steps, stored_stones(placements(v), v.steps)) for v in forest.variations}  # moves and setup stones
    with kogo_store.read() as conn:
        rows = conn.exec_driver_sql(
            "SELECT count(*), count(DISTINCT steps || '/' || setup_stones) FROM variation").one()
        assert tuple(rows) == (len(distinct), len(distinct))
        root_paths = conn.exec_driver_sql(
            "SELECT sum(paths) FROM node_book JOIN node ON node.id = node_book.node_id WHERE node.depth = 1").scalar()
        from_setup = conn.exec_driver_sql(
            "SELECT sum(paths) FROM setup_book JOIN node ON node.id = setup_book.node_id WHERE node.depth = 1").scalar()
        assert root_paths + (from_setup or 0) == len(distinct)
        assert current_revision(conn) == head_revision()


def test_reimport_adds_nothing_and_replace_reimports(new_db: Callable[..., str]) -> None:
    store = Store(new_db("b"))
    (first,) = import_files(store, [need(OGS)])
    assert (first.status, first.paths, first.new + first.duplicates + first.refused) == ("imported", 3497, 3497)
    assert first.refused == 6  # its six lines with a move on an occupied point (see test_legality)
    (again,) = import_files(store, [OGS])
    assert (again.status, again.new) == ("already imported", 0)
    (replaced,) = import_files(store, [OGS], replace=True)
    assert (replaced.status, replaced.new) == ("replaced", first.new)
    with store.read() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM variation").scalar() == first.new
        assert conn.exec_driver_sql("SELECT count(*) FROM source_file").scalar() == 1
        top = conn.exec_driver_sql(
            "SELECT sum(paths) FROM node_book JOIN node ON node.id = node_book.node_id WHERE node.depth = 1").scalar()
        assert top == first.new


def test_every_real_collection_imports(new_db: Callable[..., str]) -> None:
    store = Store(new_db("all"))
    reports = import_files(store, [need(JOSEKI)])
    assert len(reports) == 18 and not [r for r in reports if r.error]
    assert sum(r.paths for r in reports) == 7721 + 7667 + 3497 + 5393 + 6012 + 332 + 508 + 45 + 203


def test_two_files_into_one_collection_count_each_path_once(new_db: Callable[..., str]) -> None:
    store = Store(new_db("merged"))
    first, second = import_files(store, [need(KOGO), need(KOGO_ZH)], "kogo")
    assert second.new > 0 and second.duplicates > 0  # the translation shares most lines, not all
    with store.read() as conn:
        lines = [(str(a), str(b)) for a, b in conn.exec_driver_sql("SELECT steps, setup_stones FROM variation")]
        paths: dict[str, int] = dict(conn.exec_driver_sql(
            "SELECT node.steps, node_book.paths FROM node_book JOIN node ON node.id = node_book.node_id").all())
        from_setup = {(str(s), str(p)): n for s, p, n in conn.exec_driver_sql(
            "SELECT setup, node.steps, setup_book.paths FROM setup_book JOIN node ON node.id = setup_book.node_id")}
    assert len(lines) == first.new + second.new
    assert (paths, from_setup) == position_counts(lines)


def test_the_head_revision_read_from_the_scripts_is_alembics() -> None:
    from alembic.script import ScriptDirectory

    from joseki.book.store.database import alembic_config

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_a_current_store_opens_without_importing_alembic(tmp_path: Path) -> None:
    Store(str(tmp_path / "s.sqlite")).close()
    code = ("import sys; from joseki.book.store.database import Store; Store(sys.argv[1]).close(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'pydantic')))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "s.sqlite")], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_malformed_notes_write_nothing(tmp_path: Path) -> None:
    book = tmp_path / "book.sqlite"
    with Store(str(book)) as store:
        (good,) = import_files(store, [need(KOGO)], "kogo")
    assert good.error is None and good.new == 7714  # 7721 lines less the 2 with an illegal move and 5 duplicates
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]SZ[19];B[pd]JS[1,2];W[qf])")
    before = book.read_bytes()
    with Store(str(book)) as store:
        (report,) = import_files(store, [bad])
    assert report.status == "failed" and report.error is not None and "JS[1,2]" in report.error
    assert book.read_bytes() == before


def candidates(store: Store, moves: list[str], **kw: object) -> list[str]:
    (answer,) = next_moves(store, moves, **kw)  # type: ignore[arg-type]
    return [c.move for c in answer.candidates]


def test_next_after_approach_lists_standard_answers(kogo_store: Store) -> None:
    (answer,) = next_moves(kogo_store, ["Q16", "R14"])
    assert answer.state == "in-book" and answer.steps == "DDCF" and answer.to_move == "b"
    moves = [c.move for c in answer.candidates]
    # the one-space jump, the small knight and the pincers of Kogo's 4-4 chapter
    assert {"R12", "O16", "Q12", "R10"} <= set(moves)
    assert answer.candidates[0].category not in ("mistake", "trick")


def transformed(moves: list[str], t: Transform) -> list[str]:
    base = Transform(Corner.TOP_RIGHT)
    return [format_gtp_vertex(t.to_board(base.to_zone(parse_gtp_vertex(m), 19), 19)) for m in moves]  # type: ignore[arg-type]


@pytest.mark.parametrize("t", ALL_TRANSFORMS, ids=str)
@pytest.mark.parametrize("first", ["b", "w"])
def test_same_answer_in_all_eight_forms_and_both_colours(kogo_store: Store, t: Transform, first: str) -> None:
    line = ["Q16", "R14", "O16", "Q12"]
    reference = candidates(kogo_store, line)
    (answer,) = next_moves(kogo_store, transformed(line, t), first=first)
    assert answer.corner is t.corner
    assert answer.to_move == first
    expected = [m if m == "tenuki" else transformed([m], t)[0] for m in reference]
    assert [c.move for c in answer.candidates] == expected


def test_symmetric_prefix_gives_one_representative(kogo_store: Store) -> None:
    moves = candidates(kogo_store, ["Q16"])
    # after a lone 4-4 stone the knight's approach appears once, on the right side (R14, not O17)
    assert "R14" in moves and "O17" not in moves
    assert "R17" in moves  # the 3-3 invasion, on the diagonal


def test_out_of_book(kogo_store: Store) -> None:
    (answer,) = next_moves(kogo_store, ["Q16", "R14", "S18"])
    assert answer.state == "left-book"
    assert answer.book_steps == "DDCF" and answer.left_at == 3 and answer.left_move == "S18"
    assert answer.candidates == []
    assert "R12" in [c.move for c in answer.alternatives]


def test_steps_and_sgf_notation(kogo_store: Store) -> None:
    (answer,) = next_moves(kogo_store, steps="DDFC")
    assert answer.steps == "DDCF"
    assert [c.move for c in answer.candidates] == candidates(kogo_store, ["Q16", "O17"])
    sgf = candidates(kogo_store, ["pd", "qf"])
    assert "qh" in sgf  # R12 in SGF notation


def test_tenuki_in_the_input(kogo_store: Store) -> None:
    (answer,) = next_moves(kogo_store, ["Q16", "R14", "pass"])
    assert answer.steps == "DDCFXX" and answer.to_move == "w"
