"""A shared server's safety, on a real server: no server path in any answer, no framing, a body that never
arrives, a client that goes away, the Host names answered."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import struct
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.core.errors import BadInput
from joseki.games.learn import learn
from joseki.web.app import allowed

from .conftest import Databases
from .games import sgf_text
from .test_cli import joseki
from .webserver import new_book, running


@pytest.fixture(scope="module")
def book(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store, Path]]:
    """The test book, with one more game learnt from a folder of its own (to move away later)."""
    tmp = tmp_path_factory.mktemp("safety")
    with new_book(databases, tmp, "safety") as (url, store):
        extra = tmp / "more" / "deeper"
        extra.mkdir(parents=True)
        (extra / "moved.sgf").write_text(sgf_text(["Q16", "R14", "R11", "C3"], "B+R", extra="PB[Moved]DT[2025-01-01]"),
                                         encoding="utf-8")
        assert learn(store, [extra], None, 1).learnt == 1
        yield url, store, tmp


@pytest.fixture(scope="module")
def base(book: tuple[str, Store, Path]) -> Iterator[str]:
    with running(book[1], body_seconds=1.0) as url:
        yield url


class Lines(logging.Handler):
    """The log records of the server (every logger), as text."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def log_lines() -> Iterator[list[str]]:
    handler = Lines()
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    loggers = [logging.getLogger(), logging.getLogger("uvicorn.error"), logging.getLogger("uvicorn")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.lines
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def _strings(data: Any) -> Iterator[str]:
    """Every string of a JSON answer, keys too."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def _no_server_path(data: Any, tmp: Path) -> None:
    for text in _strings(data):
        assert str(tmp) not in text and os.getcwd() not in text, text
        assert not (os.path.isabs(text) and os.path.exists(text)), text


def test_no_answer_names_a_place_on_the_server(base: str, book: tuple[str, Store, Path]) -> None:
    url, _, tmp = book
    answers: list[Any] = []
    with httpx.Client(base_url=base, timeout=120) as client:
        for path, params in [("/api/catalogue", {}), ("/api/stats", {}), ("/api/openapi.json", {}),
                             ("/api/explore", {"moves": "Q16,R14"}), ("/api/review", {"game": "bpdwqfbqi"}),
                             ("/api/practise", {"moves": "Q16,R14", "seed": 1}),
                             ("/api/games", {"moves": "Q16,R14,R11"}), ("/api/game/" + "0" * 32, {}),
                             ("/api/explore", {"moves": "Q16,Q16"})]:
            answer = client.get(path, params=params)
            assert answer.status_code in (200, 400), (path, answer.text)
            answers.append(answer.json())
        games = answers[6]["games"]
        assert {g["source"] for g in games} == {"games/game0.sgf", "games/game1.sgf", "more/deeper/moved.sgf"}
        for g in games:
            answers.append(client.get(f"/api/game/{g['key']}").json())
        assert {a["game"]["source"] for a in answers[-3:]} == {g["source"] for g in games}
        answers.append(client.post("/api/upload", content=sgf_text(["Q16"]).encode(),
                                   headers={"X-File-Name": "%E6%9D%8E%E4%B8%96%E7%9F%B3.sgf"}).json())
        assert answers[-1]["game"]["source"] == "李世石.sgf"
        raw = client.post("/api/upload", content=sgf_text(["Q16"]).encode(),
                          headers=[(b"X-File-Name", "名人戦.sgf".encode("shift_jis"))]).json()
        assert raw["game"]["source"] == "名人戦.sgf"
        moved = next(g for g in games if g["source"] == "more/deeper/moved.sgf")
        shutil.move(tmp / "more", tmp / "gone")
        try:
            gone = client.get(f"/api/game/{moved['key']}")
        finally:
            shutil.move(tmp / "gone", tmp / "more")
        assert gone.status_code == 400 and gone.json()["error"].startswith("more/deeper/moved.sgf: ")
        answers.append(gone.json())
    cli = json.loads(joseki("games", "Q16", "R14", "R11", "--json", db=url).stdout)
    assert {g["source"] for g in cli["games"]} == {g["source"] for g in games}
    answers.append(cli)
    for data in answers:
        _no_server_path(data, tmp)


def test_no_site_may_frame_the_pages(base: str) -> None:
    for path in ("/", "/api/catalogue", "/static/app.js"):
        policy = httpx.get(base + path).headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy.split("; ")


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=60)
    return sock


def test_a_body_that_never_arrives_is_answered_408(base: str, log_lines: list[str]) -> None:
    with _connect(base) as sock:
        sock.sendall(b"POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n(;GM[1]")
        started = time.monotonic()
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert time.monotonic() - started < 50
    assert httpx.get(base + "/api/catalogue").status_code == 200
    assert not any("Traceback" in line or "Exception in ASGI" in line for line in log_lines), log_lines


def _reset(sock: socket.socket) -> None:
    """Close with a reset, as a client that goes away does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _gone_lines(log_lines: list[str], what: str) -> list[str]:
    """The log's lines about a client gone away from ``what``, once one has come (60 s at most)."""
    deadline = time.monotonic() + 60
    while not any("went away" in line and what in line for line in log_lines) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [line for line in log_lines if "went away" in line and what in line]


def test_a_client_that_goes_away_is_one_log_line(base: str, log_lines: list[str]) -> None:
    # mid-upload: the body stops and the connection is reset
    sock = _connect(base)
    sock.sendall(b"POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n(;GM[1]SZ[19]")
    time.sleep(0.3)
    _reset(sock)
    assert len(_gone_lines(log_lines, "POST /api/upload")) == 1, log_lines
    # mid-answer: an answer the server computes (never asked before), the connection reset before it is sent
    sock = _connect(base)
    sock.sendall(b"GET /api/explore?moves=Q16,R14,R11,Q12,D4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    _reset(sock)
    assert len(_gone_lines(log_lines, "GET /api/explore")) == 1, log_lines
    # a file, reset at once (gone before or after its answer: at most one line)
    sock = _connect(base)
    sock.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    _reset(sock)
    assert httpx.get(base + "/api/catalogue", timeout=60).status_code == 200
    time.sleep(0.5)
    assert len([line for line in log_lines if "/static/app.js" in line]) <= 1, log_lines
    assert not any("Traceback" in line or "Exception" in line for line in log_lines), log_lines
    assert all(line.count("\n") == 0 for line in log_lines), log_lines


def test_only_the_named_hosts_are_answered(book: tuple[str, Store, Path]) -> None:
    hosts = allowed("0.0.0.0", ["go.example.org"])
    assert "*" not in hosts and "go.example.org" in hosts and "127.0.0.1" in hosts
    import uvicorn

    from joseki.web.app import create_app

    from .webserver import free_port

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(book[1], hosts=hosts), host="127.0.0.1", port=port,
                                           log_level="warning"))
    import threading

    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        url = f"http://127.0.0.1:{port}/api/catalogue"
        assert httpx.get(url, headers={"Host": "go.example.org"}).status_code == 200
        assert httpx.get(url, headers={"Host": "go.example.org:8000"}).status_code == 200
        assert httpx.get(url, headers={"Host": "localhost"}).status_code == 200
        for other in ("attacker.example", "go.example.org.attacker.example", "example.org"):
            assert httpx.get(url, headers={"Host": other}).status_code == 400
    finally:
        server.should_exit = True
        thread.join(30)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "go.example.org"])
