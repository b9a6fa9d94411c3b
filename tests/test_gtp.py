"""The GTP client, the book proxy and matches, against a real GNU Go (skipped when it is absent)."""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sgfmill import sgf

from joseki.core.geometry import Point
from joseki.core.notation import parse_gtp_vertex
from joseki.engine.gtp import EngineDied, EngineError, EngineTimeout, GameState, GtpEngine, GtpError
from joseki.engine.gtp_proxy import OWN_COMMANDS, GtpProxy, serve
from joseki.engine.match import area_result, estimate_result, parse_dead, play_match

from .conftest import GNUGO_CMD, needs_gnugo

PY = shlex.quote(sys.executable)
HANG = f"{PY} -c 'import time; time.sleep(3600)'"
"""An engine that never answers. Tests with it check only that a timeout fires long before the
hour is up: the bounds on elapsed time are loose on purpose, so a busy machine passes them too."""
PATIENCE = 600
"""Seconds a test waits for GNU Go or a proxy: a guard against hangs, never reached by a working engine."""
EXIT_AFTER_ONE_LINE = f"{PY} -c 'import sys; sys.stdin.readline()'"
PROXY = f"{PY} -m joseki.engine.gtp_proxy"
PASSER = (f"{PY} -c 'import sys, time\n"
          "for line in sys.stdin:\n"
          "    word = (line.split() or [\"\"])[0]\n"
          "    if word == \"final_status_list\" and sys.argv[1] == \"hang\": time.sleep(3600)\n"
          "    answer = {\"genmove\": \"= pass\", \"final_status_list\": \"? unknown command\"}.get(word, \"=\")\n"
          "    print(answer + chr(10), flush=True)\n"
          "    if word == \"quit\": break\n'")
"""An engine that passes at once and cannot say which stones are dead (``hang``: hangs when asked)."""



