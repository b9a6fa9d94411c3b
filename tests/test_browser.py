"""The explorer in a real browser: headless Chromium (Debian's chromium and chromium-driver) driven by Selenium.

Each test starts from a URL, acts as a player would (clicks on the board, the tables, the
buttons, the keys, uploads a file) and waits for what should appear: every wait is on a condition,
with a generous overall limit, never a fixed pause. Screenshots go to the test's tmp folder (the
README's come from a store of real collections: ``docs/screenshots.py``). The journey through all
four views runs on the real collections and games of ``../shared/data`` (skipped without them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from joseki.book.store.database import Store

from .conftest import GAMES, JOSEKI, Databases, need
from .games import write_game
from .webserver import headless_chromium, new_book, running

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
LIMIT = 120
"""Seconds a wait may last before the test fails (the machine is shared and slow; a pass takes far less)."""

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip("chromium or chromedriver absent (apt-get install chromium chromium-driver)", allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def base(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with new_book(databases, tmp_path_factory.mktemp("browser"), "browser") as (_, store), running(store) as address:
        yield address


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from headless_chromium(CHROMIUM, CHROMEDRIVER)


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
    driver.save_screenshot(str(tmp_path / f"{name}.png"))


def act(driver: Any, action: Callable[[], Any]) -> None:
    """Do ``action`` (a click, a key) and wait for the render it starts."""
    before = ready(driver)
    action()
    rendered(driver, before)


def key(driver: Any, name: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    act(driver, lambda: ActionChains(driver).send_keys(name).perform())


def choose(driver: Any, select: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    act(driver, lambda: Select(driver.find_element(By.ID, select)).select_by_value(value))


def letters_on_stones(driver: Any) -> list[str]:
    """The points where a candidate's letter stands on a stone (there should be none)."""
    return list(driver.execute_script(
        "const stones = new Set([...document.querySelectorAll('#board .stone')].map((s) => s.dataset.point));"
        "return [...document.querySelectorAll('#board .candidate')].map((c) => c.dataset.point)"
        ".filter((p) => stones.has(p));"))


def error_text(driver: Any) -> str:
    box = driver.find_element(By.ID, "error")
    return "" if box.get_attribute("hidden") is not None else str(box.text)


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
    bar = driver.find_element(By.CSS_SELECTOR, '#candidates tr[data-move="R11"] td.winrate')
    assert bar.get_attribute("title").startswith("Black wins 1, draws 0, White wins 1")  # the players' colours
    assert bar.find_element(By.CSS_SELECTOR, ".bar .black-wins").size["width"] > 0
    assert bar.find_element(By.CSS_SELECTOR, ".counts").text == "1 / 0 / 1"
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
    comment = until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#comments .words"))
    assert "<script>window.pwned=1</script>" in comment.text and "<b>joseki</b>" in comment.text
    assert driver.execute_script("return window.pwned === undefined")
    assert not driver.find_elements(By.CSS_SELECTOR, "#comments script, #comments b")
    assert driver.find_elements(By.CSS_SELECTOR, '#board .comment-mark[data-point="qf"]')  # its label 'a', drawn
    act(driver, lambda: driver.find_element(By.ID, "flip-x").click())  # the same in the top-left corner
    marks = [m.get_attribute("data-point") for m in driver.find_elements(By.CSS_SELECTOR, "#board .comment-mark")]
    assert marks == ["cf"]  # C14: the label drawn in the corner and reflection shown


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


# ---- the order asked (must-have 1) ----

