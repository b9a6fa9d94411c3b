"""The explorer's Search view: ``/api/search`` on a real server over real indexed games, and the page in Chromium.

The API must carry the library's answer (:func:`joseki.book.patternsearch.search`) unchanged beside its drawing
keys, refuse bad input in one line, and say so when nothing is indexed. The page is driven as a player would:
a pattern drawn by clicks, a region dragged or a corner picked, a search, a continuation followed, a game opened
at a hit, the URL reloaded. Every wait is on a condition, never a pause.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from joseki.book.patternsearch import GameFilter, Query, forget, search
from joseki.book.store.database import Store
from joseki.core.geometry import Corner
from joseki.core.pattern import Placement, Side, Where, parse_pattern
from joseki.games.indexing import index_games
from joseki.games.learn import learn
from joseki.sgf.archive import expand_games

from .conftest import GAMES, Databases, need
from .webserver import headless_chromium, running

GAME_COUNT = 12
CORNER = "....../....../...O../...X../....../......"
"""A corner pattern cut the way Kombilo's users draw them: the 4-4 point and its approach, empty around."""
STAR = "......./......./......./...X.../......./......./......."
"""Black's 4-4 point alone in an empty corner: common in real games."""


@pytest.fixture(scope="module")
def game_files() -> list[str]:
    return expand_games([need(GAMES / "kgs-highdan-2019-04")])[:GAME_COUNT]


@pytest.fixture(scope="module")
def indexed(databases: Databases, game_files: list[str]) -> Iterator[Store]:
    """A store holding the pattern index of a few real games (and nothing else)."""
    url = databases.new("search")
    store = Store(url)
    report = index_games(store, [Path(f) for f in game_files], workers=1)
    assert report.added == len(game_files)
    forget()
    try:
        yield store
    finally:
        store.close()
        databases.drop(url)


@pytest.fixture(scope="module")
def base(indexed: Store) -> Iterator[str]:
    with running(indexed) as address:
        yield address


@pytest.fixture(scope="module")
def client(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=300) as http:
        yield http


def _without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


def test_the_api_carries_the_librarys_answer(client: httpx.Client, indexed: Store) -> None:
    response = client.get("/api/search", params={"pattern": STAR, "corner": "top-left", "limit": 100})
    assert response.status_code == 200, response.text
    data = response.json()
    library = search(indexed, Query(parse_pattern(STAR), Placement(Where.CORNER, corner=Corner.TOP_LEFT),
                                    limit=100)).as_json()
    assert data["hits"] == library["hits"] > 0 and data["games"] == library["games"] > 0
    assert data["searched"] == GAME_COUNT
    for web, lib in zip(data["continuations"], library["continuations"], strict=True):
        assert {k: web[k] for k in lib} == lib
    for web, lib in zip(data["results"], library["results"], strict=True):
        assert "root" not in web and not web["source"].startswith("/")
        assert {k: web[k] for k in lib if k not in ("root", "source", "hits")} == {k: v for k, v in lib.items()
                                                                           if k not in ("root", "source", "hits")}
        assert [{k: h[k] for k in lh} for h, lh in zip(web["hits"], lib["hits"], strict=True)] == lib["hits"]
    assert data["region"] == {"from": "aa", "to": "gg", "from_vertex": "A19", "to_vertex": "G13"}
    assert data["cells"] == [{"point": "dd", "letter": "X"}] and data["board"] == {"black": ["dd"], "white": []}
    labels = [c["label"] for c in data["continuations"]]
    assert len(labels) >= 2 and labels == [chr(97 + i) for i in range(len(labels))]  # by frequency, as lettered
    first = data["continuations"][0]
    assert not first["occupied"] and first["point"] not in data["board"]["black"]  # a letter on an empty point
    assert first["point"] == first["move"]["sgf"]  # in its corner, drawn at home


def test_a_side_pattern_is_drawn_where_the_page_drew_it(client: httpx.Client, indexed: Store) -> None:
    rows = "...../..X../....."
    at_home = client.get("/api/search", params={"pattern": rows, "side": "top"}).json()
    moved = client.get("/api/search", params={"pattern": rows, "side": "top", "origin": "H19"}).json()
    assert moved["hits"] == at_home["hits"] > 0
    assert moved["region"]["from_vertex"] == "H19" and moved["board"] == {"black": ["jb"], "white": []}
    for home, there in zip(at_home["continuations"], moved["continuations"], strict=True):
        assert home["move"] == there["move"] and home["label"] == there["label"]
        hx, hy = (ord(c) - 97 for c in home["point"])
        assert there["point"] == chr(97 + hx + 7) + chr(97 + hy)  # the same cell of the pattern, moved along
    refused = client.get("/api/search", params={"pattern": rows, "side": "top", "origin": "H18"})
    assert refused.status_code == 400 and "cannot have its top-left point there" in refused.json()["error"]


