"""Regular expressions compiled when first used, not when their module is imported.

Reading collection notes takes a few dozen patterns, some large; compiling them all at import
cost every command about a tenth of its start-up, though most commands never read a note.
A :class:`LazyPattern` is written and used like the compiled pattern it stands for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cached_property
from typing import Any


class LazyPattern:
    """``re.compile(pattern, flags)``, done on the first match, search, split, findall or sub."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.source = pattern
        self.flags = flags

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.source, self.flags)

    @property
    def pattern(self) -> str:
        return self.source

    def match(self, text: str, *args: Any) -> re.Match[str] | None:
        return self.compiled.match(text, *args)

    def fullmatch(self, text: str, *args: Any) -> re.Match[str] | None:
        return self.compiled.fullmatch(text, *args)

    def search(self, text: str, *args: Any) -> re.Match[str] | None:
        return self.compiled.search(text, *args)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(text, maxsplit)

    def findall(self, text: str, *args: Any) -> list[Any]:
        return self.compiled.findall(text, *args)

    def finditer(self, text: str, *args: Any) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text, *args)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.compiled.sub(repl, text, count)

    def subn(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> tuple[str, int]:
        return self.compiled.subn(repl, text, count)
