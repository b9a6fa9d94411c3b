"""Statistics by whole-board context: what learn and mine store, the back-off, next and evaluate with context."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from joseki.book.importer import expand_paths, import_files
from joseki.book.learnt.contexts import coarse_moves, context_moves, rank_in_context
from joseki.book.learnt.profiles import GLOBAL
from joseki.book.query.answer import Options
from joseki.book.query.next import next_in_game
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.notation import parse_move
from joseki.core.priority import Record
from joseki.games.evaluate import evaluate
from joseki.games.learn import learn
from joseki.games.mine import mine

from .conftest import GAMES, need
from .games import write_game
from .test_cli import joseki

# Black's 4-4 in the top left, White's in the bottom right, then the top-right corner: Black's 4-4,
# White's approach on the right side (R14, towards White's own corner), Black's one-space jump.
OPENING = ["D16", "Q4", "Q16", "R14", "R12"]


def context_rows(store: Store) -> dict[tuple[int, str, str], Record]:
    with store.read() as conn:
        return {(p, c, m): Record(g, w, lo, d) for p, c, m, g, w, lo, d in conn.exec_driver_sql(
            "SELECT parent_id, context, move, games, wins, losses, draws FROM context_stats")}


@pytest.fixture()
def starter(new_db: Callable[..., str]) -> Store:
    store = Store(new_db("s"))
    import_files(store, [starter_book()], "starter")
    return store


def test_learn_credits_each_move_by_its_context(starter: Store, tmp_path: Path) -> None:
    write_game(tmp_path / "g.sgf", OPENING, result="B+R")
    learn(starter, [tmp_path], workers=1)
    assert context_rows(starter) == {
        # D16 on an empty board (Black wins); Q4, with D16 in the opposite corner (White loses)
        (ROOT_ID, ".......", "DD"): Record(1, 1, 0, 0),
        (ROOT_ID, "....o..", "DD"): Record(1, 0, 1, 0),
        # Q16: for Black, White holds the corner below (o), Black the one to the left (m), each with a
        # 4-4 stone first (class 4: the opponent's p, the mover's e); after an empty line the frame is
        # the one with the smaller signature, "m..o.ep"
        (ROOT_ID, "m..o.ep", "DD"): Record(1, 1, 0, 0),
        # R14: for White, White's own corner is along the vertical side: the approach from that side
        (node_id("DD"), "m..o.ep", "CF"): Record(1, 0, 1, 0),
        (node_id("DDCF"), "o..m.pe", "CH"): Record(1, 1, 0, 0)}


def test_rank_in_context_backs_off_below_the_threshold() -> None:
    order = ["CF", "CC", "FD"]
    few = {"CC": Record(4, 1, 1, 0)}
    assert rank_in_context("m..o", order, few, min_games=5).moves == order
    assert rank_in_context("m..o", order, few, min_games=5).used == "back-off"
    assert rank_in_context("m..o", order, {}).used == "back-off"  # no game in the context at all
    many = {"CC": Record(5, 1, 1, 0), "FD": Record(2, 1, 1, 0)}
    ranked = rank_in_context("m..o", order, many, min_games=5)
    assert (ranked.moves, ranked.used, ranked.games) == (["CC", "FD", "CF"], "context", 7)


def test_rank_in_context_shrinks_the_context_towards_the_context_free_statistics() -> None:
    order = ["CF", "CC"]
    one = {"CC": Record(1, 1, 0, 0)}
    # one game in the context decides between two moves the book finds about as popular ...
    assert rank_in_context("m..o", order, one, prior={"CF": 100, "CC": 90}).moves == ["CC", "CF"]
    # ... but not against a move ten times as popular (the prior weighs CONTEXT_PRIOR_GAMES = 10 games)
    assert rank_in_context("m..o", order, one, prior={"CF": 100, "CC": 10}).moves == ["CF", "CC"]
    # the games played (context-free) come between: they outweigh the book's paths, the context both
    free = {"CF": 0.0, "CC": 50.0}
    assert rank_in_context("m..o", order, {"CF": Record(1, 1, 0, 0)}, prior={"CF": 100, "CC": 90},
                           free=free).moves == ["CC", "CF"]
    assert rank_in_context("m..o", order, {"CF": Record(40, 1, 0, 0)}, prior={"CF": 100, "CC": 90},
                           free=free).moves == ["CF", "CC"]
    # ties keep the context-free order; after a diagonal line the context picks the side
    assert rank_in_context("m..o", ["CF", "CC"], {"CF": Record(1, 1, 0, 0), "CC": Record(1, 1, 0, 0)}).moves == [
        "CF", "CC"]
    side = rank_in_context("m..o", ["CF", "CC"], {"FC": Record(3, 1, 0, 0)}, prior={"CF": 100, "CC": 20},
                           symmetric=True)
    assert side.moves[0] == "FC" and set(side.moves) == {"FC", "CF", "CC"}


LEARNT = 5
"""Games learnt_openings learns: enough for the context to outweigh the starter book's popularity."""


