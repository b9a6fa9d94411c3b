"""Pattern search: the indexed search agrees with a brute-force replay of every game, and bad input is refused.

The reference replays each real game on :class:`~joseki.core.position.LocalBoard` (captures, no index), tests
every placement, orientation and colour of the pattern after every move, counts a hit where a placement
starts to match, and its continuation at the next move inside the placement's rectangle.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from joseki.book import patternsearch
from joseki.book.patterns import kernels, lookup, storage
from joseki.book.patterns import probes as probe_rows
from joseki.book.patterns.reads import segment_list
from joseki.book.patterns.storage import compact, write_games
from joseki.book.patterns.windows import CENTRED, SHAPES
from joseki.book.patternsearch import GameFacts, GameFilter, IndexArrays, Query, forget, loaded, run, search
from joseki.book.store.database import Store
from joseki.cli.main import app
from joseki.core.errors import UserError
from joseki.core.geometry import Corner, Point
from joseki.core.movelist import decode, encode, replay
from joseki.core.notation import format_gtp_vertex
from joseki.core.pattern import (
    ALLOWS,
    SYMMETRIES,
    Pattern,
    Placement,
    Side,
    Where,
    families,
    home_point,
    parse_pattern,
    swap_letters,
    symmetry_group,
)
from joseki.core.position import LocalBoard
from joseki.games.indexing import index_game, index_games
from joseki.sgf.archive import expand_games
from joseki.sgf.game import Game, read_game
from tests.conftest import GAMES, need

GAME_COUNT = 40


@pytest.fixture(scope="module")
def game_files() -> list[str]:
    return expand_games([need(GAMES / "kgs-highdan-2019-04")])[:GAME_COUNT]


@pytest.fixture(scope="module")
def games(game_files: list[str]) -> list[Game]:
    return [read_game(f) for f in game_files]


@pytest.fixture(scope="module")
def boards(games: list[Game]) -> dict[str, list[dict[Point, str]]]:
    return _boards(games)


def _boards(games: list[Game]) -> dict[str, list[dict[Point, str]]]:
    """Each game's stones before the first move and after each move, by LocalBoard."""
    found = {}
    for game in games:
        board = LocalBoard(19)
        board.stones.update(game.stones)
        states = [dict(board.stones)]
        for colour, point in game.moves:
            if point is not None:
                board.play(colour, point, suicide=True)
            states.append(dict(board.stones))
        found[game.key] = states
    return found


@pytest.fixture(scope="module")
def index_db(tmp_path_factory: pytest.TempPathFactory, game_files: list[str]) -> str:
    db = str(tmp_path_factory.mktemp("pattern") / "index.sqlite")
    store = Store(db)
    report = index_games(store, [Path(f) for f in game_files], workers=1)
    assert report.added == len(game_files)
    store.close()
    return db


@pytest.fixture(scope="module")
def index(index_db: str) -> IndexArrays:
    store = Store(index_db)
    arrays = loaded(store)
    forget(store.url)
    store.close()
    return arrays


def _placements(query: Query) -> list[tuple[str, bool, dict[Point, str], dict[Point, Point]]]:
    """Every distinct placement, first kept: (orientation, swapped, letter per point, cell per point)."""
    pattern, placement = query.pattern, query.placement
    home, offsets = placement.home(pattern)
    seen: set[frozenset[tuple[Point, str]]] = set()
    found = []
    for sym in SYMMETRIES[:1] if query.fixed_orientation else SYMMETRIES:
        for swapped in (False,) if query.fixed_colour else (False, True):
            for ox, oy in offsets:
                req, cell_of = {}, {}
                for (dx, dy), letter in pattern.cells():
                    point = sym.apply((home[0] + ox + dx, home[1] + oy + dy))
                    req[point] = swap_letters(letter) if swapped else letter
                    cell_of[point] = (dx, dy)
                key = frozenset(req.items())
                if key not in seen:
                    seen.add(key)
                    found.append((sym.name, swapped, req, cell_of))
    return found


def _holds(stones: dict[Point, str], req: dict[Point, str]) -> bool:
    code = {"b": 1, "w": 2}
    return all(code.get(stones.get(p, ""), 0) in ALLOWS[letter] for p, letter in req.items())


