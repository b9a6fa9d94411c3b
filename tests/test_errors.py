"""One error path: every failure a user can cause ends in one line ``error: ...``, a non-zero exit
and the store unchanged; nothing from outside is read as markup or reaches the terminal as control.

Real processes on real files: a text file and a truncated store given as ``--db``, read-only
stores (a ``mode=ro`` SQLite URI, and a read-only bind mount where the system allows one), a
full disk (RLIMIT_FSIZE in the child: writes past the limit fail with EFBIG), Ctrl-C and SIGTERM
sent to a real ``joseki learn`` over real games, and, with ``JOSEKI_TEST_DB``, a PostgreSQL
database that goes away mid-learn.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from joseki.core.errors import file_error
from joseki.core.text import UNSAFE, json_safe, visible

from .conftest import GAMES, KOGO, TEST_DB_VAR, need
from .test_cli import PACHI_44, digest, joseki

GAME_FOLDER = GAMES / "computer-go-dataset-ai"


def one_error(result: subprocess.CompletedProcess[str], code: int = 1) -> str:
    """The one line of stderr, which must be an ``error:`` line; checks the exit code and that no traceback came."""
    assert result.returncode == code, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr and "KeyboardInterrupt" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture()
def store_file(tmp_path: Path) -> Path:
    """A real SQLite store holding Pachi's 4-4 joseki."""
    path = tmp_path / "book.sqlite"
    result = joseki("import", str(need(PACHI_44)), db=path)
    assert result.returncode == 0, result.stderr
    return path


def ro_url(path: Path) -> str:
    """A SQLite URI that opens ``path`` read-only (root ignores file modes, SQLite does not ignore this)."""
    return f"sqlite:///file:{path}?mode=ro&uri=true"


# --- database faults -------------------------------------------------------------------------------

def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("these are not the pages of a database\n" * 200)
    before = text.read_bytes()
    for args in (["next", "Q16"], ["import", str(need(PACHI_44))], ["db", "info"]):
        line = one_error(joseki(*args, db=text))
        assert str(text) in line and "file is not a database" in line
    assert text.read_bytes() == before


