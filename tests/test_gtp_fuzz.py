"""Fuzzing the GTP proxy in front of a real GNU Go: random bytes, commands and arguments.

One proxy subprocess (under a strict ASCII stdio setting, so a text-mode proxy would die on
the first stray byte) serves the whole module. After every fuzzed line a sync command with
its own id tells where that line's answers end, so each line is checked to get exactly the
answers the GTP specification asks for: none for an empty or comment-only line, else one,
carrying the line's id. After each example the proxy must still relay GNU Go's ``version``.
An in-process proxy over a real GNU Go, with a recorder on the engine, checks that only
printable ASCII with checked arguments is ever forwarded.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from joseki.engine.gtp import GtpEngine
from joseki.engine.gtp_proxy import OWN_COMMANDS, PASSTHROUGH, GtpProxy

from .conftest import GNUGO_CMD, needs_gnugo

PATIENCE = 600.0
"""Seconds to wait for one answer: a guard against a hang, never reached by a working proxy."""
SYNC = 987654321

pytestmark = needs_gnugo

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

COMMANDS = [
    *sorted({*OWN_COMMANDS, *PASSTHROUGH} - {"quit"}),
    "loadsgf", "fixed_handicap", "set_free_handicap", "gg-undo", "echo", "showboard2", "BOARDSIZE", "komi\u00a0",
]
"""Command names to fuzz: the proxy's own and forwarded ones, engine commands it refuses, near misses."""

WEIRD = ["\u00b2", "\u0661", "\uff11", "\u212a", "nan", "inf", "-inf", "1e400", "1_0", "0x10", "-0", "+7",
         "9" * 5000, "A\u00b2", "\u00c5", "pass", "PASS", "resign", "I5", "Z99", "A0", "T19", "Z1", "b", "W",
         "black", "WHITE", "dead", "alive", "seki", "none", "byoyomi", "canadian", "absolute", "\x00", "\x7f",
         "\x1b[2J", "\ufffd", "\u202e", "\u2028"]


