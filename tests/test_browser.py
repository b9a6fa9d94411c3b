"""The explorer in a real browser: headless Chromium (Debian's chromium and chromium-driver) driven by Selenium.

Each test starts from a URL, acts as a player would (clicks on the board, the tables, the
buttons, uploads a file) and waits for what should appear: every wait is on a condition,
with a generous overall limit, never a fixed pause. Screenshots go to the test's tmp folder,
and to docs/screenshots when ``JOSEKI_SCREENSHOTS=1`` (for the README).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from joseki.book.store.database import Store

from .conftest import Databases
from .games import write_game
from .webserver import new_book, running

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
LIMIT = 120
"""Seconds a wait may last before the test fails (the machine is shared and slow; a pass takes far less)."""

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip("chromium or chromedriver absent (apt-get install chromium chromium-driver)", allow_module_level=True)

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def base(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with new_book(databases, tmp_path_factory.mktemp("browser"), "browser") as (_, store), running(store) as address:
        yield address


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield browser
    browser.quit()


def until(driver: Any, condition: Callable[[Any], Any]) -> Any:
    return WebDriverWait(driver, LIMIT, poll_frequency=0.1).until(condition)


def rendered(driver: Any, after: str | None) -> Any:
    """Wait until the page has finished a render begun after ``after`` (the body's render counter)."""
    return until(driver, lambda d: (d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") or None)
                 not in (None, after))


def ready(driver: Any) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))


def open_page(driver: Any, url: str) -> None:
    driver.get(url)
    rendered(driver, None)


def click_point(driver: Any, point: str) -> None:
    before = ready(driver)
    driver.find_element(By.ID, f"pt-{point}").click()
    rendered(driver, before)


