"""The book's reads as SQL text: the same answers on SQLAlchemy and on sqlite3, and ``next`` without SQLAlchemy.

A store is filled for real (Kogo's dictionary where present, else the starter book, and real
game records learnt into a profile), then every answer :func:`joseki.book.query.next.next_moves`
gives through the store is compared with the one it gives through
:func:`joseki.book.store.bookfile.open_book_file`'s read-only sqlite3 connection.
"""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from joseki.book.query.answer import Options
from joseki.book.query.next import next_in_game, next_moves
from joseki.book.query.show import show
from joseki.book.store.bookfile import BookFile, expand, open_book_file, rows
from joseki.book.store.database import Store
from joseki.cli.common import ensure_starter
from joseki.games.learn import learn
from joseki.sgf.game import read_game

from .conftest import GAMES, KOGO
from .test_cli import joseki


def test_expand_spreads_list_parameters() -> None:
    sql, flat = expand("SELECT a FROM t WHERE a IN (:xs) AND b = :b AND c IN (:ys)", {"xs": [1, 2], "b": 3,
                                                                                     "ys": ()})
    assert sql == "SELECT a FROM t WHERE a IN (:xs_0, :xs_1) AND b = :b AND c IN (NULL)"
    assert flat == {"xs_0": 1, "xs_1": 2, "b": 3}
    assert expand("SELECT x::text, :xs", {"xs": ["a"]})[0] == "SELECT x::text, :xs_0"


def test_rows_run_the_same_sql_on_both_connections(tmp_path: Path) -> None:
    db = tmp_path / "book.sqlite"
    store = Store(str(db))
    ensure_starter(store)
    query = "SELECT name FROM collection WHERE id IN (:ids) ORDER BY name"
    with store.read() as conn:
        through_alchemy = rows(conn, query, {"ids": [1, 2, 3]})
    store.close()
    with sqlite3.connect(db) as conn:
        assert rows(conn, query, {"ids": [1, 2, 3]}) == through_alchemy == [("starter",)]
        assert rows(conn, query, {"ids": []}) == []


