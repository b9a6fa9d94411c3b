"""Flattening real joseki collections: every root-to-leaf path becomes one record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sgfmill import sgf, sgf_grammar

from joseki.core.steps import is_canonical, split_steps
from joseki.sgf.forest import flatten_bytes, flatten_file
from joseki.sgf.text import SgfText

from .conftest import JOSEKI, KOGO, KOGO_ZH, OGS, need

# (file, root-to-leaf paths, nodes): the counts of each folder's README, checked again below
# by counting leaves with sgfmill's own tree API.
COLLECTIONS = [
    (KOGO, 7721, 62749),
    (KOGO_ZH, 7667, 62443),
    (OGS, 3497, 16156),
    (JOSEKI / "katago-joseki-extraction" / "katago_rating_joseki.sgf", 5393, 19319),
    (JOSEKI / "katago-joseki-extraction" / "katago_training_joseki.sgf", 6012, 16247),
    (JOSEKI / "pachi" / "joseki_44.sgf", 298, None),
    (JOSEKI / "pachi" / "joseki_34.sgf", 184, None),
    (JOSEKI / "pachi" / "joseki_54.sgf", 19, None),
    (JOSEKI / "pachi" / "joseki_33.sgf", 7, None),
]
GNUGO_LEAVES = 332


def sgfmill_leaves(path: Path) -> int:
    """Leaves counted independently, with sgfmill's node objects."""
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    stack, leaves = [game.get_root()], 0
    while stack:
        node = stack.pop()
        children = list(node)
        leaves += not children
        stack.extend(children)
    return leaves


@pytest.mark.parametrize(("path", "paths", "nodes"), COLLECTIONS, ids=lambda v: getattr(v, "name", v))
def test_real_collections_flatten_completely(path: Path, paths: int, nodes: int | None) -> None:
    forest = flatten_file(need(path))
    assert len(forest.variations) + forest.skipped + forest.refused == paths == sgfmill_leaves(path)
    if nodes is not None:
        assert forest.nodes == nodes
    for v in forest.variations:
        split_steps(v.steps)
        assert is_canonical(v.steps)


def test_gnugo_files_flatten() -> None:
    files = sorted(need(JOSEKI / "gnugo").glob("*.sgf"))
    assert sum(len(flatten_file(f).variations) for f in files) == GNUGO_LEAVES


def test_kogo_paths_keep_their_source_and_notes() -> None:
    forest = flatten_file(need(KOGO))
    deepest = max(forest.variations, key=lambda v: len(v.tree_path.split(".")))
    assert len(deepest.tree_path.split(".")) == 273
    joseki_notes = [n for v in forest.variations for n in v.notes if "* Joseki *" in n.comment]
    assert joseki_notes
    setup = [v for v in forest.variations if v.setup]
    assert setup and any(k in ("AB", "AW") for v in setup for n in v.notes for k, _ in n.properties)
    tenuki = [v for v in forest.variations if "XX" in v.steps]
    assert len(tenuki) > 100


def test_chinese_comments_are_decoded() -> None:
    forest = flatten_file(need(KOGO_ZH))
    assert not [w for w in forest.warnings if not w.endswith("refused")]  # only its two illegal moves
    assert any("定式" in n.comment for v in forest.variations for n in v.notes)


def test_path_is_found_again_by_its_child_indices() -> None:
    game = sgf.Sgf_game.from_bytes(need(OGS).read_bytes())
    forest = flatten_file(OGS)
    v = forest.variations[1234]
    node = game.get_root()
    for index in v.tree_path.split("."):
        node = node[int(index)]
    assert len(node) == 0


def mini(body: str, header: str = "FF[4]SZ[19]") -> bytes:
    return f"(;{header}{body})".encode()


def test_tenuki_pass_and_the_trailing_tenuki() -> None:
    forest = flatten_bytes(mini("(;B[pd];W[qf];B[];W[qh])(;B[pd];W[qf];B[]C[tenuki is fine])"))
    assert [v.steps for v in forest.variations] == ["DDCFXXCH", "DDCFXX"]
    assert forest.variations[1].notes[-1].step == 3


def test_a_joseki_in_the_lower_left_reflected() -> None:
    forest = flatten_bytes(mini(";W[dp];B[fq];W[]"))
    (v,) = forest.variations
    assert (v.steps, v.first_colour, v.corner.value, v.swap) == ("DDCFXX", "w", "bottom-left", True)


def test_moves_outside_the_zone_are_elsewhere() -> None:
    forest = flatten_bytes(mini(";B[pd];W[dd];B[nc]"))
    assert forest.variations[0].steps == "DDXXFC" or forest.variations[0].steps == "DDXXCF"


def walk(data: bytes) -> Iterator[str]:
    yield from (v.steps for v in flatten_bytes(data).variations)


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"hello", "no SGF"), (b"(;FF[4]SZ[19];B[pd]", "not valid SGF"), (b"(;FF[4]SZ[9];B[cc])", "9x9"),
     (b"(;FF[4]SZ[19];B[zz])", "off the 19x19 board"), (b"(;SZ[x];B[pd])", "bad board size")],
)
def test_bad_input_raises_a_clear_value_error(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        list(walk(data))


def test_a_wrong_charset_is_read_as_detected_with_a_warning() -> None:
    forest = flatten_bytes(b"(;CA[UTF-8]SZ[19];B[pd]C[caf\xe9 cr\xe8me br\xfbl\xe9e])")
    assert forest.variations[0].notes[0].comment == "café crème brûlée"
    assert forest.warnings == ["CA[UTF-8] does not fit the file's bytes: read as cp1252"]


def test_gb2312_is_decoded() -> None:
    text = "定式"
    forest = flatten_bytes(b"(;CA[GB2312]SZ[19];B[pd]C[" + text.encode("gb2312") + b"])")
    assert forest.variations[0].notes[0].comment == text


@given(st.binary(max_size=40).map(lambda b: b.replace(b"]", b"")) | st.lists(
    st.sampled_from([b"a", b" ", b"\\", b"\r", b"\n", b"\t", b"\v", b"\f", b"\\\n", b"\xc3\xa9", b"\xff"]),
    max_size=12).map(b"".join))
def test_comment_text_is_read_as_sgfmill_reads_it(raw: bytes) -> None:
    assert SgfText("utf-8", "declared").text(raw) == sgf_grammar.text_value(raw).decode("utf-8", errors="replace")
