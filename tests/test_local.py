"""The local outcome signal: corners judged by real GNU Go where their joseki ended, stored per book
move and profile, and used by the priority, the proxy's choices and the CLI."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sgfmill import sgf

from joseki.book.importer import import_files
from joseki.book.learnt.outcomes import judged_for
from joseki.book.query.answer import Options
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.query.next import next_moves
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.book.store.keys import node_id
from joseki.core.category import NEVER_FIRST
from joseki.core.geometry import Corner, Point
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.core.priority import JUDGED_WEIGHT, Record, priority
from joseki.engine.judge import Judge, JudgeCommand, corner_margin, parse_territory
from joseki.engine.opponents import OPPONENTS, opponent_command
from joseki.engine.policy import BookPlayer
from joseki.games.evaluate import evaluate
from joseki.games.judging import DRAW_BAND, Verdict
from joseki.games.learn import learn

from .conftest import GAMES, GNUGO_CMD, need, needs_gnugo


def book_line(db: str, length: int) -> list[str]:
    """The first ``length`` moves of the starter book's most popular top-right line from Q16."""
    moves = ["Q16"]
    with Store(db) as store:
        while len(moves) < length:
            (answer,) = [a for a in next_moves(store, moves) if a.corner == Corner.TOP_RIGHT]
            moves.append(next(c.move for c in answer.candidates if c.point is not None))
    return moves


def out_of_book(db: str, moves: list[str]) -> str:
    """A top-right point the book does not offer after ``moves`` (and not yet played)."""
    with Store(db) as store:
        (answer,) = [a for a in next_moves(store, moves) if a.corner == Corner.TOP_RIGHT]
    offered = {c.move for c in answer.candidates} | set(moves)
    return next(v for v in ("T19", "S19", "T18", "O19", "T14", "N17") if v not in offered)


def colours(vertices: list[str]) -> list[tuple[str, Point | None]]:
    return [("b" if i % 2 == 0 else "w", parse_gtp_vertex(v)) for i, v in enumerate(vertices)]


def write_game(path: Path, moves: list[tuple[str, Point | None]], result: str | None = None) -> Path:
    game = sgf.Sgf_game(19)
    if result:
        game.get_root().set("RE", result)
    for colour, point in moves:
        game.extend_main_sequence().set_move(colour, None if point is None else (18 - point[1], point[0]))
    path.write_bytes(game.serialise())
    return path


def gnugo_territory(moves: list[tuple[str, Point | None]]) -> dict[Point, float]:
    """GNU Go's territory estimate after ``moves``, asked in a session of its own."""
    to_move = "white" if moves and moves[-1][0] == "b" else "black"
    commands = ["boardsize 19", "clear_board"]
    commands += [f"play {c} {format_gtp_vertex(p)}" for c, p in moves]
    commands += [f"initial_influence {to_move} territory_value", "quit"]
    proc = subprocess.run(GNUGO_CMD.split(), input="\n".join(commands) + "\n", capture_output=True, text=True,
                          check=True)
    answer = [block for block in proc.stdout.split("\n\n") if block.strip()][-2]
    return parse_territory(answer.strip().removeprefix("=").strip())


@needs_gnugo
def test_gnugo_gives_a_black_enclosure_to_black() -> None:
    moves = colours(["Q16", "D4", "R14", "C16"])
    values = gnugo_territory(moves)
    assert corner_margin(values, Corner.TOP_RIGHT, "b") > DRAW_BAND
    assert corner_margin(values, Corner.TOP_RIGHT, "w") == -corner_margin(values, Corner.TOP_RIGHT, "b")
    assert corner_margin(values, Corner.BOTTOM_LEFT, "w") > 0