def test_a_truncated_store(store_file: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.sqlite"
    data = store_file.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    before = cut.read_bytes()
    for args in (["next", "Q16"], ["import", str(need(PACHI_44)), "--replace"], ["stats"]):
        line = one_error(joseki(*args, db=cut))
        assert str(cut) in line and "malformed" in line
    assert cut.read_bytes() == before


def test_a_store_under_a_file_is_named(tmp_path: Path) -> None:
    plain = tmp_path / "passwd"
    plain.write_text("root:x:0:0\n")
    line = one_error(joseki("next", db=plain / "x.sqlite"))
    assert line == f"error: cannot open the database {plain / 'x.sqlite'}: {plain} is not a folder"


@pytest.mark.parametrize("command", ["import", "learn", "mine"])
def test_a_read_only_store(store_file: Path, command: str) -> None:
    before = digest(str(store_file))
    args = {"import": ["import", str(need(KOGO))],
            "learn": ["learn", str(need(GAME_FOLDER)), "--workers", "1"],
            "mine": ["mine", str(need(GAME_FOLDER)), "--workers", "1"]}[command]
    line = one_error(joseki(*args, db=ro_url(store_file)))
    assert str(store_file) in line and "readonly database" in line
    assert digest(str(store_file)) == before


def test_a_store_on_a_read_only_file_system(store_file: Path) -> None:
    """EROFS for real: the store's folder bind-mounted read-only in a mount namespace of the child."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare(1) is not installed")
    folder = store_file.parent
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind {folder} {folder} && "
                            f"mount -o remount,bind,ro {folder} {folder}"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"no read-only bind mount here (needs CAP_SYS_ADMIN): {probe.stderr.strip()}")
    before = digest(str(store_file))
    script = (f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} {folder} && "
              f'exec "$@"')
    command = [sys.executable, "-m", "joseki", "--db", str(store_file), "import", str(need(KOGO))]
    result = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", *command], capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "120"})
    line = one_error(result)
    assert str(store_file) in line and "readonly database" in line
    assert digest(str(store_file)) == before


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def limited(limit: int, *args: str, db: Path) -> subprocess.CompletedProcess[str]:
    """``joseki`` in a child that cannot write a file past ``limit`` bytes: a full disk."""
    return subprocess.run([sys.executable, "-m", "joseki", "--db", str(db), *args], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "120"}, preexec_fn=_file_size_limit(limit))


@pytest.mark.parametrize("command", ["import", "learn"])
def test_a_full_disk(store_file: Path, command: str) -> None:
    before = digest(str(store_file))
    args = (["import", str(need(KOGO))] if command == "import"
            else ["learn", str(need(GAMES / "kgs-highdan-2019-04")), "--workers", "2"])
    line = one_error(limited(store_file.stat().st_size, *args, db=store_file))
    assert str(store_file) in line and ("disk I/O error" in line or "disk is full" in line), line
    assert digest(str(store_file)) == before
    assert joseki("db", "info", db=store_file).returncode == 0


def test_a_postgresql_database_that_goes_away_mid_learn(new_db: Callable[..., str]) -> None:
    if not os.environ.get(TEST_DB_VAR):
        pytest.skip(f"needs a PostgreSQL server: set {TEST_DB_VAR} (see .ci/postgres.sh)")
    import psycopg
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    db = new_db("gone")
    assert joseki("import", str(need(PACHI_44)), db=db).returncode == 0
    url = make_url(db)
    name = url.database
    learn = subprocess.Popen([sys.executable, "-m", "joseki", "--db", db, "learn", str(need(GAME_FOLDER)),
                              "--workers", "1", "--batch", "20"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            while not conn.execute(text("SELECT count(*) FROM learnt_game")).scalar_one():
                assert learn.poll() is None, learn.communicate()
                conn.rollback()
                time.sleep(0.1)
    finally:
        engine.dispose()
    admin = psycopg.connect(url.set(drivername="postgresql", database=os.environ.get("PGDATABASE") or
                                    make_url(os.environ[TEST_DB_VAR]).database)
                            .render_as_string(hide_password=False), autocommit=True)
    try:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        out, err = learn.communicate()
        line = one_error(subprocess.CompletedProcess(learn.args, learn.returncode, out, err))
        assert line.startswith("error: database ") and name in line, line
    finally:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        admin.close()


# --- Ctrl-C and kill -------------------------------------------------------------------------------

def _default_interrupts() -> None:
    """Ctrl-C as a shell's child gets it: an ignored SIGINT (say, left by a test run) would be inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _learning(store: Path, sig: signal.Signals, group: bool) -> subprocess.CompletedProcess[str]:
    """Start ``joseki learn`` with workers over real games, wait until its first batch is in the store, signal it."""
    command = [sys.executable, "-m", "joseki", "--db", str(store), "learn", str(need(GAME_FOLDER)),
               "--workers", "2", "--batch", "20"]
    learn = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True, env={**os.environ, "COLUMNS": "120"},
                             preexec_fn=_default_interrupts)
    conn = sqlite3.connect(store)
    try:
        while not conn.execute("SELECT count(*) FROM learnt_game").fetchone()[0]:
            assert learn.poll() is None, learn.communicate()
            time.sleep(0.1)
    finally:
        conn.close()
    if group:
        os.killpg(learn.pid, sig)  # what a terminal's Ctrl-C does: the parent and its workers
    else:
        learn.send_signal(sig)  # what kill does
    out, err = learn.communicate()  # the pipes close when the workers are gone too
    return subprocess.CompletedProcess(command, learn.returncode, out, err)


def test_ctrl_c_during_learn_ends_in_one_line(store_file: Path) -> None:
    result = _learning(store_file, signal.SIGINT, group=True)
    assert one_error(result, 130) == "error: interrupted"
    conn = sqlite3.connect(store_file)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    learnt = conn.execute("SELECT count(*) FROM learnt_game").fetchone()[0]
    assert learnt > 0 and learnt < len(list(GAME_FOLDER.glob("*.sgf")))