def proxy_session(engine: str, script: str, timeout: float = PATIENCE, proxy_timeout: float = PATIENCE) -> list[str]:
    """Run a proxy subprocess over ``script``; its responses, split on the blank lines."""
    argv = [*shlex.split(PROXY), "--engine", engine, "--timeout", str(proxy_timeout)]
    done = subprocess.run(argv, input=script, capture_output=True, text=True, timeout=timeout,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    return [block for block in done.stdout.split("\n\n") if block]


class FixedBook:
    """A test policy: one fixed opening move for black, then nothing."""

    def __init__(self, point: Point) -> None:
        self.point = point
        self.calls: list[tuple[int, str, int]] = []

    def choose(self, moves: list[tuple[str, Point | None]], colour: str, size: int) -> Point | None:
        self.calls.append((len(moves), colour, size))
        return self.point if not moves and colour == "b" else None


# -- the referee's board ------------------------------------------------------------------


def test_game_state_captures_ko_suicide_and_undo() -> None:
    def at(vertex: str) -> Point:
        point = parse_gtp_vertex(vertex, 9)
        assert point is not None
        return point

    game = GameState(9)
    for colour, vertex in [("w", "E6"), ("b", "F6"), ("w", "E4"), ("b", "F4"), ("w", "D5"), ("b", "G5"),
                          ("w", "pass"), ("b", "E5"), ("w", "F5")]:
        game.play_vertex(colour, vertex)
    assert game.stone(at("E5")) is None and game.stone(at("F5")) == "w"  # white took the ko
    with pytest.raises(ValueError, match="E5 retakes a ko"):
        game.play_vertex("b", "E5")
    with pytest.raises(ValueError, match="D5 is occupied"):
        game.play_vertex("b", "D5")
    game.play_vertex("b", "A1")
    game.play_vertex("w", "J9")
    game.play_vertex("b", "E5")  # after a ko threat black may take back
    assert game.stone(at("F5")) is None
    assert game.undo() == ("b", at("E5"))
    assert game.stone(at("F5")) == "w" and game.stone(at("E5")) is None
    assert game.to_move() == "b"
    corner = GameState(9)
    corner.play_vertex("w", "A2")
    corner.play_vertex("w", "B1")
    with pytest.raises(ValueError, match="A1 is suicide"):
        corner.play_vertex("b", "A1")
    with pytest.raises(ValueError, match="off"):
        corner.play_vertex("b", "K1")


def walls(komi: float) -> GameState:
    """A 7x7 game: a black wall on column C, a white wall on column E (21 points each side)."""
    game = GameState(7, komi)
    for row in range(1, 8):
        game.play_vertex("b", f"C{row}")
        game.play_vertex("w", f"E{row}")
    return game


def test_area_result_counts_stones_and_surrounded_points_minus_komi() -> None:
    assert area_result(GameState(9, 6.5)) == ("W+6.5", "w")
    assert area_result(walls(0.5)) == ("W+0.5", "w")
    assert area_result(walls(0)) == ("0", None)
    assert area_result(walls(-2)) == ("B+2", "b")
    invaded = walls(0.5)
    invaded.play_vertex("w", "A1")  # black's area now touches white: 14 points count for nobody
    assert area_result(invaded) == ("W+15.5", "w")
    dead = parse_dead("A1", invaded)
    assert area_result(invaded, dead) == ("W+0.5", "w")
    assert invaded.stone((0, 6)) == "w"  # counting leaves the game alone


def test_estimate_result_counts_stones_and_the_influence_area_minus_komi() -> None:
    assert estimate_result(GameState(9, 6.5)) == ("W+6.5", "w")
    corner = GameState(9, 0)
    for vertex in ("C1", "C2", "C3", "B3", "A3"):
        corner.play_vertex("b", vertex)
    assert estimate_result(corner) == ("B+9", "b")  # five stones and the four points they enclose
    mirrored = GameState(9, 0)
    for vertex in ("C1", "C2", "C3", "B3", "A3"):
        mirrored.play_vertex("w", vertex)
    assert estimate_result(mirrored) == ("W+9", "w")
    assert estimate_result(walls(0)) == ("0", None)


def test_parse_dead_accepts_only_stones() -> None:
    game = walls(0.5)
    assert parse_dead("C1 E7\nC2", game) == [(2, 6), (4, 0), (2, 5)]
    assert parse_dead("", game) == []
    with pytest.raises(ValueError, match="holds no stone"):
        parse_dead("A1", game)
    with pytest.raises(ValueError):
        parse_dead("Z9", game)


# -- the client ---------------------------------------------------------------------------


@needs_gnugo
def test_client_talks_to_gnugo() -> None:
    with GtpEngine(GNUGO_CMD, timeout=PATIENCE) as engine:
        assert "GNU Go" in engine.name()
        assert engine.version()
        assert {"genmove", "play", "undo", "final_score"} <= set(engine.list_commands())
        engine.send("boardsize 9")
        engine.send("clear_board")
        engine.send("play b E5")
        reply = engine.send("genmove w")
        point = parse_gtp_vertex(reply, 9)
        assert point is not None and point != parse_gtp_vertex("E5", 9)
        with pytest.raises(GtpError, match="illegal move"):
            engine.send(f"play b {reply}")
        board = engine.send("showboard")
        assert board.splitlines()[0].split() == list("ABCDEFGHJ")
        with pytest.raises(GtpError, match="unknown command"):
            engine.send("no-such-command")
    assert not engine.alive
    assert engine.process.returncode is not None


def test_client_timeout_kills_a_hanging_engine() -> None:
    engine = GtpEngine(HANG)
    start = time.monotonic()
    with pytest.raises(EngineTimeout, match="did not answer"):
        engine.send("name", timeout=1.0)
    assert time.monotonic() - start < 300
    assert not engine.alive
    assert engine.process.returncode is not None
    with pytest.raises(EngineDied):
        engine.send("name", timeout=1.0)
    engine.close()


def test_client_reports_an_engine_that_exits() -> None:
    engine = GtpEngine(EXIT_AFTER_ONE_LINE)
    start = time.monotonic()
    with pytest.raises(EngineDied, match="exit"):
        engine.send("name", timeout=PATIENCE)
    assert time.monotonic() - start < 300
    with pytest.raises(EngineDied):
        engine.send("name", timeout=PATIENCE)
    engine.close()


def test_client_rejects_bad_input() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        GtpEngine("/nonexistent/engine --gtp")
    with pytest.raises(ValueError, match="empty"):
        GtpEngine("  ")
    engine = GtpEngine(HANG)
    try:
        with pytest.raises(ValueError, match="bad GTP command"):
            engine.send("name\nversion")
    finally:
        engine.kill()
        engine.close()


# -- the proxy ----------------------------------------------------------------------------


@needs_gnugo
def test_proxy_answers_the_standard_commands() -> None:
    script = "\n".join([
        "1 protocol_version",
        "2 name",
        "known_command genmove",
        "known_command loadsgf",
        "list_commands",
        "  # a comment line, then an empty one",
        "",
        "3 boardsize 9",
        "clear_board",
        "komi 6.5",
        "4 play b E5 # trailing comment",
        "play w E5",
        "play w Z99",
        "5 genmove w",
        "undo",
        "undo",
        "undo",
        "play b C3",
        "final_score",
        "joseki-book-moves",
        "6 loadsgf game.sgf",
        "7 boardsize 3",
        "8 quit",
        "",
    ])
    replies = proxy_session(GNUGO_CMD, script)
    assert replies[:4] == ["=1 2", "=2 joseki", "= true", "= false"]
    listed = set(replies[4].removeprefix("= ").split("\n"))
    assert set(OWN_COMMANDS) <= listed and "showboard" in listed
    assert replies[5:9] == ["=3", "=", "=", "=4"]
    assert replies[9:11] == ["? illegal move", "? syntax error"]
    assert replies[11].startswith("=5 ")
    assert parse_gtp_vertex(replies[11].split()[1], 9) is not None
    assert replies[12:15] == ["=", "=", "? cannot undo"]
    assert replies[15] == "="
    assert replies[16].startswith("= B+")
    assert replies[17:] == ["=", "?6 unknown command", "?7 unacceptable size", "=8"]


@needs_gnugo
def test_proxy_plays_the_book_move_and_keeps_the_engine_in_sync() -> None:
    book = FixedBook((2, 6))  # C3 on 9x9
    with GtpEngine(GNUGO_CMD, timeout=PATIENCE) as engine:
        proxy = GtpProxy(engine, book, timeout=PATIENCE)
        assert proxy.handle("boardsize 9\n") == "=\n\n"
        assert proxy.handle("clear_board") == "=\n\n"
        assert proxy.handle("3 genmove black") == "=3 C3\n\n"
        with pytest.raises(GtpError, match="illegal move"):
            engine.send("play w C3")  # GNU Go has the book move on its board
        board = proxy.handle("showboard") or ""
        row = next(line for line in board.splitlines() if line.strip().startswith("3 "))
        assert row.split()[3] == "X"
        reply = proxy.handle("genmove w") or ""
        assert parse_gtp_vertex(reply.split()[1], 9) not in (None, (2, 6))
        assert proxy.handle("joseki-book-moves") == "= 1\n\n"
        assert book.calls == [(0, "b", 9), (1, "w", 9)]
        assert [colour for colour, _ in proxy.game.moves] == ["b", "w"]
        assert proxy.handle("undo") == proxy.handle("undo") == "=\n\n"
        assert proxy.handle("joseki-book-moves") == "=\n\n"


@needs_gnugo
def test_proxy_ignores_an_illegal_book_move() -> None:
    book = FixedBook((2, 6))
    with GtpEngine(GNUGO_CMD, timeout=PATIENCE) as engine:
        proxy = GtpProxy(engine, book, timeout=PATIENCE)
        proxy.handle("boardsize 9")
        proxy.handle("clear_board")
        proxy.handle("play w C3")
        proxy.game.moves.clear()  # make the book think the board is empty: its move is now occupied
        reply = proxy.handle("genmove b") or ""
        assert reply.startswith("= ") and "C3" not in reply
        assert proxy.book_moves == []


@needs_gnugo
def test_serve_with_a_book_in_process() -> None:
    stdin = io.BytesIO(b"boardsize 9\nclear_board\ngenmove b\ngenmove w\njoseki-book-moves\nquit\nname\n")
    stdout = io.BytesIO()
    serve(GNUGO_CMD, FixedBook((4, 4)), stdin, stdout, timeout=PATIENCE)
    replies = stdout.getvalue().decode().split("\n\n")
    assert replies[2] == "= E5"
    assert replies[4] == "= 1"
    assert replies[5] == "=" and replies[6] == ""  # nothing after quit


def test_proxy_fails_within_the_timeout_when_its_engine_hangs() -> None:
    script = "1 protocol_version\n2 genmove b\n3 play b C3\n4 name\nquit\n"
    start = time.monotonic()
    replies = proxy_session(HANG, script, proxy_timeout=1)
    assert time.monotonic() - start < 300
    assert replies[0] == "=1 2"
    assert replies[1].startswith("?2 engine error: ") and "did not answer" in replies[1]
    assert replies[2].startswith("?3 engine error: ")
    assert replies[3:] == ["=4 joseki", "="]


def test_proxy_exits_when_its_engine_cannot_start() -> None:
    done = subprocess.run([*shlex.split(PROXY), "--engine", "/nonexistent/engine"], input="name\n",
                          capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 1
    assert "cannot start engine" in done.stderr


# -- matches ------------------------------------------------------------------------------


@needs_gnugo
def test_short_match_writes_sgf(tmp_path: Path) -> None:
    seen: list[int] = []
    records = play_match(GNUGO_CMD, GNUGO_CMD, 2, tmp_path, max_moves=40, komi=6.5, size=9, timeout=PATIENCE,
                         progress=lambda number, record: seen.append(number))
    assert seen == [1, 2]
    assert [record.swapped for record in records] == [False, True]
    for number, record in enumerate(records, start=1):
        assert record.path == tmp_path / f"game-{number:04d}.sgf"
        game = sgf.Sgf_game.from_bytes(record.path.read_bytes())
        root = game.get_root()
        assert game.get_size() == 9
        assert "GNU Go" in root.get("PB") and "GNU Go" in root.get("PW")
        assert root.get("KM") == 6.5
        assert root.has_property("DT")
        assert root.get("RE") == record.result
        assert record.result == "0" or record.result[:2] in ("B+", "W+")
        moves = [node.get_move() for node in game.get_main_sequence()[1:]]
        assert len(moves) == record.moves <= 40
        assert [colour for colour, _ in moves] == ["b", "w"] * (len(moves) // 2) + ["b"] * (len(moves) % 2)
        assert record.reason in ("move limit (40)", "two passes", "resignation")
        if record.reason == "move limit (40)":  # cut short: estimated by the referee, whatever the engines think
            assert record.scoring == "Cut short: scored by an estimate of the area (stones plus the empty points " \
                                     "the influence model gives each side, komi 6.5)."
            assert root.get("C") == f"Game ended: move limit (40). {record.scoring}"
            final = GameState(9, 6.5)
            for colour, move in moves:
                final.play(colour, None if move is None else (move[1], 8 - move[0]))
            assert (record.result, record.winner) == estimate_result(final)


@needs_gnugo
def test_a_finished_game_is_scored_as_gnugo_scores_it_by_chinese_rules(tmp_path: Path) -> None:
    """Two passes: the referee's area count after GNU Go's dead stones matches GNU Go's own final_score."""
    (record,) = play_match(GNUGO_CMD, GNUGO_CMD, 1, tmp_path, max_moves=300, komi=6.5, size=9, timeout=PATIENCE)
    if record.reason != "two passes":
        pytest.skip(f"GNU Go did not play the game out ({record.reason})")
    assert record.scoring.startswith("Scored by area (stones plus surrounded points, komi 6.5)")
    with GtpEngine(f"{GNUGO_CMD} --chinese-rules", timeout=PATIENCE) as judge:
        judge.send(f"loadsgf {record.path}")
        expected = judge.send("final_score")
    assert record.result == ("0" if expected == "0" else expected)


@needs_gnugo
def test_match_forfeits_an_engine_that_dies(tmp_path: Path) -> None:
    records = play_match(GNUGO_CMD, EXIT_AFTER_ONE_LINE, 2, tmp_path, size=9, timeout=PATIENCE)
    assert [record.result for record in records] == ["B+F", "W+F"]
    assert [record.winner for record in records] == ["b", "w"]
    assert all("forfeit" in record.reason for record in records)
    game = sgf.Sgf_game.from_bytes(records[1].path.read_bytes())
    assert game.get_root().get("RE") == "W+F"


def test_match_rejects_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="games"):
        play_match("x", "y", 0, tmp_path)
    with pytest.raises(ValueError, match="board size"):
        play_match("x", "y", 1, tmp_path, size=3)
    with pytest.raises(ValueError, match="timeout"):
        play_match("x", "y", 1, tmp_path, timeout=float("nan"))
    with pytest.raises(ValueError, match="komi"):
        play_match("x", "y", 1, tmp_path, komi=float("inf"))


def test_match_counts_all_stones_alive_when_no_engine_names_the_dead(tmp_path: Path) -> None:
    (record,) = play_match(f"{PASSER} answer", f"{PASSER} answer", 1, tmp_path, size=9, komi=6.5, timeout=PATIENCE)
    assert record.reason == "two passes" and record.moves == 2
    assert (record.result, record.winner) == ("W+6.5", "w")
    assert record.scoring.startswith("Scored by area (stones plus surrounded points, komi 6.5), all stones alive: "
                                     "no engine named the dead stones")


def test_match_leaves_a_game_unscored_when_the_dead_stones_never_come(tmp_path: Path) -> None:
    (record,) = play_match(f"{PASSER} hang", f"{PASSER} hang", 1, tmp_path, size=9, timeout=2)
    assert record.result == "?" and record.winner is None and "did not answer" in record.reason
    if record.moves == 2:  # always, unless the machine is too slow to answer a pass in 2 s: unscored all the same
        assert record.reason.startswith("two passes; not scored")


def test_match_leaves_a_game_unscored_when_an_engine_hangs(tmp_path: Path) -> None:
    (record,) = play_match(HANG, HANG, 1, tmp_path, size=9, timeout=1)
    assert record.result == "?" and record.winner is None
    assert "did not answer" in record.reason