def brute(games: list[Game], boards: dict[str, list[dict[Point, str]]], query: Query) -> tuple[Counter[tuple[str, int,
                                                                                                         str, bool]],
                                                                                            Counter[tuple[Point, str,
                                                                                                          str]]]:
    """The hits (game, move, orientation, swapped) and continuations ((cell, pattern colour, what), counted)."""
    pattern = query.pattern
    places = _placements(query)
    group = [g for g in symmetry_group(pattern, query.placement) if not (query.fixed_colour and g.swapped)]
    group = group[:1] if query.fixed_orientation else group
    width = pattern.width
    hits: Counter[tuple[str, int, str, bool]] = Counter()
    conts: Counter[tuple[Point, str, str]] = Counter()
    for game in games:
        if not query.games.passes(_facts(game)):
            continue
        states = boards[game.key]
        for name, swapped, req, cell_of in places:
            before = False
            for t, stones in enumerate(states):
                now = _holds(stones, req)
                if now and not before:
                    hits[(game.key, t, name, swapped)] += 1
                    for u in range(t + 1, len(game.moves) + 1):
                        mover, point = game.moves[u - 1]
                        if point is not None and point in cell_of:
                            cell = cell_of[point]
                            colour = ("w" if mover == "b" else "b") if swapped else mover
                            k = cell[1] * width + cell[0]
                            state = 1 if colour == "b" else 2
                            rep = min((sym.cells[k], 3 - state if sym.swapped else state) for sym in group)
                            rcell, rcolour = (rep[0] % width, rep[0] // width), "b" if rep[1] == 1 else "w"
                            conts[(rcell, rcolour, "played")] += 1
                            if game.winner == mover:
                                conts[(rcell, rcolour, "won")] += 1
                            if u > t + 1:
                                conts[(rcell, "", "tenuki")] += 1
                            break
                before = now
    return hits, conts


def _facts(game: Game) -> GameFacts:
    return GameFacts(game.key, "", "", game.black, game.white, game.black_rank, game.white_rank, game.date,
                     game.result, game.winner or "", "", len(game.moves))


def engine(index: IndexArrays, query: Query) -> tuple[Counter[tuple[str, int, str, bool]], Counter[tuple[Point, str,
                                                                                                           str]]]:
    found = run(index, query)
    hits: Counter[tuple[str, int, str, bool]] = Counter()
    for r in found.results:
        for h in r.hits:
            hits[(r.facts.key, h.move_number, h.orientation, h.swapped)] += 1
    conts: Counter[tuple[Point, str, str]] = Counter()
    (x0, y0), _ = query.placement.home(query.pattern)
    for c in found.continuations:
        cell = (c.point[0] - x0, c.point[1] - y0)
        for colour, played, won in (("b", c.black, c.black_wins), ("w", c.white, c.white_wins)):
            if played:
                conts[(cell, colour, "played")] += played
            if won:
                conts[(cell, colour, "won")] += won
        if c.after_tenuki:
            conts[(cell, "", "tenuki")] += c.after_tenuki
    assert found.hits == sum(hits.values())
    assert found.games == len({k for k, _, _, _ in hits})
    return hits, conts


def _cut(stones: dict[Point, str], x0: int, y0: int, w: int, h: int, blur: list[int]) -> Pattern:
    """The pattern of the board's rectangle, some cells made wildcards (by ``blur``, a code per cell)."""
    rows = []
    for dy in range(h):
        row = ""
        for dx in range(w):
            colour = stones.get((x0 + dx, y0 + dy))
            letter = "X" if colour == "b" else "O" if colour == "w" else "."
            code = blur[(dy * w + dx) % len(blur)]
            if code == 1:
                letter = {"X": "x", "O": "o", ".": "x"}[letter]
            elif code == 2:
                letter = {"X": "x", "O": "o", ".": "o"}[letter]
            elif code == 3:
                letter = "*"
            row += letter
        rows.append(row)
    return Pattern(tuple(rows))


def _real_pattern(data: st.DataObject, games: list[Game], boards: dict[str, list[dict[Point, str]]],
                  where: Where, sizes: tuple[int, int]) -> tuple[Pattern, Placement]:
    game = data.draw(st.sampled_from(games[:12]))
    t = data.draw(st.integers(0, min(80, len(game.moves))))
    w, h = data.draw(st.integers(*sizes)), data.draw(st.integers(*sizes))
    blur = data.draw(st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3]), min_size=1, max_size=7))
    stones = boards[game.key][t]
    if where is Where.CORNER:
        corner = data.draw(st.sampled_from(list(Corner)))
        placement = Placement(where, corner=corner)
    elif where is Where.SIDE:
        placement = Placement(where, side=data.draw(st.sampled_from(list(Side))))
    else:
        placement = Placement(where)
    pattern = _cut({}, 0, 0, w, h, [0])
    home, offsets = placement.home(pattern)
    ox, oy = data.draw(st.sampled_from(offsets))
    pattern = _cut(stones, home[0] + ox, home[1] + oy, w, h, blur)
    if where is Where.ANYWHERE and pattern.stones == 0:
        pattern = Pattern(("X" + pattern.rows[0][1:], *pattern.rows[1:]))
    return pattern, placement