def test_kill_during_learn_ends_in_one_line(store_file: Path) -> None:
    result = _learning(store_file, signal.SIGTERM, group=False)
    assert one_error(result, 143) == "error: terminated"


# --- usage errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "expected"), [
    (["next", "--top", "0"], "error: joseki next: invalid value for '--top': 0 is not in the range x>=1"),
    (["learn", "--workers", "0", "."], "error: joseki learn: invalid value for '--workers': 0 is not in the range"),
    (["nosuch"], "error: joseki: no such command 'nosuch'"),
    (["next", "--nosuch"], "error: joseki next: no such option: --nosuch"),
])
def test_usage_errors_are_one_line_with_exit_2(args: list[str], expected: str, tmp_path: Path) -> None:
    line = one_error(joseki(*args, db=tmp_path / "unused.sqlite"), 2).replace("python -m joseki", "joseki")
    assert line.startswith(expected) and line.endswith("--help)"), line
    assert not (tmp_path / "unused.sqlite").exists()


# --- markup and control characters -----------------------------------------------------------------

@pytest.mark.parametrize("move", ["[/]", "[bold]", "[bold]Q16[/bold]", "\\[x]"])
def test_arguments_are_not_markup(move: str, tmp_path: Path) -> None:
    line = one_error(joseki("next", move, db=tmp_path / "book.sqlite"))
    assert f"bad move {move!r}" in line


def _sgf(path: Path, body: str) -> Path:
    path.write_text(body, encoding="utf-8")
    return path


def test_a_bad_size_with_markup_is_told_exactly(tmp_path: Path) -> None:
    game = _sgf(tmp_path / "game[final].sgf", "(;GM[1]FF[4]SZ[[/\\]];B[pd];W[dp])")
    db = tmp_path / "book.sqlite"
    for args in (["import", str(game)], ["lint", str(game)], ["flatten", str(game)], ["next", "--sgf", str(game)],
                 ["annotate", str(game), "-o", str(tmp_path / "out.sgf")]):
        result = joseki(*args, db=db)
        lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert lines == [f"error: {game}: bad board size SZ[[/\\]]"], (args, result.stderr)
    assert not (tmp_path / "out.sgf").exists()


def test_a_charset_with_markup_warns_and_imports(tmp_path: Path) -> None:
    game = _sgf(tmp_path / "[bold]book.sgf", "(;GM[1]FF[4]SZ[19]CA[[/\\]];B[pd]C[[red\\]hoshi[/red\\]];W[qc])")
    db = tmp_path / "book.sqlite"
    result = joseki("import", str(game), db=db)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert f"warning: {game}: unknown charset CA[[/\\]]" in result.stderr
    assert "[bold]book.sgf" in result.stdout and "[bold]book " in result.stdout
    stats = joseki("stats", db=db, env={"COLUMNS": "400"})
    assert stats.returncode == 0 and "[bold]book" in stats.stdout, stats.stderr
    shown = joseki("show", "Q16", db=db)
    assert shown.returncode == 0 and "[red]hoshi[/red]" in shown.stdout, shown.stderr


def _sgf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


COMMENT = "see \x1b[2J\x1b]0;pwned\x07 here \x1b[31mred\x9b1m \u202eevil\u202c end: good for black"


def test_control_characters_in_comments_are_shown_not_obeyed(tmp_path: Path) -> None:
    game = _sgf(tmp_path / "esc.sgf", f"(;GM[1]FF[4]SZ[19];B[pd]C[{_sgf_text(COMMENT)}];W[qc]"
                                      f"C[{_sgf_text(COMMENT)}];B[qd];W[oc])")
    db = tmp_path / "book.sqlite"
    assert joseki("import", str(game), db=db).returncode == 0
    for args in (["show", "Q16", "R17"], ["next", "Q16"], ["next", "Q16", "R17"]):
        result = joseki(*args, db=db)
        assert result.returncode == 0, result.stderr
        assert UNSAFE.search(result.stdout) is None, (args, result.stdout)
    shown = joseki("show", "Q16", "R17", db=db).stdout
    assert "\\x1b[2J" in shown and "\\x1b]0;pwned" in shown and "\\x9b1m" in shown and "\\u202eevil" in shown
    as_json = joseki("show", "Q16", "R17", "--json", db=db)
    assert UNSAFE.search(as_json.stdout) is None
    texts = [c["text"] for m in json.loads(as_json.stdout)["moves"] for c in m["comments"] if c["collection"] == "esc"]
    assert texts == [COMMENT, COMMENT]  # --json keeps the exact text