@needs_gnugo
def test_a_corner_is_judged_where_it_leaves_the_book(book: str) -> None:
    line = book_line(book, 4)
    vertices = [*line, out_of_book(book, line), "D4"]
    moves = colours(vertices)
    with Store(book) as store:
        index = InMemoryBook.load(store)
    with Judge(GNUGO_CMD) as judge:
        verdicts = judge.judge(index, moves)
    top_right = [v for v in verdicts if v.corner == Corner.TOP_RIGHT]
    assert len(top_right) == 1
    (v,) = top_right
    assert v.first == "b" and v.in_book == 4 and v.moves == 4  # judged before the move that left the book
    expected = corner_margin(gnugo_territory(moves[:4]), Corner.TOP_RIGHT, "b")
    assert v.margin == pytest.approx(expected, abs=0.01)
    assert v.winner == ("b" if v.margin > DRAW_BAND else "w" if v.margin < -DRAW_BAND else "d")


@needs_gnugo
def test_learn_local_credits_each_chooser_once_and_moves_the_priority(book: str, tmp_path: Path) -> None:
    line = book_line(book, 4)
    moves = colours([*line, out_of_book(book, line)])
    game = write_game(tmp_path / "game.sgf", moves)  # no result: a local outcome needs none
    with Store(book) as store:
        before = next_moves(store, line[:1], options=Options(profile=None))
        report = learn(store, [game], "judged", signal="local", judge=JudgeCommand(GNUGO_CMD)).local
        assert report is not None and report.judged == 1 and report.corners == 1
        (verdict,) = report.verdicts[str(game)]
        with store.read() as conn:
            rows = judged_for(conn, store, "judged")
        assert len(rows) == 4
        for index in range(4):
            steps = verdict.steps[: 2 * index + 2]
            record, margin = rows[node_id(steps)]
            mover = "b" if index % 2 == 0 else "w"
            assert record.games == 1 and record.corners == 1
            assert margin == pytest.approx(verdict.margin_for(mover))
            won = verdict.winner == mover
            assert (record.wins, record.losses) == ((1, 0) if won else (0, 1) if verdict.winner != "d" else (0, 0))
        again = learn(store, [game], "judged", signal="local", judge=JudgeCommand(GNUGO_CMD)).local
        assert again is not None and again.judged == 0 and again.duplicates == 1
        with store.read() as conn:
            assert judged_for(conn, store, "judged") == rows
        after = next_moves(store, line[:1], options=Options(profile="judged"))
    played = {c.move: c for c in after[0].candidates}[line[1]]
    first_record, _ = rows[node_id(verdict.steps[:4])]
    assert played.judged == first_record
    assert played.as_json()["local"] == {"corners": first_record.corners, "wins": first_record.wins,
                                         "losses": first_record.losses, "draws": first_record.draws}
    assert played.priority == pytest.approx(priority(played.record, played.category, played.prior_games,
                                                     played.prior_wins, first_record))
    unplayed = {c.move: c for c in before[0].candidates}
    assert played.priority != unplayed[line[1]].priority


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.sampled_from([None, "ideal", "mistake"]))
def test_a_judged_corner_counts_as_a_game_result_in_the_one_formula(wins: int, losses: int, draws: int,
                                                                    category: str | None) -> None:
    counts = Record(wins + losses + draws, wins, losses, draws)
    assert priority(Record(), category, judged=Record()) == priority(Record(), category)
    if JUDGED_WEIGHT == 1:
        assert priority(Record(), category, judged=counts) == pytest.approx(priority(counts, category))
    assert priority(counts, category, judged=Record(1, 1, 0, 0)) >= priority(counts, category)
    assert priority(counts, category, judged=Record(1, 0, 1, 0)) <= priority(counts, category)


def test_a_verdict_names_the_local_winner() -> None:
    v = Verdict(Corner.TOP_LEFT, "DDCF", "w", 2, 10, 3.5)
    assert v.winner == "w" and v.margin_for("b") == -3.5
    assert Verdict(Corner.TOP_LEFT, "DDCF", "w", 2, 10, -3.5).winner == "b"
    assert Verdict(Corner.TOP_LEFT, "DDCF", "w", 2, 10, DRAW_BAND).winner == "d"
    with pytest.raises(ValueError, match="not 19x19"):
        parse_territory("1 2 3")