def test_next_follows_a_continuation_and_filters_apply(client: httpx.Client, indexed: Store) -> None:
    first = client.get("/api/search", params={"pattern": STAR, "limit": 100}).json()
    top = first["continuations"][0]
    colour = "B" if top["black"] >= top["white"] else "W"
    followed = client.get("/api/search", params={"pattern": STAR, "next": f"{colour}:{top['vertex']}"}).json()
    assert followed["hits"] == (top["black"] if colour == "B" else top["white"])
    assert followed["sequence"] == [{"colour": colour, "move": top["move"]["gtp"], "point": top["point"],
                                     "vertex": top["vertex"]}]
    assert top["point"] in followed["board"]["black" if colour == "B" else "white"]
    assert all(c["point"] != top["point"] or c["occupied"] for c in followed["continuations"])
    player = first["results"][0]["black"]
    only = client.get("/api/search", params={"pattern": STAR, "player": player, "result": "b"}).json()
    library = search(indexed, Query(parse_pattern(STAR), Placement(Where.CORNER),
                                    games=GameFilter(player=player, winner="b"))).as_json()
    assert only["hits"] == library["hits"] and only["games"] == library["games"]
    assert all(player.lower() in (r["black"] + r["white"]).lower() for r in only["results"])


def test_anywhere_and_at_placements(client: httpx.Client, indexed: Store) -> None:
    anywhere = client.get("/api/search", params={"pattern": ".X./X.O", "anywhere": "true", "origin": "K10"}).json()
    library = search(indexed, Query(parse_pattern(".X./X.O"), Placement(Where.ANYWHERE))).as_json()
    assert anywhere["hits"] == library["hits"] and anywhere["region"]["from_vertex"] == "K10"
    side = search(indexed, Query(parse_pattern("...../..X../....."), Placement(Where.SIDE, side=Side.TOP)))
    at = client.get("/api/search", params={"pattern": "...../..X../.....", "at": "A19"}).json()
    assert at["placement"] == {"where": "fixed", "at": "A19"} and at["hits"] <= side.hits


@pytest.mark.parametrize(("params", "message"), [
    ({"pattern": "XO/X"}, "a pattern is a rectangle"),
    ({"pattern": "XZ"}, "unknown letter 'Z'"),
    ({"pattern": "XX/XX", "at": "T1"}, "runs off the 19x19 board"),
    ({"pattern": "../..", "anywhere": "true"}, "needs at least one stone"),
    ({"pattern": ""}, "empty pattern"),
    ({"pattern": "X", "corner": "middle"}, "unknown corner"),
    ({"pattern": "X", "min_rank": "strong"}, "--min-rank"),
    ({"pattern": "X", "side": "top", "anywhere": "true"}, "choose one placement"),
    ({"pattern": "..../.X..", "next": "K10"}, "outside the pattern where it is drawn"),
])
def test_bad_input_is_a_400_with_the_librarys_message(client: httpx.Client, params: dict[str, str],
                                                      message: str) -> None:
    response = client.get("/api/search", params=params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert message in error and "\n" not in error


def test_no_index_and_an_old_index_are_said_clearly(databases: Databases, game_files: list[str]) -> None:
    url = databases.new("unindexed")
    store = Store(url)
    try:
        with running(store) as address, httpx.Client(base_url=address, timeout=300) as http:
            empty = http.get("/api/search", params={"pattern": STAR})
            assert empty.status_code == 400 and "no games indexed" in empty.json()["error"]
            index_games(store, [Path(f) for f in game_files[:2]], workers=1)
            assert http.get("/api/search", params={"pattern": STAR}).status_code == 200
            learn(store, [Path(f) for f in game_files[:3]], None, 1)  # the index's last check is kept: no forget()
            old = http.get("/api/search", params={"pattern": STAR})
            assert old.status_code == 400
            assert "older than the store's games: 1 learnt game is not indexed" in old.json()["error"]
    finally:
        store.close()
        databases.drop(url)


def test_a_game_found_opens_by_its_key_and_search_is_in_the_schema(client: httpx.Client) -> None:
    data = client.get("/api/search", params={"pattern": STAR}).json()
    hit = data["results"][0]
    game = client.get(f"/api/game/{hit['key']}").json()["game"]
    assert game["key"] == hit["key"] and game["black"] == hit["black"] and not game["source"].startswith("/")
    assert len(game["moves"]) == hit["moves"]
    schema = client.get("/api/openapi.json").json()
    names = {p["name"] for p in schema["paths"]["/api/search"]["get"]["parameters"]}
    assert {"pattern", "corner", "side", "anywhere", "at", "origin", "fixed_colour", "fixed_orientation", "player",
            "min_rank", "from", "to", "result", "event", "next", "limit"} <= names


def test_a_search_answer_is_cached(client: httpx.Client) -> None:
    params = {"pattern": CORNER, "corner": "bottom-right"}
    client.get("/api/search", params=params)
    again = client.get("/api/search", params=params)
    assert again.headers["x-cache"] == "hit"



# ---- the page in headless Chromium ----
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
LIMIT = 120
"""Seconds a wait may last before the test fails (the machine is shared and slow; a pass takes far less)."""


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("chromium or chromedriver absent (apt-get install chromium chromium-driver)")
    yield from headless_chromium(CHROMIUM, CHROMEDRIVER)


def _by() -> Any:
    from selenium.webdriver.common.by import By

    return By


def until(driver: Any, condition: Callable[[Any], Any]) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, LIMIT, poll_frequency=0.1).until(condition)


