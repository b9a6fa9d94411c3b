"""One answer to "where did this corner leave the book?": next --sgf, annotate, learn and evaluate agree.

On real games (a few from each collection of game records) against Kogo's dictionary, each
corner's answer is asked four ways and compared move for move: ``next`` after every move of
the game, ``annotate`` on the whole game, learn's credit walk (the in-memory book index that
``learn`` and ``mine`` use) and ``evaluate``'s view of each local move.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from joseki.book.importer import import_files
from joseki.book.query.inmemory import InMemoryBook
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import move_numbers, next_in_game
from joseki.book.query.walk import walk
from joseki.book.store.database import Store
from joseki.book.store.keys import node_id
from joseki.core.corners import corner_tables
from joseki.core.geometry import Corner
from joseki.core.notation import TENUKI
from joseki.games.annotate import plan
from joseki.games.credit import (
    context_rows,
    corner_credits,
    corner_plays,
    corners_to,
    credit_corners,
    credit_game,
    node_rows,
)
from joseki.games.evaluate import evaluate
from joseki.sgf.game import read_game

from .conftest import GAMES, KOGO, Databases, need

PER_COLLECTION = 2


def real_games() -> list[Path]:
    folders = sorted(p for p in need(GAMES).iterdir() if p.is_dir())
    files = [f for folder in folders for f in sorted(folder.glob("*.sgf"))[:PER_COLLECTION]]
    if len(files) < 4:
        pytest.skip(f"too few game records under {GAMES}")
    return files


@pytest.fixture(scope="module")
def kogo(databases: Databases) -> Iterator[Store]:
    url = databases.new("kogo_state")
    store = Store(url)
    import_files(store, [need(KOGO)], "kogo")
    yield store
    store.close()
    databases.drop(url)


def test_four_commands_agree_move_for_move(kogo: Store) -> None:
    files = real_games()
    index = InMemoryBook.load(kogo)
    traced: dict[tuple[Path, Corner, int], bool] = {}
    evaluate(kogo, files, trace=lambda path, corner, number, in_book: traced.__setitem__((path, corner, number),
                                                                                          in_book))
    left_somewhere = tenuki_left = 0
    for path in files:
        game = read_game(path)
        annotation = plan(kogo, game.moves)
        tables = {c: t for c, t in corner_tables(game.moves).items() if t.builder.first_colour is not None}
        assert set(annotation.left) == {c.value for c in tables}
        left: dict[Corner, int | None] = {}
        for corner, table in tables.items():
            b = table.builder
            numbers = move_numbers(table)
            # learn: the in-memory index walks the corner exactly as the store does
            credits = corner_credits(index, b.steps, b.first_colour, game.winner or "d")
            with kogo.read() as conn:
                stored = walk(Lookup(kogo, conn), b.steps, b.first_colour, rejoin=False)
            assert [nid for nid, _ in credits] == [node_id(line) for line in stored.nodes], (path, corner)
            k = len(credits)
            by_learn = numbers[k] if k < len(b.steps) // 2 else None
            assert annotation.left[corner.value] == by_learn, (path, corner)
            left[corner] = by_learn
            left_somewhere += by_learn is not None
            tenuki_left += by_learn is not None and b.steps[2 * k : 2 * k + 2] == TENUKI
            # evaluate: the position before each local move is in the book up to the move that left it
            for token, number in enumerate(numbers[: len(b.steps) // 2]):
                if b.steps[2 * token : 2 * token + 2] != TENUKI and (path, corner, number) in traced:
                    assert traced[(path, corner, number)] == (token <= k), (path, corner, number)
        # next --sgf --move N, for every N
        for n in range(1, len(game.moves) + 1):
            for answer in next_in_game(kogo, game.moves[:n]):
                if answer.corner not in tables or not answer.steps:
                    continue
                whole = left[answer.corner]
                full_steps = tables[answer.corner].builder.steps
                last_local = max(m for m, _, _ in corner_tables(game.moves[:n])[answer.corner].moves)
                if answer.left_at is None:
                    assert whole is None or whole > last_local, (path, answer.corner, n)
                    continue
                token = answer.left_at - 1
                pending = token == len(answer.steps) // 2 - 1 and answer.steps.endswith(TENUKI)
                if pending and full_steps[2 * token : 2 * token + 2] != TENUKI:
                    assert whole is None or whole > last_local, (path, answer.corner, n)
                    continue
                assert answer.left_move_number == whole, (path, answer.corner, n)
                assert [c.move for c in answer.alternatives][:5] == annotation.offered[answer.corner.value]
    assert left_somewhere >= len(files)  # real games leave the book: the comparison is not vacuous
    assert tenuki_left >= 1  # and some leave it by a tenuki, the case that used to disagree


def test_learn_reads_a_game_only_as_far_as_its_corners_are_in_the_book(kogo: Store) -> None:
    # credit_game stops reading once every corner has left the book: the credits, and every row learn keeps of
    # them, are those of the whole game's corner tables, on games whose corners leave early, late and never
    index = InMemoryBook.load(kogo)
    folders = sorted(p for p in need(GAMES).iterdir() if p.is_dir())
    files = [f for folder in folders for f in sorted(folder.glob("*.sgf"))[:12]]
    short = 0
    for path in files:
        game = read_game(path)
        if game.unusable() is not None:
            continue
        assert game.winner is not None
        whole = credit_corners(index, corner_plays(corner_tables(game.moves).values()), game.winner)
        read = credit_game(index, game.moves, game.winner)
        assert [(c.play.corner, c.credits, c.route.nodes, c.route.left_at) for c in read] == \
            [(c.play.corner, c.credits, c.route.nodes, c.route.left_at) for c in whole], path
        assert node_rows(read) == node_rows(whole)
        assert context_rows(read, game.moves) == context_rows(whole, game.moves)
        assert [c.play.token_moves(len(c.credits)) for c in read] == [c.play.token_moves(len(c.credits))
                                                                     for c in whole]
        short += sum(len(r.play.local) < len(w.play.local) for r, w in zip(read, whole, strict=True))
    assert short > len(files)  # most corners were read only in part


@pytest.mark.parametrize("steps", [1, 31, 61])
def test_mine_reads_a_game_only_as_far_as_its_corners_hold_the_steps_it_counts(steps: int) -> None:
    # corners_to stops once every corner holds ``steps`` steps: each corner's first steps, colour, reflection and
    # local moves are those of the whole game's tables, and a game whose corners stay short is read to its end
    folders = sorted(p for p in need(GAMES).iterdir() if p.is_dir())
    files = [f for folder in folders for f in sorted(folder.glob("*.sgf"))[:12]]
    short = whole_games = 0
    for path in files:
        moves = read_game(path).moves
        whole = corner_plays(corner_tables(moves).values())
        read = corners_to(moves, steps)
        assert [(p.corner, p.first, p.swap) for p in read] == [(p.corner, p.first, p.swap) for p in whole], path
        for r, w in zip(read, whole, strict=True):
            assert w.steps.startswith(r.steps) and w.local[: len(r.local)] == r.local
            assert len(r.steps) >= min(2 * steps, len(w.steps))
        short += sum(len(r.local) < len(w.local) for r, w in zip(read, whole, strict=True))
        whole_games += read == whole
    assert short >= (len(files) if steps == 1 else 1) and whole_games >= 1  # read in part, and to the end
