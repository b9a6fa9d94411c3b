"""Real games against the book: per-corner step tables, zone states, transpositions, annotation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from joseki.book.importer import import_files
from joseki.book.query.next import next_in_game, next_moves
from joseki.book.store.database import Store
from joseki.core.corners import corner_tables
from joseki.core.geometry import ALL_TRANSFORMS, Corner, Transform
from joseki.core.notation import format_gtp_vertex, parse_move
from joseki.core.position import LocalBoard, keys_along, position_key, replay, steps_key
from joseki.games.annotate import annotate
from joseki.sgf.game import parse_result, read_game

from .conftest import KOGO, Databases, need
from .games import write_game


def tables(moves: list[str], first: str = "b") -> dict[Corner, str]:
    played, colour = [], first
    for m in moves:
        played.append((colour, parse_move(m)))
        colour = "w" if colour == "b" else "b"
    return {c: t.builder.steps_to_move() for c, t in corner_tables(played).items()}


def test_interleaved_corners_keep_their_own_order() -> None:
    t = tables(["Q16", "R14", "D4", "C6", "R12", "F3"])
    assert t[Corner.TOP_RIGHT] == "DDCFCHXX"  # White's F3 was a tenuki for the top-right: Black to play twice
    assert t[Corner.BOTTOM_LEFT] == "DDCFXXFC"  # White played F3 after C6 with no Black move between


def test_one_and_two_consecutive_tenuki() -> None:
    # Black Q16, White R14 approach, Black elsewhere (D4), White Q12 pincer... by White again locally
    t = tables(["Q16", "R14", "D4", "R11"])
    assert t[Corner.TOP_RIGHT] == "DDCFXXCI"
    # two consecutive tenuki: Black plays elsewhere twice while White plays twice in the corner
    t = tables(["Q16", "R14", "D4", "O17", "D16", "R11"])
    assert t[Corner.TOP_RIGHT] == "DDCFXXFCXXCI"


def test_a_joseki_started_by_white() -> None:
    played_by_white = tables(["D16", "Q4", "C14"], first="b")
    assert played_by_white[Corner.BOTTOM_RIGHT] == "DDXX"  # White's 4-4, then Black's C14 elsewhere
    assert played_by_white[Corner.TOP_LEFT] == "DDXXCF"
    white_first = tables(["Q16", "R14"], first="w")
    assert white_first[Corner.TOP_RIGHT] == tables(["Q16", "R14"])[Corner.TOP_RIGHT]


def test_capture_and_ko_recapture_inside_a_zone() -> None:
    tr = Transform(Corner.TOP_RIGHT)
    zone = {"B": [(1, 0), (0, 1), (1, 2)], "W": [(2, 0), (1, 1), (3, 1), (2, 2)]}
    order = [zone["B"][0], zone["W"][0], zone["B"][1], zone["W"][1], zone["B"][2], zone["W"][2], None,
             zone["W"][2 + 1], (2, 1), None, None, (1, 1)]
    moves = ["pass" if z is None else format_gtp_vertex(tr.to_board(z, 19)) for z in order]
    board, colour, removed = LocalBoard(), "b", []
    for m in moves:
        point = parse_move(m)
        if point is not None:
            removed.append(board.play(colour, point))  # strict: every move is legal
        colour = "w" if colour == "b" else "b"
    assert removed[8] and removed[-1]  # Black takes the ko, White takes it back
    steps = tables(moves)[Corner.TOP_RIGHT]
    ko_point = "BB"  # (1, 1) is on the diagonal: the same letters in either reflection
    tokens = [steps[i : i + 2] for i in range(0, len(steps), 2)]
    assert tokens.count(ko_point) == 2
    assert tokens.count("XX") == 1  # Black's pass before move 8; the pair of passes around the ko leaves no mark
    replayed, _ = replay(steps)
    assert len(replayed.stones) == len(board.stones)


def test_a_move_on_the_shared_edge_joins_one_corner_only() -> None:
    t = tables(["Q16", "D16", "M17"])  # M17 is in both top zones: it joins the nearer stones (Q16)
    assert t[Corner.TOP_RIGHT] == "DDXXCH"
    assert t[Corner.TOP_LEFT] == "DDXX"
    far = tables(["Q16", "D16", "K16"])  # six lines from both 4-4 stones: a side move, elsewhere for both
    assert far[Corner.TOP_RIGHT] == "DD" and far[Corner.TOP_LEFT] == "DDXX"


@pytest.fixture(scope="module")
def kogo(databases: Databases) -> Iterator[Store]:
    url = databases.new("kogo")
    store = Store(url)
    import_files(store, [need(KOGO)], "kogo")
    yield store
    store.close()
    databases.drop(url)


def state(store: Store, moves: list[str]) -> dict[Corner, str]:
    played, colour = [], "b"
    for m in moves:
        played.append((colour, parse_move(m)))
        colour = "w" if colour == "b" else "b"
    return {a.corner: a.state for a in next_in_game(store, played)}


def test_zone_states(kogo: Store) -> None:
    assert state(kogo, ["Q16", "R14"])[Corner.TOP_RIGHT] == "in-book"
    assert state(kogo, ["Q16", "R14", "D4"])[Corner.TOP_RIGHT] == "tenuki-variation"
    assert state(kogo, ["Q16", "R14", "S18"])[Corner.TOP_RIGHT] == "left-book"
    assert state(kogo, [])[Corner.TOP_LEFT] == "empty"
    # interrupted: a book position where the book has no tenuki for the side to move (3-3 invasion, Black
    # blocks at R16, White plays elsewhere), and no book position with these stones and Black to move
    (answer,) = next_moves(kogo, ["Q16", "R17", "R16"])
    assert answer.state == "in-book" and answer.steps == "DDCCCD"
    assert "tenuki" not in [c.move for c in answer.candidates]
    assert state(kogo, ["Q16", "R17", "R16", "D4"])[Corner.TOP_RIGHT] == "interrupted"
    # a tenuki that transposes into a book position is recognised as such
    assert state(kogo, ["Q16", "R14", "O17", "D4"])[Corner.TOP_RIGHT] == "in-book-by-transposition"


def test_transposition_of_a_book_line(kogo: Store) -> None:
    line = ["Q16", "R17", "Q17", "R16", "R15", "S15"]  # 3-3 invasion: hane, block, ...
    (inbook,) = next_moves(kogo, line)
    assert inbook.state == "in-book"
    # the same stones in another order: Black Q17 before Q16 is not a book sequence
    other_order = ["Q17", "R16", "Q16", "R17", "R15", "S15"]
    (moved,) = next_moves(kogo, other_order)
    assert moved.state == "in-book-by-transposition"
    assert [c.move for c in moved.candidates] == [c.move for c in inbook.candidates]


@st.composite
def local_games(draw: st.DrawFn) -> list[tuple[int, int]]:
    points = draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=12, unique=True))
    return points


def steps_of(points: list[tuple[int, int]]) -> str:
    return "".join(chr(65 + a) + chr(65 + b) for a, b in points)


@settings(max_examples=200)
@given(local_games(), st.sampled_from(ALL_TRANSFORMS))
def test_position_key_is_invariant_under_the_eight_transforms(points: list[tuple[int, int]], t: Transform) -> None:
    board, mover = replay(steps_of(points))
    on_board = {t.to_board(p, 19): c for p, c in board.stones.items()}  # the position drawn in t's form
    moved = {Transform(t.corner).to_zone(p, 19): c for p, c in on_board.items()}  # read back in that corner
    swapped_colours = {p: ("w" if c == "b" else "b") for p, c in moved.items()}
    other = "w" if mover == "b" else "b"
    assert position_key(moved, mover) == position_key(board.stones, mover) == position_key(swapped_colours, other)


@given(local_games())
def test_two_orders_reaching_the_same_stones_share_a_key(points: list[tuple[int, int]]) -> None:
    if len(points) < 4:
        return
    steps = steps_of(points)
    black = points[0::2]
    white = points[1::2]
    reordered = [p for pair in zip(list(reversed(black)), list(reversed(white)), strict=False) for p in pair]
    reordered += black[len(white):] if len(black) > len(white) else []
    a, b = replay(steps), replay(steps_of(reordered))
    if a[0].stones == b[0].stones:
        assert steps_key(steps) == steps_key(steps_of(reordered))


_CROWDED_TOKENS = st.one_of(st.just("XX"), st.builds(lambda a, b: chr(65 + a) + chr(65 + b),
                                                      st.integers(0, 3), st.integers(0, 3)))


@settings(max_examples=150)
@given(st.lists(st.lists(_CROWDED_TOKENS, min_size=1, max_size=14).map("".join), min_size=1, max_size=6))
def test_keys_along_a_trie_equal_each_prefix_replayed(lines: list[str]) -> None:
    # a 4x4 corner: captures, recaptures and moves on occupied points (book lines replayed leniently)
    prefixes = {line[:end] for line in lines for end in range(2, len(line) + 1, 2)}
    keys = keys_along(lines)
    assert keys == {p: steps_key(p) for p in prefixes}
    assert keys_along(sorted(prefixes)) == keys
    assert list(keys) == sorted(keys)


def test_key_differs_for_another_position_or_side_to_move() -> None:
    assert steps_key("DDCF") != steps_key("DDFD")
    assert steps_key("DDCF") != steps_key("DDCFXX")
    assert steps_key("DDCFFC") != steps_key("DDCFCC")


def test_results_are_parsed_defensively() -> None:
    cases = {"B+R": "b", "B+Resign": "b", "W+3.5": "w", "B+T": "b", "B": "b", "0": "d", "Draw": "d", "D+J": "d",
             "Void": None, "?": None, "": None, "w+12.50": "w", "jigo": "d"}
    assert {k: parse_result(k) for k in cases} == cases


def test_next_sgf_and_annotate(kogo: Store, tmp_path: Path) -> None:
    moves = ["Q16", "R14", "D4", "C6", "R12", "B2", "Q11"]  # White's B2 (move 6) leaves the book
    game = write_game(tmp_path / "g.sgf", moves, extra="PB[Black]PW[White]C[a game]")
    out = tmp_path / "annotated.sgf"
    result = annotate(kogo, game, out)
    assert result.left["bottom-left"] == 6
    back = sgf.Sgf_game.from_bytes(out.read_bytes())
    root = back.get_root()
    assert root.get("PB") == "Black" and root.get("C") == "a game"
    nodes = back.get_main_sequence()
    assert len(nodes) == 1 + len(moves)
    left = nodes[6]
    assert "Out of the book" in left.get("C") and left.has_property("LB")
    assert all(label in "abcdefghijklmnopqrstuvwxyz" for _, label in left.get("LB"))
    assert "Book" in nodes[1].get("C")
    assert read_game(out).moves == read_game(game).moves


def test_a_stone_played_again_on_a_captured_point_stays_in_its_corner() -> None:
    from joseki.core.corners import CornerTable

    table = CornerTable(Corner.TOP_LEFT)
    table.add(1, "b", (4, 8), (4, 8))
    assert table.distance((4, 8)) == 0  # nearer than any neighbouring corner's stone can be
    assert table.distance((4, 9)) == 1 and table.distance((9, 8)) == 5 and table.distance((10, 8)) is None
