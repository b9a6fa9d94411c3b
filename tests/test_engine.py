"""The book as a GTP engine: the proxy over real GNU Go, a real match, and learning from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sgfmill import sgf

from joseki.book.query.next import next_moves
from joseki.book.store.database import Store

from .conftest import GNUGO_CMD, needs_gnugo

JOSEKI = f"{sys.executable} -m joseki"

pytestmark = needs_gnugo


def gtp_session(db: str, commands: list[str], *extra: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "joseki", "--db", str(db), "gtp", "--engine", GNUGO_CMD, *extra],
                          input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    return [block.strip() for block in proc.stdout.split("\n\n") if block.strip()]


def test_the_proxy_answers_from_the_book_and_keeps_gnugo_in_sync(book: str) -> None:
    replies = gtp_session(book, ["protocol_version", "name", "boardsize 19", "clear_board", "komi 7.5",
                                 "play b Q16", "genmove w", "joseki-book-moves", "known_command genmove",
                                 "frobnicate", "quit"], "--seed", "3")
    assert replies[0] == "= 2" and replies[1] == "= joseki"
    assert replies[2:6] == ["="] * 4
    answer = replies[6].removeprefix("= ")
    with Store(book) as store:
        (expected,) = next_moves(store, ["Q16"])
    assert answer in [c.move for c in expected.candidates][:4]
    assert replies[7] == "= 2"  # move 2 came from the book
    assert replies[8] == "= true" and replies[9].startswith("?")


def test_a_real_match_is_written_and_learnt(book: str, tmp_path: Path) -> None:
    proxy = f"{JOSEKI} --db {book} gtp --engine '{GNUGO_CMD}' --profile gnugo --seed 1"
    out = tmp_path / "games"
    result = subprocess.run([sys.executable, "-m", "joseki", "--db", book, "match", "--black", proxy,
                             "--white", GNUGO_CMD, "--games", "2", "--out", str(out), "--max-moves", "24",
                             "--learn", "gnugo", "--json"], capture_output=True, text=True, timeout=1800,
                            env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["learnt"] == 2
    for game in data["games"]:  # cut short by the move limit, counted by the referee: never "?"
        assert game["reason"] == "move limit (24)"
        assert game["result"] != "?"
        assert game["scoring"].startswith("Cut short: scored by an estimate of the area")
    files = sorted(out.glob("*.sgf"))
    assert len(files) == 2
    first = sgf.Sgf_game.from_bytes(files[0].read_bytes())
    root = first.get_root()
    assert root.get("PB").startswith("joseki") and root.get("PW").startswith("GNU Go")
    assert root.get("KM") == 7.5 and root.get("RE")[0] in "BW0" and root.has_property("DT")
    assert root.get("C") == f"Game ended: move limit (24). {data['games'][0]['scoring']}"
    assert len(first.get_main_sequence()) == 25
    second = sgf.Sgf_game.from_bytes(files[1].read_bytes()).get_root()
    assert second.get("PW").startswith("joseki")  # colours alternate
    with Store(book) as store, store.read() as conn:
        learnt = conn.exec_driver_sql(
            "SELECT count(*) FROM learnt_game JOIN profile ON profile.id = profile_id WHERE name = 'gnugo'").scalar()
        credited = conn.exec_driver_sql(
            "SELECT sum(games) FROM node_stats JOIN profile ON profile.id = profile_id WHERE name = 'gnugo'").scalar()
    assert learnt == 2 and credited > 0


def test_the_cli_proxy_survives_stray_bytes_under_a_strict_locale(book: str) -> None:
    script = b"1 name\n\xff\xfe\n2 boardsize \xc2\xb2\n3 showboard \xff\n4 komi nan\n5 version\n6 quit\n"
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    proc = subprocess.run([sys.executable, "-m", "joseki", "--db", str(book), "gtp", "--engine", GNUGO_CMD],
                          input=script, capture_output=True, env=env, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    replies = proc.stdout.decode("ascii").split("\n\n")
    assert replies[:5] == ["=1 joseki", "? unknown command", "?2 syntax error", "?3 syntax error", "?4 syntax error"]
    assert replies[5].startswith("=5 ") and "over GNU Go" in replies[5]
    assert replies[6:] == ["=6", ""]
