"""The game sets of ../shared/data/games, with the Tygem archive unpacked into benchmarks/.cache."""

from __future__ import annotations

import subprocess

from common import CACHE, SHARED, need

from joseki.book.importer import expand_paths

GAMES = SHARED / "games"
TYGEM_ARCHIVE = GAMES / "tygem-9d-2011" / "tygem-9d-2011-dev.tar.xz"
SETS = ("fox-pro", "computer-go-dataset-ai", "kgs-highdan-2019-04")


def tygem_files() -> list[str]:
    """The Tygem games' paths, unpacking the archive on first use."""
    folder = CACHE / "tygem"
    if not folder.exists():
        folder.mkdir(parents=True)
        subprocess.run(["tar", "xJf", str(need(TYGEM_ARCHIVE)), "-C", str(folder)], check=True)
    return [str(p) for p in expand_paths([folder])]


def set_files(name: str) -> list[str]:
    """The games of one set: a folder of ../shared/data/games, or ``tygem``."""
    if name == "tygem":
        return tygem_files()
    return [str(p) for p in expand_paths([need(GAMES / name)])]


def split(files: list[str]) -> tuple[list[str], list[str]]:
    """The development split of one set: every fifth game (in file order) is a test game."""
    train = [f for i, f in enumerate(files) if i % 5 != 4]
    test = [f for i, f in enumerate(files) if i % 5 == 4]
    return train, test


def development_split(tygem_train: int | None, tygem_test: int | None) -> tuple[list[str], list[str]]:
    """Training and test games of every set, Tygem's cut to its first ``tygem_train`` / ``tygem_test``."""
    train: list[str] = []
    test: list[str] = []
    for name in (*SETS, "tygem"):
        tr, te = split(sorted(set_files(name)))
        if name == "tygem":
            tr, te = tr[:tygem_train], te[:tygem_test]
        train += tr
        test += te
    return train, test
