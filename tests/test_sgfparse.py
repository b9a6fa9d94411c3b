"""The fast SGF reader gives sgfmill's own trees, results and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf_grammar

import joseki.sgf.game as game_module
from joseki.core.errors import BadInput
from joseki.sgf.game import Game, game_from_bytes
from joseki.sgf.sgfparse import parse_collection, parse_game, plain_game

from .conftest import GAMES, JOSEKI, KOGO, need


def _shape(tree: sgf_grammar.Coarse_game_tree) -> tuple[object, ...]:
    return tuple(tree.sequence), tuple(_shape(child) for child in tree.children)


def _outcome(read: object, data: bytes) -> object:
    try:
        games = read(data)  # type: ignore[operator]
    except ValueError as exc:
        return ("error", str(exc))
    return _shape(games) if isinstance(games, sgf_grammar.Coarse_game_tree) else [_shape(g) for g in games]


def _same_as_sgfmill(data: bytes) -> None:
    assert _outcome(parse_collection, data) == _outcome(sgf_grammar.parse_sgf_collection, data)
    assert _outcome(parse_game, data) == _outcome(sgf_grammar.parse_sgf_game, data)


def test_every_real_collection_reads_as_sgfmill_reads_it() -> None:
    files = sorted(need(JOSEKI).rglob("*.sgf"))
    assert len(files) >= 18
    for path in files:
        _same_as_sgfmill(path.read_bytes())


def test_real_game_records_read_as_sgfmill_reads_them() -> None:
    files = sorted(need(GAMES).rglob("*.sgf"))[:1500]
    assert len(files) >= 1000
    for path in files:
        _same_as_sgfmill(path.read_bytes())


def _refuse(_: bytes) -> None:
    raise AssertionError("fell back to sgfmill")


def test_the_fast_path_reads_the_dictionary_without_sgfmill(monkeypatch: pytest.MonkeyPatch) -> None:
    data = need(KOGO).read_bytes()
    expected = _outcome(sgf_grammar.parse_sgf_collection, data)
    monkeypatch.setattr(sgf_grammar, "parse_sgf_collection", _refuse)
    monkeypatch.setattr(sgf_grammar, "parse_sgf_game", _refuse)
    assert _outcome(parse_collection, data) == expected
    assert [_outcome(parse_game, data)] == expected


@pytest.mark.parametrize("data", [
    b"", b"junk only", b"(;B[aa]", b"(;B[aa](;W[bb])", b"(;B[aa]C[unterminated)", b"(;B)", b"(;B C[x])",
    b"(;[aa])", b"(B[aa];W[bb])", b"(;B[aa]()(;W[bb]))", b"((;B[aa]))", b"(;B[aa];;W[bb])", b"(;B[aa]) junk (;",
    b"(;AddBlack[aa]bLACK[bb]) (;B[cc])", b"(;B[aa]\xff)", b"(;" + b"A" * 65 + b"[x])", b"(;B[aa]))",
])
def test_odd_and_malformed_input_reads_as_sgfmill_reads_it(data: bytes) -> None:
    _same_as_sgfmill(data)


_IDENT = st.sampled_from([b"B", b"W", b"C", b"AB", b"LB", b"GN", b"AddBlack", b"b", b"TR"])
_VALUE = st.lists(st.sampled_from([b"a", b"pd", b" ", b"\n", b"\r\n", b"\t", b"[", b":", b"\xc3\xa9",
                                    b"\\]", b"\\\\", b"\\a", b"\\\n"]), max_size=6).map(b"".join)
_SPACE = st.sampled_from([b"", b"", b" ", b"\n", b"\r\n  "])


@st.composite
def _nodes(draw: st.DrawFn) -> bytes:
    props = draw(st.lists(st.tuples(_IDENT, st.lists(_VALUE, min_size=1, max_size=3)), max_size=3))
    return b";" + b"".join(draw(_SPACE) + ident + draw(_SPACE) + b"".join(b"[" + v + b"]" + draw(_SPACE) for v in vals)
                           for ident, vals in props)


def _trees(depth: int) -> st.SearchStrategy[bytes]:
    sequence = st.lists(_nodes(), min_size=1, max_size=3).map(b"".join)
    if depth == 0:
        return sequence.map(lambda s: b"(" + s + b")")
    children = st.lists(_trees(depth - 1), max_size=3).map(b"".join)
    return st.tuples(sequence, children, _SPACE).map(lambda t: b"(" + t[0] + t[2] + t[1] + b")")


@settings(max_examples=300)
@given(st.lists(st.tuples(_SPACE, _trees(2)), min_size=1, max_size=2), st.sampled_from([b"", b"junk", b"  \n"]))
def test_generated_collections_read_as_sgfmill_reads_them(games: list[tuple[bytes, bytes]], tail: bytes) -> None:
    _same_as_sgfmill(b"".join(space + game for space, game in games) + tail)


@settings(max_examples=300)
@given(_trees(2), st.data())
def test_damaged_collections_read_as_sgfmill_reads_them(game: bytes, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(game)))
    junk = data.draw(st.sampled_from([b"", b"(", b")", b";", b"[", b"]", b"\\", b"x", b"Q", b"[x]"]))
    _same_as_sgfmill(game[:cut] + junk + game[cut + data.draw(st.integers(0, 3)):])


_MOVE_NODES = st.sampled_from([b";B[pd]", b";W[dp]", b";B[]", b";W[tt]", b";B[Aa]", b";W[pd] ", b";B[pd]\n",
                               b";B[pd]C[x]", b";B[pd] W[dd]", b";B [pd]", b";b[pd]", b";B[pdq]", b";B[p d]",
                               b";B[pd][dd]", b";AB[pd]", b";", b";C[x];W[qq]"])


@settings(max_examples=300)
@given(st.lists(st.lists(_MOVE_NODES, min_size=1, max_size=12).map(b"".join), min_size=1, max_size=3),
       st.data())
def test_runs_of_move_nodes_read_as_sgfmill_reads_them(sequences: list[bytes], data: st.DataObject) -> None:
    game = b"(;GM[1]" + sequences[0] + b"".join(b"(" + s + b")" for s in sequences[1:]) + b")"
    cut = data.draw(st.integers(0, len(game)))
    junk = data.draw(st.sampled_from([b"", b"(", b")", b";", b"]", b"x"]))
    _same_as_sgfmill(game[:cut] + junk + game[cut + data.draw(st.integers(0, 2)):])
    expected = _outcome(sgf_grammar.parse_sgf_game, game)
    with pytest.MonkeyPatch.context() as patch:  # well-formed: read by the fast path alone
        patch.setattr(sgf_grammar, "parse_sgf_game", _refuse)
        assert _outcome(parse_game, game) == expected


def test_a_file_with_only_junk_after_a_game_keeps_the_game() -> None:
    data = b"(;GM[1]SZ[19];B[pd];W[dd]) trailing words ("
    (game,) = parse_collection(data)
    assert [node.get("B", node.get("W")) for node in game.sequence] == [None, [b"pd"], [b"dd"]]


def _plain_as_tree(data: bytes) -> object:
    """What :func:`plain_game` reads of ``data``, as the nodes :func:`parse_game` would give (or None, or the error)."""
    try:
        plain = plain_game(data)
    except ValueError as exc:
        return ("error", str(exc))
    if plain is None:
        return None
    root, moves = plain
    return (root, *({move[:1].decode(): [move[2:]]} for move in moves)), ()


def _game_outcome(data: bytes) -> object:
    try:
        game = game_from_bytes(data, "record.sgf")
    except ValueError as exc:
        return ("error", str(exc))
    return tuple(getattr(game, name) for name in Game.__slots__)


def _same_game_without_the_plain_path(data: bytes) -> None:
    """``data`` reads to the same game, or the same error, with the plain path as through the game tree."""
    fast = _game_outcome(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(game_module, "plain_game", lambda _: None)
        assert _game_outcome(data) == fast


def test_real_game_records_read_by_the_plain_path_as_by_the_tree() -> None:
    files = sorted(need(GAMES).rglob("*.sgf"))[:1500]
    plain = 0
    for path in files:
        data = path.read_bytes()
        read = _plain_as_tree(data)
        if read is not None:
            plain += 1
            assert read == _outcome(parse_game, data)
        _same_game_without_the_plain_path(data)
    assert plain >= len(files) * 0.9  # most records are a root and moves only


_ROOTS = st.sampled_from([b"(;GM[1]SZ[19]RE[B+R]", b"(;GM[1]SZ[19]AB[dd][pp]RE[W+1.5]", b"(\n;SZ[9]RE[B+3]",
                          b"(;GM[1]SZ[19]B[pd]RE[B+R]", b"(;", b"(;FF[4]GM[2]", b"(;SZ[19]AE[aa]RE[W+R]",
                          b"(;SZ[13]RE[B+R]", b"(;SZ[19]ha[2]RE[B+R]", b"(;SZ[19]RU[NZ]RE[W+R]", b"(;SZ[x]"])


@settings(max_examples=400)
@given(_ROOTS, st.lists(_MOVE_NODES, max_size=10).map(b"".join),
       st.sampled_from([b")", b") junk", b"", b"(;W[aa]))", b"\n)\n(;B[cc])"]))
def test_generated_records_read_by_the_plain_path_as_by_the_tree(root: bytes, moves: bytes, tail: bytes) -> None:
    data = root + moves + tail
    read = _plain_as_tree(data)
    if read is not None:
        assert read == _outcome(parse_game, data)
    _same_game_without_the_plain_path(data)


def test_a_plain_record_captures_and_refuses_an_illegal_move_as_the_tree_does() -> None:
    capture = b"(;GM[1]SZ[19]RE[B+R];B[ba];W[aa];B[ab])"
    assert plain_game(capture) is not None
    assert game_from_bytes(capture).captures == {2: [(0, 0)]}
    _same_game_without_the_plain_path(capture)
    occupied = b"(;GM[1]SZ[19]RE[B+R];B[ba];W[ba])"
    with pytest.raises(BadInput, match=r"move 2 \(W B19\)"):
        game_from_bytes(occupied)
    _same_game_without_the_plain_path(occupied)


def test_a_root_of_many_properties_before_a_variation_is_left_to_the_tree_at_once() -> None:
    # the whitespace between 64 root properties could be shared out in 2**63 ways: the plain path must not try them
    root = b"(;GM[1]SZ[19]RE[B+R]\n" + b"\n".join(b"X%s[x] " % bytes([65 + i // 26, 65 + i % 26]) for i in range(64))
    moves = b"".join(b";%s[%s]" % (b"BW"[i % 2 : i % 2 + 1], bytes([97 + i % 19, 100 + i // 19])) for i in range(50))
    data = root + b"\n" + moves + b"(;B[aa]C[a comment])(;B[bb]))"
    assert plain_game(data) is None
    assert len(game_from_bytes(data).moves) == 51
    assert plain_game(root + b";B[pd])") == (_outcome(parse_game, root + b")")[0][0], [b"B[pd"])  # type: ignore[index]
