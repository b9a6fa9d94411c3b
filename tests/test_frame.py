"""The player's frame: conditions and comments name board points, colours and sides as the player sees them.

A source speaks of its labels ('e'), marks (the triangled point), colours and sides in its own
corner; whatever corner, orientation and first colour a player asks for, the text must name the
same places there, the diagram must draw them, and no zone letters reach a person.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sgfmill import sgf

from joseki.book.importer import import_files
from joseki.book.query.answer import CornerAnswer
from joseki.book.query.next import next_moves
from joseki.book.query.show import show
from joseki.book.store.database import Store
from joseki.core.conditions import Condition, display, setup
from joseki.core.geometry import ALL_TRANSFORMS, Corner, Point, Transform
from joseki.core.notation import format_gtp_vertex, parse_move
from joseki.core.wording import SourceFrame, render, to_canonical

from .conftest import GAMES, KOGO, Databases, need
from .games import write_game

SOURCE = Transform(Corner.TOP_RIGHT)
"""The hand-made collection's and Kogo's frame: the upper-right corner, Black first."""

HAND = """(;FF[4]GM[1]SZ[19]
;B[pd];W[qf]LB[qh:e][pi:i]TR[od]
C['e' is better than 'i' if there's a Black stone on the triangled point. Black needs the ladder for 'e'.
'i' is possible if White is not on the top side.]
(;B[qh];AW[nc];W[rj])(;B[pi]))"""
ZONE_RUN = re.compile(r"\b(?:[A-T]{2}){2,}\b")
"""A run of two or more zone tokens (``DDCF``): never in what a person reads."""


def moved(point: Point, t: Transform) -> Point:
    """Where a point of the source's frame lies in frame ``t``."""
    return t.to_board(SOURCE.to_zone(point, 19), 19)


def gtp(point: Point, t: Transform) -> str:
    return format_gtp_vertex(moved(point, t))


def expected_top(t: Transform) -> str:
    """Where the upper-right corner's top side goes: its horizontal edge, or the vertical one when reflected."""
    if t.swap:
        return "right" if t.corner.right else "left"
    return "bottom" if t.corner.bottom else "top"


def answer(store: Store, line: list[Point], t: Transform, first: str) -> CornerAnswer:
    (found,) = next_moves(store, [gtp(p, t) for p in line], first=first)
    assert found.corner == t.corner
    return found


def conditions_of(a: CornerAnswer, point: Point) -> list[str]:
    (cand,) = [c for c in a.candidates if c.point == point]
    return cand.conditions


@pytest.fixture(scope="module")
def hand(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    path = tmp_path_factory.mktemp("hand") / "hand.sgf"
    path.write_text(HAND, encoding="utf-8")
    url = databases.new("hand")
    store = Store(url)
    (report,) = import_files(store, [path], "hand")
    assert report.error is None
    yield store
    store.close()
    databases.drop(url)


@pytest.fixture(scope="module")
def kogo(databases: Databases) -> Iterator[Store]:
    url = databases.new("kogo-frame")
    store = Store(url)
    import_files(store, [need(KOGO)], "kogo")
    yield store
    store.close()
    databases.drop(url)


@pytest.mark.parametrize("first", ["b", "w"])
@pytest.mark.parametrize("t", ALL_TRANSFORMS, ids=lambda t: f"{t.corner.value}{'-swap' if t.swap else ''}")
def test_hand_made_conditions_follow_corner_orientation_and_colour(hand: Store, t: Transform, first: str) -> None:
    a = answer(hand, [(15, 3), (16, 5)], t, first)
    mover, other = ("Black", "White") if first == "b" else ("White", "Black")
    e, i, triangle = moved((16, 7), t), moved((15, 8), t), moved((14, 3), t)
    on_e = conditions_of(a, e)
    assert f"ladder: {mover} needs the ladder for {format_gtp_vertex(e)}." in on_e
    assert (f"nearby: {format_gtp_vertex(e)} is better than {format_gtp_vertex(i)} if there's a {mover} stone "
            f"on the triangled point ({format_gtp_vertex(triangle)}).") in on_e
    assert not [c for c in on_e if c.startswith("setup:")]  # the stones after 'e' make a position of their own
    on_i = conditions_of(a, i)
    assert f"nearby: {format_gtp_vertex(i)} is possible if {other} is not on the {expected_top(t)} side." in on_i
    (cand,) = [c for c in a.candidates if c.point == e]
    assert triangle in cand.named and cand.setup == {}


def diagram_cell(text: str, point: Point) -> str:
    """The character a ``next`` diagram draws at a board point."""
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if re.fullmatch(r" {4}(?:[A-HJ-T] ){11}[A-HJ-T]", line))
    columns = lines[header].split()
    x, y = point
    column = columns.index("ABCDEFGHJKLMNOPQRST"[x])
    row = next(line for line in lines[header + 1 :] if re.match(rf"\s*{19 - y} ", line))
    return row[4 + 2 * column]