FLAGS = st.tuples(st.booleans(), st.booleans())
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(data=st.data(), flags=FLAGS)
def test_corner_search_agrees_with_brute_force(index: IndexArrays, games: list[Game],
                                               boards: dict[str, list[dict[Point, str]]], data: st.DataObject,
                                               flags: tuple[bool, bool]) -> None:
    pattern, placement = _real_pattern(data, games, boards, Where.CORNER, (2, 8))
    query = Query(pattern, placement, flags[0], flags[1], limit=0)
    assert engine(index, query) == brute(games, boards, query)


@SETTINGS
@given(data=st.data(), flags=FLAGS)
def test_side_search_agrees_with_brute_force(index: IndexArrays, games: list[Game],
                                             boards: dict[str, list[dict[Point, str]]], data: st.DataObject,
                                             flags: tuple[bool, bool]) -> None:
    pattern, placement = _real_pattern(data, games, boards, Where.SIDE, (2, 5))
    query = _only(Query(pattern, placement, flags[0], flags[1], limit=0), games[:10])
    assert engine(index, query) == brute(games, boards, query)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), flags=FLAGS)
def test_anywhere_search_agrees_with_brute_force(index: IndexArrays, games: list[Game],
                                                 boards: dict[str, list[dict[Point, str]]], data: st.DataObject,
                                                 flags: tuple[bool, bool]) -> None:
    pattern, placement = _real_pattern(data, games, boards, Where.ANYWHERE, (2, 3))
    query = _only(Query(pattern, placement, flags[0], flags[1], limit=0), games[:4])
    assert engine(index, query) == brute(games, boards, query)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), flags=FLAGS, where=st.sampled_from([Where.SIDE, Where.ANYWHERE]))
def test_verification_planned_on_a_sample_agrees_with_brute_force(index: IndexArrays, games: list[Game],
                                                                  boards: dict[str, list[dict[Point, str]]],
                                                                  data: st.DataObject, flags: tuple[bool, bool],
                                                                  where: Where) -> None:
    """With a sample of a few candidates, verification reorders the cells (as it does with many candidates on a big
    index): the hits are the same."""
    pattern, placement = _real_pattern(data, games, boards, where, (2, 5) if where is Where.SIDE else (2, 3))
    query = _only(Query(pattern, placement, flags[0], flags[1], limit=0), games[:4])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lookup, "PLAN_SAMPLE", 2)
        assert engine(index, query) == brute(games, boards, query)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), flags=FLAGS, where=st.sampled_from([Where.CORNER, Where.SIDE, Where.ANYWHERE]),
       cost=st.sampled_from([0.0, 1e12]), halved=st.booleans())
def test_candidates_searched_by_point_or_read_whole_agree_with_brute_force(
        index: IndexArrays, games: list[Game], boards: dict[str, list[dict[Point, str]]], data: st.DataObject,
        flags: tuple[bool, bool], where: Where, cost: float, halved: bool) -> None:
    """Every key range searched by point (a binary search of each place's point in each key), or every one read
    whole; the candidates verified and the hits' next stones found in two halves at once (as a big index's are) or
    not: the hits and continuations are the same."""
    pattern, placement = _real_pattern(data, games, boards, where, (2, 5) if where is not Where.ANYWHERE else (2, 3))
    query = _only(Query(pattern, placement, flags[0], flags[1], limit=0), games[:6])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lookup, "SEARCH_COST", cost)
        patch.setattr(lookup, "HALVED", 3 if halved else lookup.HALVED)
        assert engine(index, query) == brute(games, boards, query)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), flags=FLAGS, where=st.sampled_from([Where.CORNER, Where.SIDE, Where.ANYWHERE]),
       shape=st.integers(0, len(SHAPES) - 1))
