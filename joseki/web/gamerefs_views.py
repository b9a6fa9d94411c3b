"""The games behind a position: the routes over :mod:`joseki.book.gamerefs.read` (the store's references to games).

``/api/games`` lists the games that reached a corner's position (``joseki games --json``);
``/api/game/{key}`` opens one of them by its key, the only way a request reaches a game file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query
from starlette.responses import Response

from joseki.book.query.next import check_legal, parse_moves
from joseki.book.store.database import Store
from joseki.core.corners import corner_tables
from joseki.core.steps import Colour
from joseki.web import views

if TYPE_CHECKING:
    from joseki.web.answers import Answers


def add_routes(app: FastAPI, store: Store, answered: Answers) -> None:
    """Add the games routes to ``app``, the list of games answered through ``answered`` (kept while the store is
    unchanged)."""

    @app.get("/api/games", response_model=dict[str, Any], responses={200: {"content": {"application/json": {}}}})
    async def games(moves: Annotated[str, Query(description="Moves, as for /api/explore: the corner of the last "
                                                            "local move is asked about.")] = "",
                    first: str = "black",
                    profile: Annotated[str | None, Query(description="Games learnt into this profile.")] = None,
                    order: Annotated[str, Query(description="newest or strongest first.")] = "newest",
                    limit: Annotated[int, Query(ge=1, le=100)] = 20) -> Response:
        """The learnt or mined games that reached the position of the focus corner after MOVES (``joseki games
        --json``), newest or strongest first."""
        tokens, colour = views.split_moves(moves), views.colour(first)
        key = ("games", tuple(tokens), colour, profile or None, order, limit)
        return await answered(key, ("games", (tokens, colour, profile, order, limit)))

    @app.get("/api/game/{key}")
    def game(key: str) -> dict[str, Any]:
        """A game of the store by its key (from /api/games): its players, result and moves."""
        from joseki.book.gamerefs.read import load_game

        loaded = load_game(store, key)
        return {"game": {**views.game_json(loaded, loaded.source), "key": key}}


def games_behind(store: Store, tokens: list[str], first: Colour, profile: str | None, order: str,
                 limit: int) -> dict[str, Any]:
    """``joseki games --json`` for the focus corner after ``tokens`` (the moves as typed)."""
    from joseki.book.gamerefs.read import games_at

    played, _ = parse_moves(tokens, first)
    check_legal(played, tokens)
    where = views.focus_corner(played)
    data: dict[str, Any] = {"moves": tokens, "profile": profile or "global", "order": order,
                            "corner": None if where is None else where.value}
    builder = corner_tables(played)[where].builder if where is not None else None
    if builder is None or builder.first_colour is None:
        return {**data, "count": 0, "book_steps": None, "games": []}
    found = games_at(store, builder.steps, first=builder.first_colour.upper(), profile=profile or None,
                     order=order, limit=limit)
    return {**data, **found.as_json()}
