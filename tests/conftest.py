"""Shared fixtures: where the real data lives, and skips when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
JOSEKI = SHARED / "joseki"
GAMES = SHARED / "games"
KOGO = JOSEKI / "kogo-kjd-2014" / "Kogo_s_Joseki_Dictionary.sgf"
KOGO_ZH = JOSEKI / "kogo-kjd-2007-zh" / "Kogo's Joseki Dictionary.sgf"
OGS = JOSEKI / "ogs-joseki-export" / "OGS_export.sgf"


def need(path: Path) -> Path:
    """Skip the test with a clear reason when the shared data is not beside the repo."""
    if not path.exists():
        pytest.skip(f"real data not found at {path} (../shared is absent)")
    return path