def test_every_shape_finds_the_same_hits(index: IndexArrays, games: list[Game],
                                         boards: dict[str, list[dict[Point, str]]], data: st.DataObject,
                                         flags: tuple[bool, bool], where: Where, shape: int) -> None:
    """Each group looked up in one given shape (the centred one counted for every group, not only where it holds
    the most of the pattern) rather than in the shape with the fewest events: the hits and continuations are the
    same."""
    pattern, placement = _real_pattern(data, games, boards, where, (2, 5) if where is not Where.ANYWHERE else (2, 4))
    query = _only(Query(pattern, placement, flags[0], flags[1], limit=0), games[:6])
    choose = lookup._choose

    def in_shape(count: np.ndarray, rows: probe_rows.Probes) -> np.ndarray:
        return choose(np.where(rows.shape == shape, -1.0, count), rows)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(probe_rows, "_centred_sees_more", lambda options, asked: np.ones(options.shape[:2], dtype=bool))
        patch.setattr(lookup, "_choose", in_shape)
        assert engine(index, query) == brute(games, boards, query)


@pytest.mark.parametrize(("rows", "placement"), [
    ("xxx/xxx", Placement(Where.SIDE, side=Side.LEFT)),
    ("o*x/.X./x*o", Placement(Where.ANYWHERE)),
    ("xo.X/O..x/.*o./X.x.", Placement(Where.ANYWHERE)),
    ("....../....../..X.../...O../....../......", Placement(Where.CORNER, corner=Corner.TOP_LEFT)),
])
def test_every_trigger_point_and_kind_of_event_is_looked_up(rows: str, placement: Placement) -> None:
    """Every event that can make a point's letter hold (:data:`probes.KINDS`) has a row to look up, whichever
    shapes are counted for it: a stone placed in all those counted, a stone taken off in its tightest."""
    pattern = Pattern(tuple(rows.split("/")))
    fams = families(pattern, placement)
    found = probe_rows.probes(probe_rows.Images(pattern, fams))
    want = {(f, k, kind) for f, fam in enumerate(fams) for k, letter in enumerate(fam.letters)
            for kind in probe_rows.KINDS[letter]}
    assert set(zip(found.family.tolist(), found.cell.tolist(), found.kind.tolist(), strict=True)) == want


def test_the_centred_shape_is_counted_where_it_holds_most_of_the_pattern() -> None:
    """A 3x3 pattern's middle point is looked up in the centred shape too (its squares see a quarter of the
    pattern); no point of a corner pattern is (a square inside the pattern holds as much)."""
    def centred_cells(pattern: Pattern, placement: Placement) -> set[int]:
        images = probe_rows.Images(pattern, families(pattern, placement))
        found = probe_rows.probes(images)
        return {int(c) for c in found.cell[found.shape == CENTRED]}

    assert 4 in centred_cells(Pattern(("X.O", ".XO", "...")), Placement(Where.ANYWHERE))
    assert not centred_cells(Pattern(("......", "......", "..X...", "...O..", "......", "......")),
                             Placement(Where.CORNER, corner=Corner.TOP_LEFT))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 5)), max_size=60), st.integers(1, 4))
def test_candidates_unpacked_in_order_without_copies(picked: list[tuple[int, int]], moves_a_record: int) -> None:
    """``kernels.unpacked`` gives each (place, game, move) of sorted packed candidates once, sorted as numpy would."""
    bits = 3
    record_start = np.array([0, 7, 7, 20, 41], dtype=np.uint32)
    games = np.repeat(np.arange(4), np.diff(record_start.astype(np.int64)))
    record_move = np.concatenate([np.arange(n) // moves_a_record for n in np.diff(record_start.astype(np.int64))])
    packed = np.unique(np.array([r << bits | p for r, p in picked], dtype=np.int64))
    record, place = packed >> bits, packed & 7
    want = sorted({(int(games[r]), int(record_move[r]), int(p)) for r, p in zip(record, place, strict=True)})
    out = [np.empty(len(packed), dtype=np.int64) for _ in range(3)]
    count = kernels.unpacked(packed, bits, record_start, record_move.astype(np.int32), *out)
    got = list(zip(out[1][:count].tolist(), out[2][:count].tolist(), out[0][:count].tolist(), strict=True))
    assert got == want


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), flags=FLAGS, where=st.sampled_from([Where.CORNER, Where.SIDE, Where.ANYWHERE]),
       limit=st.sampled_from([0, 1, 3]), fresh=st.booleans(), filtered=st.booleans())
def test_a_lazily_read_index_answers_as_the_loaded_one(index: IndexArrays, index_db: str, games: list[Game],
                                                        boards: dict[str, list[dict[Point, str]]],
                                                        data: st.DataObject, flags: tuple[bool, bool], where: Where,
                                                        limit: int, fresh: bool, filtered: bool) -> None:
    """``search`` in a process that has not loaded the index reads the blocks it needs from the SQLite BLOBs (afresh,
    or adding to what earlier searches read) and gives the answers of the index loaded whole."""
    pattern, placement = _real_pattern(data, games, boards, where, (2, 6) if where is not Where.ANYWHERE else (2, 3))
    query = Query(pattern, placement, flags[0], flags[1], limit=limit)
    if filtered:
        query = replace(query, games=GameFilter(winner="b"))
    store = Store(index_db)
    try:
        if fresh:
            forget(store.url)
        lazy = search(store, query).as_json()
        assert store.url in patternsearch._LAZY
    finally:
        store.close()
    assert lazy | {"seconds": 0} == run(index, query).as_json() | {"seconds": 0}


