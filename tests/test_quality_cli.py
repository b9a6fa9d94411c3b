"""The editor's commands as a user meets them: show, export, stats and lint in real processes."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import JOSEKI, need

PACHI_44 = JOSEKI / "pachi" / "joseki_44.sgf"


def joseki(*args: str, db: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "joseki"] + (["--db", db] if db else []) + list(args)
    return subprocess.run(command, capture_output=True, text=True, env={**os.environ, "COLUMNS": "160"},
                          timeout=300)


@pytest.fixture()
def book(new_db: Callable[..., str]) -> str:
    db = new_db("book")
    result = joseki("import", str(need(PACHI_44)), "--collection", "pachi", db=db)
    assert result.returncode == 0, result.stderr
    return db


def state(db: str) -> str:
    return hashlib.sha256(Path(db).read_bytes()).hexdigest() if "://" not in db else db


def test_show_steps_and_moves(book: str) -> None:
    result = joseki("show", "DDCFCE", db=book)
    assert result.returncode == 0, result.stderr
    assert "Q16" in result.stdout and "R14" in result.stdout and "favourability" in result.stdout
    data = json.loads(joseki("show", "Q16", "R14", "R12", "--json", db=book).stdout)
    assert data["steps"] == "DDCFCH" and [m["move"] for m in data["moves"]] == ["Q16", "R14", "R12"]
    assert {"category", "conditions", "comments", "games"} <= set(data["moves"][0])
    assert set(data["favourability"]) == {"first", "second", "area", "influence"}
    bad = joseki("show", "Q16", "D4", db=book)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "one corner" in bad.stderr


def test_next_json_has_conditions(book: str) -> None:
    data = json.loads(joseki("next", "--steps", "DD", "--json", db=book).stdout)
    assert all("conditions" in c for c in data["corners"][0]["candidates"])


def test_export_and_import_again(book: str, new_db: Callable[..., str], tmp_path: Path) -> None:
    out = tmp_path / "book.sgf"
    result = joseki("export", "--collection", "pachi", "-o", str(out), "--json", db=book)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["records"] == 297  # 34 of them play another's moves from setup stones
    again = new_db("again")
    assert joseki("import", str(out), "--collection", "pachi", db=again).returncode == 0
    before = json.loads(joseki("stats", "--json", db=book).stdout)["collections"]
    after = json.loads(joseki("stats", "--json", db=again).stdout)["collections"]
    for counts in before + after:
        del counts["setup_records"]
    assert before == after
    missing = joseki("export", "--collection", "nope", "-o", str(out), db=book)
    assert missing.returncode == 1 and "no collection named 'nope'" in missing.stderr


def test_stats(book: str) -> None:
    data = json.loads(joseki("stats", "--favourability", "--json", db=book).stdout)
    [pachi] = data["collections"]
    assert pachi["records"] == 297 and pachi["categories"]["mistake"] == 92 and pachi["setup_moves"] == 464
    assert pachi["favourability"]["records"] == 297
    assert "pachi" in joseki("stats", db=book).stdout


def test_lint_prints_findings_and_exits_zero(tmp_path: Path) -> None:
    result = joseki("lint", str(need(PACHI_44)))
    assert result.returncode == 0, result.stderr
    assert "duplicate" in result.stdout and "263" not in result.stderr
    data = json.loads(joseki("lint", str(PACHI_44), "--json").stdout)
    assert data["counts"]["duplicate"] == 1 and data["dialect"] == "pachi"
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;FF[4]SZ[19];B[pd]")
    bad = joseki("lint", str(broken))
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "broken.sgf" in bad.stderr


def test_a_bad_export_leaves_the_database_unchanged(book: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]SZ[19];B[pd]JS[1,2];W[qf])")
    before = state(book)
    result = joseki("import", str(bad), db=book)
    assert result.returncode == 1 and "bad.sgf" in result.stderr and "JS[1,2]" in result.stderr
    assert state(book) == before