@given(st.text())
def test_visible_text_has_no_control_characters(text: str) -> None:
    shown = visible(text)
    assert UNSAFE.search(shown) is None
    assert shown.count("\n") == text.count("\n") and shown.count("\t") == text.count("\t")
    if UNSAFE.search(text) is None:
        assert shown == text


@given(st.recursive(st.none() | st.text() | st.integers(), lambda inner: st.lists(inner) | st.dictionaries(
    st.text(), inner), max_leaves=10))
def test_json_safe_keeps_the_values(value: object) -> None:
    dumped = json_safe(json.dumps(value, ensure_ascii=False))
    assert UNSAFE.search(dumped) is None
    assert json.loads(dumped) == value


# --- the one error path, class by class ------------------------------------------------------------

def _fails_with(func: Callable[[], object], capsys: pytest.CaptureFixture[str]) -> str:
    """Call ``func`` under :func:`user_errors`; the exit must be 1 and stderr one ``error:`` line, returned."""
    import typer

    from joseki.cli.common import user_errors

    with pytest.raises(typer.Exit) as exit_info:
        user_errors(func)()
    assert exit_info.value.exit_code == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def test_an_os_error_on_a_named_file_is_told_as_the_file_and_the_reason(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.sgf"

    def opened(action: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            try:
                return action()
            except OSError as exc:
                raise file_error(exc) from None
        return run

    assert _fails_with(opened(lambda: missing.open()), capsys) == f"error: {missing}: No such file or directory"
    assert _fails_with(opened(lambda: tmp_path.open("w")), capsys) == f"error: {tmp_path}: Is a directory"
    assert _fails_with(opened(lambda: os.rename(missing, tmp_path / "b")), capsys) == (
        f"error: {missing} -> {tmp_path / 'b'}: No such file or directory")


def test_a_database_failure_inside_a_store_transaction_is_a_store_error(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from sqlalchemy import text

    from joseki.book.store.database import Store

    store = Store(str(tmp_path / "store.sqlite"))

    def query() -> None:
        with store.read() as conn:
            conn.execute(text("SELECT * FROM no_such_table"))

    assert _fails_with(query, capsys).endswith(": no such table: no_such_table")
    store.close()


def test_a_file_that_is_not_a_database_read_without_sqlalchemy_is_a_store_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from joseki.book.store.bookfile import BookFile

    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)

    def query() -> None:
        with BookFile(text) as book, book.read() as conn:
            conn.execute("SELECT * FROM sqlite_master")

    assert _fails_with(query, capsys).endswith(": file is not a database")


def test_an_error_outside_the_user_errors_is_a_bug_in_one_line_that_names_the_debug_switch(
        capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    from joseki.cli.common import DEBUG_VAR, EXIT_BUG, user_errors

    for bug in (lambda: {}["x"], lambda: Path("/no/such/file/anywhere").read_bytes(), lambda: int("x")):
        with pytest.raises(typer.Exit) as exit_info:
            user_errors(bug)()
        assert exit_info.value.exit_code == EXIT_BUG
        lines = capsys.readouterr().err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("internal error: ") and f"{DEBUG_VAR}=1" in lines[0], lines


def test_bugs_keep_their_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from joseki.cli.common import DEBUG_VAR, user_errors

    monkeypatch.setenv(DEBUG_VAR, "1")
    with pytest.raises(KeyError):
        user_errors(lambda: {}["x"])()
    with pytest.raises(FileNotFoundError):
        user_errors(lambda: (tmp_path / "missing").open())()