def ready(driver: Any) -> str | None:
    return driver.find_element(_by().TAG_NAME, "body").get_attribute("data-ready") or None


def act(driver: Any, action: Callable[[], Any]) -> None:
    """Do ``action`` and wait for the render it starts (the body's render counter moves)."""
    before = ready(driver)
    action()
    until(driver, lambda d: ready(d) not in (None, before))


def find(driver: Any, css: str) -> Any:
    return driver.find_element(_by().CSS_SELECTOR, css)


def finds(driver: Any, css: str) -> list[Any]:
    return list(driver.find_elements(_by().CSS_SELECTOR, css))


def point(driver: Any, sgf: str) -> Any:
    return find(driver, f"#pt-{sgf}")


def drag(driver: Any, start: str, end: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).click_and_hold(point(driver, start)).move_to_element(point(driver, end)).release().perform()


def error_text(driver: Any) -> str:
    box = find(driver, "#error")
    return "" if box.get_attribute("hidden") is not None else str(box.text)


def letters_on_stones(driver: Any) -> list[str]:
    return list(driver.execute_script(
        "const stones = new Set([...document.querySelectorAll('#board .stone')].map((s) => s.dataset.point));"
        "return [...document.querySelectorAll('#board .candidate')].map((c) => c.dataset.point)"
        ".filter((p) => stones.has(p));"))


def summary(driver: Any) -> str:
    return str(find(driver, "#s-summary").text)