def test_opponents_are_named_gnugo_settings() -> None:
    assert set(OPPONENTS) == {"gnugo-1", "gnugo-10", "gnugo-nojoseki"}
    assert opponent_command("gnugo-10").endswith("--mode gtp --level 10")
    assert "--nojosekidb" in opponent_command("gnugo-nojoseki")
    with pytest.raises(ValueError, match="unknown opponent 'gnugo-99'"):
        opponent_command("gnugo-99")


def test_the_best_rule_plays_the_highest_priority(book: str) -> None:
    with Store(book) as store:
        with pytest.raises(ValueError, match="unknown choice rule 'greedy'"):
            BookPlayer(store, choose="greedy")
        player = BookPlayer(store, choose="best")
        moves = colours(["Q16"])
        (answer,) = [a for a in next_moves(store, ["Q16"]) if a.corner == Corner.TOP_RIGHT]
        offered = [c for c in answer.candidates if c.category not in NEVER_FIRST][:4]
        best = max(offered, key=lambda c: c.priority)
        assert player.choose(moves, "w", 19) == best.point


def run(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "joseki", "--db", db, *args], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200"})


@needs_gnugo
def test_a_match_against_a_named_opponent_learns_both_signals_into_its_profile(book: str, tmp_path: Path) -> None:
    proxy = f"{sys.executable} -m joseki --db {book} gtp --engine '{GNUGO_CMD}' --profile gnugo-1 --choose best"
    result = run(book, "match", "--black", proxy, "--opponent", "gnugo-1", "--games", "1", "--max-moves", "20",
                 "--out", str(tmp_path / "games"), "--learn", "gnugo-1", "--signal", "both", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"][0]["white"].startswith("GNU Go")
    assert data["learnt"] == 1 and data["local"]["judged"] == 1 and data["local"]["corners"] >= 1
    with Store(book) as store, store.read() as conn:
        assert judged_for(conn, store, "gnugo-1")
        assert not judged_for(conn, store, "gnugo-10")
    again = run(book, "learn", str(tmp_path / "games"), "--profile", "gnugo-1", "--signal", "local", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["local"]["duplicates"] == 1


def test_bad_signal_and_opponent_are_one_line_errors(book: str, tmp_path: Path) -> None:
    game = write_game(tmp_path / "g.sgf", colours(["Q16", "D4"]), "B+R")
    bad = run(book, "learn", str(game), "--signal", "vibes")
    assert bad.returncode == 1 and "unknown signal 'vibes'" in bad.stderr and "Traceback" not in bad.stderr
    both = run(book, "match", "--black", GNUGO_CMD, "--white", GNUGO_CMD, "--opponent", "gnugo-1")
    assert both.returncode == 1 and "either --white or --opponent" in both.stderr
    unknown = run(book, "match", "--black", GNUGO_CMD, "--opponent", "gnugo-99", "--out", str(tmp_path / "m"))
    assert unknown.returncode == 1 and "unknown opponent 'gnugo-99'" in unknown.stderr
    assert not (tmp_path / "m").exists()
    with Store(book) as store, store.read() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM node_local").scalar() == 0
        assert conn.exec_driver_sql("SELECT count(*) FROM node_stats").scalar() == 0


def test_evaluate_scores_the_priority_against_the_alternatives(new_db: Callable[..., str]) -> None:
    files = sorted(need(GAMES / "kgs-highdan-2019-04").glob("*.sgf"))[:60]
    store = Store(new_db("e"))
    import_files(store, [starter_book()], "starter")
    learn(store, files[:40], "kgs", workers=1)
    result = evaluate(store, files[40:], "priority", "kgs")
    figures = result.as_json()
    assert result.scored > 0 and result.ahead + result.behind <= result.scored
    assert result.ahead > 0 and result.behind > 0
    assert figures["win_rate_ahead"] == round(result.ahead_wins / result.ahead, 4)
    assert figures["win_rate_behind"] == round(result.behind_wins / result.behind, 4)
    assert 0 < result.relative_loss_sum / result.scored < 1
    # relative to the alternatives, a move no better or worse than them is predicted at exactly 0.5
    even = result.scored - result.ahead - result.behind
    assert result.relative_loss_sum >= even * math.log(2) - 1e-9
