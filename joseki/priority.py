"""Priority maths: how well a book move works for the player who chooses it (pure, no I/O)."""

from __future__ import annotations

NEUTRAL = 0.5
"""The priority of a move with no game results: an even chance."""
