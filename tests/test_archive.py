"""Games inside .zip and .tar.xz archives are learnt and mined without unpacking, as the same files unpacked are."""

from __future__ import annotations

import os
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from joseki.book.importer import import_files
from joseki.book.learnt.outcomes import judged_for
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.engine.judge import JudgeCommand
from joseki.games.evaluate import evaluate
from joseki.games.fanout import Workers, fan_out
from joseki.games.learn import learn
from joseki.games.mine import mine
from joseki.games.pool import start_early
from joseki.sgf.archive import expand_games, source_bytes, sources, split_member

from .conftest import GAMES, GNUGO_CMD, need, needs_gnugo
from .test_learn import stats_table

KGS = GAMES / "kgs-highdan-2019-04"
BROKEN = b"(;FF[4]GM[1]SZ[19];B[dd"


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a folder of the games unpacked, a folder of the same games in a .zip, a .tar.xz and one loose file)."""
    files = sorted(need(KGS).glob("*.sgf"))[:90]
    root = tmp_path_factory.mktemp("packed")
    plain, archived = root / "plain", root / "archived"
    for n, f in enumerate(files):
        target = plain / ("a" if n < 40 else "b" if n < 89 else "c") / f.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(f.read_bytes())
    (plain / "b" / "zz-broken.sgf").write_bytes(BROKEN)
    archived.mkdir()
    with zipfile.ZipFile(archived / "a.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted((plain / "a").iterdir()):
            z.write(f, f"a/{f.name}")
        z.writestr("a/readme.txt", "not a game")
    with tarfile.open(archived / "b.tar.xz", "w:xz") as t:
        for f in sorted((plain / "b").iterdir()):
            t.add(f, f"b/{f.name}")
    (archived / "c").mkdir()
    for f in (plain / "c").iterdir():
        (archived / "c" / f.name).write_bytes(f.read_bytes())
    return plain, archived


def starter(new_db: Callable[..., str], name: str) -> Store:
    store = Store(new_db(name))
    import_files(store, [starter_book()], "starter")
    return store


def test_archive_members_are_named_as_if_the_archive_were_a_folder(packed: tuple[Path, Path]) -> None:
    plain, archived = packed
    games = expand_games([archived])
    unpacked = expand_games([plain])
    assert len(games) == len(unpacked) == 91
    assert [g.split("/")[-1] for g in games] == [g.split("/")[-1] for g in unpacked]
    assert games[0] == f"{archived}/a.zip/a/{Path(unpacked[0]).name}"
    assert split_member(games[0]) == (str(archived / "a.zip"), f"a/{Path(unpacked[0]).name}")
    assert split_member(unpacked[0]) is None
    streamed = list(sources(games))
    assert all(isinstance(s, str) for s in streamed[:40])  # zip members: read where they are needed
    assert all(isinstance(s, tuple) for s in streamed[40:90])  # tar members: read in one pass, bytes passed on
    for game, plain_file in zip(streamed, unpacked, strict=True):
        assert source_bytes(game) == Path(plain_file).read_bytes()
    assert source_bytes(games[60]) == source_bytes(streamed[60])  # a tar member alone is still readable
    with pytest.raises(ValueError, match="no such member"):
        source_bytes(f"{archived}/a.zip/a/missing.sgf")
    (archived.parent / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=r"bad\.zip: not a readable archive"):
        expand_games([archived.parent / "bad.zip"])


def test_learn_and_mine_from_archives_match_the_unpacked_games(packed: tuple[Path, Path],
                                                             new_db: Callable[..., str]) -> None:
    plain, archived = packed
    unpacked, inside = starter(new_db, "plain"), starter(new_db, "archived")
    for workers in (1, 2):
        a = learn(unpacked, [plain], f"w{workers}", workers=workers)
        b = learn(inside, [archived], f"w{workers}", workers=workers)
        assert (a.learnt, a.duplicates, a.corners, a.credits, a.skipped) == (b.learnt, b.duplicates, b.corners,
                                                                             b.credits, b.skipped)
        assert a.learnt == 90 and a.skipped["error"] == 1
    assert [f for f, _ in b.errors] == [f"{archived}/b.tar.xz/b/zz-broken.sgf"]
    ma, _ = mine(unpacked, [plain], 3, workers=2)
    mb, _ = mine(inside, [archived], 3, workers=2)
    assert (ma.learnt, ma.corners, ma.credits) == (mb.learnt, mb.corners, mb.credits)
    assert stats_table(unpacked) == stats_table(inside)
    assert evaluate(unpacked, [plain]) == evaluate(inside, [archived])


@needs_gnugo
@pytest.mark.parametrize("signal", ["result", "local", "both"])
def test_every_signal_reads_a_zip_and_a_tar_xz_as_the_folder_of_the_same_games(
        signal: str, tmp_path: Path, new_db: Callable[..., str]) -> None:
    files = sorted(need(KGS).glob("*.sgf"))[:2]
    folder = tmp_path / "two"
    folder.mkdir()
    for f in files:
        (folder / f.name).write_bytes(f.read_bytes())
    with zipfile.ZipFile(tmp_path / "two.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(f, f"two/{f.name}")
    with tarfile.open(tmp_path / "two.tar.xz", "w:xz") as t:
        for f in files:
            t.add(f, f"two/{f.name}")
    judge = JudgeCommand(GNUGO_CMD) if signal != "result" else None
    seen = []
    for number, path in enumerate((folder, tmp_path / "two.zip", tmp_path / "two.tar.xz")):
        store = starter(new_db, f"{signal}-{number}")
        report = learn(store, [path], "p", workers=1, signal=signal, judge=judge)
        local = report.local
        with store.read() as conn:
            judged = judged_for(conn, store, "p")
        seen.append((report.files, report.learnt, report.corners, report.credits, stats_table(store),
                     None if local is None else (local.files, local.judged, local.corners), judged))
        store.close()
        if signal != "result":
            assert local is not None and local.judged == 2 and local.corners > 0
        if signal != "local":
            assert report.learnt == 2 and report.corners > 0
    assert seen[0] == seen[1] == seen[2]


def test_a_folder_s_games_come_in_the_order_of_their_paths_parts(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing reads each folder once, yet orders as ``sorted(folder.rglob("*"))`` did: by the names' parts
    (``a/z.sgf`` before ``a-b/a.sgf``, though ``/`` sorts after ``-`` in a string), links to folders not followed,
    links to files followed, broken links, other files and folders left out."""
    root = tmp_path / "games"
    for name in ["a/z.sgf", "a-b/a.sgf", "a/b/c.SGF", "a/b.sgf", "ab.sgf", "A.sgf", ".hidden/x.sgf", "notes.txt",
                 "a b/é.sgf"]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"(;GM[1])")
    (root / "empty").mkdir()
    (root / "to-a").symlink_to(root / "a", target_is_directory=True)
    (root / "link.sgf").symlink_to(root / "ab.sgf")
    (root / "broken.sgf").symlink_to(root / "gone.sgf")
    expected = [str(p) for p in sorted(root.rglob("*")) if p.is_file() and p.suffix.lower() == ".sgf"]
    assert expand_games([root]) == expected
    assert [Path(n).relative_to(root).as_posix() for n in expected] == [
        ".hidden/x.sgf", "A.sgf", "a/b/c.SGF", "a/b.sgf", "a/z.sgf", "a b/é.sgf", "a-b/a.sgf", "ab.sgf", "link.sgf"]
    monkeypatch.chdir(root)
    here = sorted(Path(".").rglob("*"))
    assert expand_games(["."]) == [str(p) for p in here if p.is_file() and p.suffix.lower() == ".sgf"]
    assert expand_games(["."])[0] == ".hidden/x.sgf"