def joseki(*args: str, db: str) -> str:
    result = subprocess.run([sys.executable, "-m", "joseki", "--db", db, *args], capture_output=True, text=True,
                            env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"}, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("t", [Transform(Corner.BOTTOM_LEFT, True), Transform(Corner.TOP_RIGHT)],
                         ids=["bottom-left-swap", "top-right"])
def test_the_diagram_draws_the_named_points_with_marks_not_letters(hand: Store, t: Transform) -> None:
    text = joseki("next", gtp((15, 3), t), gtp((16, 5), t), db=str(hand.url))
    assert diagram_cell(text, moved((14, 3), t)) == "*"  # the triangled point, empty
    assert diagram_cell(text, moved((13, 2), t)) == "."  # the setup stone after 'e' is not on this board
    assert diagram_cell(text, moved((16, 7), t)) in "ab"  # a candidate keeps its letter
    assert "* # @:" in text and not ZONE_RUN.search(text)


def test_setup_conditions_are_board_points_in_the_colours_asked() -> None:
    condition = setup({"AB": ("pd",), "AW": ("qc",)}, SOURCE, "w")
    assert condition == Condition("setup", "black CC; white DD")  # stored as with Black first
    for t in ALL_TRANSFORMS:
        shown = display(condition, t, "b")
        assert shown.text == f"setup: black {gtp((16, 2), t)}; white {gtp((15, 3), t)}"
        assert display(condition, t, "w").text == f"setup: black {gtp((15, 3), t)}; white {gtp((16, 2), t)}"
        assert dict(shown.stones) == {moved((16, 2), t): "b", moved((15, 3), t): "w"}


@pytest.mark.parametrize("first", ["b", "w"])
@pytest.mark.parametrize("t", ALL_TRANSFORMS, ids=lambda t: f"{t.corner.value}{'-swap' if t.swap else ''}")
def test_kogo_conditions_after_the_low_approach(kogo: Store, t: Transform, first: str) -> None:
    """Kogo's node after Q16 R14: 'e' is R12, 'f' R11, 'i' Q11, the triangle Q3, "extension at top"."""
    a = answer(kogo, [(15, 3), (16, 5)], t, first)
    mover, other = ("Black", "White") if first == "b" else ("White", "Black")
    r12, r11, q11, q3 = (moved(parse_move(m) or (0, 0), t) for m in ("R12", "R11", "Q11", "Q3"))
    assert f"ladder: {mover} needs the ladder for {format_gtp_vertex(r12)}." in conditions_of(a, r12)
    assert (f"nearby: {format_gtp_vertex(r11)} is better than {format_gtp_vertex(q11)}, if there's a {mover} stone "
            f"on the triangled point ({format_gtp_vertex(q3)}).") in conditions_of(a, r11)
    assert (f"nearby: {mover} 3 is used most often when {mover} has an extension at {expected_top(t)}."
            in conditions_of(a, q11))
    r17 = moved(parse_move("R17") or (0, 0), t)
    assert (f"nearby: {format_gtp_vertex(r17)} is possible if {other} is not on the {expected_top(t)} side."
            in conditions_of(a, r17))
    for cand in a.candidates:
        for text in cand.conditions:
            assert not re.search(r"'[a-z]'|\{", text), text


