"""PostgreSQL as a backend: URLs, errors, migrations, processes starting together, and query plans.

Most tests here run on both backends (the one under test, see conftest); those that need a
PostgreSQL server skip with a reason on SQLite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Connection, event, text

from joseki.book.importer import import_files
from joseki.book.learnt.profiles import GLOBAL, records_for
from joseki.book.learnt.results import add_records, profile_id
from joseki.book.query.lookup import Lookup
from joseki.book.store.database import Store, StoreError, alembic_config, current_revision, resolve_url
from joseki.book.store.files import head_revision, starter_book
from joseki.book.store.keys import node_id
from joseki.core.position import keys_along, steps_key
from joseki.core.priority import Record

from .conftest import GAMES, KOGO, Databases, need


def joseki(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "joseki", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "120"})


@pytest.fixture()
def postgres(databases: Databases) -> Databases:
    if not databases.is_postgres:
        pytest.skip("needs PostgreSQL: set JOSEKI_TEST_DB (see .ci/postgres.sh)")
    return databases


def test_plain_postgresql_urls_mean_psycopg_3() -> None:
    assert resolve_url("postgresql://u:pw@db.example:5433/book") == "postgresql+psycopg://u:pw@db.example:5433/book"
    assert resolve_url("postgres://u@localhost/book") == "postgresql+psycopg://u@localhost/book"
    assert resolve_url("postgresql+psycopg://u@h/b") == "postgresql+psycopg://u@h/b"
    assert resolve_url("postgresql+psycopg2://u@h/b") == "postgresql+psycopg2://u@h/b"


def test_an_unreachable_server_is_a_one_line_error() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match="cannot open the database postgresql"):
        Store("postgresql://joseki:secret@127.0.0.1:9/joseki")  # the discard port: connection refused
    result = joseki("--db", "postgresql://joseki:secret@127.0.0.1:9/joseki", "next", "Q16")
    assert result.returncode == 1 and result.stderr.startswith("error:") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr and "secret" not in result.stderr and "***" in result.stderr


def test_a_wrong_password_is_a_one_line_error(postgres: Databases, new_db: Callable[..., str]) -> None:
    from sqlalchemy.engine import make_url

    url = make_url(new_db("pw")).set(password="not-the-password").render_as_string(hide_password=False)
    result = joseki("--db", url, "db", "info")
    assert result.returncode == 1 and result.stderr.startswith("error:"), result.stderr
    assert "password authentication failed" in result.stderr and "not-the-password" not in result.stderr
    assert "Traceback" not in result.stderr


def test_migrations_backfill_position_keys_and_create_the_global_profile(new_db: Callable[..., str]) -> None:
    from alembic import command

    store = Store(new_db("migrate"), upgrade=False)
    prefixes = ["DD", "DDCF", "DDCFCH", "DDCFCHXX", "DDCFFC", "CC", "CCDC"]
    with store.write() as conn:
        command.upgrade(alembic_config(conn), "0001")
        assert current_revision(conn) == "0001"
        conn.execute(text("INSERT INTO node (id, parent_id, move, depth, steps) VALUES (:i, :p, :m, :d, :s)"),
                     [{"i": node_id(p), "p": node_id(p[:-2]), "m": p[-2:], "d": len(p) // 2, "s": p}
                      for p in prefixes])
    before, after = store.upgrade()
    assert (before, after) == ("0001", head_revision())
    with store.read() as conn:
        keys = dict(conn.execute(text("SELECT steps, position_key FROM node")).all())
        assert keys == keys_along(prefixes) and keys["DDCF"] == steps_key("DDCF")
        assert conn.execute(text("SELECT id, name FROM profile")).all() == [(1, GLOBAL)]
    with store.write() as conn:
        opponent = profile_id(conn, store, "opponent", create=True)
    with store.write() as conn:
        assert opponent is not None and opponent != 1
        assert profile_id(conn, store, "opponent", create=True) == opponent
        assert profile_id(conn, store, None) == 1
    store.close()


def test_processes_starting_together_migrate_once(new_db: Callable[..., str]) -> None:
    db = new_db("together")
    procs = [subprocess.Popen([sys.executable, "-m", "joseki", "--db", db, "db", "info", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outputs]
    assert {json.loads(out)["revision"] for out, _ in outputs} == {head_revision()}
    with Store(db) as store, store.read() as conn:
        assert conn.execute(text("SELECT count(*) FROM profile")).scalar_one() == 1


def test_every_command_takes_the_database_url(databases: Databases, new_db: Callable[..., str],
                                             tmp_path: Any) -> None:
    db = new_db("commands")
    games = sorted(need(GAMES / "kgs-highdan-2019-04").glob("*.sgf"))[:30]
    steps = [("db", "upgrade"), ("import", str(starter_book()), "--collection", "starter", "--json"),
             ("next", "Q16", "R14", "--json"), ("learn", *map(str, games), "--workers", "1", "--json"),
             ("learn", *map(str, games[:10]), "--profile", "club", "--workers", "1", "--json"),
             ("next", "Q16", "R14", "--profile", "club", "--rank", "priority", "--json"),
             ("mine", *map(str, games), "--min-games", "3", "--collection", "mined", "--workers", "1", "--json"),
             ("evaluate", *map(str, games[:10]), "--json"),
             ("annotate", str(games[0]), "-o", str(tmp_path / "annotated.sgf"), "--json"),
             ("next", "--sgf", str(games[0]), "--move", "20", "--json"),
             ("db", "info", "--json")]
    for args in steps:
        result = joseki("--db", db, *args)
        assert result.returncode == 0, (args, result.stderr)
    info = json.loads(result.stdout)
    if databases.is_postgres:
        assert info["url"].startswith("postgresql+psycopg://") and "***" in info["url"]
    assert info["collection"] == 2 and info["revision"] == head_revision()
    (corner,) = json.loads(joseki("--db", db, "next", "Q16", "R14", "--json").stdout)["corners"]
    assert any(c["games"] > 0 for c in corner["candidates"])


def plan_nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from plan_nodes(child)


def explain(conn: Connection, statement: str, params: Any) -> list[dict[str, Any]]:
    (doc,) = conn.exec_driver_sql("EXPLAIN (FORMAT JSON) " + statement, params).scalar_one()
    return list(plan_nodes(doc["Plan"]))


@pytest.fixture(scope="module")
def kogo_pg(databases: Databases) -> Iterator[Store]:
    """Kogo's dictionary with statistics on every node (global) and a third of them (profile ``club``)."""
    if not databases.is_postgres:
        pytest.skip("needs PostgreSQL: set JOSEKI_TEST_DB (see .ci/postgres.sh)")
    url = databases.new("plans")
    store = Store(url)
    import_files(store, [need(KOGO)], "kogo")
    with store.read() as conn:
        ids = sorted(conn.execute(text("SELECT id FROM node")).scalars())
    with store.write() as conn:
        club = profile_id(conn, store, "club", create=True)
        assert club is not None
        add_records(conn, store, 1, {nid: Record(3, 2, 1, 0) for nid in ids})
        add_records(conn, store, club, {nid: Record(1, 1, 0, 0) for nid in ids[::3]})
    yield store
    store.close()
    databases.drop(url)


