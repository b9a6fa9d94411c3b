"""The KataGo-derived trees: each move's comment is JSON counts of the games that played it.

``{"count": ..., "b_win": ..., "w_win": ...}`` become the move's prior statistics from the view
of the player who made it: games with a result and that player's wins. A comment that is not
such JSON says nothing. The root comment says which of KataGo's games a tree comes from ("Based on
KataGo's rating data ..."): a collection of it is "KataGo rating games". Its counts are statistics,
never shown as words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from joseki.core.regex import LazyPattern
from joseki.core.steps import other
from joseki.core.wording import SourceFrame
from joseki.sgf.dialects.dialect import Dialect, game_name
from joseki.sgf.dialects.words import Asked, Words, plain_words

if TYPE_CHECKING:
    from joseki.sgf.dialects.node import Node

_COUNTS = LazyPattern(r'^\{\s*"count"\s*:')
_GAMES = LazyPattern(r"KataGo's (\w+) (?:data|games)")


class KataGo(Dialect):
    """Win counts of KataGo's games (yusaaki/JosekiExtraction)."""

    name = "katago"

    def by_comment(self, comment: str) -> bool:
        return _COUNTS.match(comment) is not None

    def words(self, comment: str, source: SourceFrame, asked: Asked) -> Words | None:
        return None if _COUNTS.match(comment) else plain_words(comment, source, asked)

    def title(self, info: Mapping[str, str], stem: str) -> str | None:
        games = _GAMES.search(info.get("C", ""))
        return f"KataGo {games.group(1)} games" if games else game_name(info)

    def read(self, node: Node) -> None:
        note, v = node.note, node.variation
        if not (note.own and note.step):
            return
        try:
            counts = json.loads(note.comment)
            black, white = int(counts["b_win"]), int(counts["w_win"])
        except (ValueError, KeyError, TypeError):
            return
        mover = v.first_colour if (note.step - 1) % 2 == 0 else other(v.first_colour)
        entry = node.entry(node.prefix)
        entry.prior_games += black + white
        entry.prior_wins += black if mover == "b" else white
