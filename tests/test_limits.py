"""Bounded resources: the documented limits (joseki.core.limits) refuse bigger inputs in one line, and
memory and store size grow linearly with the input below them.

Growth is checked without clocks: tracemalloc's peak and the store's bytes for an input of
size N against 2N. The scaled inputs are generated in tmp_path (benchmarks/bench_limits.py
also runs 100x, with time and peak memory).
"""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from joseki.book.importer import import_files
from joseki.book.store.database import Store
from joseki.core.limits import MAX_FILE_BYTES, MAX_LINE_MOVES, MAX_NODES, MAX_VALUE_BYTES, LimitError
from joseki.sgf.forest import flatten_bytes, flatten_file, read_sgf_bytes
from joseki.sgf.game import game_from_bytes
from joseki.sgf.lint import SHOWN_MOVES, LintReport, lint

from .conftest import KOGO, OGS, need
from .generated import HEAD, distinct_lines, ko_moves, line_sgf, scaled
from .test_cli import joseki

KOGO_NODES, KOGO_PATHS = 62749, 7721


def test_limits_lie_well_above_the_real_maxima() -> None:
    data = need(KOGO).read_bytes()
    assert MAX_FILE_BYTES >= 10 * 1_545_769 and MAX_NODES >= 10 * KOGO_NODES
    assert MAX_LINE_MOVES >= 10 * 273 and MAX_VALUE_BYTES >= 10 * 2651
    assert len(data) < MAX_FILE_BYTES


def test_flatten_dev_zero_ends_with_a_clear_error() -> None:
    result = joseki("flatten", "/dev/zero")
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: /dev/zero: a file of more than {MAX_FILE_BYTES:,} bytes (the limit)"


def test_a_200_mb_file_of_semicolons_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "semicolons.sgf"
    with path.open("wb") as out:
        for _ in range(200):
            out.write(b";" * (1 << 20))
    tracemalloc.start()
    try:
        with pytest.raises(LimitError, match="a file of more than 33,554,432 bytes"):
            read_sgf_bytes(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # refused from its size, not read
    result = joseki("import", str(path), db=tmp_path / "book.sqlite")
    assert result.returncode == 1 and "a file of more than 33,554,432 bytes (the limit)" in result.stderr
    path.unlink()


def test_too_many_nodes_are_refused_on_either_reading_path() -> None:
    many = b"(;" + b";" * MAX_NODES + b")"
    with pytest.raises(LimitError, match=r"^a file of more than 1,000,000 nodes \(the limit\)$"):
        flatten_bytes(many)
    with pytest.raises(LimitError, match="nodes"):  # a game record too
        game_from_bytes(many)
    irregular = b"(;B[pd]" + b";" * MAX_NODES + b"junk)"  # left to sgfmill, which first lists every token
    with pytest.raises(LimitError, match="nodes"):
        flatten_bytes(irregular)
    assert flatten_bytes(b"(;" + b";" * 999 + b"B[pd])").nodes == 1000


def test_a_line_beyond_the_move_limit_is_refused() -> None:
    assert len(flatten_bytes(line_sgf(ko_moves(MAX_LINE_MOVES))).variations) == 1
    with pytest.raises(LimitError, match=r"^game 1: a line of more than 3,000 moves \(the limit\)$"):
        flatten_bytes(line_sgf(ko_moves(MAX_LINE_MOVES + 1)))
    game = line_sgf(ko_moves(MAX_LINE_MOVES + 1)).replace(b"GM[1]", b"GM[1]RE[B+R]")
    with pytest.raises(LimitError, match=r"^a game of more than 3,000 moves"):
        game_from_bytes(game)


def test_the_reported_20000_move_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "long.sgf"
    path.write_bytes(line_sgf(ko_moves(20_000)))
    db = tmp_path / "book.sqlite"
    assert joseki("db", "upgrade", db=db).returncode == 0
    before = db.stat().st_size
    result = joseki("import", str(path), db=db)
    assert result.returncode == 1
    assert f"error: {path}: game 1: a line of more than 3,000 moves (the limit)" in result.stderr
    assert db.stat().st_size == before
    lint = joseki("lint", str(path))
    assert lint.returncode == 1 and "a line of more than 3,000 moves" in lint.stderr


def test_a_comment_beyond_the_value_limit_is_refused() -> None:
    comment = b"x" * (MAX_VALUE_BYTES + 1)
    with pytest.raises(LimitError, match=r"^a C value of more than 65,536 bytes \(the limit\)$"):
        flatten_bytes(HEAD + b";B[pd]C[" + comment + b"])")
    assert flatten_bytes(HEAD + b";B[pd]C[" + comment[1:] + b"])").variations


def _peak(function: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_flatten_memory_grows_linearly() -> None:
    data = need(OGS).read_bytes()
    one, two = _peak(lambda: flatten_bytes(data)), _peak(lambda: flatten_bytes(scaled(data, 2)))
    assert 1.6 < two / one < 2.4
    line, double = (_peak(lambda n=n: flatten_bytes(line_sgf(ko_moves(n)))) for n in (1000, 2000))  # type: ignore[misc]
    assert double / line < 2.4


def test_store_grows_linearly_with_distinct_lines(new_db: Callable[..., str], tmp_path: Path) -> None:
    sizes = []
    for count in (0, 1000, 2000):
        path = tmp_path / f"lines{count}.sgf"
        path.write_bytes(distinct_lines(count) if count else HEAD + b";B[pd])")
        db = tmp_path / f"lines{count}.sqlite"
        store = Store(str(db))
        (report,) = import_files(store, [path])
        assert report.error is None
        store.close()
        sizes.append(os.path.getsize(db))
    grown = [s - sizes[0] for s in sizes[1:]]
    assert 1.6 < grown[1] / grown[0] < 2.4


def test_ten_times_the_largest_real_collection_is_read(tmp_path: Path) -> None:
    path = tmp_path / "kogo10.sgf"
    path.write_bytes(scaled(need(KOGO).read_bytes(), 10))
    forest = flatten_file(path)
    assert forest.nodes == 10 * KOGO_NODES
    assert len(forest.variations) + forest.refused == 10 * KOGO_PATHS


def far_line(moves: int) -> bytes:
    """One line whose moves after the first (Q16) are a ko fought in another corner: each is outside the zone."""
    return line_sgf([(15, 3), *ko_moves(moves - 1)])


def test_lint_memory_grows_linearly(tmp_path: Path) -> None:
    peaks = []
    found: list[LintReport] = []
    for moves in (1000, 2000):
        path = tmp_path / f"far{moves}.sgf"
        path.write_bytes(far_line(moves))
        peaks.append(_peak(lambda path=path: found.append(lint(path))))  # type: ignore[misc]
        assert found[-1].counts() == {"outside-zone": moves - 1}
    assert peaks[1] / peaks[0] < 2.4  # each finding keeps the last moves, not the whole line


def test_a_lint_finding_shows_the_last_moves_of_its_line(tmp_path: Path) -> None:
    path = tmp_path / "far.sgf"
    path.write_bytes(far_line(100))
    last = lint(path).findings[-1]
    assert (last.move, len(last.line), last.earlier) == (100, SHOWN_MOVES, 100 - SHOWN_MOVES)
    assert last.where() == f"game 1, move 100 (... {' '.join(last.line)})" and last.line[-1] == "W C18"
    assert last.as_json()["earlier"] == 70
    first = lint(path).findings[0]
    assert (first.move, first.line, first.earlier) == (2, ("B Q16", "W A18"), 0)
    assert first.where() == "game 1, move 2 (B Q16 W A18)"