class Proxy:
    """A proxy subprocess and a reader thread that splits its output into responses."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONIOENCODING": "ascii:strict", "LC_ALL": "C", "PYTHONUTF8": "0"}
        argv = [sys.executable, "-m", "joseki.engine.gtp_proxy", "--engine", GNUGO_CMD, "--timeout", str(PATIENCE)]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=env, cwd=Path(__file__).resolve().parent.parent)
        self._responses: list[str] = []
        self._ready = threading.Condition()
        self._closed = False
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        block: list[str] = []
        for raw in iter(stream.readline, b""):
            line = raw.decode("ascii").rstrip("\n")  # the proxy must answer in ASCII here
            if line:
                block.append(line)
                continue
            with self._ready:
                self._responses.append("\n".join(block))
                self._ready.notify_all()
            block = []
        with self._ready:
            self._closed = True
            self._ready.notify_all()

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def until_sync(self) -> list[str]:
        """The responses up to the sync answer, which is checked and dropped."""
        self.send(f"{SYNC} protocol_version\n".encode())
        with self._ready:
            ok = self._ready.wait_for(lambda: self._closed or any(r.startswith(f"={SYNC}") for r in self._responses),
                                      timeout=PATIENCE)
            assert ok and not self._closed, self.stderr()
            responses, self._responses = self._responses, []
        assert responses[-1] == f"={SYNC} 2"
        return responses[:-1]

    def stderr(self) -> str:
        return f"proxy exited with {self.process.poll()}" if self.process.poll() is not None else "proxy hung"

    def close(self) -> None:
        self.send(b"quit\n")
        self.process.wait(timeout=PATIENCE)


@pytest.fixture(scope="module")
def proxy() -> Iterator[Proxy]:
    running = Proxy()
    yield running
    running.close()
    assert running.process.returncode == 0


def expected_id(raw: bytes) -> str | None:
    """What the specification says about one line: None if it gets no answer, else the id to echo ("" if none)."""
    text = bytes(b for b in raw.split(b"#", 1)[0] if (b >= 32 and b != 127) or b == 9).replace(b"\t", b" ")
    words = [word for word in text.split(b" ") if word]
    if not words:
        return None
    return words[0].decode() if re.fullmatch(rb"[0-9]+", words[0]) else ""


def check_line(proxy: Proxy, raw: bytes) -> None:
    """Send one line; it must get the answers the specification asks for, and GNU Go must still answer."""
    proxy.send(raw + b"\n")
    responses = proxy.until_sync()
    ident = expected_id(raw)
    if ident is None:
        assert responses == []
    else:
        assert len(responses) == 1, responses
        assert re.match(rf"[=?]{ident}( |$|\n)", responses[0]), (raw, responses[0])


def alive(proxy: Proxy) -> None:
    """GNU Go is still behind the proxy: ``version`` names it and ``showboard`` comes from it."""
    proxy.send(b"7 version\n8 showboard\n9 clear_board\n")
    version, board, cleared = proxy.until_sync()
    assert version.startswith("=7 ") and " over GNU Go" in version
    assert board.startswith("=8") and "A B C" in board
    assert cleared == "=9"


def _word(data: st.DataObject) -> str:
    return data.draw(st.one_of(st.sampled_from(WEIRD), st.integers().map(str),
                               st.floats(allow_nan=True, allow_infinity=True).map(repr),
                               st.text(max_size=8), st.from_regex(r"[A-Za-z][0-9]{1,3}", fullmatch=True)))


def _line(data: st.DataObject) -> bytes:
    """A command line: optional id, a command name, random arguments, random spacing, maybe a comment."""
    parts: list[str] = []
    if data.draw(st.booleans()):
        ident = st.one_of(st.integers(min_value=0).map(str), st.sampled_from(["00", "9" * 300, "\u00b2"]))
        parts.append(data.draw(ident))
    name = data.draw(st.one_of(st.sampled_from(COMMANDS), st.text(max_size=10)))
    parts.append(name)
    parts += [_word(data) for _ in range(data.draw(st.integers(min_value=0, max_value=4)))]
    if name == "boardsize" and len(parts) > 1:
        # a large board makes GNU Go's scoring commands slow: keep to sizes up to 9 here
        size = parts[-1]
        assume(not (size.isascii() and size.isdigit() and len(size.lstrip("0")) <= 2
                    and 10 <= int(size.lstrip("0") or "0") <= 25))
    gap = data.draw(st.sampled_from([" ", "\t", "  ", " \t "]))
    text = gap.join(parts)
    if data.draw(st.booleans()):
        text += data.draw(st.sampled_from(["#", " # comment", "#\u00e9\x00"])) + data.draw(st.text(max_size=5))
    raw = text.encode("utf-8", "surrogatepass")
    if data.draw(st.booleans()):
        at = data.draw(st.integers(min_value=0, max_value=len(raw)))
        raw = raw[:at] + data.draw(st.binary(max_size=4)) + raw[at:]
    return raw.replace(b"\n", b" ")


def _quits(raw: bytes) -> bool:
    """True if the line would be a ``quit`` (which ends the proxy), so the fuzzer leaves it out."""
    text = bytes(b for b in raw.split(b"#", 1)[0] if (b >= 32 and b != 127) or b == 9).replace(b"\t", b" ")
    words = [word for word in text.split(b" ") if word]
    if words and re.fullmatch(rb"[0-9]+", words[0]):
        words = words[1:]
    return bool(words) and words[0] == b"quit"


@FUZZ
@given(lines=st.lists(st.binary(max_size=40).map(lambda raw: raw.replace(b"\n", b"")), min_size=1, max_size=5))
def test_random_bytes_get_one_answer_per_command_line(proxy: Proxy, lines: list[bytes]) -> None:
    proxy.send(b"boardsize 9\n")
    assert proxy.until_sync() == ["="]
    for raw in lines:
        assume(not _quits(raw))
        check_line(proxy, raw)
    alive(proxy)


@FUZZ
@given(data=st.data())
def test_random_commands_and_arguments_get_one_answer_each(proxy: Proxy, data: st.DataObject) -> None:
    proxy.send(b"boardsize 9\n")
    assert proxy.until_sync() == ["="]
    for _ in range(data.draw(st.integers(min_value=1, max_value=6))):
        raw = _line(data)
        assume(not _quits(raw))
        check_line(proxy, raw)
    alive(proxy)


@pytest.mark.parametrize("raw", [
    b"boardsize \xc2\xb2", b"1 boardsize " + b"9" * 5000, b"\xff\xfe", b"2 name \xff", b"showboard \xff\xfe",
    b"3 komi nan", b"komi inf", b"komi 1e400", b"komi 1_0", b"play b \xef\xbc\xa11", b"4 genmove \xe2\x84\xaalack",
    b"\xc2\xb2 name", b"5\tname\t#\xff", b"   \x01\x02 # only a comment", b"6", b"final_status_list DEAD\x00x",
    b"time_left b 99999999999 0", b"kgs-time_settings byoyomi 1 2", b"7 " + b"#" * 70000,
    b"8 name" + b" " * 70000, b"9 name" + b" \x00" * 40000 + b"#" + b"x" * 70000,
])
def test_reported_lines_are_answered_and_gnugo_survives(proxy: Proxy, raw: bytes) -> None:
    check_line(proxy, raw)
    alive(proxy)


@pytest.mark.parametrize(("raw", "answer"), [(b"x" * 70000, "? line too long"),
                                             (b"10 name" + b" " * 70000 + b"x", "?10 line too long"),
                                             (b"11 name" + b" " * 70000 + b"#", "=11 joseki")])
def test_overlong_lines_are_refused_unless_the_rest_is_blank(proxy: Proxy, raw: bytes, answer: str) -> None:
    proxy.send(raw + b"\n")
    assert proxy.until_sync() == [answer]
    alive(proxy)


class RecordingEngine(GtpEngine):
    """Real GNU Go, with a record of every command sent to it."""

    def __init__(self, command: str) -> None:
        super().__init__(command, PATIENCE)
        self.sent: list[str] = []

    def send(self, command: str, timeout: float | None = None) -> str:
        self.sent.append(command)
        return super().send(command, timeout)


SAFE = re.compile(
    r"(name|version|list_commands|quit|clear_board|showboard|undo|final_score|boardsize [0-9]{1,3}"
    r"|komi -?[0-9.e+-]+|play [bw] ([A-HJ-T][0-9]{1,2}|pass)|genmove [bw]|final_status_list (alive|dead|seki)"
    r"|time_settings [0-9]+ [0-9]+ [0-9]+|time_left [bw] [0-9]+ [0-9]+"
    r"|kgs-time_settings (none|absolute [0-9]+|(byoyomi|canadian) [0-9]+ [0-9]+ [0-9]+))")


@pytest.fixture(scope="module")
def recorded() -> Iterator[tuple[RecordingEngine, GtpProxy]]:
    engine = RecordingEngine(GNUGO_CMD)
    yield engine, GtpProxy(engine, timeout=PATIENCE)
    engine.close()


@FUZZ
@given(data=st.data())
def test_only_checked_ascii_commands_reach_the_engine(recorded: tuple[RecordingEngine, GtpProxy],
                                                      data: st.DataObject) -> None:
    engine, proxy = recorded
    proxy.handle("boardsize 9")
    for _ in range(data.draw(st.integers(min_value=1, max_value=6))):
        raw = _line(data)
        assume(not _quits(raw))
        answer = proxy.handle(raw.decode("utf-8", "replace"))
        assert answer is None or (answer.endswith("\n\n") and "internal error" not in answer)
    assert all(SAFE.fullmatch(command) for command in engine.sent), [c for c in engine.sent if not SAFE.fullmatch(c)]
    assert engine.alive
    engine.sent.clear()


def test_komi_reaches_gnugo_only_when_it_is_a_finite_number(recorded: tuple[RecordingEngine, GtpProxy]) -> None:
    engine, proxy = recorded
    assert proxy.handle("komi 6.5") == "=\n\n"
    for bad in ("nan", "inf", "-inf", "1e400", "1_0", "\u0661", "0x10", "6.5.5", ""):
        assert (proxy.handle(f"komi {bad}") or "").startswith("?")
    assert engine.send("get_komi") == "6.5"
    assert proxy.game.komi == 6.5
    assert proxy.handle("komi -3") == "=\n\n" and float(engine.send("get_komi")) == -3


def test_a_hostile_script_in_one_go(tmp_path: Path) -> None:
    """A whole session of bad lines through a fresh proxy's stdin, ending with quit."""
    script = b"\n".join([b"\xff\xfe", b"1 boardsize \xc2\xb2", b"2 boardsize " + b"9" * 5000, b"showboard \xff\xfe",
                         b"3 komi nan", b"", b"# c", b"4 version", b"5 quit", b"6 name"]) + b"\n"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    done = subprocess.run([*shlex.split(f"{sys.executable} -m joseki.engine.gtp_proxy"), "--engine", GNUGO_CMD],
                          input=script, capture_output=True, env=env, timeout=PATIENCE,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    replies = done.stdout.decode("ascii").split("\n\n")
    assert replies[:4] == ["? unknown command", "?1 syntax error", "?2 unacceptable size", "? syntax error"]
    assert replies[4] == "?3 syntax error"
    assert replies[5].startswith("=4 ") and "over GNU Go" in replies[5]
    assert replies[6:] == ["=5", ""]
