"""The games behind a book position: ranks and dates read from real records, bounded references, games_at."""

from __future__ import annotations

import json
import shutil
from array import array
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from joseki.book.gamerefs.read import GamesAt, corner_steps, games_at, load_game
from joseki.book.gamerefs.write import (
    REFS_PER_NODE,
    GameInfo,
    GameRefs,
    RefsWriter,
    chosen,
    newest_key,
    strongest_key,
)
from joseki.book.importer import import_files
from joseki.book.learnt.results import profile_id
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.query.lookup import Lookup
from joseki.book.query.walk import walk
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.book.store.keys import node_id
from joseki.core.corners import corner_tables
from joseki.core.gameinfo import normal_date, normal_rank, rank_value, strength
from joseki.games.credit import corner_credits, corner_plays
from joseki.games.learn import learn
from joseki.games.mine import MINE_DEPTH, HeldGame, mine, reduce_chunk
from joseki.games.pipeline import GameView
from joseki.games.signals import CONTEXTS, RESULTS, ContextWriter, NodeWriter, RefsStep
from joseki.sgf.archive import sources
from joseki.sgf.game import read_game

from .conftest import GAMES, need
from .test_cli import joseki

KGS = GAMES / "kgs-highdan-2019-04"
FOX = GAMES / "fox-pro"


def real_games(folder: Path, count: int) -> list[Path]:
    return sorted(need(folder).glob("*.sgf"))[:count]


@pytest.fixture()
def starter(new_db: Callable[..., str]) -> Store:
    store = Store(new_db("refs"))
    import_files(store, [starter_book()], "starter")
    return store


def refs_table(store: Store) -> set[tuple[str, int, str, int, int]]:
    """Every reference as (profile, node, game key, move, corner)."""
    with store.read() as conn:
        return {tuple(r) for r in conn.exec_driver_sql(  # type: ignore[misc]
            "SELECT profile.name, node_id, game_key, move_number, corner FROM game_ref "
            "JOIN profile ON profile.id = profile_id JOIN game_record ON game_record.id = game_id")}


# ranks and dates as the real records write them


@pytest.mark.parametrize(("text", "rank"), [
    ("9段", "9d"), ("P9段", "9p"), ("P9", "9p"), ("P9p", "9p"), ("7d", "7d"), ("9 Dan", "9d"), ("9p", "9p"),
    ("1级", "1k"), ("2k?", "2k"), ("3k*", "3k"), ("5단", "5d"), ("3급", "3k"), ("", ""), ("?", ""), ("-", ""),
    ("10d", ""), ("0k", ""), ("31k", ""), ("pro", ""), ("12", ""),
])
def test_ranks_as_servers_write_them(text: str, rank: str) -> None:
    assert normal_rank(text) == rank


@pytest.mark.parametrize(("text", "date"), [
    ("2019-04-12", "2019-04-12"), ("2017.03.05 14:22", "2017-03-05"), ("2018-01-05,06", "2018-01-05"),
    ("2016-3-9", "2016-03-09"), ("1998", "1998"), ("2001-13-01", "2001"), ("2019-04-12T10:00:00.000+08:00",
                                                                          "2019-04-12"),
    ("", ""), ("unknown", ""), ("12345", ""),
])
def test_dates_as_records_write_them(text: str, date: str) -> None:
    assert normal_date(text) == date


@given(st.text(max_size=12))
def test_a_normal_rank_is_its_own_normal_form(text: str) -> None:
    rank = normal_rank(text)
    assert normal_rank(rank) == rank
    assert (rank_value(rank) is None) == (rank == "")


