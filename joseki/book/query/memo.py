"""A memory of the book's pure reads of one store (a node's children, a line's main line and verdict, a context's
games), held while the store's version stays.

A long-running reader (the explorer's server) asks the same nodes again and again: most
positions share their first moves and their main lines. A store opened with a :class:`Memo`
(:class:`joseki.book.store.database.Store`'s ``memo``) lets the reads built on
:class:`joseki.book.query.lookup.Lookup` remember their answers there, keyed by what they read (the
collections included). Every lookup first tells the memo the store's version
(:meth:`Memo.begin`), which forgets everything when the version moved, whoever wrote; an answer
computed under a version forgotten since is not remembered (the epoch it began under is gone).
Bounded: when full, all go. The answers are shared by every caller: they are read, never
changed.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any

MISSING = object()
"""What :meth:`Memo.get` returns for a key it does not hold."""


class Memo:
    """Answers of pure book reads by key, for one version of the store (module docstring); at most ``max_entries``
    of them (0: none)."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self.epoch = 0
        self.version: Hashable | None = None
        self._answers: dict[Hashable, Any] = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._answers)

    def begin(self, version: Hashable | None) -> int:
        """The epoch to remember answers under for a read of the store at ``version``: everything is forgotten
        first if the version moved (None, a version that cannot be told: nothing is remembered)."""
        with self._lock:
            if version is None or version != self.version:
                self._answers.clear()
                self.version = version
                self.epoch += 1
            return self.epoch if version is not None else -1

    def get(self, key: Hashable) -> Any:
        """The answer remembered under ``key``, else :data:`MISSING`."""
        found = self._answers.get(key, MISSING)
        if found is MISSING:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: Hashable, value: Any, epoch: int) -> None:
        """Remember ``value`` under ``key`` if nothing was forgotten since ``epoch``, when its read began."""
        with self._lock:
            if epoch != self.epoch or self.max_entries <= 0:
                return
            if len(self._answers) >= self.max_entries:
                self._answers.clear()
            self._answers[key] = value

    def stats(self) -> dict[str, int]:
        """Entries and their bound, hits and misses."""
        return {"entries": len(self._answers), "max_entries": self.max_entries, "hits": self.hits,
                "misses": self.misses}