def test_no_zone_letters_in_what_people_read(kogo: Store, tmp_path: Path) -> None:
    db = str(kogo.url)
    texts = [joseki("next", "Q16", "R14", db=db), joseki("next", "D4", "C6", "D9", "pass", "C3", db=db),
             joseki("show", "Q16", "R14", "R12", "Q11", db=db), joseki("show", "DDCFCH", db=db)]
    game = need(GAMES)
    records = sorted(game.rglob("*.sgf"))[:1]
    moves = ["Q16", "R14", "D4", "C6", "R12", "B2", "Q11", "C16", "E17"]
    records.append(write_game(tmp_path / "made.sgf", moves))
    for record in records:
        texts.append(joseki("next", "--sgf", str(record), db=db))
        out = tmp_path / f"annotated-{record.stem}.sgf"
        joseki("annotate", str(record), "-o", str(out), db=db)
        comments = [node.get("C") for node in sgf.Sgf_game.from_bytes(out.read_bytes()).get_main_sequence()
                    if node.has_property("C")]
        assert any("Book" in c for c in comments)
        texts.extend(comments)
    for text in texts:
        assert not ZONE_RUN.search(text), ZONE_RUN.search(text)
    assert "(steps DDCF)" in joseki("next", "Q16", "R14", "--show-steps", db=db)
    assert '"steps": "DDCF"' in joseki("next", "Q16", "R14", "--json", db=db)


@pytest.mark.parametrize("first", ["b", "w"])
@pytest.mark.parametrize("t", ALL_TRANSFORMS, ids=lambda t: f"{t.corner.value}{'-swap' if t.swap else ''}")
def test_show_reads_the_sources_comments_in_the_frame_asked(hand: Store, t: Transform, first: str) -> None:
    shown = show(hand, [gtp((15, 3), t), gtp((16, 5), t)], first=first)
    mover, other = ("Black", "White") if first == "b" else ("White", "Black")
    [(_, comment)] = shown.moves[1].comments
    e, i, triangle = (gtp(p, t) for p in ((16, 7), (15, 8), (14, 3)))
    assert comment.startswith(f"{e} is better than {i} if there's a {mover} stone on the triangled point ({triangle}).")
    assert f"{i} is possible if {other} is not on the {expected_top(t)} side." in comment


WORDS = ["Black", "white", "the top", "at top", "the lower right", "upper-left", "top-right", "the left side",
         "right side", "the right move", "one line lower", "top priority", "if", "has", "support", "on", ",", "."]


@given(st.lists(st.sampled_from(WORDS), max_size=12), st.sampled_from(ALL_TRANSFORMS), st.sampled_from("bw"))
def test_text_read_back_in_its_own_frame_is_unchanged(words: list[str], t: Transform, first: str) -> None:
    text = " ".join(words)
    frame = SourceFrame(t, first, {}, {})
    assert render(to_canonical(text, frame), t, first)[0] == text


@given(st.lists(st.sampled_from(WORDS), max_size=12), st.sampled_from(ALL_TRANSFORMS),
       st.sampled_from(ALL_TRANSFORMS), st.sampled_from("bw"))
def test_a_round_trip_through_another_frame_comes_back(words: list[str], t: Transform, u: Transform,
                                                         first: str) -> None:
    """Shown in frame ``u`` and read there again, a text shows in its own frame as it was written."""
    text = " ".join(words)
    there = render(to_canonical(text, SourceFrame(t, first, {}, {})), u, first)[0]
    assert render(to_canonical(there, SourceFrame(u, first, {}, {})), t, first)[0] == text
