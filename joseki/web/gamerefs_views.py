"""The games behind a position: the routes over :mod:`joseki.book.gamerefs` (the store's references to games).

``/api/games`` lists the games that reached a corner's position (``joseki games --json``);
``/api/game/{key}`` opens one of them by its key, the only way a request reaches a game file.
"""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from typing import Annotated, Any

from fastapi import FastAPI, Query

from joseki.book.query import next_moves, parse_moves
from joseki.book.store import Store
from joseki.core.geometry import Corner
from joseki.web import views


def available() -> bool:
    """Whether the store's library keeps references to games (:mod:`joseki.book.gamerefs`)."""
    import importlib.util

    return importlib.util.find_spec("joseki.book.gamerefs") is not None


def add_routes(app: FastAPI, store: Store) -> None:
    """Add the games routes to ``app``."""

    @app.get("/api/games")
    def games(moves: Annotated[str, Query(description="Moves of one corner, as for /api/explore.")] = "",
              first: str = "black", corner: str = "top-right",
              profile: Annotated[str | None, Query(description="Games learnt into this profile.")] = None,
              order: Annotated[str, Query(description="newest or strongest first.")] = "newest",
              limit: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
        """The games that reached the focus corner's position after MOVES, newest or strongest first."""
        from joseki.book.gamerefs import games_at

        tokens = views.split_moves(moves)
        answers = next_moves(store, tokens, None, views.colour(first), Corner.parse(corner))
        played, _ = parse_moves(tokens, views.colour(first))
        answer = views.focus_answer(played, answers)
        found = games_at(store, answer.steps, first=views.corner_first(answer).upper(), profile=profile or None,
                         order=order, limit=limit)
        return {"corner": answer.corner.value, "steps": answer.steps, "count": found.count,
                "games": [_plain(g) for g in found.games]}

    @app.get("/api/game/{key}")
    def game(key: str) -> dict[str, Any]:
        """A game of the store by its key (from /api/games): its players, result and moves."""
        from joseki.book.gamerefs import load_game

        loaded = load_game(store, key)
        return {"game": {**views.game_json(loaded, loaded.source), "key": key}}


def _plain(ref: Any) -> dict[str, Any]:
    data = asdict(ref) if is_dataclass(ref) and not isinstance(ref, type) else dict(ref.as_json())
    return {k: (v.value if isinstance(v, Corner) else v) for k, v in data.items()}