def test_rank_order_kyu_then_dan_then_pro() -> None:
    ladder = [f"{k}k" for k in range(30, 0, -1)] + [f"{d}d" for d in range(1, 10)] + [f"{p}p" for p in range(1, 10)]
    values = [rank_value(r) for r in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert strength("9d", "9d") > strength("9d", "") > strength("9d", "8d")  # type: ignore[operator]
    assert strength("", "") is None


def test_real_records_give_players_ranks_and_dates() -> None:
    fox = read_game(real_games(FOX, 1)[0])
    assert fox.black_rank.endswith("p") or fox.white_rank.endswith("p")
    assert len(fox.date) == 10 and fox.black and fox.white
    kgs = read_game(KGS / "kgs-00422.sgf" if (KGS / "kgs-00422.sgf").exists() else real_games(KGS, 1)[0])
    assert kgs.black_rank and kgs.date.startswith("2019-04")


@given(st.lists(st.tuples(st.sampled_from(["", "2018", "2018-05", "2019-01-02", "2019-01-03"]),
                          st.one_of(st.none(), st.integers(-50, 40)), st.text("0123456789abcdef", min_size=4,
                                                                              max_size=4)),
                unique_by=lambda g: g[2], max_size=60))
def test_kept_holds_the_top_of_both_orders(games: list[tuple[str, int | None, str]]) -> None:
    keep = chosen(games, 5)
    assert len(keep) <= 10
    for order in (newest_key, strongest_key):
        top = sorted(games, key=lambda g, o=order: o(*g), reverse=True)[:5]  # type: ignore[misc]
        assert {k for _, _, k in top} <= keep


@given(st.lists(st.tuples(st.sampled_from(["", "2018", "2018-05", "2019-01-02", "2019-01-03", "2020"]),
                          st.one_of(st.none(), st.integers(-50, 40)), st.text("0123456789abcdef", min_size=6,
                                                                              max_size=6)),
                unique_by=lambda g: g[2], min_size=100, max_size=400))
def test_a_busy_node_keeps_what_the_whole_list_would_keep(games: list[tuple[str, int | None, str]]) -> None:
    # a batch's offers are cut to each node's newest and strongest, yet those are the games every offer together
    # makes its bound, node by node (node ids over the whole signed 64-bit range)
    nodes = {7: lambda key: True, -(2**63): lambda key: key[0] < "8", 2**63 - 1: lambda key: key[1] in "0123"}
    writer = RefsWriter(None)  # type: ignore[arg-type]  # adding reads no store
    for date, power, key in games:
        writer.add(GameRefs(GameInfo(key, "", date=date, strength=power),
                            [(nid, 1, 0) for nid, reaches in nodes.items() if reaches(key)]))
    offered = writer.offered()
    for nid, reaches in nodes.items():
        behind = [g for g in games if reaches(g[2])]
        offers = offered.get(nid, [])
        assert len(offers) <= 2 * REFS_PER_NODE
        assert {order[2] for order, _, _ in offers} == (chosen(behind) if behind else set())
    assert len(offered[7]) <= 2 * REFS_PER_NODE < len(games)


@given(st.lists(st.tuples(st.sampled_from(["", "2018", "2018-05", "2019-01-02", "2019-01-03", "2020"]),
                          st.one_of(st.none(), st.integers(-50, 40)), st.text("0123456789abcdef", min_size=6,
                                                                              max_size=6)),
                unique_by=lambda g: g[2], min_size=50, max_size=300), st.integers(1, 120))
def test_pruning_between_parts_offers_what_the_whole_would_offer(games: list[tuple[str, int | None, str]],
                                                                 part: int) -> None:
    # a run that writes once prunes what it holds every ``part`` games: the offers at its one write are the same
    nodes = {7: lambda key: True, -(2**63): lambda key: key[0] < "8", 2**63 - 1: lambda key: key[1] in "0123"}
    whole, pruned = RefsWriter(None), RefsWriter(None)  # type: ignore[arg-type]  # adding reads no store
    for number, (date, power, key) in enumerate(games, start=1):
        for writer in (whole, pruned):
            writer.add(GameRefs(GameInfo(key, "", date=date, strength=power),
                                [(nid, number, number % 4) for nid, reaches in nodes.items() if reaches(key)]))
        if number % part == 0:
            pruned.prune()
            assert len(pruned.nodes) <= 2 * REFS_PER_NODE * len(nodes)
    assert {n: set(o) for n, o in pruned.offered().items()} == {n: set(o) for n, o in whole.offered().items()}


# learning real games


def credited_games(store: Store, files: list[Path], steps: str) -> dict[str, tuple[str, int | None]]:
    """The games whose credits reach the node of ``steps``, found from the files alone: key -> (date, strength)."""
    index = InMemoryBook.load(store)
    target = node_id(steps)
    found = {}
    for f in files:
        game = read_game(f)
        for play in corner_plays(corner_tables(game.moves).values()):
            if any(nid == target for nid, _ in corner_credits(index, play.steps, play.first, game.winner)):
                found[game.key] = (game.date, strength(game.black_rank, game.white_rank))
    return found


def test_games_behind_a_position_are_the_games_credited_there(starter: Store) -> None:
    files = real_games(KGS, 120)
    learn(starter, files, workers=1)
    steps, first = corner_steps(["Q16", "R14"])
    truth = credited_games(starter, files, steps)
    assert len(truth) > REFS_PER_NODE  # the bound matters here
    newest = games_at(starter, steps, first=first, limit=REFS_PER_NODE)
    assert newest.count == len(truth) and newest.steps == steps
    expected = sorted(truth, key=lambda k: (truth[k][0], k), reverse=True)[:REFS_PER_NODE]
    assert [g.key for g in newest.games] == expected
    strongest = games_at(starter, steps, first=first, order="strongest", limit=REFS_PER_NODE)
    expected = sorted(truth, key=lambda k: strongest_key(truth[k][0], truth[k][1], k), reverse=True)
    assert [g.key for g in strongest.games] == expected[:REFS_PER_NODE]
    with starter.read() as conn:
        widest = conn.exec_driver_sql("SELECT max(n) FROM (SELECT count(*) AS n FROM game_ref "
                                      "GROUP BY profile_id, node_id) AS c").scalar()
    assert widest <= 2 * REFS_PER_NODE


def test_each_game_opens_at_the_move_that_reached_the_position(starter: Store) -> None:
    learn(starter, real_games(KGS, 60), workers=1)
    steps, first = corner_steps(["Q16", "R14"])
    found = games_at(starter, steps, first=first, limit=10)
    assert found.games
    with starter.read() as conn:
        lookup = Lookup(starter, conn)
        for ref in found.games:
            game = load_game(starter, ref.key)
            # named below the folder of the learnt games (here every game is in KGS's folder), never by its place
            assert game.key == ref.key and ref.source == game.source == Path(ref.source).name
            assert (KGS / ref.source).is_file()
            table = corner_tables(game.moves[: ref.move_number])[ref.corner]
            assert table.moves[-1][0] == ref.move_number  # the move is this corner's
            route = walk(lookup, table.builder.steps_to_move(), table.builder.first_colour or "b", rejoin=False)
            assert route.left_at is None and route.base == found.steps
            shorter = corner_tables(game.moves[: ref.move_number - 1])[ref.corner]
            assert shorter.builder.steps_to_move() != table.builder.steps_to_move()


def test_batches_keep_the_same_references_as_one_transaction(new_db: Callable[..., str]) -> None:
    files = real_games(KGS, 90)
    tables = []
    for batch in (1000, 7):
        store = Store(new_db(f"b{batch}"))
        import_files(store, [starter_book()], "starter")
        learn(store, files, workers=1, batch_games=batch)
        tables.append(refs_table(store))
    assert tables[0] == tables[1] and len(tables[0]) > 100


def test_refs_are_per_profile_and_optional(starter: Store) -> None:
    files = real_games(FOX, 40)
    learn(starter, files, profile="fox", workers=1)
    steps, first = corner_steps(["Q16"])
    fox = games_at(starter, steps, first=first, profile="fox")
    assert fox.count > 0 and fox.games and all(g.black_rank and g.white_rank for g in fox.games)
    assert games_at(starter, steps, first=first) == GamesAt(0, [], steps)
    with pytest.raises(ValueError, match="no profile named 'nope'"):
        games_at(starter, steps, profile="nope")
    before = refs_table(starter)
    learn(starter, real_games(KGS, 30), profile="plain", workers=1, refs=False)
    assert refs_table(starter) == before


def test_every_referenced_game_is_learnt(starter: Store) -> None:
    learn(starter, real_games(KGS, 60), workers=1)
    with starter.read() as conn:
        orphans = conn.exec_driver_sql(
            "SELECT count(*) FROM game_ref JOIN game_record ON game_record.id = game_id "
            "LEFT JOIN learnt_game ON learnt_game.profile_id = game_ref.profile_id "
            "AND learnt_game.game_key = game_record.game_key WHERE learnt_game.game_key IS NULL").scalar()
    assert orphans == 0


def test_mined_positions_list_their_games_and_learn_then_mine_agrees(new_db: Callable[..., str]) -> None:
    files = real_games(FOX, 80)
    alone = Store(new_db("alone"))
    mine(alone, files, 4, workers=1)
    both = Store(new_db("both"))
    import_files(both, [starter_book()], "starter")
    learn(both, files, workers=1)
    mine(both, files, 4, workers=1)
    starter_alone = Store(new_db("starter_alone"))
    import_files(starter_alone, [starter_book()], "starter")
    mine(starter_alone, files, 4, workers=1)
    assert refs_table(both) == refs_table(starter_alone)
    with alone.read() as conn:
        deep = conn.exec_driver_sql("SELECT steps FROM node ORDER BY depth DESC, steps LIMIT 1").scalar()
    found = games_at(alone, deep, first="B")
    assert found.count >= 4 and len(found.games) == min(found.count, 20) and found.steps == deep


def statistics_tables(store: Store) -> list[list[tuple[object, ...]]]:
    """The rows of what crediting games writes: results per node, by context, and the games behind."""
    with store.read() as conn:
        return [sorted(tuple(r) for r in conn.exec_driver_sql(query)) for query in (
            "SELECT profile_id, node_id, games, wins, losses, draws FROM node_stats",
            "SELECT * FROM context_stats",
            "SELECT node_id, game_key, move_number, corner FROM game_ref JOIN game_record ON game_record.id = game_id")]


def test_mine_summing_as_it_goes_writes_what_summing_at_the_end_writes(new_db: Callable[..., str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # mine compacts what it holds every COMPACT_GAMES credited games and writes once; with a compaction every 7
    # games (and the games moved from a learnt book), the store is the one without any
    files = real_games(FOX, 60)
    tables = []
    monkeypatch.setattr("joseki.games.mine.CHUNK_GAMES", 5)  # chunks of 5 games: a compaction every 7 lands inside
    for every in (10**6, 7):
        monkeypatch.setattr("joseki.games.mine.COMPACT_GAMES", every)
        store = Store(new_db(f"compact{every}"))
        import_files(store, [starter_book()], "starter")
        learn(store, files[:25], workers=1)
        mine(store, files, 3, workers=1)
        tables.append(statistics_tables(store))
    assert tables[0] == tables[1] and all(len(t) > 50 for t in tables[0])


def test_load_game_opens_only_the_store_s_files(starter: Store, tmp_path: Path) -> None:
    copy = tmp_path / "game.sgf"
    shutil.copy(real_games(KGS, 1)[0], copy)
    learn(starter, [copy], workers=1)
    key = read_game(copy).key
    assert load_game(starter, key).key == key
    with pytest.raises(ValueError, match="no game"):
        load_game(starter, "0" * 32)
    with pytest.raises(ValueError, match="not a game key"):
        load_game(starter, "../../etc/passwd")
    copy.write_text(copy.read_text(encoding="utf-8").replace("RE[", "RE[Void", 1), encoding="utf-8")
    with pytest.raises(ValueError, match="no longer holds"):
        load_game(starter, key)
    copy.unlink()
    with pytest.raises(ValueError, match="no such file"):
        load_game(starter, key)


def test_corner_steps_wants_one_corner() -> None:
    assert corner_steps(["Q16", "R14"]) == corner_steps(["D4", "C6"])
    assert corner_steps(["Q16", "R14", "pass"]) == (corner_steps(["Q16", "R14"])[0] + "XX", "B")  # the tenuki
    with pytest.raises(ValueError, match="2 corners"):
        corner_steps(["Q16", "D4"])
    with pytest.raises(ValueError, match="no corner"):
        corner_steps(["K10"])
    with pytest.raises(ValueError, match="first colour"):
        corner_steps(["Q16"], "red")


def test_games_command_prints_the_same_data(starter: Store) -> None:
    learn(starter, real_games(KGS, 60), workers=1)
    result = joseki("games", "Q16", "R14", "--order", "strongest", "--limit", "5", "--json", db=starter.url)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    steps, first = corner_steps(["Q16", "R14"])
    assert data["games"] == [g.as_json() for g in games_at(starter, steps, first=first, order="strongest",
                                                            limit=5).games]
    table = joseki("games", "Q16", "R14", "--limit", "3", db=starter.url)
    assert table.returncode == 0 and f"{data['count']} games at Q16 R14" in table.stdout
    bad = joseki("games", "Q16", "D4", db=starter.url)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "one corner" in bad.stderr
    won = json.loads(joseki("games", "Q16", "R14", "--result", "white", "--since", "2019", "--json",
                            db=starter.url).stdout)
    kept = games_at(starter, steps, first=first, limit=100).games
    assert won["matched"] == sum(1 for g in kept if g.result.startswith("W+") and g.date >= "2019")
    assert all(g["result"].startswith("W+") for g in won["games"])
    refused = joseki("games", "Q16", "R14", "--rank", "strong", db=starter.url)
    assert refused.returncode == 1 and "rank 'strong'" in refused.stderr


def test_the_migration_adds_and_removes_the_tables(new_db: Callable[..., str]) -> None:
    from alembic import command
    from sqlalchemy import inspect

    from joseki.book.store.database import alembic_config
    from joseki.book.store.files import head_revision

    store = Store(new_db("migrate"), upgrade=False)
    with store.write() as conn:
        command.upgrade(alembic_config(conn), "0004")
        assert not {"game_record", "game_ref"} & set(inspect(conn).get_table_names())
    assert store.upgrade() == ("0004", head_revision())
    learn(store, real_games(KGS, 3), workers=1)
    with store.write() as conn:
        assert {"game_record", "game_ref"} <= set(inspect(conn).get_table_names())
        command.downgrade(alembic_config(conn), "0004")
        assert not {"game_record", "game_ref"} & set(inspect(conn).get_table_names())
    store.close()


def test_a_chunk_s_packed_rows_are_each_game_s_rows(starter: Store) -> None:
    # mine's workers pack a chunk's rows into a few arrays (GameStep.pack) and the parent copies them
    # (Writer.add_packed): each writer then holds what adding every game's rows in turn gives it
    files = real_games(FOX, 40)
    book = InMemoryBook.load(starter)
    steps: tuple[Any, ...] = (RESULTS.step, CONTEXTS.step, RefsStep(MINE_DEPTH, always=False))
    reduced, _ = reduce_chunk(list(sources([str(f) for f in files])))
    rows: list[list[Any]] = [[], [], []]
    for one in reduced:
        if one.skipped is not None:
            continue
        game = HeldGame.unpack(one.held)
        view = GameView(one.source, one.key, game.winner, game.moves, book, plays=list(game.plays),
                        info=GameInfo(*game.info))
        for kept, step in zip(rows, steps, strict=True):
            kept.append(step.rows(view))
    assert sum(bool(r) for r in rows[0]) > 20 and sum(bool(r) for r in rows[1]) > 20
    each = (NodeWriter(starter), ContextWriter(starter), RefsWriter(starter))
    packed = (NodeWriter(starter), ContextWriter(starter), RefsWriter(starter))
    for one_by_one, kept in zip(each, rows, strict=True):
        for game_rows in kept:
            one_by_one.add(game_rows)
    for chunked, kept, step in zip(packed, rows, steps, strict=True):
        for start in range(0, len(kept), 16):  # chunks, the last one short
            chunked.add_packed(step.pack(kept[start : start + 16]))

    def contexts(writer: ContextWriter) -> list[tuple[object, ...]]:
        numbered = zip(*(c.tolist() for c in writer.columns), strict=True)
        return [(p, writer.names[c], writer.names[m], *n) for p, c, m, *n in numbered]

    assert each[0].columns == packed[0].columns and len(each[0].columns[0]) > 100
    assert contexts(each[1]) == contexts(packed[1]) and len(each[1].columns[0]) > 100
    a, b = each[2], packed[2]
    assert (a.infos, a.orders, a.games, a.nodes, a.numbers, a.corners) == (
        b.infos, b.orders, b.games, b.nodes, b.numbers, b.corners)
    assert len(a.nodes) > 100 and isinstance(b.nodes, array)


_PROFILES = count()
_GAME = st.tuples(st.sampled_from(["", "2018", "2018-05", "2019-01-02", "2019-01-03", "2020"]),
                  st.one_of(st.none(), st.integers(-50, 40)), st.text("0123456789abcdef", min_size=6, max_size=6),
                  st.lists(st.tuples(st.integers(0, 3), st.integers(1, 300), st.integers(0, 3)), min_size=1,
                           max_size=4, unique_by=lambda r: r[0]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games=st.lists(_GAME, unique_by=lambda g: g[2], min_size=50, max_size=160), part=st.integers(1, 60))
def test_writes_batch_by_batch_store_what_the_whole_list_keeps(starter: Store, games: list[Any], part: int) -> None:
    # each write of a run, the first (which finds every reference at once) and those that merge after it, leaves the
    # bound of each node over all the games written so far, each reference with its game's move and corner
    with starter.read() as conn:
        nodes = [int(n) for n in conn.exec_driver_sql("SELECT id FROM node ORDER BY id LIMIT 4").scalars()]
    profile = f"p{next(_PROFILES)}"  # each example's own
    writer = RefsWriter(starter)
    for start in range(0, len(games), part):
        for date, power, key, refs in games[start : start + part]:
            writer.add(GameRefs(GameInfo(key, f"{key}.sgf", date=date, strength=power),
                                [(nodes[n], number, corner) for n, number, corner in refs]))
        with starter.write() as conn:
            pid = profile_id(conn, starter, profile, create=True)
            assert pid is not None
            writer.write(conn, pid)
        so_far = games[: start + part]
        expected = set()
        for n, nid in enumerate(nodes):
            behind = {g[2]: (g, r) for g in so_far for r in g[3] if r[0] == n}
            keep = chosen([g[:3] for g, _ in behind.values()]) if behind else set()
            expected |= {(profile, nid, key, behind[key][1][1], behind[key][1][2]) for key in keep}
        assert {r for r in refs_table(starter) if r[0] == profile} == expected