def learnt_openings(store: Store, folder: Path) -> None:
    """LEARNT distinct games (they differ after the opening) that play OPENING."""
    folder.mkdir(exist_ok=True)
    for i in range(LEARNT):
        write_game(folder / f"g{i}.sgf", [*OPENING, "K10", f"A{i + 1}"], result="W+R")
    assert learn(store, [folder], workers=1).learnt == LEARNT


def top_right(store: Store, moves: list[str], rank: str = "context") -> dict[str, object]:
    played, colour = [], "b"
    for move in moves:
        played.append((colour, parse_move(move)))
        colour = "w" if colour == "b" else "b"
    answers = next_in_game(store, played, Options(rank=rank), context=True)
    return next(a.as_json() for a in answers if a.corner.value == "top-right")


def test_next_on_a_whole_board_ranks_by_context_and_picks_the_side(starter: Store, tmp_path: Path) -> None:
    learnt_openings(starter, tmp_path)
    answer = top_right(starter, OPENING[:3])
    assert (answer["statistics"], answer["context"], answer["context_games"]) == ("context", "m..o.ep", LEARNT)
    assert answer["order"] == "context"
    first = answer["candidates"][0]  # type: ignore[index]
    assert (first["move"], first["context_games"]) == ("R14", LEARNT)
    # the same board reflected across the top-right diagonal: the approach moves to the top side
    mirrored = top_right(starter, ["Q4", "D16", "Q16"])
    assert mirrored["statistics"] == "context"
    assert mirrored["candidates"][0]["move"] == "O17"  # type: ignore[index]
    # a board never seen: back-off to the context-free order, said so
    unseen = top_right(starter, ["Q16"])
    assert (unseen["statistics"], unseen["context"], unseen["context_games"]) == ("back-off", ".......", 0)
    assert unseen["order"] == "popularity"
    assert unseen["candidates"] == top_right(starter, ["Q16"], "popularity")["candidates"]


def test_every_order_but_context_is_the_order_given(starter: Store, tmp_path: Path) -> None:
    from joseki.book.query.next import rank_key
    from joseki.core.priority import RANKS

    learnt_openings(starter, tmp_path)
    played = [(("b", "w")[i % 2], parse_move(m)) for i, m in enumerate(OPENING[:3])]
    for rank in RANKS:
        answers = next_in_game(starter, played, Options(rank=rank), context=True)
        answer = next(a for a in answers if a.corner.value == "top-right")
        assert (answer.statistics, answer.context_games) == ("context", LEARNT)
        if rank == "context":
            assert answer.order == "context" and answer.candidates[0].move == "R14"
            continue
        assert answer.order == rank
        keys = [rank_key(rank)(c) for c in answer.candidates]
        assert keys == sorted(keys), rank  # the order asked, whatever the context says
        assert any(c.move == "R14" and c.context_games == LEARNT for c in answer.candidates)


def test_next_sgf_shows_the_statistics_used(starter: Store, tmp_path: Path) -> None:
    learnt_openings(starter, tmp_path / "games")
    game = write_game(tmp_path / "asked.sgf", OPENING[:3], result="B+R")
    done = joseki("next", "--sgf", str(game), "--rank", "context", "--json", db=starter.url)
    corners = {c["corner"]: c for c in json.loads(done.stdout)["corners"]}
    assert corners["top-right"]["statistics"] == "context"
    assert corners["top-right"]["candidates"][0]["move"] == "R14"
    text = joseki("next", "--sgf", str(game), "--rank", "context", db=starter.url).stdout
    assert f"ranked by the whole-board context ({LEARNT} games in it; --json names it)" in text
    plain = joseki("next", "--sgf", str(game), db=starter.url).stdout
    assert f"order: popularity; {LEARNT} games in this whole-board context (--rank context orders by them)" in plain
    typed = json.loads(joseki("next", *OPENING[:3], "--rank", "context", "--json", db=starter.url).stdout)["corners"]
    assert [(c["statistics"], c["candidates"][0]["move"]) for c in typed if c["corner"] == "top-right"] == [
        ("context", "R14")]
    steps = json.loads(joseki("next", "--steps", "DD", "--json", db=starter.url).stdout)["corners"]
    assert "statistics" not in steps[0]  # a lone corner: no whole board, no context