def test_searches_at_once_on_a_lazily_read_index_answer_as_one_at_a_time(index: IndexArrays, index_db: str) -> None:
    """The explorer runs searches in threads: many at once on an index read lazily (each reads through the one
    connection it is bound to, into arrays it fills) give the answers of the index loaded whole."""
    shapes = ["X", "O", "X.", "XO", ".X/O.", "XX", "X/O", "O.X", ".O/X.", "XO/OX", "X../.O.", "OO"]
    queries = [Query(Pattern(tuple(rows.split("/"))), Placement(Where.ANYWHERE), limit=5) for rows in shapes]
    want = [run(index, q).as_json() | {"seconds": 0} for q in queries]
    store = Store(index_db)
    try:
        for _ in range(3):
            forget(store.url)
            with ThreadPoolExecutor(6) as pool:
                found = list(pool.map(lambda q: search(store, q).as_json() | {"seconds": 0}, queries))
            assert found == want
    finally:
        store.close()


def test_a_search_that_falls_back_to_loading_takes_its_lock_again(index: IndexArrays, index_db: str) -> None:
    """A SQLite store whose read gives no sqlite3 connection (another driver) is loaded whole, under the lock the
    search already holds: the search ends, with the loaded index's answer."""
    query = Query(Pattern(("XO", "O.")), Placement(Where.ANYWHERE), limit=5)
    store = Store(index_db)
    found: list[dict[str, object]] = []
    try:
        forget(store.url)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(patternsearch, "_driver", lambda conn: None)
            worker = threading.Thread(target=lambda: found.append(search(store, query).as_json()), daemon=True)
            worker.start()
            worker.join(120)
        assert not worker.is_alive(), "the search waits on its own lock"
        assert store.url in patternsearch._LOADED
    finally:
        forget(store.url)
        store.close()
    assert found[0] | {"seconds": 0} == run(index, query).as_json() | {"seconds": 0}


def _only(query: Query, games: list[Game]) -> Query:
    """``query`` on ``games`` only."""
    return replace(query, games=GameFilter(keys=frozenset(g.key for g in games)))


def test_filters_agree_with_brute_force(index: IndexArrays, games: list[Game],
                                        boards: dict[str, list[dict[Point, str]]]) -> None:
    pattern = parse_pattern("....../....../....../...X../....../......")
    player = games[0].black[:3]
    for chosen in (GameFilter(player=player), GameFilter(winner="w"), GameFilter(min_rank="5d"),
                   GameFilter(date_from="2019-04-10", date_to="2019-04-20"),
                   GameFilter(keys=frozenset(g.key for g in games[:5]))):
        query = Query(pattern, Placement(Where.CORNER), games=chosen, limit=0)
        assert engine(index, query) == brute(games, boards, query)


def test_every_dot_must_be_empty(index: IndexArrays) -> None:
    """A pattern with more empty points around the same stones is stricter than one with wildcards there."""
    small = Query(parse_pattern("....../....../...O../...X../....../......"), Placement(Where.CORNER), limit=0)
    big = Query(parse_pattern("......./......./...O.../...X.../......./......./......."), Placement(Where.CORNER),
                limit=0)
    loose = Query(parse_pattern("......*/......*/...O..*/...X..*/......*/......*/*******"), Placement(Where.CORNER),
                  limit=0)
    assert run(index, big).hits <= run(index, small).hits
    assert run(index, loose).hits == run(index, small).hits


def test_symmetric_and_swapped_patterns_give_mapped_results(index: IndexArrays) -> None:
    base = parse_pattern("....../....../...O../...X../....../......")
    mirrored = Pattern(tuple(row[::-1] for row in base.rows))
    swapped = Pattern(tuple(swap_letters(row) for row in base.rows))
    one = run(index, Query(base, Placement(Where.CORNER)))
    two = run(index, Query(mirrored, Placement(Where.CORNER, corner=Corner.TOP_RIGHT)))
    three = run(index, Query(swapped, Placement(Where.CORNER)))
    assert one.hits == two.hits == three.hits > 0
    flip = {c.label: (18 - c.point[0], c.point[1], c.black, c.white) for c in two.continuations}
    assert {c.label: (*c.point, c.black, c.white) for c in one.continuations} == flip
    assert [(c.point, c.black, c.white) for c in one.continuations] == \
        [(c.point, c.white, c.black) for c in three.continuations]