def test_the_order_asked_is_the_order_given(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=Q16,R14")
    assert driver.find_element(By.ID, "order-line").text.startswith("Order: popularity (book paths + games).")
    choose(driver, "rank", "games")
    assert "rank=games" in driver.current_url
    games = [int(r.find_elements(By.TAG_NAME, "td")[2].text)
             for r in driver.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")]
    assert games == sorted(games, reverse=True)
    assert driver.find_element(By.ID, "order-line").text.startswith("Order: games.")
    choose(driver, "rank", "context")
    line = driver.find_element(By.ID, "order-line").text
    assert re.match(r"Order: the whole-board context\. Ranked by \d+ games? in this whole-board context", line), line
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#candidates thead th")]
    assert "in context" in headers
    choose(driver, "rank", "popularity")


def test_a_context_without_games_orders_nothing(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=D4,Q16,R14&rank=context")  # no learnt game began with D4
    line = driver.find_element(By.ID, "order-line").text
    assert line.startswith("Order: popularity") and "it orders nothing" in line, line
    context = rows(driver, "candidates")
    open_page(driver, base + "/?moves=D4,Q16,R14")
    assert rows(driver, "candidates") == context


# ---- a board that never lies (must-have 3) ----

def test_marks_never_hide_a_letter_and_the_board_explains_itself(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=Q16&collection=hostile")
    mark = driver.find_element(By.CSS_SELECTOR, '#board .comment-mark[data-point="qf"]')
    label = driver.find_element(By.CSS_SELECTOR, '#board .candidate[data-point="qf"] text')
    box = driver.execute_script("const a = arguments[0].getBBox(), b = arguments[1].getBBox();"
                                "return a.x < b.x + b.width && b.x < a.x + a.width && "
                                "a.y < b.y + b.height && b.y < a.y + a.height;", mark, label)
    assert box is False  # the comment's mark sits in the point's corner, clear of the letter
    legend = driver.find_element(By.ID, "legend").text
    for word in ("ideal", "good", "mistake", "trick", "a point a condition names", "a point a comment names"):
        assert word in legend
    titles = {th.text: th.get_attribute("title") for th in driver.find_elements(By.CSS_SELECTOR, "#candidates th")}
    assert all(titles[name] for name in ("paths", "priority", "fav.", "Black / draws / White"))


def test_no_letter_on_a_stone(driver: Any, base: str) -> None:
    # the book's first moves in the top-left corner, where Black already has a stone (its own C16)
    open_page(driver, base + "/?moves=C16,Q16,R14")
    assert driver.find_elements(By.CSS_SELECTOR, "#board .candidate")
    assert letters_on_stones(driver) == []
    open_page(driver, base + "/?view=review&played=wqf&setup=bpdbdp")  # a handicap game: D4 is a stone
    assert letters_on_stones(driver) == []


# ---- the games behind a position (must-have 4) ----

def test_the_games_keep_their_order_and_filters_in_the_url(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=Q16,R14,R11")
    until(driver, lambda d: len(rows(d, "games")) == 2)
    assert all("top-right" in r for r in rows(driver, "games"))
    choose(driver, "order", "strongest")
    assert "order=strongest" in driver.current_url and rows(driver, "games")[0].startswith("Black 1 (2d)")
    driver.find_element(By.ID, "f-player").send_keys("white 0")
    act(driver, lambda: driver.find_element(By.CSS_SELECTOR, "#game-filters button").click())
    assert "g-player=white+0" in driver.current_url
    assert len(rows(driver, "games")) == 1 and "1 pass the filters" in driver.find_element(By.ID, "games-count").text
    open_page(driver, driver.current_url)  # the link holds it all
    assert driver.find_element(By.ID, "f-player").get_attribute("value") == "white 0"
    assert len(rows(driver, "games")) == 1


def test_the_games_after_a_tenuki_and_in_another_frame(driver: Any, base: str) -> None:
    open_page(driver, base + "/?moves=Q16,R14,pass")
    until(driver, lambda d: len(rows(d, "games")) == 1)
    assert rows(driver, "games")[0].split()[-1] == "3"  # the game move that played the tenuki
    open_page(driver, base + "/?moves=D16,C14,C11")  # the learnt line, mirrored into the top-left
    until(driver, lambda d: len(rows(d, "games")) == 2)
    assert all("top-right (another corner" in r for r in rows(driver, "games"))


# ---- review (must-have 5) ----

def test_review_refuses_what_every_view_refuses(driver: Any, base: str) -> None:
    open_page(driver, base + "/?view=review&played=bpdwpd&move=2")
    assert error_text(driver) == "move 2 (Q16) lands on a stone"


def test_review_with_setup_stones_keys_and_explore_from_here(driver: Any, base: str) -> None:
    open_page(driver, base + "/?view=review&played=wqfbqiwdd&setup=bpdbdp&move=0")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board .stone.black")) == 2
    key(driver, "\ue010")  # End
    assert "move 3 of 3" in driver.find_element(By.ID, "move-number").text
    corners = rows(driver, "review-corners")
    assert any(r.startswith("top-right") and "Q16 R14 R11" in r for r in corners), corners
    key(driver, "\ue011")  # Home
    assert "move 0 of 3" in driver.find_element(By.ID, "move-number").text
    key(driver, "\ue015")  # down arrow: to the end
    assert "move 3 of 3" in driver.find_element(By.ID, "move-number").text
    key(driver, "\ue013")  # up arrow: to the start
    assert "move 0 of 3" in driver.find_element(By.ID, "move-number").text
    key(driver, "\ue014")  # right arrow
    assert "move 1 of 3" in driver.find_element(By.ID, "move-number").text
    note = driver.find_element(By.ID, "review-note").text
    lettered = driver.find_elements(By.CSS_SELECTOR, "#board .candidate")
    assert ("lettered" in note and "No book move" not in note) == bool(lettered)  # a message only for what is drawn
    act(driver, lambda: driver.find_element(By.ID, "explore-here").click())  # from move 1, after the setup
    assert "view=explore" in driver.current_url and "setup=bpdbdp" in driver.current_url
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board .stone")) == 3
    assert driver.find_element(By.ID, "state").text.startswith("top-right: in book, Black to play")
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#path li")] == ["R14"]
    act(driver, lambda: driver.find_element(By.ID, "clear-setup").click())
    assert "setup=" not in driver.current_url and len(driver.find_elements(By.CSS_SELECTOR, "#board .stone")) == 1
    open_page(driver, base + "/?view=review&played=bpdwqfbqi&move=2")
    act(driver, lambda: driver.find_element(By.ID, "explore-here").click())
    assert "view=explore" in driver.current_url
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#path li")] == ["Q16", "R14"]
    assert "in book" in driver.find_element(By.ID, "state").text


# ---- practise (must-have 6) ----

def test_practise_shows_refusals_and_ends_with_the_line(driver: Any, base: str) -> None:
    open_page(driver, base + "/?view=practise&seed=1")
    click_point(driver, "pd")  # Q16: the book answers
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#verdicts li")) == 1)
    driver.find_element(By.ID, "pt-pd").click()  # a stone is there
    until(driver, lambda d: "lands on a stone" in error_text(d))
    assert len(driver.find_elements(By.CSS_SELECTOR, "#verdicts li")) == 1
    click_point(driver, "rb")  # S18: out of the book, which has no answer
    until(driver, lambda d: "line has ended" in d.find_element(By.ID, "practise-note").text)
    score = driver.find_element(By.ID, "score").text
    driver.find_element(By.ID, "pt-jj").click()
    until(driver, lambda d: "restart" in d.find_element(By.ID, "practise-note").text)
    assert driver.find_element(By.ID, "score").text == score
    assert len(driver.find_elements(By.CSS_SELECTOR, "#verdicts li")) == 2  # no move scored after the end


def test_practise_as_white_the_book_moves_first_by_its_policy(driver: Any, base: str) -> None:
    open_page(driver, base + "/?view=practise&colour=white&seed=5")
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .stone.black")) == 1)
    first = driver.find_element(By.CSS_SELECTOR, "#board .stone.black").get_attribute("data-point")
    assert first in {"pd", "qd", "pc", "qc", "oc", "pe", "od", "qe", "rd"}  # a corner opening of the book


# ---- a journey through all four views on the real collections and games (must-have 9) ----

@pytest.fixture(scope="module")
def real(databases: Databases) -> Iterator[str]:
    """A server over the OGS export, GNU Go's hoshi files and some Fox games, as ../shared/data has them."""
    from joseki.book.importer import import_file
    from joseki.games.learn import learn

    ogs = need(JOSEKI / "ogs-joseki-export" / "OGS_export.sgf")
    gnugo = [need(JOSEKI / "gnugo" / f"{name}.sgf") for name in ("hoshi_keima", "hoshi_other")]
    fox = sorted(need(GAMES / "fox-pro").glob("*.sgf"))[:80]
    url = databases.new("real")
    store = Store(url)
    try:
        for path in (ogs, *gnugo):
            assert not import_file(store, path).error
        assert learn(store, fox, None, 1).learnt > 20
        with running(store) as address:
            yield address
    finally:
        store.close()
        databases.drop(url)


def test_a_journey_through_the_four_views_on_real_collections(driver: Any, real: str, tmp_path: Path) -> None:
    open_page(driver, real + "/")
    click_point(driver, "pd")  # Q16
    words = until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#comments .words"))
    ogs = next(w for w in words if "OGS" in w.find_element(By.CSS_SELECTOR, ".source").text)
    assert ogs.find_elements(By.CSS_SELECTOR, ".body h2")  # its Markdown heading, rendered
    assert "##" not in ogs.text and "**" not in ogs.text
    more = ogs.find_elements(By.CSS_SELECTOR, "button.more")
    if more:  # a long text is folded
        assert "folded" in ogs.find_element(By.CSS_SELECTOR, ".body").get_attribute("class")
        more[0].click()
        assert "folded" not in ogs.find_element(By.CSS_SELECTOR, ".body").get_attribute("class")
    for link in ogs.find_elements(By.CSS_SELECTOR, "a"):
        assert link.get_attribute("href").startswith(("http://", "https://"))
        assert "noopener" in link.get_attribute("rel")
    click_point(driver, "qf")  # R14
    assert "in book" in driver.find_element(By.ID, "state").text
    assert letters_on_stones(driver) == []
    until(driver, lambda d: rows(d, "games"))
    screenshot(driver, "journey-explore", tmp_path)
    act(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#games tbody tr")[0].click())
    until(driver, lambda d: "view=review" in d.current_url and rows(d, "review-corners"))
    key(driver, "\ue010")  # End: late in the game
    assert letters_on_stones(driver) == []
    key(driver, "\ue011")  # Home
    key(driver, "\ue014")
    key(driver, "\ue014")
    act(driver, lambda: driver.find_element(By.ID, "explore-here").click())
    assert "view=explore" in driver.current_url and len(driver.find_elements(By.CSS_SELECTOR, "#path li")) == 2
    act(driver, lambda: driver.find_element(By.ID, "tab-practise").click())
    until(driver, lambda d: d.find_element(By.ID, "score").text == "Play a move.")
    click_point(driver, "pd")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#verdicts li"))
    assert driver.find_element(By.CSS_SELECTOR, "#verdicts li").text.startswith("Q16: in book")
    screenshot(driver, "journey-practise", tmp_path)


def test_a_link_with_an_illegal_move_is_refused_whichever_move_is_shown(driver: Any, base: str) -> None:
    open_page(driver, base + "/?view=review&played=bpdwqfbqiwpd&move=1")  # move 4 lands on Q16
    assert error_text(driver) == "move 4 (Q16) lands on a stone"