def test_draw_search_follow_open_a_game_and_reload(driver: Any, base: str, client: httpx.Client,
                                                   tmp_path: Path) -> None:
    driver.get(base + "/")
    until(driver, lambda d: ready(d) is not None)
    act(driver, lambda: find(driver, "#tab-search").click())
    assert "view=search" in driver.current_url
    drag(driver, "aa", "gg")  # a 7x7 region in the top-left corner
    until(driver, lambda d: find(d, "#board .region").get_attribute("data-to") == "gg")
    assert find(driver, "#s-placement").get_attribute("value") == "corner:top-left"
    point(driver, "dd").click()
    until(driver, lambda d: finds(d, "#board .stone.black[data-point='dd']"))
    act(driver, lambda: find(driver, "#s-run").click())
    until(driver, lambda d: finds(d, "#s-continuations tbody tr"))
    expected = client.get("/api/search", params={"pattern": STAR, "corner": "top-left"}).json()
    assert f"{expected['games']} games with a hit, {expected['hits']} hits in all" in summary(driver)
    drawn = {c.get_attribute("data-point"): c.get_attribute("data-label")
             for c in finds(driver, "#board .continuation")}
    assert drawn == {c["point"]: c["label"] for c in expected["continuations"] if not c["occupied"]}
    assert not letters_on_stones(driver)
    assert len(finds(driver, "#s-games tbody tr")) == len(expected["results"])
    driver.save_screenshot(str(tmp_path / "search.png"))

    top = expected["continuations"][0]
    act(driver, lambda: find(driver, "#s-continuations tbody tr:first-child a.follow").click())
    until(driver, lambda d: finds(d, "#s-sequence li"))
    colour = "B" if top["black"] >= top["white"] else "W"
    followed = client.get("/api/search", params={"pattern": STAR, "corner": "top-left",
                                                 "next": f"{colour}:{top['vertex']}"}).json()
    assert f"{plural(followed['hits'], 'hit')} in all" in summary(driver)
    assert finds(driver, f"#board .stone[data-point='{top['point']}']")
    searched = driver.current_url
    assert "s-next=" in searched

    hit_link = find(driver, "#s-games a.hit")
    number = int(hit_link.get_attribute("data-move"))
    key = find(driver, "#s-games tbody tr").get_attribute("data-key")
    act(driver, hit_link.click)
    until(driver, lambda d: d.find_element(_by().TAG_NAME, "body").get_attribute("data-view") == "review")
    until(driver, lambda d: f"move {number} of" in find(d, "#move-number").text)
    game = client.get(f"/api/game/{key}").json()["game"]
    played = game["moves"][number - 1][1]
    until(driver, lambda d: finds(d, f"#board .stone[data-point='{played}']"))

    act(driver, driver.back)
    until(driver, lambda d: finds(d, "#s-sequence li"))
    assert driver.current_url == searched
    act(driver, driver.refresh)
    until(driver, lambda d: finds(d, "#s-continuations tbody tr"))
    assert f"{plural(followed['hits'], 'hit')} in all" in summary(driver)
    assert finds(driver, "#board .stone.black[data-point='dd']") and error_text(driver) == ""


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def test_pick_a_corner_cycle_the_letters_and_share_the_url(driver: Any, base: str, client: httpx.Client) -> None:
    driver.get(base + "/?view=search")
    until(driver, lambda d: ready(d) is not None)
    find(driver, ".s-corner[data-place='corner:bottom-right']").click()
    until(driver, lambda d: find(d, "#board .region").get_attribute("data-from") == "mm")
    point(driver, "aa").click()  # outside the region: not part of the pattern
    until(driver, lambda d: "outside the region" in find(d, "#s-note").text)
    for _ in range(2):  # empty, black, white
        point(driver, "pp").click()
    until(driver, lambda d: finds(d, "#board .stone.white[data-point='pp']"))
    for _ in range(2):  # white, anything, empty; then black
        point(driver, "qq").click()
    point(driver, "pp").click()
    until(driver, lambda d: finds(d, "#board .letter-any[data-point='pp']"))
    point(driver, "pp").click()
    point(driver, "pp").click()
    until(driver, lambda d: finds(d, "#board .stone.black[data-point='pp']"))
    act(driver, lambda: find(driver, "#s-run").click())
    until(driver, lambda d: finds(d, "#s-results:not([hidden])"))
    pattern = "......./......./......./...X.../....O../......./......."
    expected = client.get("/api/search", params={"pattern": pattern, "corner": "bottom-right"}).json()
    assert f"{plural(expected['hits'], 'hit')} in all" in summary(driver)
    assert "s-corner=bottom-right" in driver.current_url
    shared = driver.current_url
    driver.get(base + "/")
    until(driver, lambda d: ready(d) is not None)
    driver.get(shared)
    until(driver, lambda d: finds(d, "#s-results:not([hidden])"))
    assert f"{plural(expected['hits'], 'hit')} in all" in summary(driver)
    assert finds(driver, "#board .stone.white[data-point='qq']")


def test_a_side_region_dragged_and_a_bad_pattern_refused(driver: Any, base: str, client: httpx.Client) -> None:
    driver.get(base + "/?view=search")
    until(driver, lambda d: ready(d) is not None)
    drag(driver, "ha", "lc")  # 5 wide, 3 deep, on the top side
    until(driver, lambda d: find(d, "#s-placement").get_attribute("value") == "side:top")
    point(driver, "jb").click()
    until(driver, lambda d: finds(d, "#board .stone.black[data-point='jb']"))
    act(driver, lambda: find(driver, "#s-run").click())
    expected = client.get("/api/search", params={"pattern": "...../..X../.....", "side": "top",
                                                 "origin": "H19"}).json()
    until(driver, lambda d: finds(d, "#s-results:not([hidden])"))
    assert f"{plural(expected['hits'], 'hit')} in all" in summary(driver)
    drawn = {c.get_attribute("data-point") for c in finds(driver, "#board .continuation")}
    assert drawn == {c["point"] for c in expected["continuations"] if not c["occupied"]}
    driver.get(base + "/?view=search&s-pattern=XZ&s-corner=top-left")
    until(driver, lambda d: "unknown letter 'Z'" in error_text(d))