def test_captured_stones_leave_the_board(games: list[Game]) -> None:
    """The move list's boards are LocalBoard's after every move, captures included."""
    for game in games:
        board = LocalBoard(19)
        board.stones.update(game.stones)
        kept = decode(encode(replay(game.moves, game.stones)))
        states = kept.boards()
        assert _stones(next(states)) == board.stones
        for (colour, point), state in zip(game.moves, states, strict=True):
            if point is not None:
                board.play(colour, point, suicide=True)
            assert _stones(state) == board.stones


def _stones(state: list[int]) -> dict[Point, str]:
    return {divmod(i, 19): "b" if v == 1 else "w" for i, v in enumerate(state) if v}


def test_a_sequence_search_continues_after_its_moves(index: IndexArrays) -> None:
    pattern = parse_pattern("....../....../...O../...X../....../......")
    first = run(index, Query(pattern, Placement(Where.CORNER)))
    top = first.continuations[0]
    colour = "b" if top.black >= top.white else "w"
    cell = (top.point[0], top.point[1])
    second = run(index, Query(pattern, Placement(Where.CORNER), sequence=((colour, cell),)))
    assert second.hits == (top.black if colour == "b" else top.white)
    assert all(c.point != top.point for c in second.continuations)


def test_games_added_in_small_batches_give_the_same_answers(tmp_path: Path, index: IndexArrays,
                                                            game_files: list[str]) -> None:
    """Adding games a few at a time (many segments, merged in tiers) finds what indexing them at once finds."""
    store = Store(str(tmp_path / "batches.sqlite"))
    for lo in range(0, len(game_files), 9):
        index_games(store, [Path(f) for f in game_files[lo: lo + 9]], workers=1, batch=3, compacted=False)
    with store.read() as conn:
        levels = [level for _, level, _ in segment_list(conn)]
    many = loaded(store)
    store.close()
    assert len(many) == len(index) and max(levels) >= 1 and len(levels) > 1
    for text, placement in (("....../....../...O../...X../....../......", Placement(Where.CORNER)),
                            (".X./X.O", Placement(Where.ANYWHERE)), ("...../..X.o", Placement(Where.SIDE))):
        query = Query(parse_pattern(text), placement, limit=0)
        assert run(many, query).as_json() | {"seconds": 0} == run(index, query).as_json() | {"seconds": 0}
    store = Store(str(tmp_path / "batches.sqlite"))
    with store.write() as conn:
        assert compact(conn)
    with store.read() as conn:
        assert [level for _, level, _ in segment_list(conn)] == [max(levels) + 1]
    forget(store.url)
    one = loaded(store)
    store.close()
    assert len(one.segments) == 1
    query = Query(parse_pattern(".X./X.O"), Placement(Where.ANYWHERE), limit=0)
    assert run(one, query).as_json() | {"seconds": 0} == run(index, query).as_json() | {"seconds": 0}


def test_a_suicide_is_a_continuation(tmp_path: Path) -> None:
    """A suicide's own stone changes no point (the dense table does not see it), yet it is the next move played in
    the pattern: its game's hits step through the moves. (The SGF reader refuses suicides; a game made otherwise
    may hold one.)"""
    moves = [("b", (15, 3)), ("w", (1, 0)), ("b", (3, 15)), ("w", (0, 1)), ("b", (0, 0)), ("w", (2, 2)),
             ("b", (15, 15)), ("w", (3, 3))]
    plain = [("b", (15, 3)), ("w", (1, 0)), ("b", (3, 15)), ("w", (0, 1)), ("b", (16, 16)), ("w", (2, 2))]
    made = [Game("suicide.sgf", 19, moves, "B+R", "b"), Game("plain.sgf", 19, plain, "W+R", "w")]
    store = Store(str(tmp_path / "s.sqlite"))
    with store.write() as conn:
        write_games(conn, store, [index_game(g, str(tmp_path)) for g in made])
    arrays = loaded(store)
    forget(store.url)
    query = Query(parse_pattern(".O../O.../..../...."), Placement(Where.CORNER), limit=0)
    lazily = search(store, query).as_json()
    store.close()
    assert lazily | {"seconds": 0} == run(arrays, query).as_json() | {"seconds": 0}
    assert engine(arrays, query) == brute(made, _boards(made), query)
    assert {c.point for c in run(arrays, query).continuations} == {(0, 0), (2, 2)}