@pytest.fixture(scope="module")
def learnt_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store with a book (Kogo's when present) and real professional games learnt: 80 globally, 40 more
    as a profile."""
    db = tmp_path_factory.mktemp("reader") / "book.sqlite"
    store = Store(str(db))
    if KOGO.exists():
        from joseki.book.importer import import_file

        import_file(store, KOGO, "kogo")
    else:
        ensure_starter(store)
    games = sorted((GAMES / "fox-pro").rglob("*.sgf"))[:120]
    if not games:
        pytest.skip(f"no game records under {GAMES / 'fox-pro'}")
    learn(store, games[:80])
    learn(store, games[80:], profile="pros")
    store.close()
    return db


def _game_openings(count: int = 30, length: int = 14) -> list[list[tuple[str, tuple[int, int] | None]]]:
    games = sorted((GAMES / "fox-pro").rglob("*.sgf"))[200 : 200 + count]
    return [read_game(path).moves[:length] for path in games]


def test_next_reads_the_same_through_sqlite3_as_through_the_store(learnt_book: Path) -> None:
    before = hashlib.sha256(learnt_book.read_bytes()).hexdigest()
    store, book = Store(str(learnt_book)), open_book_file(str(learnt_book))
    assert isinstance(book, BookFile)
    asked, seen = 0, set()
    try:
        for profile in (None, "pros"):
            options = Options(top=8, profile=profile, favour=True)
            for moves in _game_openings():
                for cut in (1, 2, 4, 7, 14):
                    played = moves[:cut]
                    one = [a.as_json() for a in next_in_game(store, played, options, context=True)]
                    other = [a.as_json() for a in next_in_game(book, played, options, context=True)]
                    assert one == other, f"after {played}"
                    asked += 1
                    seen.update(str(a.get("statistics")) for a in one)
                    seen.update("ladder" for a in one for c in a.get("candidates", []) if c.get("ladders"))
                    seen.update("games" for a in one for c in a.get("candidates", []) if c.get("games"))
            for moves in (["Q16"], ["Q16", "R14"], ["D4", "C6", "pass"], ["R16", "Q17", "Q16"]):
                for collections in (None, [book_name(learnt_book)]):
                    one = [a.as_json() for a in next_moves(store, moves, options=options, collections=collections,
                                                           context=True)]
                    other = [a.as_json() for a in next_moves(book, moves, options=options, collections=collections,
                                                             context=True)]
                    assert one == other, f"after {moves}"
                    asked += 1
    finally:
        store.close()
        book.close()
    assert asked == 2 * (30 * 5 + 8)
    assert {"context", "back-off", "games"} <= seen, "the comparison covers context, back-off and games"
    if KOGO.exists():
        assert "ladder" in seen
    assert hashlib.sha256(learnt_book.read_bytes()).hexdigest() == before


def test_show_reads_the_same_through_sqlite3_as_through_the_store(learnt_book: Path) -> None:
    store, book = Store(str(learnt_book)), open_book_file(str(learnt_book))
    assert book is not None
    commented = 0
    try:
        for moves in (["Q16"], ["Q16", "R14"], ["R16", "Q17"], ["D4", "C6", "pass"], ["Q16", "R14", "R11"]):
            for profile in (None, "pros"):
                one, other = show(store, moves, profile=profile).as_json(), show(book, moves, profile=profile).as_json()
                assert one == other, f"show {moves}"
                commented += sum(bool(m.get("comments")) for m in one["moves"])
    finally:
        store.close()
        book.close()
    assert commented, "some shown moves carry comments (reframed through a source record)"


def book_name(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT name FROM collection ORDER BY id").fetchone()[0])


def older_book(path: Path) -> Path:
    """A SQLite store holding the starter book, migrated one revision back from the newest."""
    from alembic import command

    from joseki.book.store.database import alembic_config

    store = Store(str(path))
    ensure_starter(store)
    with store.write() as conn:
        command.downgrade(alembic_config(conn), "-1")
    store.close()
    return path


def test_only_a_current_sqlite_book_is_opened_without_the_store(tmp_path: Path) -> None:
    assert open_book_file(str(tmp_path / "missing.sqlite")) is None
    (tmp_path / "text.sqlite").write_text("not a database")
    assert open_book_file(str(tmp_path / "text.sqlite")) is None
    empty = tmp_path / "empty.sqlite"
    Store(str(empty)).close()
    assert open_book_file(str(empty)) is None, "a store without a collection is the store's to fill"
    older = older_book(tmp_path / "older.sqlite")
    assert open_book_file(str(older)) is None, "an older schema is the store's to upgrade"
    assert open_book_file(f"sqlite:///{older}") is None, "a URL goes to the store"


def test_next_upgrades_an_older_store_then_reads_it_without_sqlalchemy(tmp_path: Path) -> None:
    from joseki.book.store.files import head_revision

    older = older_book(tmp_path / "older.sqlite")
    first = joseki("--db", str(older), "next", "Q16", "--json")
    assert first.returncode == 0, first.stderr
    with sqlite3.connect(older) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(head_revision(),)]
    assert open_book_file(str(older)) is not None
    assert joseki("--db", str(older), "next", "Q16", "--json").stdout == first.stdout


IMPORTED_BY_NEXT = """
import sys
sys.argv = ["joseki", *sys.argv[1:]]
from joseki.cli.main import app
try:
    app()
except SystemExit as exc:
    code = exc.code
print("IMPORTED", sorted({m.split('.')[0] for m in sys.modules} & {"sqlalchemy", "alembic"}), code, file=sys.stderr)
"""


def test_next_on_a_current_store_never_imports_sqlalchemy(learnt_book: Path) -> None:
    for args in (["Q16", "R14"], ["Q16", "R14", "--profile", "pros", "--json"], ["D4", "--collection", "nosuch"]):
        run = subprocess.run([sys.executable, "-c", IMPORTED_BY_NEXT, "--db", str(learnt_book), "next", *args],
                             capture_output=True, text=True, timeout=600)
        imported = [line for line in run.stderr.splitlines() if line.startswith("IMPORTED")][-1]
        expected_code = 1 if "nosuch" in args else 0
        assert imported == f"IMPORTED [] {expected_code}", run.stderr
    missing = joseki("--db", str(learnt_book), "next", "D4", "--collection", "nosuch")
    assert missing.returncode == 1 and missing.stderr.strip().count("\n") == 0
    assert "no collection named 'nosuch'" in missing.stderr
