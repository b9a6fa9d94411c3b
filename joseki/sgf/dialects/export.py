"""This project's own exports (``joseki export``): everything the book knows, in ``J*`` properties, read back exactly.

An export says so in its root comment (``joseki export of collection ...``) and carries ``JC[category]``
(the move's category; its SGF annotation only repeats it), ``JK[kind: text]`` (conditions, setup stones
among them, so its setup stones are not read again as conditions), ``JS[games,wins,losses,draws]`` (global
statistics) and ``JP[games,wins]`` (a source's prior statistics). Malformed values raise BadInput.
"""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING

from joseki.core.category import check_category
from joseki.core.conditions import parse_condition
from joseki.core.errors import BadInput
from joseki.core.priority import Record
from joseki.sgf.dialects.dialect import Dialect

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

PROPERTIES = frozenset({"JC", "JK", "JS", "JP"})
MARK = "joseki export"
"""How an export's root comment opens."""


class Export(Dialect):
    """Files written by ``joseki export``."""

    name = "export"
    keeps_setup = False

    def by_file(self, preamble: str, properties: Set[str]) -> bool:
        return not PROPERTIES.isdisjoint(properties)

    def by_comment(self, comment: str) -> bool:
        return comment.startswith(MARK)

    def own_verdicts(self, node: Node) -> list[str | None]:
        """The ``JC`` category alone; BadInput for a name outside the vocabulary."""
        return [check_category(node.properties["JC"][0])] if "JC" in node.properties else []

    def read(self, node: Node) -> None:
        """JK conditions, JS statistics, JP prior statistics; BadInput for malformed values."""
        prefix, props = node.prefix, node.properties
        if not prefix:
            return
        for text in props.get("JK", ()):
            node.condition(prefix, parse_condition(text))
        entry = node.entry(prefix)
        if "JS" in props:
            games, wins, losses, draws = _numbers(props["JS"][0], 4, "JS")
            entry.record = Record(games, wins, losses, draws)
        if "JP" in props:
            entry.prior_games, entry.prior_wins = _numbers(props["JP"][0], 2, "JP")
        if "JC" in props:
            check_category(props["JC"][0])


def _numbers(text: str, count: int, key: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != count or not all(p.strip().isdigit() for p in parts):
        raise BadInput(f"bad {key}[{text}] (expected {count} whole numbers separated by commas)")
    return [int(p) for p in parts]
