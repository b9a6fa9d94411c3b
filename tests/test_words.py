"""The collections' words as a player reads them: each dialect's conventions read, never shown; safe HTML; points
in the frame asked.

On hand-made comments of each dialect, on random Markdown (hypothesis: only the safe subset of HTML comes
out), and on the real collections through ``show``: no class code, tag, key, count or raw HTML reaches the
reader, and every OGS point reference is a board point of the corner asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from joseki.book.importer import import_file
from joseki.book.query.show import show
from joseki.book.store.database import Store
from joseki.core.geometry import ALL_TRANSFORMS, Corner, Transform
from joseki.core.notation import format_gtp_vertex
from joseki.core.wording import SourceFrame
from joseki.sgf.dialects.gnugo import GnuGo
from joseki.sgf.dialects.katago import KataGo
from joseki.sgf.dialects.kogo import Kogo
from joseki.sgf.dialects.markdown import markdown_html
from joseki.sgf.dialects.ogs import Ogs
from joseki.sgf.dialects.pachi import Pachi
from joseki.sgf.dialects.words import FOLD, Asked, Words, fold

from .conftest import JOSEKI, KOGO, OGS, Databases, need

TOP_RIGHT = Transform(Corner.TOP_RIGHT)
SOURCE = SourceFrame(TOP_RIGHT, "b", {}, {})
ALLOWED_TAGS = {"p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "ul", "ol", "li", "a", "code", "pre",
                "blockquote", "hr"}
TAG = re.compile(r"<(/?)([a-zA-Z0-9]+)([^>]*?)\s*/?>")


ATTRIBUTES = {"a": re.compile(r' href="https?://[^"<>]*" rel="noopener noreferrer"'), "ol": re.compile(r' start="\d+"')}
"""The only attributes the safe subset writes: a link's http(s) address and rel, an ordered list's start."""


def safe_html(html: str) -> bool:
    """Only the safe subset's tags, and no attributes but :data:`ATTRIBUTES`."""
    for closing, name, attributes in TAG.findall(html):
        allowed = ATTRIBUTES.get(name)
        if name not in ALLOWED_TAGS:
            return False
        if attributes and (closing or allowed is None or not allowed.fullmatch(attributes)):
            return False
    return True


def words(dialect: object, comment: str, source: SourceFrame = SOURCE,
          asked: Asked = Asked(TOP_RIGHT, "b")) -> Words | None:
    return dialect.words(comment, source, asked)  # type: ignore[attr-defined,no-any-return]


def test_ogs_markdown_is_rendered_to_the_safe_subset() -> None:
    found = words(Ogs(), "##Joseki\n\n**Good** for <script>alert(1)</script> [games](https://ps.waltheri.net/x) "
                         "and [not this](javascript:alert(1)) ![pic](https://x/y.png)\n\n- one\n- two")
    assert found is not None
    assert found.html.startswith("<h2>Joseki</h2>") and "<strong>Good</strong>" in found.html
    assert '<a href="https://ps.waltheri.net/x" rel="noopener noreferrer">games</a>' in found.html
    assert "<script>" not in found.html and "&lt;script&gt;" in found.html
    assert 'href="javascript' not in found.html and "<img" not in found.html and safe_html(found.html)
    assert found.text.startswith("Joseki\n\nGood for") and "games (https://ps.waltheri.net/x)" in found.text
    assert found.text.endswith("- one\n- two")
    video = words(Ogs(), "See (The Direct 3-3 Invasion)(https://www.youtube.com/watch?v=2khNnE5Q3GM&t=147)")
    assert video is not None and video.html == (
        '<p>See <a href="https://www.youtube.com/watch?v=2khNnE5Q3GM&amp;t=147" rel="noopener noreferrer">'
        "The Direct 3-3 Invasion</a></p>\n")


@pytest.mark.parametrize("asked", ALL_TRANSFORMS, ids=lambda t: f"{t.corner.value}{'-swap' if t.swap else ''}")
def test_ogs_point_references_are_points_of_the_corner_asked(asked: Transform) -> None:
    found = words(Ogs(), "See <position: 25737>\n\nLike <position: 26982> except that <A:M16> is too close.",
                  asked=Asked(asked, "b"))
    assert found is not None
    m16 = asked.to_board(TOP_RIGHT.to_zone((11, 3), 19), 19)
    assert found.points == (m16,)
    assert found.text == f"Like another position except that {format_gtp_vertex(m16)} is too close."
    assert "position" not in found.html.split("another position")[0] and "<" not in found.text