def test_mine_after_learn_gives_the_context_statistics_of_mine_alone(new_db: Callable[..., str]) -> None:
    files = sorted(expand_paths([need(GAMES / "kgs-highdan-2019-04")]))[:40]
    alone, after = Store(new_db("alone")), Store(new_db("after"))
    mine(alone, files, 2, workers=1)
    learn(after, files, workers=1)
    mine(after, files, 2, workers=1)
    rows = context_rows(alone)
    assert rows and {k: r for k, r in context_rows(after).items() if r != Record()} == rows
    with alone.read() as conn:
        corners = conn.exec_driver_sql(
            "SELECT sum(wins + losses + draws) FROM node_stats JOIN node ON node.id = node_id "
            "WHERE node.move != 'XX'").scalar()
    assert sum(r.wins + r.losses + r.draws for r in rows.values()) == corners


def test_evaluate_reports_with_and_without_context_per_local_move(new_db: Callable[..., str]) -> None:
    files = sorted(expand_paths([need(GAMES / "kgs-highdan-2019-04")]))
    store = Store(new_db())
    mine(store, files[:200], 3, workers=1)
    result = evaluate(store, files[200:260]).as_json()
    by_index = result["by_index"]
    assert isinstance(by_index, list) and [row["local_move"] for row in by_index[:3]] == ["1", "2", "3"]
    assert sum(row["positions"] for row in by_index) == result["positions"]
    for key in ("context_top1", "context_top3", "side_top1", "context_decided"):
        assert isinstance(result[key], float)
    assert result["side_top1"] <= result["context_top1"]  # type: ignore[operator]
    plain = evaluate(store, files[200:260], context=False).as_json()
    assert "context_top1" not in plain and plain["top1"] == result["top1"]


def test_evaluate_never_predicts_a_tenuki_and_counts_the_reply_to_the_first_stone(new_db: Callable[..., str],
                                                                                 tmp_path: Path) -> None:
    # after Black's Q16 the book's commonest continuation is a tenuki (Black's enclosure follows),
    # yet a scored position is always a local move: White's approach is the book's first choice
    folder = tmp_path / "mined"
    folder.mkdir()
    for i in range(5):
        write_game(folder / f"t{i}.sgf", ["Q16", "D4", "R14", f"A{i + 1}"], result="B+R")
    for i in range(3):
        write_game(folder / f"a{i}.sgf", ["Q16", "R14", f"B{i + 1}"], result="W+R")
    store = Store(new_db())
    mine(store, [folder], 3, workers=1)
    asked = write_game(tmp_path / "asked.sgf", ["Q16", "R14", "K10"], result="W+R")
    result = evaluate(store, [asked], collections=["mined"]).as_json()
    reply = result["reply"]
    assert isinstance(reply, dict)
    assert (reply["positions"], reply["top1"], reply["context_top1"]) == (1, 1.0, 1.0)
    assert "context_top1" not in evaluate(store, [asked], context=False).as_json()["reply"]  # type: ignore[operator]
    table = joseki("evaluate", str(asked), "--collection", "mined", db=store.url).stdout
    assert "per local move" in table and "reply" in table
    # Black's own second stone, after White's tenuki, is local move 2 too, but not a reply
    enclosure = write_game(tmp_path / "enclosure.sgf", ["Q16", "D4", "R14"], result="B+R")
    again = evaluate(store, [enclosure], collections=["mined"]).as_json()
    second = again["by_index"][1]  # type: ignore[index]
    assert (second["local_move"], second["positions"], again["reply"]["positions"]) == ("2", 1, 0)  # type: ignore[index]


