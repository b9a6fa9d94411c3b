"""Merging segments of the pattern index a piece at a time gives the segment of all their games built at once.

Small random games (crowded into a corner, so that stones are captured and points change again) are cut into
batches; each batch is built into a segment, and the segments are merged in memory and through a store, with
ranges of a few keys and chunks of a few bytes, so that every array crosses many ranges and chunk ends. The keys
workers work out for their chunks of games build the same segments as the keys worked out for a whole batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from joseki.book.patterns import merging
from joseki.book.patterns.reads import read_segment, segment_list
from joseki.book.patterns.segment import ARRAY_NAMES, GameArrays, Segment, build, game_keys
from joseki.book.patterns.storage import compact, merge_segments, with_keys, write_segment
from joseki.book.store.database import Store
from joseki.core.movelist import encode, replay
from joseki.games.indexing import index_game
from joseki.sgf.game import read_game
from tests.conftest import GAMES, need

POINTS = st.tuples(st.integers(0, 4), st.integers(0, 4)) | st.tuples(st.integers(0, 18), st.integers(0, 18))
GAME = st.tuples(st.dictionaries(st.tuples(st.integers(0, 18), st.integers(0, 18)), st.sampled_from("bw"),
                                 max_size=3),
                 st.lists(st.none() | POINTS, max_size=60))


def game_arrays(number: int, game: tuple[dict[tuple[int, int], str], list[tuple[int, int] | None]]) -> GameArrays:
    """Game ``number`` of ``game``'s setup stones and moves (Black first, then in turn), replayed with captures."""
    stones, points = game
    moves = [("b" if i % 2 == 0 else "w", p) for i, p in enumerate(points)]
    words = np.frombuffer(encode(replay(moves, stones)), dtype="<u2")
    return GameArrays(100 + number, words, number % 4, 20000101 + number)


@st.composite
def batches(draw: st.DrawFn) -> tuple[list[GameArrays], list[list[GameArrays]]]:
    """Games, and the same games cut into batches (some empty) in order."""
    games = [game_arrays(i, g) for i, g in enumerate(draw(st.lists(GAME, min_size=1, max_size=12)))]
    cuts = sorted(draw(st.lists(st.integers(0, len(games)), min_size=1, max_size=5)))
    bounds = [0, *cuts, len(games)]
    return games, [games[lo:hi] for lo, hi in pairwise(bounds)]


def same(found: Segment, wanted: Segment) -> None:
    for name, array in wanted.arrays().items():
        got = found.arrays()[name]
        assert got.dtype == array.dtype, name
        assert np.array_equal(got, array), name


@settings(max_examples=150, deadline=None)
@given(drawn=batches(), size=st.integers(1, 40))
def test_a_merge_in_pieces_is_the_segment_built_at_once(drawn: tuple[list[GameArrays], list[list[GameArrays]]],
                                                        size: int) -> None:
    games, parts = drawn
    whole = build(games)
    segments = [build(part) for part in parts]
    same(merging.merge(segments, slice_entries=size), whole)
    same(merging.merge(segments), whole)
    ranges = sum(1 for name, piece in merging.pieces([merging.InMemory(s) for s in segments], size)
                 if name == "entries0" and piece is not None)
    assert ranges >= (2 if len(whole.entries[0]) > size else 1)


@pytest.fixture
def store(new_db: Callable[..., str]) -> Iterator[Store]:
    made = Store(new_db("merge"))
    yield made
    made.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=batches(), size=st.integers(1, 40), chunk=st.integers(1, 64))
def test_a_stored_merge_is_the_segment_built_at_once(store: Store, monkeypatch: pytest.MonkeyPatch,
                                                     drawn: tuple[list[GameArrays], list[list[GameArrays]]],
                                                     size: int, chunk: int) -> None:
    """Through a store, arrays cut into chunks of ``chunk`` bytes (an array's values across chunk ends)."""
    games, parts = drawn
    monkeypatch.setattr("joseki.book.patterns.storage.CHUNK_BYTES", chunk)
    monkeypatch.setattr("joseki.book.patterns.merging.SLICE_ENTRIES", size)
    with store.write() as conn:
        conn.exec_driver_sql("DELETE FROM pattern_chunk")
        conn.exec_driver_sql("DELETE FROM pattern_segment")
        ids = [write_segment(conn, build(part), 0) for part in parts]
        assert [same(read_segment(conn, i), build(part)) for i, part in zip(ids, parts, strict=True)]
        merged = merge_segments(conn, ids, 1)
        assert [(i, level) for i, level, _ in segment_list(conn)] == [(merged, 1)]
        same(read_segment(conn, merged), build(games))
        names = {str(n) for (n,) in conn.exec_driver_sql("SELECT DISTINCT name FROM pattern_chunk")}
        assert names == set(ARRAY_NAMES)
        stored = conn.exec_driver_sql("SELECT games, records, bytes FROM pattern_segment").one()
        whole = build(games)
        assert tuple(stored) == (whole.games, whole.records, sum(a.nbytes for a in whole.arrays().values()))


def test_compact_merges_every_segment_into_one(store: Store) -> None:
    games = [game_arrays(i, ({}, [(i % 5, 3), (3, 3), None, (2, 2), (2, 3), (1, 2), (3, 2), (2, 1)]))
             for i in range(9)]
    with store.write() as conn:
        for lo in range(0, 9, 2):
            write_segment(conn, build(games[lo:lo + 2]), 0)
        assert compact(conn)
        [(only, level, records)] = segment_list(conn)
        assert (level, records) == (1, build(games).records)
        same(read_segment(conn, only), build(games))
        assert not compact(conn)


@settings(max_examples=150, deadline=None)
@given(drawn=batches())
def test_keys_worked_out_chunk_by_chunk_build_the_segment_built_at_once(
        drawn: tuple[list[GameArrays], list[list[GameArrays]]]) -> None:
    """The keys a worker works out for its chunk of games (:func:`game_keys`) are the keys :func:`build` works out
    for a whole batch: a key depends on its own game only."""
    games, parts = drawn
    keyed = [replace(g, keys=k) for part in parts
             for g, k in zip(part, game_keys([g.words for g in part]), strict=True)]
    assert all(k.keys is not None and k.keys.dtype == np.uint32 for k in keyed)
    same(build(keyed), build(games))
    mixed = [g if i % 2 else k for i, (g, k) in enumerate(zip(games, keyed, strict=True))]
    same(build(mixed), build(games))


def test_real_games_keyed_in_chunks_build_the_same_segment() -> None:
    """KGS games read, indexed and keyed as a worker keys its chunk (:func:`with_keys`, through the rows' bytes) give
    the segment their records alone give."""
    folder = need(GAMES / "kgs-highdan-2019-04")
    files = sorted(folder.glob("*.sgf"))[:150]
    games = [index_game(read_game(f), str(folder)) for f in files]
    keyed = [g for lo in range(0, len(games), 64) for g in with_keys(games[lo: lo + 64])]
    assert all(g.keys is not None for g in keyed) and all(g.keys is None for g in games)
    built = build([g.arrays(i) for i, g in enumerate(keyed)])
    same(built, build([g.arrays(i) for i, g in enumerate(games)]))
    assert sum(len(k) for k in built.entries) > 4 * 150 * 100  # real games: many events in every shape
    first = keyed[0].keys
    assert first is not None
    wrong = [replace(keyed[0], keys=bytes(len(first))), *keyed[1:]]  # the keys given are the keys used
    assert not np.array_equal(build([g.arrays(i) for i, g in enumerate(wrong)]).keys[0], built.keys[0])