def test_workers_read_relative_names_in_the_parent_s_directory_of_now(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers are forked from a server that may have started in another directory (and environment): each takes
    the parent's of the moment, so a relative name reads in the workers as in the parent."""
    start_early()  # started here, before the change of directory
    files = sorted(need(KGS).glob("*.sgf"))[:60]
    here, there = Store(str(tmp_path / "here.sqlite")), Store(str(tmp_path / "there.sqlite"))
    for store in (here, there):
        import_files(store, [starter_book()], "starter")
    learn(there, files, workers=1)
    monkeypatch.chdir(KGS)
    report = learn(here, [f.name for f in files], workers=2)
    assert not report.errors and report.learnt == 60 - sum(report.skipped.values())
    assert stats_table(here) == stats_table(there) and stats_table(here)


def _environment(chunk: list[str]) -> list[str | None]:
    return [os.environ.get(name) for name in chunk]


def test_workers_see_the_parent_s_environment_of_now(monkeypatch: pytest.MonkeyPatch) -> None:
    start_early()
    monkeypatch.setenv("JOSEKI_TEST_SEEN", "yes")
    monkeypatch.delenv("HOME", raising=False)
    names = ["JOSEKI_TEST_SEEN", "HOME"] * 50
    seen = [v for part in fan_out(_environment, names, len(names), Workers(processes=2), 10) for v in part]
    assert seen == ["yes", None] * 50