def test_hot_queries_use_the_indexes(kogo_pg: Store) -> None:
    """Right after the writes (before autovacuum could run), every read of the book is an index lookup."""
    store = kogo_pg
    statements: list[tuple[str, Any]] = []

    def capture(conn: Any, cursor: Any, statement: str, params: Any, context: Any, executemany: bool) -> None:
        statements.append((statement, params))

    event.listen(store.engine, "before_cursor_execute", capture)
    try:
        with store.read() as conn:
            lookup = Lookup(store, conn)
            assert lookup.has("DDCF") and lookup.by_position(steps_key("DDCFCH")) is not None
            children = lookup.children("DDCF", "club")
            assert children and all(c.record.games for c in children)
            assert records_for(conn, [node_id("DD"), node_id("DDCF")], "club")
        reads = len(statements)
        with store.write() as conn:
            add_records(conn, store, 1, {node_id("DD"): Record(1, 1, 0, 0), node_id("DDCF"): Record(1, 0, 1, 0)})
    finally:
        event.remove(store.engine, "before_cursor_execute", capture)
    big = {"node", "node_book", "node_stats"}
    with store.read() as conn:
        for statement, params in statements[:reads]:
            nodes = explain(conn, statement, params)
            relations = {n.get("Relation Name") for n in nodes}
            scanned = {n.get("Relation Name") for n in nodes if n["Node Type"] == "Seq Scan"}
            assert not scanned & big, (statement, nodes)
            assert not relations & big or any("Index" in n["Node Type"] for n in nodes), (statement, nodes)
        (upsert, params), *_ = [(s, p) for s, p in statements[reads:] if s.startswith("INSERT INTO node_stats")]
        (insert, *_) = explain(conn, upsert, params)
        assert insert["Conflict Resolution"] == "UPDATE" and insert["Conflict Arbiter Indexes"] == ["node_stats_pkey"]


def test_postgresql_holds_what_sqlite_holds(kogo_pg: Store, tmp_path: Any) -> None:
    """The same import (COPY and unnest on PostgreSQL, executemany on SQLite) writes the same rows."""
    with Store(str(tmp_path / "kogo.sqlite")) as lite:
        import_files(lite, [need(KOGO)], "kogo")
        queries = ["SELECT id, parent_id, move, depth, steps, position_key FROM node",
                   "SELECT node_id, paths, category, comment, properties, prior_games, prior_wins FROM node_book",
                   "SELECT steps, first_color, corner, swapped, game, tree_path, setup FROM variation"]
        for query in queries:
            with lite.read() as a, kogo_pg.read() as b:
                assert sorted(map(tuple, a.execute(text(query)))) == sorted(map(tuple, b.execute(text(query)))), query
