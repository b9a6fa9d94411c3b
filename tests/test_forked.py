"""Work done in a forked child: same answers and errors as in-process, and no child left behind."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

import joseki.book.importer as importer
from joseki.book.importer import import_files
from joseki.book.store import Store
from joseki.sgf.forked import Forked

from .conftest import KOGO, need

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child is forked on Linux only")


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@linux
def test_the_result_comes_from_a_child_and_the_child_is_reaped() -> None:
    job = Forked(lambda: {"pid": os.getpid(), "lines": [("DD", 1, None)], "n": 2**62})
    pid = job.pid
    assert pid is not None
    result = job.result()
    assert result["pid"] == pid != os.getpid()
    assert result["lines"] == [("DD", 1, None)] and result["n"] == 2**62
    assert _gone(pid)


@linux
def test_a_value_error_in_the_child_is_raised_here() -> None:
    def fails() -> None:
        raise ValueError("bad property JS[1,2]")

    job = Forked(fails)
    assert job.pid is not None
    with pytest.raises(ValueError, match=r"^bad property JS\[1,2\]$"):
        job.result()


@linux
def test_anything_else_going_wrong_in_the_child_is_redone_here() -> None:
    parent = os.getpid()

    def only_here() -> int:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return 7

    assert Forked(only_here).result() == 7
    marker = object()
    assert Forked(lambda: marker).result() is marker  # not marshallable: computed again here


@linux
def test_cancel_stops_a_child_whose_result_is_not_wanted() -> None:
    job = Forked(lambda: "x" * 10_000_000)  # more than a pipe holds: the child waits to write
    pid = job.pid
    assert pid is not None
    job.cancel()
    assert _gone(pid)


def test_with_other_threads_running_the_work_stays_here() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        job = Forked(os.getpid)
        assert job.pid is None and job.result() == os.getpid()
    finally:
        stop.set()
        thread.join()


@linux
def test_malformed_notes_read_in_a_child_write_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importer, "FORK_MIN_LINES", 1)
    book = tmp_path / "book.sqlite"
    store = Store(str(book))
    (good,) = import_files(store, [need(KOGO)], "kogo")
    assert good.error is None and good.new == 7702  # 7704 lines less the 2 with an illegal move
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]SZ[19];B[pd]JS[1,2];W[qf])")
    store.close()
    before = book.read_bytes()
    store = Store(str(book))
    (report,) = import_files(store, [bad])
    store.close()
    assert report.status == "failed" and report.error is not None and "JS[1,2]" in report.error
    assert book.read_bytes() == before


@linux
def test_a_big_file_imports_the_same_with_its_notes_read_in_a_child(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def table(db: Path) -> list[tuple[object, ...]]:
        with Store(str(db)) as store, store.read() as conn:
            return list(map(tuple, conn.exec_driver_sql(
                "SELECT node_id, paths, category, comment, properties, conditions FROM node_book ORDER BY node_id")))

    for name, threshold in (("child", 1), ("here", 10**9)):
        monkeypatch.setattr(importer, "FORK_MIN_LINES", threshold)
        with Store(str(tmp_path / f"{name}.sqlite")) as store:
            import_files(store, [need(KOGO)], "kogo")
    assert table(tmp_path / "child.sqlite") == table(tmp_path / "here.sqlite")


@linux
def test_when_fork_fails_the_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise BlockingIOError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    job = Forked(os.getpid)
    assert job.pid is None and job.result() == os.getpid()
