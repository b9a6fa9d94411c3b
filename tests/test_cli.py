"""The command line as a user meets it: real processes, real files, one-line errors."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import MetaData, create_engine, select

from joseki.book.store.files import head_revision

from .conftest import JOSEKI, OGS, need

PACHI_44 = JOSEKI / "pachi" / "joseki_44.sgf"


def joseki(*args: str, db: Path | str | None = None,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "joseki"] + (["--db", str(db)] if db else []) + list(args)
    full_env = {**os.environ, "COLUMNS": "120", **(env or {})}
    return subprocess.run(command, capture_output=True, text=True, env=full_env, timeout=300)


def digest(db: str) -> str:
    """The SQLite file's bytes; on a server database, a dump of every table (rows sorted)."""
    if "://" not in db:
        return hashlib.sha256(Path(db).read_bytes()).hexdigest()
    engine = create_engine(db)
    try:
        meta = MetaData()
        meta.reflect(engine)
        dump = hashlib.sha256()
        with engine.connect() as conn:
            for name, table in sorted(meta.tables.items()):
                rows = sorted(repr(tuple(row)) for row in conn.execute(select(table)))
                dump.update(f"{name}: {len(rows)}\n".encode() + "\n".join(rows).encode())
        return dump.hexdigest()
    finally:
        engine.dispose()


@pytest.fixture()
def book(new_db: Callable[..., str]) -> str:
    db = new_db("book")
    result = joseki("import", str(need(PACHI_44)), db=db)
    assert result.returncode == 0, result.stderr
    return db


def bad_files(tmp: Path) -> dict[str, tuple[Path, str]]:
    truncated = tmp / "truncated.sgf"
    truncated.write_bytes(need(PACHI_44).read_bytes()[:3000])
    (tmp / "binary.sgf").write_bytes(bytes(range(256)) * 4)
    (tmp / "empty.sgf").write_bytes(b"")
    (tmp / "nine.sgf").write_text("(;FF[4]SZ[9];B[cc];W[gg])")
    return {
        "missing": (tmp / "missing.sgf", "no such file"),
        "binary": (tmp / "binary.sgf", "no SGF data found"),
        "truncated": (truncated, "unexpected end of SGF data"),
        "empty": (tmp / "empty.sgf", "empty file"),
        "nine": (tmp / "nine.sgf", "9x9"),
    }


@pytest.mark.parametrize("case", ["missing", "binary", "truncated", "empty", "nine"])
def test_bad_files_fail_cleanly_and_leave_the_database_unchanged(book: str, tmp_path: Path, case: str) -> None:
    path, message = bad_files(tmp_path)[case]
    before = digest(book)
    result = joseki("import", str(path), db=book)
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and str(path) in lines[0] and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert digest(book) == before


def test_one_bad_file_does_not_stop_the_others(tmp_path: Path, new_db: Callable[..., str]) -> None:
    db = new_db("b")
    path, _ = bad_files(tmp_path)["truncated"]
    result = joseki("import", str(path), str(need(OGS)), "--json", db=db)
    assert result.returncode == 1
    files = json.loads(result.stdout)["files"]
    assert [f["status"] for f in files] == ["failed", "imported"]
    assert files[1]["paths"] == 3497


@pytest.mark.parametrize("moves", [["Z99"], ["Q16", "I5"], ["Q16", "Q16"], ["pd", "zz"]])
def test_bad_moves_fail_cleanly_and_leave_the_database_unchanged(book: str, moves: list[str]) -> None:
    before = digest(book)
    result = joseki("next", *moves, db=book)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error:"), result.stderr
    assert digest(book) == before


def test_bad_steps_name_the_token(book: str) -> None:
    result = joseki("next", "--steps", "DDC", db=book)
    assert result.returncode == 1 and "odd length" in result.stderr
    result = joseki("next", "--steps", "DDZZ", db=book)
    assert result.returncode == 1 and "'ZZ'" in result.stderr


def test_next_json_shape(book: str) -> None:
    result = joseki("next", "Q16", "R14", "--json", "--top", "3", db=book)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    (corner,) = data["corners"]
    assert corner["corner"] == "top-right" and corner["steps"] == "DDCF" and corner["state"] == "in-book"
    assert len(corner["candidates"]) == 3
    for c in corner["candidates"]:
        assert set(c) >= {"move", "paths", "priority", "category"}
        assert c["move"] == "tenuki" or c["move"][0].isupper()


def test_empty_store_loads_the_starter_book(new_db: Callable[..., str]) -> None:
    db = new_db("fresh")
    result = joseki("next", "Q16", "R14", db=db)
    assert result.returncode == 0, result.stderr
    assert "starter book" in result.stderr
    assert "top-right" in result.stdout and "R12" in result.stdout
    env_result = joseki("next", "D4", "C6", "--json", env={"JOSEKI_DB": db})
    assert json.loads(env_result.stdout)["corners"][0]["corner"] == "bottom-left"


def test_default_database_lives_in_the_user_data_dir(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "JOSEKI_DB": ""}
    result = joseki("db", "info", "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["url"] == f"sqlite:///{home / 'data' / 'joseki' / 'joseki.sqlite'}"


def test_db_upgrade_on_a_new_file(new_db: Callable[..., str]) -> None:
    db = new_db("new")
    result = joseki("db", "upgrade", db=db)
    head = head_revision()
    assert result.returncode == 0 and f"empty -> {head}" in result.stdout
    again = joseki("db", "upgrade", db=db)
    assert f"{head} -> {head}" in again.stdout


def test_a_bad_database_url_is_one_line(tmp_path: Path) -> None:
    result = joseki("next", "Q16", db="nosuchdriver://x")
    assert result.returncode == 1 and result.stderr.startswith("error:") and "Traceback" not in result.stderr


def test_flatten_command(tmp_path: Path) -> None:
    result = joseki("flatten", str(need(PACHI_44)), "--json")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 298 and all(r["corner"] == "top-right" for r in rows)
