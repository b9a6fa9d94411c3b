"""A game record's event (``EV``), which :class:`joseki.sgf.game.Game` does not keep, read from the root's bytes."""

from __future__ import annotations

import re
from pathlib import Path

from sgfmill import sgf_grammar

from joseki.sgf.archive import Source, source_bytes, source_name
from joseki.sgf.game import Game, game_from_bytes

_EVENT = re.compile(rb"(?<![A-Za-z])EV\s*\[((?:[^\\\]]|\\.)*)\]", re.DOTALL)
_FIRST_MOVE = re.compile(rb";\s*[BW]\s*\[")


def event_of(data: bytes) -> str:
    """The ``EV`` value of the first node of SGF ``data`` ('' when there is none before the first move)."""
    first = _FIRST_MOVE.search(data)
    head = data if first is None else data[: first.start()]
    match = _EVENT.search(head)
    if match is None:
        return ""
    return str(sgf_grammar.text_value(match.group(1)).decode("utf-8", errors="replace").strip())


def read_with_event(source: Source | Path) -> tuple[Game, str]:
    """The main line of the game at ``source`` (:func:`joseki.sgf.game.read_game`) and its event.

    Raises ValueError as :func:`~joseki.sgf.game.game_from_bytes` does.
    """
    data = source_bytes(source)
    name = source_name(source) if not isinstance(source, Path) else str(source)
    return game_from_bytes(data, name), event_of(data)