def test_arrays_of_many_chunks_read_lazily_as_loaded(tmp_path: Path, index: IndexArrays, game_files: list[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Arrays stored in many BLOB chunks (their blocks across chunk ends) are read lazily as they load."""
    monkeypatch.setattr("joseki.book.patterns.storage.CHUNK_BYTES", 5000)
    store = Store(str(tmp_path / "chunks.sqlite"))
    index_games(store, [Path(f) for f in game_files], workers=1)
    with store.read() as conn:
        assert max(n for (n,) in conn.exec_driver_sql("SELECT count(*) FROM pattern_chunk GROUP BY name")) > 3
    try:
        for text, placement in (("....../....../...O../...X../....../......", Placement(Where.CORNER)),
                                (".X./X.O", Placement(Where.ANYWHERE)), ("...../..X.o", Placement(Where.SIDE))):
            query = Query(parse_pattern(text), placement, limit=0)
            forget(store.url)
            assert search(store, query).as_json() | {"seconds": 0} == run(index, query).as_json() | {"seconds": 0}
    finally:
        store.close()


def test_families_of_a_symmetric_pattern_are_merged() -> None:
    star = parse_pattern("....../....../....../...X../....../......")
    assert len(families(star, Placement(Where.CORNER))) == 8
    assert len(symmetry_group(star, Placement(Where.CORNER))) == 2
    lone = parse_pattern("X")
    assert sum(len(f.offsets) for f in families(lone, Placement(Where.ANYWHERE))) == 2 * 361
    assert home_point(star, Placement(Where.CORNER, corner=Corner.BOTTOM_RIGHT), (3, 3)) == (16, 16)


@pytest.mark.parametrize(("args", "message"), [
    (["XO/X"], "a pattern is a rectangle"),
    (["XZ"], "unknown letter 'Z'"),
    (["XX/XX", "--at", "T1"], "runs off the 19x19 board"),
    (["../..", "--anywhere"], "needs at least one stone"),
    (["", "--anywhere"], "empty pattern"),
    (["X", "--corner", "middle"], "unknown corner"),
    (["X", "--min-rank", "strong"], "--min-rank"),
])
def test_bad_input_is_one_line_and_leaves_the_store(tmp_path: Path, args: list[str], message: str) -> None:
    db = tmp_path / "s.sqlite"
    Store(str(db)).close()
    before = db.read_bytes()
    result = CliRunner().invoke(app, ["--db", str(db), "search", *args])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output
    assert db.read_bytes() == before


@pytest.mark.parametrize("upgrade_records", [storage.UPGRADE_RECORDS, 300])
def test_an_index_of_an_earlier_layout_is_refused_then_brought_up_to_date(tmp_path: Path, game_files: list[str],
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          upgrade_records: int) -> None:
    """An index written before the centred shape (its segments without the fifth shape's arrays) is refused by a
    search with one line, the store unchanged; ``joseki index`` keys its games again from the index itself (a few
    at a time, or all at once), and the searches then answer as on an index built afresh."""
    monkeypatch.setattr(storage, "UPGRADE_RECORDS", upgrade_records)
    old, fresh = tmp_path / "old.sqlite", tmp_path / "fresh.sqlite"
    runner = CliRunner()
    assert runner.invoke(app, ["--db", str(old), "index", *game_files[:4]]).exit_code == 0
    conn = sqlite3.connect(old)
    conn.execute("DELETE FROM pattern_chunk WHERE name IN ('keys4', 'starts4', 'entries4')")
    conn.commit()
    conn.close()
    forget()
    before = old.read_bytes()
    for args in (["search", "XO/O.", "--anywhere"], ["search", "....../....../...X..", "--json"]):
        refused = runner.invoke(app, ["--db", str(old), *args])
        lines = refused.output.strip().splitlines()
        assert refused.exit_code == 1 and len(lines) == 1, refused.output
        assert "lacks its keys4, starts4, entries4 (an index of an earlier version: run joseki index" in lines[0]
    with pytest.raises(UserError, match="an index of an earlier version"):
        loaded(Store(str(old)))
    assert old.read_bytes() == before
    assert runner.invoke(app, ["--db", str(old), "index", *game_files[:4]]).exit_code == 0  # none added
    conn = sqlite3.connect(old)
    assert conn.execute("SELECT count(*), sum(games) FROM pattern_segment").fetchone() == (1, 4)  # merged again
    conn.close()
    assert runner.invoke(app, ["--db", str(old), "index", *game_files[:6]]).exit_code == 0
    assert runner.invoke(app, ["--db", str(fresh), "index", *game_files[:6]]).exit_code == 0
    forget()
    for pattern in ("XO/O.", ".X./X.X", "O.X/.XO"):
        a, b = (json.loads(runner.invoke(app, ["--db", str(db), "search", pattern, "--anywhere", "--limit", "500",
                                                      "--json"]).output)
                for db in (old, fresh))
        for data in (a, b):
            data.pop("seconds")
            data["results"] = sorted(data["results"], key=lambda r: r["source"])
        assert a == b and a["hits"] > 0


def test_an_index_older_than_the_stores_games_is_refused(tmp_path: Path, game_files: list[str]) -> None:
    db = tmp_path / "s.sqlite"
    runner = CliRunner()
    assert runner.invoke(app, ["--db", str(db), "index", *game_files[:3]]).exit_code == 0
    assert runner.invoke(app, ["--db", str(db), "learn", "--workers", "1", *game_files[:5]]).exit_code == 0
    forget()
    result = runner.invoke(app, ["--db", str(db), "search", "....../....../...X.."])
    assert result.exit_code == 1
    assert "older than the store's games: 2 learnt games are not indexed" in result.output


def test_index_and_search_from_the_command_line(new_db: Callable[..., str], game_files: list[str],
                                                tmp_path: Path) -> None:
    url = new_db("patterns")
    runner = CliRunner()
    folder = str(Path(game_files[0]).parent)
    first = runner.invoke(app, ["--db", url, "index", "--json", *game_files[:10]])
    assert first.exit_code == 0, first.output
    assert json.loads(first.output)["added"] == 10
    again = runner.invoke(app, ["--db", url, "index", "--json", *game_files[:20]])
    assert json.loads(again.output)["added"] == 10 and json.loads(again.output)["already_indexed"] == 10
    forget()
    result = runner.invoke(app, ["--db", url, "search", "--json", "--limit", "0", "....../....../...O../...X.."])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"games", "hits", "continuations", "results"} <= set(data)
    assert all(not r["source"].startswith("/") and (Path(folder) / r["source"]).exists() for r in data["results"])
    for c in data["continuations"]:
        assert {"black", "white", "black_wins", "white_wins", "after_tenuki"} <= set(c)
        assert format_gtp_vertex((ord(c["move"]["sgf"][0]) - 97, ord(c["move"]["sgf"][1]) - 97)) == c["move"]["gtp"]
    for r in data["results"]:
        assert all({"move_number", "swapped", "orientation"} <= set(h) for h in r["hits"])
    saved = tmp_path / "first.json"
    saved.write_text(result.output)
    within = runner.invoke(app, ["--db", url, "search", "--json", "--within", str(saved), "....../....../...X.."])
    keys = {r["key"] for r in json.loads(within.output)["results"]}
    assert keys <= {r["key"] for r in data["results"]}
    shown = runner.invoke(app, ["--db", url, "search", "....../....../...O../...X.."])
    assert shown.exit_code == 0 and "hit" in shown.output


def test_migration_0011_adds_and_drops_the_pattern_index(new_db: Callable[..., str]) -> None:
    from alembic import command

    from joseki.book.store.database import alembic_config

    tables = {"pattern_game", "pattern_segment", "pattern_chunk"}
    store = Store(new_db("old"))
    with store.write() as conn:
        command.downgrade(alembic_config(conn), "0010")
        assert not tables & set(store.engine.dialect.get_table_names(conn))
        command.upgrade(alembic_config(conn), "0011")
        assert tables <= set(store.engine.dialect.get_table_names(conn))
    store.close()


def test_an_index_built_on_a_cluster_is_the_local_one(tmp_path: Path, index: IndexArrays,
                                                      game_files: list[str]) -> None:
    """``joseki index --cluster`` reads the games on Dask workers and writes what a local run writes."""
    from tests.dask_procs import DaskProcesses

    url = str(tmp_path / "cluster.sqlite")
    folder = tmp_path / "dask"
    folder.mkdir()
    with DaskProcesses(folder) as procs:
        result = CliRunner().invoke(app, ["--db", url, "index", "--json", "--batch", "7", "--cluster", procs.address,
                                          *game_files])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["added"] == len(game_files)
    store = Store(url)
    remote = loaded(store)
    store.close()
    query = Query(parse_pattern("....../....../...O../...X../....../......"), Placement(Where.CORNER), limit=0)
    assert run(remote, query).as_json() | {"seconds": 0} == run(index, query).as_json() | {"seconds": 0}
