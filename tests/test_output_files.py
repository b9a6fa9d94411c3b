"""Safe output files (:mod:`joseki.sgf.output`): whole or not at all, never through a link, the user's mode kept.

Library calls on real files, and the commands that write files (``export -o``, ``annotate -o``)
as real processes; a full disk is RLIMIT_FSIZE in a child process (writes past it fail with EFBIG).
"""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from joseki.sgf.output import OutputError, write_output

from .conftest import GAMES, need
from .test_cli import PACHI_44, joseki
from .test_errors import one_error


@pytest.fixture()
def umask() -> Iterator[Callable[[int], None]]:
    """Set this process's umask for the test; the old one comes back after."""
    old = os.umask(0o022)

    def set_mask(mask: int) -> None:
        os.umask(mask)

    yield set_mask
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_new_file_gets_the_umasks_mode(tmp_path: Path, umask: Callable[[int], None], mask: int,
                                         expected: int) -> None:
    umask(mask)
    target = tmp_path / "new.sgf"
    write_output(target, "(;GM[1])\n")
    assert target.read_text() == "(;GM[1])\n"
    assert mode(target) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.sgf"]


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "book.sgf"
    target.write_text("old")
    target.chmod(0o604)
    write_output(target, b"new")
    assert target.read_bytes() == b"new" and mode(target) == 0o604
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.sgf"]


def test_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "out.sgf"
    link.symlink_to(victim)
    with pytest.raises(OutputError, match="is a symbolic link"):
        write_output(link, "(;GM[1])")
    assert victim.read_text() == "precious" and link.is_symlink()
    dangling = tmp_path / "dangling.sgf"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(OutputError, match="is a symbolic link"):
        write_output(dangling, "(;GM[1])")
    assert not (tmp_path / "nowhere").exists()


def test_folders_and_missing_folders_are_told(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a folder"):
        write_output(tmp_path, "x")
    with pytest.raises(OutputError, match="no such folder"):
        write_output(tmp_path / "missing" / "x.sgf", "x")
    plain = tmp_path / "plain"
    plain.write_text("")
    with pytest.raises(OutputError, match="is not a folder"):
        write_output(plain / "x.sgf", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_leaves_the_old_file_and_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "book.sgf"
    target.write_text("old content")
    code = ("import sys\nfrom joseki.sgf.output import write_output, OutputError\n"
            "try:\n    write_output(sys.argv[1], b'x' * 1_000_000)\n"
            "except OutputError as exc:\n    print(exc)\n    sys.exit(1)\n")
    result = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True,
                            preexec_fn=_file_size_limit(10_000))
    assert result.returncode == 1, result.stderr
    assert result.stdout.strip() == f"{target}: cannot write: File too large"
    assert target.read_text() == "old content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.sgf"]


# --- the commands ----------------------------------------------------------------------------------

@pytest.fixture()
def book(tmp_path: Path) -> Path:
    path = tmp_path / "store" / "book.sqlite"
    path.parent.mkdir()
    result = joseki("import", str(need(PACHI_44)), db=path)
    assert result.returncode == 0, result.stderr
    return path


def game_file() -> Path:
    return min(need(GAMES / "kgs-highdan-2019-04").glob("*.sgf"))


def write_command(kind: str, output: Path) -> list[str]:
    return ["export", "-o", str(output)] if kind == "export" else ["annotate", str(game_file()), "-o", str(output)]


@pytest.mark.parametrize("kind", ["export", "annotate"])
def test_bad_outputs_are_one_line(book: Path, tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (out / "link.sgf").symlink_to(victim)
    cases = {out: "is a folder", tmp_path / "missing" / "x.sgf": "no such folder",
             out / "link.sgf": "is a symbolic link"}
    for target, message in cases.items():
        line = one_error(joseki(*write_command(kind, target), db=book))
        assert line.startswith(f"error: {target}: {message}"), line
    assert victim.read_text() == "precious"
    assert sorted(p.name for p in out.iterdir()) == ["link.sgf"]


@pytest.mark.parametrize("kind", ["export", "annotate"])
def test_outputs_are_replaced_whole_keeping_their_mode(book: Path, tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    target = out / "written.sgf"
    result = subprocess.run([sys.executable, "-m", "joseki", "--db", str(book), *write_command(kind, target)],
                            capture_output=True, text=True, preexec_fn=lambda: os.umask(0o027))
    assert result.returncode == 0, result.stderr
    assert mode(target) == 0o640 and target.read_text(encoding="utf-8", errors="replace").startswith("(")
    first = target.read_bytes()
    target.chmod(0o664)
    assert joseki(*write_command(kind, target), db=book).returncode == 0
    assert mode(target) == 0o664 and target.read_bytes() == first
    assert sorted(p.name for p in out.iterdir()) == ["written.sgf"]


@pytest.mark.parametrize("kind", ["export", "annotate"])
def test_a_full_disk_leaves_the_old_output(book: Path, tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    target = out / "written.sgf"
    target.write_text("old")
    result = subprocess.run([sys.executable, "-m", "joseki", "--db", str(book), *write_command(kind, target)],
                            capture_output=True, text=True, preexec_fn=_file_size_limit(200))
    assert one_error(result) == f"error: {target}: cannot write: File too large"
    assert target.read_text() == "old"
    assert sorted(p.name for p in out.iterdir()) == ["written.sgf"]