def rows(driver: Any, table: str) -> list[str]:
    return [r.text for r in driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")]


def screenshot(driver: Any, name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.png"
    driver.save_screenshot(str(path))
    if os.environ.get("JOSEKI_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, SCREENSHOTS / path.name)


def test_click_a_move_and_see_the_candidates(driver: Any, base: str, tmp_path: Path) -> None:
    open_page(driver, base + "/")
    assert "empty corner" in driver.find_element(By.ID, "state").text
    click_point(driver, "pd")  # Q16
    assert "moves=Q16" in driver.current_url
    assert "in book" in driver.find_element(By.ID, "state").text
    click_point(driver, "qf")  # R14
    table = rows(driver, "candidates")
    assert table[0].split()[:3] == ["a", "R11", "2"]  # label, move, games
    assert driver.find_elements(By.CSS_SELECTOR, '#board .candidate[data-point="qi"][data-label="a"]')
    assert driver.find_element(By.CSS_SELECTOR, "#candidates .bar .win").size["width"] > 0  # the win-rate bar
    screenshot(driver, "explore", tmp_path)
    before = ready(driver)
    driver.find_element(By.CSS_SELECTOR, '#candidates tr[data-move="R11"] a').click()  # play the top candidate
    rendered(driver, before)
    assert "moves=Q16%2CR14%2CR11" in driver.current_url or "moves=Q16,R14,R11" in driver.current_url
    before = ready(driver)
    driver.find_element(By.ID, "back").click()
    rendered(driver, before)
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#path li")] == ["Q16", "R14"]


def test_the_url_holds_the_position_and_tenuki_is_a_button(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=Q16,R14,R11")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board .stone")) == 3
    before = ready(driver)
    driver.find_element(By.ID, "tenuki").click()
    rendered(driver, before)
    assert driver.find_elements(By.CSS_SELECTOR, "#path li")[-1].text == "tenuki"
    before = ready(driver)
    driver.find_element(By.ID, "flip-x").click()  # the same line in the top-left corner
    rendered(driver, before)
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#path li")][:2] == ["D16", "C14"]
    assert driver.find_element(By.ID, "state").text.startswith("top-left")


def test_a_transposition_is_said_as_such(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=R11,R14,Q16")
    text = driver.find_element(By.ID, "state").text
    assert "in book by transposition" in text and "the book's line Q16 R14 R11" in text


def test_a_script_in_a_comment_is_shown_as_text(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=Q16&collection=hostile")
    comment = until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#comments .comment"))
    assert "<script>window.pwned=1</script>" in comment.text and "<b>joseki</b>" in comment.text
    assert driver.execute_script("return window.pwned === undefined")
    assert not driver.find_elements(By.CSS_SELECTOR, "#comments script, #comments b")
    assert driver.find_elements(By.CSS_SELECTOR, '#board .comment-mark[data-point="qf"]')  # its label 'a', drawn


def test_open_a_game_behind_a_position(driver: Any, base: str, tmp_path: Path) -> None:
    open_page(driver, base + "/?moves=Q16,R14,R11")
    until(driver, lambda d: len(rows(d, "games")) == 2)
    assert "2 games" in driver.find_element(By.ID, "games-count").text
    screenshot(driver, "games", tmp_path)
    before = ready(driver)
    driver.find_elements(By.CSS_SELECTOR, "#games tbody tr")[0].click()
    rendered(driver, before)
    until(driver, lambda d: "move 3 of" in d.find_element(By.ID, "move-number").text)
    assert "Black 1" in driver.find_element(By.ID, "game-info").text
    assert "view=review" in driver.current_url and "game=" in driver.current_url


def test_review_an_uploaded_game(driver: Any, base: str, tmp_path: Path) -> None:
    game = write_game(tmp_path / "mine.sgf", ["Q16", "R14", "O14", "D4", "C16"], "W+R",
                      extra="PB[<i>Shusaku</i>]PW[Gennan]")
    open_page(driver, base + "/?view=review")
    before = ready(driver)
    driver.find_element(By.ID, "upload").send_keys(str(game))
    rendered(driver, before)
    info = driver.find_element(By.ID, "game-info")
    assert "<i>Shusaku</i>" in info.text and not info.find_elements(By.TAG_NAME, "i")
    for _ in range(3):
        before = ready(driver)
        driver.find_element(By.ID, "forward").click()
        rendered(driver, before)
    corners = rows(driver, "review-corners")
    assert any("out of book" in r and "O14" in r for r in corners), corners
    lettered = driver.find_elements(By.CSS_SELECTOR, "#board .candidate:not(.dim)")
    assert {g.get_attribute("data-point") for g in lettered} >= {"qi"}  # R11, the book's move where O14 left it
    screenshot(driver, "review", tmp_path)


def test_practise_against_the_book(driver: Any, base: str, tmp_path: Path) -> None:
    open_page(driver, base + "/?view=practise&seed=1")
    click_point(driver, "pd")  # Q16: in book, the book answers
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#verdicts li"))
    verdict = driver.find_element(By.CSS_SELECTOR, "#verdicts li").text
    assert verdict.startswith("Q16: in book") and "The book answers" in verdict
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board .stone.white")) == 1
    assert driver.find_element(By.ID, "score").text == "score: 1 of 1 moves in book"
    click_point(driver, "jj")  # K10, far from the corner: a tenuki, judged against the book's tenuki
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#verdicts li")) == 2)
    assert driver.find_elements(By.CSS_SELECTOR, "#verdicts li")[1].text.startswith("K10, tenuki: ")
    assert driver.find_element(By.ID, "score").text.endswith("of 2 moves in book")
    screenshot(driver, "practise", tmp_path)


def test_moves_played_beyond_a_mined_book_are_listed_and_played(driver: Any, databases: Databases,
                                                                 tmp_path: Path) -> None:
    from joseki.games.mine import mine

    folder = tmp_path / "mined"
    folder.mkdir()
    for i, last in enumerate(["R17", "R17", None]):  # the book (3 games) ends after P17; R17 was played in 2
        write_game(folder / f"g{i}.sgf", ["Q16", "R14", "P17", *([last] if last else []), f"K{10 + i}"], "B+R")
    url = databases.new("beyond")
    store = Store(url)
    try:
        mine(store, [folder], 3, workers=1)
        with running(store) as address:
            open_page(driver, address + "/?moves=Q16,R14,P17")
            line = driver.find_element(By.ID, "beyond")
            assert line.text == "played beyond the book (too few games for a book move): R17 (2 games)"
            before = ready(driver)
            line.find_element(By.CSS_SELECTOR, "a.move").click()
            rendered(driver, before)
            assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#path li")][-1] == "R17"
            assert "out of book" in driver.find_element(By.ID, "state").text
    finally:
        store.close()
        databases.drop(url)
