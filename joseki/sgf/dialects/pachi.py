"""Pachi's joseki files: tags on a comment's first line, josekifix's ``[override]`` keys, remarks in free text.

Tags: ``<don't>``, ``<bad>``, ``<avoid>`` -> mistake; ``<tenuki>``, ``<later>`` -> tenuki-ok; ``<3x3>``
only narrows Pachi's pattern match and says nothing. The rest of a comment is a remark in Kogo's
style, read as Kogo's text is (board points in it are GTP vertices, carried into the book's frame).
josekifix's ``[override]`` sections name ladders exactly: ``[no]ladder_{own,other}[2] = P`` with
``..._setup_{own,other} = P Q``: "own" is the side to play the move, the setup stones are put down
first, then the side the key names ataris at ``P``; ``no``: the line needs the ladder to fail. ``lint``
flags a pass without its ``<tenuki>`` or ``<later>`` tag, and a label a remark names that the node
does not show. Its joseki files are named by the point they start from (``joseki_44.sgf``): a
collection of one is "Pachi 4-4". For a reader, its tags and its sections' keys are read, never shown:
what is left is the remark, and a section's ``name``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING

from joseki.core.conditions import Condition, in_frame
from joseki.core.geometry import Point
from joseki.core.ladder import FAILS, WORKS
from joseki.core.ladder_check import LadderQuestion, NamedLadder
from joseki.core.regex import LazyPattern
from joseki.core.wording import SourceFrame, vertices_to_canonical
from joseki.sgf.dialects.dialect import Dialect, Finding, sgf_marks
from joseki.sgf.dialects.kogo import missing_labels, read_conditions, read_verdicts
from joseki.sgf.dialects.words import Asked, Words, plain_words

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

TAGS = {"<don't>": "mistake", "<bad>": "mistake", "<avoid>": "mistake",
        "<tenuki>": "tenuki-ok", "<later>": "tenuki-ok", "<3x3>": None}
"""Pachi's first-line tags and their categories (None: the tag says nothing of the move's worth)."""
TENUKI_TAGS = frozenset({"<tenuki>", "<later>"})
SECTIONS = ("[override]", "[log]")
"""How josekifix's comments open."""

_TAG = LazyPattern(r"<[a-z0-9']+>")
_LADDER_LINE = LazyPattern(r"^\s*((?:no)?ladder_\w+)\s*=\s*(.+?)\s*$", re.M)
_KEY = LazyPattern(r"^(no)?ladder_(own|other)(2?)(?:_setup_(own|other))?\s*=\s*(.*)$")
_ZONE = LazyPattern(r"\{p:([A-S]{2})\}")
_POINT_FILE = LazyPattern(r"joseki_(\d)(\d)")
_NAME = LazyPattern(r'^\s*name\s*=\s*"?(.*?)"?\s*$')


def tags(comment: str) -> list[str]:
    """The Pachi tags on the comment's first line, in order."""
    first = comment.split("\n", 1)[0]
    return [tag for tag in _TAG.findall(first) if tag in TAGS] if "<" in first else []


def ladder_keys(comment: str) -> list[Condition]:
    """The ladder keys of a josekifix ``[override]`` section, as written (GTP vertices)."""
    if not comment.startswith("[override]"):
        return []
    return [Condition("ladder", f"{key} = {value}") for key, value in _LADDER_LINE.findall(comment)]


def remark(comment: str) -> str:
    """What a Pachi comment says to people: its first line without its tags, and a section's name but not its
    keys (a section ends at its first blank line)."""
    first, _, rest = comment.partition("\n")
    if first.strip() in SECTIONS:
        keys, _, rest = rest.partition("\n\n")
        names = [m.group(1) for line in keys.splitlines() if (m := _NAME.match(line)) is not None]
        return "\n".join([*names, rest.strip()]).strip()
    if "<" in first:
        first = " ".join(word for word in _TAG.sub(lambda m: " " if m.group(0) in TAGS else m.group(0),
                                                   first).split())
    return "\n".join([first, rest]).strip()


def framed(condition: Condition, frame: SourceFrame) -> Condition:
    """A condition of Pachi's in the canonical frame: a key's vertices as placeholders, a remark's words too."""
    if condition.kind not in ("ladder", "nearby"):
        return condition
    if _LADDER_LINE.fullmatch(condition.text) is None:
        return in_frame(condition, frame, vertices=True)
    text = condition.text.replace("{", "(").replace("}", ")")
    return Condition(condition.kind, vertices_to_canonical(text, frame))


def _zone_points(text: str) -> tuple[Point, ...]:
    return tuple((ord(z[0]) - 65, ord(z[1]) - 65) for z in _ZONE.findall(text))


class Pachi(Dialect):
    """Pachi's joseki and josekifix files."""

    name = "pachi"
    pass_kinds = ("untagged-pass",)
    comment_kinds = ("missing-label",)

    def by_comment(self, comment: str) -> bool:
        return bool(tags(comment)) or comment.startswith(SECTIONS)

    def own_verdicts(self, node: Node) -> list[str | None]:
        return sgf_marks(node.properties) + [TAGS[tag] for tag in tags(node.comment)]

    def words(self, comment: str, source: SourceFrame, asked: Asked) -> Words | None:
        return plain_words(remark(comment), source, asked)

    def title(self, info: Mapping[str, str], stem: str) -> str | None:
        point = _POINT_FILE.fullmatch(stem)
        return f"Pachi {point.group(1)}-{point.group(2)}" if point else f"Pachi {stem}"

    def read(self, node: Node) -> None:
        if node.comment:
            read_verdicts(node)
            read_conditions(node, framed)
        for condition in ladder_keys(node.comment):
            node.condition(node.prefix, framed(condition, node.frame))

    def pass_findings(self, comment: str, who: str) -> list[Finding]:
        if TENUKI_TAGS & set(tags(comment)):
            return []
        return [("untagged-pass", f"{who}'s pass has no <tenuki> or <later> tag")]

    def comment_findings(self, comment: str, labels: Set[str]) -> list[Finding]:
        return missing_labels(comment, labels)

    def ladders(self, condition: Condition, conditions: Sequence[Condition]) -> tuple[LadderQuestion, ...] | None:
        m = _KEY.match(condition.text)
        if m is None:
            return None
        if m.group(4):
            return ()
        setups: dict[str, list[Point]] = {"own": [], "other": []}
        for c in conditions:
            s = _KEY.match(c.text) if c.kind == "ladder" else None
            if s is not None and s.group(4) and (s.group(2), s.group(3)) == (m.group(2), m.group(3)):
                setups[s.group(4)].extend(_zone_points(c.text))
        return (NamedLadder(FAILS if m.group(1) else WORKS, m.group(2), _zone_points(m.group(5)),
                            tuple(setups["own"]), tuple(setups["other"])),)
