"""Priority maths: how well a book move works for the player who chooses it (pure, no I/O).

The priority is the mean of a Beta posterior over the chooser's chance to win:

    priority = (m * p0 + wins + draws / 2) / (m + wins + losses + draws)

with a prior of strength ``m`` pseudo-games centred on ``p0``. Without source statistics,
``p0`` comes from the move's category (:data:`CATEGORY_MEAN`) and ``m`` is
:data:`PRIOR_GAMES`; where a source gives counts for the move (the KataGo trees), ``p0`` is
the source's win rate and ``m`` the source's game count capped at :data:`SOURCE_CAP`, so a
source can speak louder than a category but never drown the user's own games. Few games
move the priority little, many games move it a lot; sums of counts do not depend on the
order in which games are learnt. Wins, losses and draws count corners, not games (a game that
played the move in two corners counts twice; :class:`Record`).

Local outcomes (a corner judged by an engine where its joseki ended, :mod:`joseki.engine.judge`)
enter the same posterior as further results: each judged corner the chooser came out ahead in
counts :data:`JUDGED_WEIGHT` of a win, behind a loss, even a draw,

    priority = (m * p0 + wins + draws / 2 + k * (lwins + ldraws / 2)) / (m + wins + losses + draws + k * lcorners)

so a profile that learnt only game results, only local outcomes, or both uses one formula.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

NEUTRAL = 0.5
"""The priority of a move with no game results and no category: an even chance."""

PRIOR_GAMES = 10.0
SOURCE_CAP = 50.0
CATEGORY_MEAN = {"ideal": 0.55, "good": 0.52, "tenuki-ok": 0.5, "question": 0.46, "trick": 0.42, "mistake": 0.35}

JUDGED_WEIGHT = 1.0
"""How many game results one judged corner counts for (the judge speaks about the corner only, but at once)."""

RANKS = ("popularity", "priority", "winrate", "games", "context")
"""Orders for candidates: book paths plus games played; posterior mean; raw win rate; games; the games played in
the corner's whole-board context (when the board is known and the context has games; else popularity)."""


@dataclass(frozen=True, slots=True)
class Record:
    """Results of a move for the player who chose it.

    ``games`` counts games; wins, losses and draws count corners (a game that played the
    move in two corners gives two results, one per corner's mover), so :attr:`corners` is
    their sum and the win rate is per corner.
    """

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def __reduce__(self) -> tuple[type[Record], tuple[int, int, int, int]]:
        # pickled as its four counts: a frozen dataclass's own state restores each field through
        # object.__setattr__, and learn's workers hand back tens of these a game
        return Record, (self.games, self.wins, self.losses, self.draws)

    def __add__(self, other: Record) -> Record:
        return Record(self.games + other.games, self.wins + other.wins, self.losses + other.losses,
                      self.draws + other.draws)

    @property
    def corners(self) -> int:
        """The corners that played the move (with a known result)."""
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> float | None:
        """Wins (draws count half) per corner; None without results."""
        corners = self.corners
        return (self.wins + self.draws / 2) / corners if corners else None


K = TypeVar("K", bound=Hashable)


def summed(records: Iterable[dict[K, Record]]) -> dict[K, Record]:
    """The per-key sums of several games' records (by node, or by node, context and move)."""
    total: dict[K, Record] = {}
    for one in records:
        for key, r in one.items():
            total[key] = total[key] + r if key in total else r
    return total


def prior(category: str | None, source_games: int | None = None, source_wins: int | None = None) -> tuple[float, float]:
    """The prior's (mean, strength) for a move of ``category`` with optional source counts."""
    if source_games:
        return (source_wins or 0) / source_games, min(float(source_games), SOURCE_CAP)
    return CATEGORY_MEAN.get(category or "", NEUTRAL), PRIOR_GAMES


def beta_parameters(record: Record, category: str | None = None, source_games: int | None = None,
                    source_wins: int | None = None, judged: Record | None = None) -> tuple[float, float]:
    """The posterior Beta(alpha, beta) of the chooser's chance to win; ``judged`` counts judged corners."""
    mean, strength = prior(category, source_games, source_wins)
    alpha = strength * mean + record.wins + record.draws / 2
    beta = strength * (1 - mean) + record.losses + record.draws / 2
    if judged is not None:
        alpha += JUDGED_WEIGHT * (judged.wins + judged.draws / 2)
        beta += JUDGED_WEIGHT * (judged.losses + judged.draws / 2)
    return alpha, beta


def priority(record: Record, category: str | None = None, source_games: int | None = None,
             source_wins: int | None = None, judged: Record | None = None) -> float:
    """The posterior mean: the move's priority."""
    alpha, beta = beta_parameters(record, category, source_games, source_wins, judged)
    return alpha / (alpha + beta)


def thompson(record: Record, category: str | None, rng: random.Random, source_games: int | None = None,
             source_wins: int | None = None, judged: Record | None = None) -> float:
    """A draw from the posterior, for choosing among candidates by Thompson sampling."""
    alpha, beta = beta_parameters(record, category, source_games, source_wins, judged)
    return rng.betavariate(max(alpha, 1e-6), max(beta, 1e-6))


def log_loss(p: float, won: bool) -> float:
    """The log-loss of predicting ``p`` for an outcome (clipped away from 0 and 1)."""
    q = min(max(p, 1e-6), 1 - 1e-6)
    return -math.log(q if won else 1 - q)


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