def test_evaluate_counts_the_book_s_line_ends_apart(new_db: Callable[..., str], tmp_path: Path) -> None:
    # the book ends after P17 (no continuation reached 3 games): the fourth stone is a position
    # in the book where no ranking can hit, counted as a leaf and left out of the answered top-3
    folder = tmp_path / "mined"
    folder.mkdir()
    for i in range(3):
        write_game(folder / f"g{i}.sgf", ["Q16", "R14", "P17", f"A{i + 1}"], result="B+R")
    store = Store(new_db())
    mine(store, [folder], 3, workers=1)
    asked = write_game(tmp_path / "asked.sgf", ["Q16", "R14", "P17", "R17"], result="W+R")
    result = evaluate(store, [asked], collections=["mined"]).as_json()
    assert (result["positions"], result["top3"], result["leaf_positions"]) == (4, 0.75, 0.25)
    assert (result["top3_answered"], result["context_top3_answered"]) == (1.0, 1.0)
    fourth = result["by_index"][3]  # type: ignore[index]
    assert (fourth["local_move"], fourth["leaf_positions"], fourth["context_top3_answered"]) == ("4", 1.0, None)


def test_a_rare_fine_context_leans_on_its_region_context() -> None:
    order = ["CF", "CC"]
    fine = {"CC": Record(1, 1, 0, 0)}  # one game in the full signature
    region = {"CF": 30.0, "CC": 1.0}  # the region signature's games, of which that one
    assert rank_in_context("m..o.ep", order, fine, prior={"CF": 50, "CC": 50}).moves == ["CC", "CF"]
    assert rank_in_context("m..o.ep", order, fine, prior={"CF": 50, "CC": 50}, coarser=[region]).moves == [
        "CF", "CC"]
    # a context with no game of its own still ranks by its region's games
    assert rank_in_context("m..o.ep", ["CC", "CF"], {}, coarser=[region]).used == "context"


def test_the_region_level_sums_every_fine_context_of_the_region_in_both_frames(starter: Store,
                                                                                tmp_path: Path) -> None:
    learnt_openings(starter, tmp_path / "a")
    # the same top-right play with the stones of the other corners moved: the fine characters differ
    # (3-4 stones instead of 4-4), the region signature does not
    folder = tmp_path / "b"
    folder.mkdir()
    for i in range(3):
        write_game(folder / f"g{i}.sgf", ["C16", "Q3", "Q16", "R14", "R12", "K10", f"A{i + 1}"], result="W+R")
    assert learn(starter, [folder], workers=1).learnt == 3
    with starter.read() as conn:
        exact = context_moves(conn, node_id("DD"), "m..o.ep")
        other_fine = context_moves(conn, node_id("DD"), "m..o.dn")
        (region,) = coarse_moves(conn, node_id("DD"), "m..o.ep", symmetric=True)
        # asked in the reflected frame, the region's games come back reflected
        (mirrored,) = coarse_moves(conn, node_id("DD"), "o..m.pe", symmetric=True)
    assert exact["CF"].games == LEARNT and other_fine["CF"].games == 3
    assert region == {"CF": LEARNT + 3}
    assert mirrored == {"FC": LEARNT + 3}


def test_migration_0008_keeps_the_region_statistics_of_an_older_store(new_db: Callable[..., str]) -> None:
    from alembic import command

    from joseki.book.store.database import alembic_config

    url = new_db("old")
    store = Store(url)
    with store.write() as conn:
        command.downgrade(alembic_config(conn), "0007")
        pid = conn.exec_driver_sql(f"SELECT id FROM profile WHERE name = '{GLOBAL}'").scalar()
        conn.exec_driver_sql(f"INSERT INTO context_stats VALUES ({node_id('DD')}, 'm..o', {pid}, 'CF', 4, 1, 3, 0)")
    store.close()
    upgraded = Store(url, upgrade=True)
    with upgraded.read() as conn:
        (region,) = coarse_moves(conn, node_id("DD"), "m..o.ep", symmetric=True)
        stored = conn.exec_driver_sql("SELECT context FROM context_stats").scalars().all()
    assert stored == ["m..o---"]
    assert region == {"CF": 4}
    with upgraded.write() as conn:
        command.downgrade(alembic_config(conn), "0007")
        assert conn.exec_driver_sql("SELECT context, games FROM context_stats").all() == [("m..o", 4)]
    upgraded.close()
