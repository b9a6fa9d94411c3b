"""``learn`` and ``mine`` on a real Dask cluster (a scheduler, two workers, on 127.0.0.1) write what a local run does.

The stores are compared table by table (every column but the timestamps), on SQLite or on
PostgreSQL when the suite runs there. Tasks are small (a few files each) so that every run has
many of them, and a worker is killed, deterministically, once it holds a finished result the
parent has not fetched yet: Dask must rerun that task elsewhere.
"""

from __future__ import annotations

import json
import shutil
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import DateTime, select

from joseki.book.importer import import_files
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.games import cluster
from joseki.games.learn import learn
from joseki.games.mine import mine, reduce_chunk

from .conftest import GAMES, need
from .dask_procs import DaskProcesses
from .test_archive import packed  # noqa: F401 (a fixture)
from .test_cli import joseki

KGS = GAMES / "kgs-highdan-2019-04"


def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, sorted, without the timestamp columns (the only thing two runs may differ in)."""
    out = {}
    with store.read() as conn:
        for name, table in store.tables.items():
            columns = [c for c in table.columns if not isinstance(c.type, DateTime)]
            out[name] = sorted((tuple(row) for row in conn.execute(select(*columns))), key=repr)
    return out


@pytest.fixture(scope="module")
def dask(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaskProcesses]:
    with DaskProcesses(tmp_path_factory.mktemp("dask")) as procs:
        yield procs


@pytest.fixture()
def small_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CHUNK_FILES", 6)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Real games, one of them twice (a duplicate) and one broken file (skipped with its reason)."""
    files = sorted(need(KGS).glob("*.sgf"))[:150]
    extra = tmp_path_factory.mktemp("extra")
    copy = shutil.copy(files[7], extra / "again.sgf")
    broken = extra / "broken.sgf"
    broken.write_text("(;FF[4]GM[1]SZ[19];B[dd", encoding="utf-8")
    return [*files[:100], Path(copy), broken, *files[100:]]


def starter(new_db: Callable[..., str], name: str) -> Store:
    store = Store(new_db(name))
    import_files(store, [starter_book()], "starter")
    return store


@pytest.mark.usefixtures("small_tasks")
def test_mine_on_a_cluster_writes_what_a_local_run_writes(dask: DaskProcesses, games: list[Path],
                                                          new_db: Callable[..., str]) -> None:
    local, remote = starter(new_db, "local"), starter(new_db, "remote")
    expected = mine(local, games, min_games=3, workers=1)
    seen: list[int] = []
    got = mine(remote, games, min_games=3, cluster=dask.address, progress=lambda done, total: seen.append(done))
    assert got == expected
    assert expected[0].learnt == 150 and expected[0].duplicates == 1 and expected[0].skipped["error"] == 1
    assert seen == list(range(1, len(games) + 1))
    assert dump(remote) == dump(local)


@pytest.mark.usefixtures("small_tasks")
def test_learn_on_a_cluster_writes_what_a_local_run_writes(dask: DaskProcesses, games: list[Path],
                                                           new_db: Callable[..., str]) -> None:
    local, remote = starter(new_db, "local"), starter(new_db, "remote")
    expected = learn(local, games, "kgs", workers=1, batch_games=40)
    got = learn(remote, games, "kgs", cluster=dask.address, batch_games=40)
    assert got == expected and expected.learnt == 150 and expected.credits > 0
    assert dump(remote) == dump(local)


def kill_a_busy_worker(procs: DaskProcesses) -> Callable[[int, int], None]:
    """A progress callback that, the first time, kills a worker holding a chunk result not yet fetched."""
    from distributed import Client

    def progress(done: int, total: int) -> None:
        if procs.killed:
            return
        with Client(procs.address, set_as_default=False) as client:
            while True:  # the parent waits here, so the chunks in flight finish and wait to be fetched
                names = {a: w["name"] for a, w in client.scheduler_info(n_workers=-1)["workers"].items()}
                busy = [names[a] for a, keys in client.has_what().items()
                        if a in names and any(str(k).startswith(cluster.KEY_PREFIX) for k in keys)]
                if busy:
                    break
        procs.kill(busy[0])

    return progress


@pytest.mark.usefixtures("small_tasks")
def test_a_worker_killed_mid_run_changes_nothing(tmp_path: Path, games: list[Path],
                                                 new_db: Callable[..., str]) -> None:
    with DaskProcesses(tmp_path) as procs:
        local, remote = starter(new_db, "local"), starter(new_db, "remote")
        expected = learn(local, games, "kgs", workers=1)
        got = learn(remote, games, "kgs", cluster=procs.address, progress=kill_a_busy_worker(procs))
        assert len(procs.killed) == 1
        procs.wait_for_workers(1)
        assert got == expected
        assert dump(remote) == dump(local)

        procs.add_worker("w3")
        procs.wait_for_workers(2)
        procs.killed.clear()
        expected_mine = mine(local, games, min_games=3, workers=1)
        got_mine = mine(remote, games, min_games=3, cluster=procs.address, progress=kill_a_busy_worker(procs))
        assert len(procs.killed) == 1
        assert got_mine == expected_mine
        assert dump(remote) == dump(local)


@pytest.mark.usefixtures("small_tasks")
def test_archives_on_a_cluster_give_what_they_give_locally(dask: DaskProcesses, request: pytest.FixtureRequest,
                                                           new_db: Callable[..., str]) -> None:
    # a .zip (members read by the workers) and a .tar.xz (members read by the parent, sent as bytes)
    archived = request.getfixturevalue("packed")[1]
    local, remote = starter(new_db, "local"), starter(new_db, "remote")
    assert learn(remote, [archived], cluster=dask.address) == learn(local, [archived], workers=1)
    assert mine(remote, [archived], 3, cluster=dask.address) == mine(local, [archived], 3, workers=1)
    assert dump(remote) == dump(local)


def test_the_commands_take_a_cluster(dask: DaskProcesses, tmp_path: Path, games: list[Path]) -> None:
    names = [str(g) for g in games[:60]]
    for command in (["mine", *names, "--min-games", "3"], ["learn", *names, "--profile", "p"]):
        local = joseki(*command, "--workers", "1", "--json", db=tmp_path / "local.sqlite")
        remote = joseki(*command, "--cluster", dask.address, "--json", db=tmp_path / "remote.sqlite")
        assert remote.returncode == local.returncode == 0, remote.stderr
        assert json.loads(remote.stdout) == json.loads(local.stdout)
    assert dump(Store(str(tmp_path / "remote.sqlite"))) == dump(Store(str(tmp_path / "local.sqlite")))


def test_a_file_a_worker_cannot_see_stops_the_run(dask: DaskProcesses, tmp_path: Path) -> None:
    missing = str(tmp_path / "elsewhere" / "game.sgf")
    with pytest.raises(ValueError, match=r"game\.sgf: not found on a worker at .*every worker must see"):
        list(cluster.map_chunks(dask.address, reduce_chunk, [missing]))


def test_no_scheduler_is_a_one_line_error(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    game = sorted(need(KGS).glob("*.sgf"))[0]
    for command in ("learn", "mine"):
        result = joseki(command, str(game), "--cluster", f"tcp://127.0.0.1:{port}", db=tmp_path / "b.sqlite")
        assert result.returncode == 1
        assert result.stderr.strip().count("\n") == 0, result.stderr
        assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in result.stderr
    result = joseki("learn", str(game), "--cluster", "tcp://127.0.0.1:1", "--workers", "2", db=tmp_path / "b.sqlite")
    assert result.returncode != 0 and "--workers and --cluster exclude each other" in result.stderr