PIECES = st.sampled_from([*"ab #*_-[]()<>!`\n:/.=\"'&1", "https://", "http://x", "javascript:", "<script>",
                          "<a href=", "](", "<h1>", "onclick=", "data:", "mailto:", "    ", "```"])


@given(st.lists(PIECES, max_size=40).map("".join))
@example("[]()")  # an empty address: no link, its text kept
@example("[x]() and [y](https://x.org)")
def test_any_markdown_comes_out_as_the_safe_subset(text: str) -> None:
    assert safe_html(markdown_html(text))


def test_kogo_tenuki_labels_and_coordinate_lists_are_not_marks() -> None:
    # on the diagram after Q16 R14, 'g' sits on D4, in the lower left: Kogo's way of saying "elsewhere"
    source = SourceFrame(TOP_RIGHT, "b", {"a": (13, 3), "g": (3, 15)}, {})
    found = words(Kogo(), "Black continues with 'a'.\n\nBlack 'g' shows Black playing elsewhere.\n\n"
                          "g7, f6, e5, d4, c3, b2, a1", source)
    assert found is not None
    assert found.text == "Black continues with O16.\n\nBlack tenuki shows Black playing elsewhere."
    assert found.points == ((13, 3),)


def test_gnugo_class_codes_and_constraints_are_read_not_shown() -> None:
    assert words(GnuGo(), "S") is None and words(GnuGo(), "0") is None
    assert words(GnuGo(), "S;D\n;oplay_attack(a,b)") is None
    found = words(GnuGo(), "U\n#tsuke nobi 6-9 stone games")
    assert found is not None and found.text == "tsuke nobi 6-9 stone games"


def test_pachi_tags_and_keys_are_read_not_shown() -> None:
    assert words(Pachi(), "<don't>") is None and words(Pachi(), "<3x3>") is None
    found = words(Pachi(), "<bad>\nmistake")
    assert found is not None and found.text == "mistake"
    found = words(Pachi(), "<avoid> for now ...")
    assert found is not None and found.text == "for now ..."
    found = words(Pachi(), '[override]\nname = "3-3 blunder fix"\naround = D4\nladder_own = F4\n\nB should block')
    assert found is not None and found.text == "3-3 blunder fix\nB should block"


def test_katago_counts_are_statistics_not_words() -> None:
    assert words(KataGo(), '{"count": 12, "b_win": 7, "w_win": 5}') is None


def test_long_words_are_folded() -> None:
    text = ("word " * 100).strip()
    assert len(fold(text)) <= FOLD + 4 and fold(text).endswith(" ...") and fold("short") == "short"


@pytest.fixture(scope="module")
def collections(databases: Databases) -> Iterator[Store]:
    """Kogo's 2014 dictionary, OGS's export, GNU Go's 4-4 knight's approach, Pachi's 4-4 and josekifix, a KataGo
    tree."""
    url = databases.new("words")
    store = Store(url)
    for path in (KOGO, OGS, JOSEKI / "gnugo" / "hoshi_keima.sgf", JOSEKI / "pachi" / "joseki_44.sgf",
                 JOSEKI / "pachi" / "josekifix.sgf", JOSEKI / "katago-joseki-extraction" / "katago_rating_joseki.sgf"):
        assert import_file(store, need(path)).error is None
    yield store
    store.close()
    databases.drop(url)


LINES = [["Q16", "R14"], ["Q16", "R14", "O16"], ["Q16", "R14", "R12"], ["Q16", "R16", "R17"], ["R16", "Q17"],
         ["Q16", "R17", "R16", "Q17"], ["D4", "C6"], ["C16", "D17"], ["Q4", "R6", "O3"]]
LEAKS = re.compile(r"<(?:don't|bad|avoid|tenuki|later|3x3)>|\[override\]|\{\s*\"count\"|<[A-Z]:[A-T]\d+>|"
                   r"<position:|^[UuJjSsTt0aA](?:;|$)|\{[pmcsk]:")


def test_the_real_collections_read_for_a_player(collections: Store) -> None:
    seen = set()
    for line in LINES:
        for move in show(collections, moves=line).moves:
            for name, found in move.words:
                seen.add(name)
                assert not LEAKS.search(found.text), (name, found.text)
                assert safe_html(found.html), (name, found.html)
                assert found.text.strip() and found.summary
    assert {"Kogo's Joseki Dictionary 2014", "OGS Joseki Explorer", "GNU Go 4-4 knight's approach"} <= seen
    data = show(collections, moves=["Q16", "R14"]).as_json()
    comment = data["moves"][1]["comments"][0]  # type: ignore[index]
    assert set(comment) == {"collection", "text", "html", "summary"}
