"""A memory of a book's pure reads (a node's children, its main line's next move...), kept across transactions.

A long-running reader (the explorer's server) asks the same nodes again and again: most
positions share their first moves and their main lines. Whoever knows when the store changes
gives the book a :class:`Memo` (:attr:`joseki.book.store.bookfile.BookFile.memo`; the server's cache,
:mod:`joseki.web.cache`, clears it whenever the store's version moves) and the reads
(:class:`joseki.book.query.lookup.Lookup` and those built on it) keep their answers there, keyed by
what they read (the collections included). An answer computed under a memory cleared since
the transaction began is not kept (:meth:`Memo.put` with the epoch it began under), so a view
running while the store changed leaves nothing stale behind. Bounded: when full, all go.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
DEFAULT_ENTRIES = 200_000
"""Default bound of the answers kept (about 55 MB: some 270 bytes an answer at the server's mix, by tracemalloc)."""
_MISSING = object()


class Memo:
    """Answers of pure book reads by key, valid for one version of the store (module docstring)."""

    def __init__(self, max_entries: int = DEFAULT_ENTRIES) -> None:
        self.max_entries = max_entries
        self.epoch = 0
        self._kept: dict[Hashable, Any] = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        """Forget everything (the store changed): answers being computed now will not be kept either."""
        with self._lock:
            self._kept.clear()
            self.epoch += 1

    def get(self, key: Hashable) -> Any:
        """The answer kept for ``key``, else :data:`MISSING`."""
        found = self._kept.get(key, _MISSING)
        if found is _MISSING:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: Hashable, value: Any, epoch: int) -> None:
        """Keep ``value`` for ``key`` if nothing was cleared since ``epoch`` (when its read began)."""
        with self._lock:
            if epoch != self.epoch or self.max_entries <= 0:
                return
            if len(self._kept) >= self.max_entries:
                self._kept.clear()
            self._kept[key] = value


MISSING = _MISSING
"""What :meth:`Memo.get` returns for a key not kept."""


def kept(memo: Memo | None, epoch: int, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, remembered in ``memo`` under ``key`` (computed every time without a memo)."""
    if memo is None:
        return compute()
    found = memo.get(key)
    if found is _MISSING:
        found = compute()
        memo.put(key, found, epoch)
    return found  # type: ignore[no-any-return]
