"""The README's screenshots, taken from a store of real collections and games (never a test store).

    python docs/screenshots.py [--store PATH] [--games N]

Builds the store once (Kogo's Joseki Dictionary, GNU Go's hoshi and komoku files and the OGS
export from ``../shared/data/joseki``, then ``N`` Fox games learnt from ``../shared/data/games``),
serves it, and drives headless Chromium through the four views, saving small PNGs into
``docs/screenshots``. The data stays where it is: only the store (outside the repo by default) and
the images are written.
"""

from __future__ import annotations

import argparse
import io
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
COLLECTIONS = [SHARED / "joseki" / "kogo-kjd-2014" / "Kogo_s_Joseki_Dictionary.sgf",
               *(SHARED / "joseki" / "gnugo" / f"{name}.sgf" for name in ("hoshi_keima", "hoshi_other", "komoku")),
               SHARED / "joseki" / "ogs-joseki-export" / "OGS_export.sgf"]
FOX = SHARED / "games" / "fox-pro"
OUT = ROOT / "docs" / "screenshots"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
LIMIT = 180.0


def build(path: Path, games: int) -> None:
    """The store at ``path``: the real collections imported and ``games`` Fox games learnt (once: kept after)."""
    from joseki.book.importer import import_file
    from joseki.book.store.database import Store
    from joseki.games.learn import learn

    if path.exists():
        return
    partial = path.with_suffix(".building")
    partial.unlink(missing_ok=True)
    store = Store(f"sqlite:///{partial}", upgrade=True)
    try:
        for sgf in COLLECTIONS:
            report = import_file(store, sgf)
            print(f"import {sgf.name}: {report.status} {report.error or ''}", flush=True)
        fox = sorted(FOX.glob("*.sgf"))[:games]
        report = learn(store, fox, None, 1)
        print(f"learnt {report.learnt} Fox games", flush=True)
    finally:
        store.close()
    partial.rename(path)


def serve(path: Path) -> tuple[str, Callable[[], None]]:
    """A server over the store at ``path`` in a thread: its address, and how to stop it."""
    import uvicorn

    from joseki.book.store.database import Store
    from joseki.web.app import create_app

    store = Store(f"sqlite:///{path}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(store), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)

    def stop() -> None:
        server.should_exit = True
        thread.join(30)
        store.close()

    return f"http://127.0.0.1:{port}", stop


def shoot(base: str, out: Path) -> None:
    """Explore, the games behind a position, review and practise, each a PNG in ``out``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1200,900", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)

    def until(condition: Callable[[Any], Any]) -> Any:
        return WebDriverWait(driver, LIMIT, poll_frequency=0.2).until(condition)

    def page(query: str, ready: Callable[[Any], Any] | None = None) -> None:
        driver.get(base + "/" + query)
        until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        if ready is not None:
            until(ready)

    def save(name: str) -> None:
        data = driver.get_screenshot_as_png()
        try:  # smaller with Pillow (a palette of 128 colours), else as Chromium wrote it
            from PIL import Image

            image = Image.open(io.BytesIO(data)).convert("RGB")
            image.quantize(colors=128).save(out / f"{name}.png", optimize=True)
        except ImportError:
            (out / f"{name}.png").write_bytes(data)
        print(f"{out / name}.png: {(out / f'{name}.png').stat().st_size // 1024} KiB", flush=True)

    out.mkdir(parents=True, exist_ok=True)
    try:
        page("?moves=Q16,R14", lambda d: d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr.candidate-row"))
        save("explore")
        page("?moves=Q16,R17,R16", lambda d: d.find_elements(By.CSS_SELECTOR, "#games tbody tr"))  # one answer
        save("games")
        row = driver.find_element(By.CSS_SELECTOR, "#games tbody tr")
        row.click()
        until(lambda d: "view=review" in d.current_url
              and d.find_elements(By.CSS_SELECTOR, "#review-corners tbody tr"))
        driver.execute_script("window.scrollTo(0, 0)")
        save("review")
        page("?view=practise&seed=7&rank=popularity")
        for number, point in enumerate(("pd", "pc"), start=1):  # Q16, then Q17 (the block after the 3-3)
            before = driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
            driver.find_element(By.ID, f"pt-{point}").click()
            until(lambda d, n=number, b=before: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") != b
                  and len(d.find_elements(By.CSS_SELECTOR, "#verdicts li")) == n)
        save("practise")
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, default=Path("/tmp/joseki-screenshots.db"),
                        help="the store to build or reuse (a SQLite file)")
    parser.add_argument("--games", type=int, default=600, help="Fox games to learn")
    parser.add_argument("--build-only", action="store_true", help="build the store, take no screenshot")
    args = parser.parse_args()
    build(args.store, args.games)
    if args.build_only:
        return
    base, stop = serve(args.store)
    try:
        shoot(base, OUT)
    finally:
        stop()


if __name__ == "__main__":
    main()
