"""A real ``joseki serve`` for the tests: uvicorn on a free loopback port, in a thread, over a real store."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.games.learn import learn
from joseki.web.app import create_app
from joseki.web.cache import DEFAULT_MB

from .conftest import Databases
from .games import write_game

HOSTILE = ("(;FF[4]GM[1]CA[UTF-8]SZ[19];B[pd]C[Black's <script>window.pwned=1</script> answer at 'a' is "
           "<b>joseki</b>]LB[qf:a];W[qf])")
"""A collection whose comment holds markup: the page must show it as text, and draw the label 'a'."""
GAMES = [(["Q16", "R14", "R11", "D4", "C16"], "B+R"), (["Q16", "R14", "R11", "D4"], "W+3.5"),
         (["Q16", "R14", "R12", "D16"], "B+R"), (["Q16", "R14", "Q12", "C3", "D17", "R6"], "B+2.5"),
         (["Q16", "R14", "D4", "P17"], "W+R")]
"""Finished games to learn: statistics for the first moves (win-rate bars) and games behind positions (the last
plays Black's tenuki of the book after Q16 R14: White plays there again)."""


def make_book(url: str, tmp: Path) -> Store:
    """A store with the starter book, a collection with a hostile comment and a few learnt games."""
    store = Store(url)
    assert not import_file(store, starter_book(), "starter").error
    hostile = tmp / "hostile.sgf"
    hostile.write_text(HOSTILE, encoding="utf-8")
    assert not import_file(store, hostile, "hostile").error
    games = tmp / "games"
    games.mkdir()
    for i, (moves, result) in enumerate(GAMES):
        write_game(games / f"game{i}.sgf", moves, result,
                   extra=f"PB[Black {i}]PW[White {i}]BR[{i + 1}d]DT[2024-0{i + 1}-01]")
    report = learn(store, [games], None, 1)
    assert report.learnt == len(GAMES), report.errors
    return store


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def new_book(databases: Databases, tmp: Path, name: str) -> Iterator[tuple[str, Store]]:
    """A new database ``name`` holding :func:`make_book`'s book, as (URL, store), dropped afterwards."""
    url = databases.new(name)
    store = make_book(url, tmp)
    try:
        yield url, store
    finally:
        store.close()
        databases.drop(url)


@contextmanager
def running(store: Store, writable: bool = False, cache_mb: int = DEFAULT_MB, **options: Any) -> Iterator[str]:
    """The base URL of a real server over ``store`` until the block ends (waits for start-up, 120 s at most);
    ``options``: more of :func:`joseki.web.app.create_app`'s."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(store, writable, cache_mb=cache_mb, **options),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def headless_chromium(chromium: Path, chromedriver: Path) -> Iterator[Any]:
    """A headless Chromium driven by ``chromedriver`` (selenium), quit when the generator is closed."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(str(chromedriver)), options=options)
    try:
        yield browser
    finally:
        browser.quit()