def test_another_address_needs_its_host_names(host: str) -> None:
    with pytest.raises(BadInput, match="--allowed-host"):
        allowed(host, [])
    with pytest.raises(BadInput, match="never '\\*'"):
        allowed(host, ["*"])
    assert allowed("127.0.0.1", []) == ["127.0.0.1", "localhost", "[::1]"]
    assert allowed("::1", []) == ["127.0.0.1", "localhost", "[::1]"]


def test_serve_on_another_address_without_host_names_is_one_line(book: tuple[str, Store, Path]) -> None:
    for args in (["--host", "0.0.0.0"], ["--host", "0.0.0.0", "--allowed-host", "*"]):
        refused = joseki("serve", "--port", "1", *args, db=book[0])
        assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
        assert refused.stderr.startswith("error: ") and "--allowed-host" in refused.stderr


def test_a_failing_store_is_answered_without_its_place(new_db: Callable[..., str], log_lines: list[str]) -> None:
    url = new_db("failing")
    if "://" in url:
        pytest.skip("corrupts a SQLite file")
    store = Store(url, upgrade=True)
    try:
        assert not import_file(store, starter_book(), "starter").error
        with running(store, cache_mb=0) as base:
            assert httpx.get(base + "/api/explore", params={"moves": "Q16"}, timeout=120).status_code == 200
            store.engine.dispose()
            with open(url, "r+b") as handle:  # the file is no longer a database
                handle.write(b"\0" * 4096)
            answer = httpx.get(base + "/api/explore", params={"moves": "D4,C6"}, timeout=120)
    finally:
        store.close()
    assert answer.status_code == 503 and url not in answer.text and os.path.basename(url) not in answer.text
    assert any(url in line for line in log_lines), log_lines
