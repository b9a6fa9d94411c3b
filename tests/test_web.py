"""The explorer's JSON API on a real server over a real store: the CLI's data, the limits, the safety rules."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from joseki.book.store.database import Store
from joseki.book.store.errors import StoreError
from joseki.core.limits import MAX_UPLOAD_BYTES
from joseki.web.app import open_store

from .conftest import Databases
from .games import sgf_text
from .test_cli import joseki
from .webserver import new_book, running


@pytest.fixture(scope="module")
def book(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    with new_book(databases, tmp_path_factory.mktemp("web"), "web") as found:
        yield found


@pytest.fixture(scope="module")
def client(book: tuple[str, Store]) -> Iterator[httpx.Client]:
    with running(book[1]) as base, httpx.Client(base_url=base, timeout=120) as http:
        yield http


def test_explore_holds_the_cli_next_json(client: httpx.Client, book: tuple[str, Store]) -> None:
    data = client.get("/api/explore", params={"moves": "Q16,R14"}).json()
    cli = json.loads(joseki("next", "Q16", "R14", "--json", db=book[0]).stdout)
    for web, text in zip(data["corners"], cli["corners"], strict=True):
        assert {k: web[k] for k in text} | {"candidates": [{k: c[k] for k in t} for c, t in
                                                           zip(web["candidates"], text["candidates"], strict=True)]} \
            == text
    first = data["corners"][0]["candidates"][0]
    assert first["label"] == "a" and first["move"] == "R11" and first["point"] == "qi"
    assert first["games"] == 2 and first["wins"] == 1 and first["losses"] == 1
    assert data["board"] == {"black": ["pd"], "white": ["qf"]}
    assert data["line"]["moves"][-1]["move"] == "R14"


def test_the_line_holds_the_cli_show_json_and_comment_points(client: httpx.Client, book: tuple[str, Store]) -> None:
    data = client.get("/api/explore", params={"moves": "Q16", "collection": "hostile"}).json()
    cli = json.loads(joseki("show", "Q16", "--collection", "hostile", "--json", db=book[0]).stdout)
    assert {k: data["line"][k] for k in cli} | {"moves": [{k: m[k] for k in c} for m, c in
                                                         zip(data["line"]["moves"], cli["moves"], strict=True)]} == cli
    move = data["line"]["moves"][0]
    assert "<script>" in move["comments"][0]["text"]
    assert move["comment_points"] == ["qf"]  # the label 'a' of the comment, in the board's frame


def test_a_reflected_line_keeps_its_frame(client: httpx.Client) -> None:
    """Q16 R14 is the book's Q16 O17 reflected: the comment names R14's side, the line its own moves."""
    data = client.get("/api/explore", params={"moves": "Q16,R14"}).json()
    assert [m["move"] for m in data["line"]["moves"]] == ["Q16", "R14"]
    assert data["corners"][0]["moves"] == ["Q16", "R14"]


def test_transposition_is_said_with_the_book_line(client: httpx.Client) -> None:
    # the starter's Q16 R14 R11 (4-4, knight's approach, two-space pincer), Black's two moves swapped
    corner = client.get("/api/explore", params={"moves": "R11,R14,Q16"}).json()["corners"][0]
    assert corner["state"] == "in-book-by-transposition"
    assert corner["book_position_moves"] == ["Q16", "R14", "R11"]


def test_review_follows_the_cli_next_sgf(client: httpx.Client, book: tuple[str, Store], tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(sgf_text(["Q16", "R14", "O14", "D4", "C16"], "B+R"), encoding="utf-8")
    game = client.post("/api/upload", content=path.read_bytes(), headers={"X-File-Name": "game.sgf"}).json()["game"]
    played = "".join(c + p for c, p in game["moves"])
    data = client.get("/api/review", params={"game": played, "move": 3}).json()
    cli = json.loads(joseki("next", "--sgf", str(path), "--move", "3", "--json", db=book[0]).stdout)
    assert [c["state"] for c in data["corners"]] == [c["state"] for c in cli["corners"]]
    left = next(c for c in data["corners"] if c["state"] == "left-book")
    assert left["left_move"] == "O14" and left["alternatives"][0]["label"] == "a"


def test_practise_judges_and_answers_by_the_book(client: httpx.Client) -> None:
    data = client.get("/api/practise", params={"moves": "Q16,R14,C3", "seed": 1}).json()
    verdict = data["judgement"]
    assert verdict["move"] == "C3" and verdict["corner"] == "bottom-left"
    good = client.get("/api/practise", params={"moves": "Q16,R14,R11", "seed": 1}).json()
    assert good["judgement"]["in_book"] and good["judgement"]["rank"] == 1
    tenuki = client.get("/api/practise", params={"moves": "Q16,R14,K10", "seed": 1}).json()
    assert tenuki["judgement"]["corner"] == "top-right" and tenuki["judgement"]["in_book"]  # the book's tenuki
    assert tenuki["judgement"]["tenuki"] and not good["judgement"]["tenuki"]
    bad = client.get("/api/practise", params={"moves": "Q16,R14,O14", "seed": 1}).json()
    assert not bad["judgement"]["in_book"] and bad["judgement"]["more_popular"][0] == "R11"
    assert bad["reply"] is None


def test_bad_input_is_one_error(client: httpx.Client) -> None:
    answer = client.get("/api/explore", params={"moves": "Q16,Q16"})
    assert answer.status_code == 400 and answer.json() == {"error": "move 2 (Q16) lands on a stone"}
    assert client.get("/api/explore", params={"moves": "Z99"}).status_code == 400
    assert client.get("/api/review", params={"game": "bzz"}).status_code == 400
    assert client.get("/api/explore", params={"profile": "nobody"}).status_code == 400


def test_uploads_are_capped_and_parsed_with_the_import_limits(client: httpx.Client) -> None:
    big = client.post("/api/upload", content=b"(;" + b" " * MAX_UPLOAD_BYTES + b")")
    assert big.status_code == 400 and "the limit" in big.json()["error"]
    broken = client.post("/api/upload", content=b"(;B[pd]", headers={"X-File-Name": "broken.sgf"})
    assert broken.status_code == 400 and broken.json()["error"].startswith("broken.sgf: ")
    deep = client.post("/api/upload", content=("(;SZ[19]" + ";B[];W[]" * 1600 + ")").encode())
    assert deep.status_code == 400 and "3,000 moves" in deep.json()["error"]


def test_requests_for_another_host_are_refused(client: httpx.Client) -> None:
    assert client.get("/api/catalogue", headers={"Host": "attacker.example"}).status_code == 400


def test_no_path_from_a_request_is_opened(client: httpx.Client) -> None:
    for key in ("..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "nothing"):
        answer = client.get(f"/api/game/{key}")
        assert answer.status_code in (400, 404), answer.text
        assert "root:" not in answer.text


def test_the_api_is_documented(client: httpx.Client) -> None:
    spec = client.get("/api/openapi.json").json()
    assert {"/api/explore", "/api/review", "/api/upload", "/api/practise", "/api/catalogue"} <= set(spec["paths"])
    assert "/api" in client.get("/api").text


def test_read_only_unless_writable(new_db: Callable[..., str], tmp_path: Path) -> None:
    """A read-only server writes nothing: an empty database is refused, not upgraded nor given the starter book."""
    url = new_db("empty")
    with pytest.raises(StoreError, match="db upgrade"):
        open_store(url, writable=False)
    refused = joseki("serve", "--port", "1", db=url)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1 and "db upgrade" in refused.stderr
    store = open_store(url, writable=True)
    try:
        assert store.collection_count() == 1
    finally:
        store.close()


def test_games_behind_a_position_match_the_cli(client: httpx.Client, book: tuple[str, Store]) -> None:
    data = client.get("/api/games", params={"moves": "Q16,R14,R11"}).json()
    cli = json.loads(joseki("games", "Q16", "R14", "R11", "--json", db=book[0]).stdout)
    assert {k: data[k] for k in cli if k != "games"} == {k: v for k, v in cli.items() if k != "games"}
    assert [{k: g[k] for k in c} for g, c in zip(data["games"], cli["games"], strict=True)] == cli["games"]
    assert all(g["mapped"] == {"known": True, "corner": False, "colours": False, "reflected": False}
               for g in data["games"])
    assert data["count"] == 2 and {g["black"] for g in data["games"]} == {"Black 0", "Black 1"}
    newest = data["games"][0]
    assert newest["date"] == "2024-02-01" and newest["move_number"] == 3
    game = client.get(f"/api/game/{newest['key']}").json()["game"]
    assert game["black"] == "Black 1" and game["moves"][:3] == [["b", "pd"], ["w", "qf"], ["b", "qi"]]
    strongest = client.get("/api/games", params={"moves": "Q16,R14,R11", "order": "strongest"}).json()
    assert strongest["games"][0]["black_rank"] == "2d"


def test_the_cli_loads_the_web_framework_only_to_serve() -> None:
    code = ("import sys; import joseki.cli.main; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'fastapi', 'starlette', 'uvicorn', 'joseki'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['joseki']"
    assert "--writable" in joseki("serve", "--help").stdout


def test_the_games_after_a_tenuki_are_the_games_that_played_it(client: httpx.Client) -> None:
    after = client.get("/api/games", params={"moves": "Q16,R14,pass"}).json()  # Black's tenuki at move 3
    assert after["count"] == 1 and [(g["black"], g["move_number"]) for g in after["games"]] == [("Black 4", 3)]
    before = client.get("/api/games", params={"moves": "Q16,R14"}).json()
    assert before["count"] == 5
    # a tenuki the book does not hold: no game is behind it (never the games before it)
    assert client.get("/api/games", params={"moves": "Q16,R14,R11,pass"}).json()["count"] == 0


def test_each_game_says_how_it_was_mapped_onto_the_position(client: httpx.Client) -> None:
    mirrored = client.get("/api/games", params={"moves": "D16,C14,C11"}).json()  # the same line, top-left
    assert mirrored["count"] == 2 and all(g["mapped"]["corner"] and g["corner"] == "top-right"
                                          for g in mirrored["games"])
    swapped = client.get("/api/games", params={"moves": "Q16,R14,R11", "first": "white"}).json()
    assert swapped["count"] == 2 and all(g["mapped"]["colours"] for g in swapped["games"])


def test_the_games_are_filtered_as_asked(client: httpx.Client) -> None:
    def keys(**only: str) -> tuple[int, list[str]]:
        data = client.get("/api/games", params={"moves": "Q16,R14,R11", **only}).json()
        return data["matched"], [g["black"] for g in data["games"]]

    assert keys(player="black 1") == (1, ["Black 1"]) and keys(player="white 0") == (1, ["Black 0"])
    assert keys(result="white") == (1, ["Black 1"]) and keys(result="black") == (1, ["Black 0"])
    assert keys(rank="2d") == (1, ["Black 1"]) and keys(rank="1d")[0] == 2
    assert keys(since="2024-02") == (1, ["Black 1"]) and keys(until="2024-01") == (1, ["Black 0"])
    assert keys(result="draw") == (0, [])
    for bad in ({"rank": "strong"}, {"since": "May"}, {"result": "jigo"}):
        answer = client.get("/api/games", params={"moves": "Q16,R14,R11", **bad})
        assert answer.status_code == 400 and answer.json()["error"]


def test_review_plays_by_the_rules_of_every_view(client: httpx.Client) -> None:
    for game, said in (("bpdwpd", "move 2 (Q16) lands on a stone"),
                       ("bbbwcbbcawdabccwdcbttwebbdbwcb", "move 10 (C18) retakes the ko at once")):
        answer = client.get("/api/review", params={"game": game})
        assert answer.status_code == 400 and answer.json()["error"] == said
    upload = client.post("/api/upload", content=sgf_text(["Q16", "R14", "R11", "D4", "R11"], "B+R").encode())
    assert upload.status_code == 400 and "move 5" in upload.json()["error"]


def test_review_puts_setup_stones_on_the_board_and_in_their_corners(client: httpx.Client) -> None:
    data = client.get("/api/review", params={"game": "wqf", "setup": "bpdbdp"}).json()  # handicap 2, White R14
    assert data["board"] == {"black": ["dp", "pd"], "white": ["qf"]}
    corners = {c["corner"]: c for c in data["corners"]}
    assert corners["top-right"]["moves"] == ["Q16", "R14"] and corners["top-right"]["state"] == "in-book"
    assert corners["top-right"]["candidates"][0]["move"] == "R11"
    assert corners["bottom-left"]["moves"] == ["D4", "tenuki"]  # White played elsewhere
    on_stone = [c for c in corners["bottom-left"]["candidates"] if c["point"] == "dp"]
    assert all(c["label"] is None and c["occupied"] for c in on_stone)


def test_practise_moves_first_by_the_book_players_policy(client: httpx.Client) -> None:
    first = client.get("/api/practise", params={"moves": "", "seed": 3}).json()
    assert first["judgement"] is None and first["reply"]["color"] == "black" and not first["line_ends"]
    firsts = client.get("/api/explore").json()["corners"][0]["candidates"]
    assert first["reply"]["move"] in [c["move"] for c in firsts]
    ends = client.get("/api/practise", params={"moves": "Q16,R14,S18", "seed": 1}).json()
    assert ends["reply"] is None and ends["line_ends"]


def test_explore_and_games_after_setup_stones(client: httpx.Client) -> None:
    data = client.get("/api/explore", params={"moves": "R14", "first": "white", "setup": "bpdbdp"}).json()
    assert data["board"] == {"black": ["dp", "pd"], "white": ["qf"]}
    top_right = next(c for c in data["corners"] if c["corner"] == "top-right")
    assert top_right["moves"] == ["Q16", "R14"] and top_right["candidates"][0]["move"] == "R11"
    games = client.get("/api/games", params={"moves": "R14", "first": "white", "setup": "bpdbdp"}).json()
    assert games["count"] == 5  # the games that reached Q16 R14, as without the handicap
    on_stone = client.get("/api/explore", params={"moves": "Q16", "setup": "bpd"})
    assert on_stone.status_code == 400 and on_stone.json()["error"] == "move 1 (Q16) lands on a stone"


def test_practise_the_books_tenuki_is_a_pass_and_the_line_goes_on(client: httpx.Client) -> None:
    replies = [client.get("/api/practise", params={"moves": "Q16,R14", "seed": seed}).json()
               for seed in range(40)]
    tenukis = [r for r in replies if r["reply"] is not None and r["reply"].get("tenuki")]
    assert tenukis and all(r["reply"]["move"] == "pass" and r["reply"]["point"] is None and not r["line_ends"]
                           for r in tenukis)


def test_practise_grades_a_move_and_its_reflection_after_a_diagonal_line_alike(client: httpx.Client) -> None:
    # after a lone 4-4 stone R14 and O17 reach the same position: the book keeps one of them (R14)
    graded = [client.get("/api/practise", params={"moves": moves, "seed": 1}).json()["judgement"]
              for moves in ("Q16,R14", "Q16,O17")]
    assert [(g["in_book"], g["rank"]) for g in graded] == [(True, 1), (True, 1)]
    # after a line off the diagonal a reflected move is another move: Q14 is O16 reflected, not a book move
    off = client.get("/api/practise", params={"moves": "Q16,R14,Q14", "seed": 1}).json()["judgement"]
    assert not off["in_book"] and off["more_popular"][0] == "R11"


def test_review_refuses_a_game_whose_later_move_is_illegal(client: httpx.Client) -> None:
    answer = client.get("/api/review", params={"game": "bpdwqfbqiwpd", "move": 1})
    assert answer.status_code == 400 and answer.json()["error"] == "move 4 (Q16) lands on a stone"
