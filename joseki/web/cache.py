"""The server's memory of its answers: encoded JSON responses and the focus lines, kept while the store is unchanged.

Every view is a pure function of the request and the store's contents, so an answer once encoded is
sent again as the same bytes for the same normalised request (:meth:`Cache.get`; also found under the
request exactly as it came, :meth:`Cache.get_raw`, before any routing); the focus corner's
line (``joseki show``, about a third of a position's work) is kept apart (:meth:`Cache.line`), since
many positions share it, and so is each corner's book answer (:meth:`Cache.corner`,
:func:`joseki.book.query.next.answer_table`: the same corner comes back in many whole boards), and so are
the book's own reads of nodes (:attr:`Cache.memo`, a :class:`joseki.book.query.memo.Memo`: children, main
lines, comments, for SQLite books read through sqlite3). All are bounded (the least recently used go
first; the reads: all at once when full) and all are dropped whenever the store changes, whoever
wrote it: before each request the store's version (:func:`store_version`: for SQLite the file's
change counter and the files' sizes and times; for PostgreSQL the server's current snapshot, which
changes whenever a transaction that wrote anything commits) is compared with the one the entries
were made under. A store whose version cannot be read is never cached. Each server process has its
own memory (several workers: several).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any

import orjson
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from joseki.book.query.answer import Candidate, CornerAnswer, Options
from joseki.book.query.lookup import Lookup
from joseki.book.query.memo import Memo
from joseki.book.query.next import answer_table, move_numbers
from joseki.book.store.bookfile import BookFile
from joseki.book.store.database import Store
from joseki.core.corners import CornerTable
from joseki.core.steps import Colour
from joseki.web.views import line_json, line_key

DEFAULT_MB = 64
"""Default bound of the encoded responses kept, in MiB."""
LINE_BYTES, CORNER_BYTES, MEMO_BYTES, ALIAS_BYTES = 32 << 10, 8 << 10, 1 << 10, 1 << 10
"""About the memory a kept focus line and a corner's kept answer take (about 14 KiB and 9 KiB on Kogo, measured with
tracemalloc): the focus lines and corner entries kept are bounded to ``max_bytes`` over these, so that the whole
memory is about twice ``max_bytes``; the book's reads (:attr:`Cache.memo`) to ``max_bytes`` over MEMO_BYTES (an
entry takes about a quarter of it at the server's mix, a node's children the most); the requests as they came
(:meth:`Cache.get_raw`, a few hundred bytes each) to ``max_bytes`` over ALIAS_BYTES."""


def encode(data: Any) -> bytes:
    """JSON bytes exactly as FastAPI would send ``data`` (Starlette's ``JSONResponse.render``), without its
    object walk (``jsonable_encoder``, about 2 ms for a position): the views return plain JSON data only.

    Written by orjson (about 0.05 ms for a position instead of 0.7), whose bytes are json's for the views' data
    (str keys, 64-bit ints, finite floats; ``tests/test_web_cache.py``); what it declines (another key type, a
    huge int) goes through json. A float that is not finite, which no view makes, would be written null."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":")).encode("utf-8")


def store_version(store: Store) -> Hashable | None:
    """A value that changes whenever anyone commits to the store; None when it cannot be read."""
    if store.is_sqlite:
        path = _database(store.url)
        if not path or path == ":memory:":
            return None
        try:
            fd = os.open(path, os.O_RDONLY)
            try:  # bytes 24-27: the file change counter, bumped by every commit (rollback journal)
                counter, stats = os.pread(fd, 4, 24), [os.fstat(fd)]
            finally:
                os.close(fd)
        except OSError:
            return None
        with contextlib.suppress(OSError):
            stats.append(os.stat(path + "-wal"))
        return counter, tuple((s.st_ino, s.st_size, s.st_mtime_ns) for s in stats)
    if store.engine.dialect.name == "postgresql":
        try:
            with store.read() as conn:
                return str(conn.exec_driver_sql("SELECT pg_current_snapshot()::text").scalar())
        except SQLAlchemyError:  # a standby, a permission: then no caching
            return None
    return None


@functools.lru_cache(maxsize=16)
def _database(url: str) -> str | None:
    """The database of a URL (SQLite's file), parsed once: the version is read before every request."""
    return make_url(url).database


class Cache:
    """Encoded answers by request key, bounded to ``max_bytes``, focus lines and corner answers, valid for one store
    version."""

    def __init__(self, store: Store, max_bytes: int = DEFAULT_MB << 20) -> None:
        self.store, self.max_bytes = store, max_bytes
        self.max_lines, self.max_corners = max_bytes // LINE_BYTES, max_bytes // CORNER_BYTES
        self._responses: OrderedDict[Hashable, bytes] = OrderedDict()
        self._aliases: OrderedDict[Hashable, Hashable] = OrderedDict()
        self.max_aliases = max_bytes // ALIAS_BYTES
        self._lines: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._corners: OrderedDict[Hashable, CornerAnswer | tuple[bool, bool]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = self.hits = self.misses = self.evictions = self.invalidations = 0
        self.line_hits = self.line_misses = self.corner_hits = self.corner_misses = 0
        self.version: Hashable | None = store_version(store)
        self.memo = Memo(max_bytes // MEMO_BYTES if self.enabled else 0)
        """The book's reads of nodes (:class:`joseki.web.reads.Reads` hands it to the views' connections)."""

    @property
    def enabled(self) -> bool:
        return self.max_bytes > 0 and self.version is not None

    def check(self) -> Hashable | None:
        """Drop everything if the store changed since the entries were made; the version now."""
        if self.max_bytes <= 0:
            return None
        version = store_version(self.store)
        with self._lock:
            if version != self.version:
                if self._responses or self._lines or self._corners or len(self.memo):
                    self.invalidations += 1
                self._responses.clear()
                self._aliases.clear()
                self._lines.clear()
                self._corners.clear()
                self.memo.clear()
                self.bytes, self.version = 0, version
            if version is None:  # no way to tell a change: nothing read is kept from one request to the next
                self.memo.clear()
        return version

    def get(self, key: Hashable) -> bytes | None:
        """The encoded answer for ``key``, if kept (counted as a hit or a miss)."""
        with self._lock:
            body = self._responses.get(key) if self.enabled else None
            if body is None:
                self.misses += 1
                return None
            self._responses.move_to_end(key)
            self.hits += 1
            return body

    def get_raw(self, raw: Hashable) -> bytes | None:
        """The encoded answer for a request as it came (:meth:`put`'s ``raw``), if kept; a hit counted, a miss not
        (the view's own :meth:`get` counts it)."""
        with self._lock:
            key = self._aliases.get(raw) if self.enabled else None
            body = None if key is None else self._responses.get(key)
            if body is None:
                return None
            self._responses.move_to_end(key)
            self._aliases.move_to_end(raw)
            self.hits += 1
            return body

    def put(self, key: Hashable, body: bytes, version: Hashable | None, raw: Hashable | None = None) -> None:
        """Keep ``body`` for ``key`` if the store is still at ``version`` (the one it was computed under), and under
        the request as it came, ``raw`` (its path and query string), when given."""
        if len(body) > self.max_bytes // 8:  # one huge answer does not flush the rest
            return
        with self._lock:
            if version is None or version != self.version:
                return
            if raw is not None and self.max_aliases > 0:
                self._aliases[raw] = key
                self._aliases.move_to_end(raw)
                while len(self._aliases) > self.max_aliases:
                    self._aliases.popitem(last=False)
            if key in self._responses:
                return
            self._responses[key] = body
            self.bytes += len(body)
            while self.bytes > self.max_bytes:
                _, old = self._responses.popitem(last=False)
                self.bytes -= len(old)
                self.evictions += 1

    def line(self, store: Store | BookFile, a: CornerAnswer, collections: list[str] | None,
             profile: str | None) -> dict[str, Any]:
        """:func:`joseki.web.views.line_json`, remembered (a :data:`~joseki.web.views.LineFn`)."""
        if not self.enabled or self.max_lines <= 0:
            return line_json(store, a, collections, profile)
        key = (line_key(a), tuple(collections) if collections else None, profile or None)
        with self._lock:
            version, found = self.version, self._lines.get(key)
            if found is not None:
                self._lines.move_to_end(key)
                self.line_hits += 1
                return found
            self.line_misses += 1
        data = line_json(store, a, collections, profile)
        with self._lock:
            if version == self.version:
                self._lines[key] = data
                while len(self._lines) > self.max_lines:
                    self._lines.popitem(last=False)
        return data

    def corner(self, lookup: Lookup, table: CornerTable, first: Colour, options: Options) -> CornerAnswer:
        """:func:`joseki.book.query.next.answer_table`, remembered (a :data:`~joseki.book.query.next.AnswerTable`).

        The answer depends on the corner's own moves, the options and the collections, and on
        two things only some answers read: the game's move numbers (only where the corner left
        the book, to say at which move) and the rest of the board (only through candidates'
        ladder checks: one per ladder condition, whatever the board). So the entry under the
        corner alone says which of the two its answer read, and the answer is kept under the
        corner plus those: one answer serves every board and game that it did not read.
        Callers re-rank and trim what they get (:mod:`joseki.book.query.rerank`), so each gets
        its own copy.
        """
        if not self.enabled or self.max_corners <= 0:
            return answer_table(lookup, table, first, options)
        b = table.builder
        own = (table.corner, b.first_colour, b.steps_to_move(), b.swap, first if b.first_colour is None else None,
               replace(options, board=None), None if lookup.collection_ids is None else tuple(lookup.collection_ids))
        numbers = tuple(move_numbers(table))
        with self._lock:
            version, reads = self.version, self._corners.get(own)
            if isinstance(reads, tuple):
                key = (own, numbers if reads[0] else None, options.board if reads[1] else None)
                found = self._corners.get(key)
                if isinstance(found, CornerAnswer):
                    self._corners.move_to_end(own)
                    self._corners.move_to_end(key)
                    self.corner_hits += 1
                    return _copy(found)
            self.corner_misses += 1
        answer = answer_table(lookup, table, first, options)
        reads = (answer.left_at is not None, any(c.ladders for c in answer.candidates))
        with self._lock:
            if version == self.version:
                self._corners[own] = reads
                self._corners[own, numbers if reads[0] else None, options.board if reads[1] else None] = _copy(answer)
                while len(self._corners) > self.max_corners:
                    self._corners.popitem(last=False)
        return answer

    def stats(self) -> dict[str, Any]:
        """The counts for ``/api/stats``: the answers' and :meth:`parts`'."""
        with self._lock:
            return {"enabled": self.enabled, "entries": len(self._responses), "aliases": len(self._aliases),
                    "bytes": self.bytes,
                    "max_bytes": self.max_bytes, "hits": self.hits, "misses": self.misses,
                    "evictions": self.evictions, "invalidations": self.invalidations, **self._parts()}

    def parts(self) -> dict[str, dict[str, int]]:
        """The counts of the parts of answers kept (focus lines, corners, the book's reads), which a computing
        process reports after each view (:mod:`joseki.web.compute`)."""
        with self._lock:
            return self._parts()

    def _parts(self) -> dict[str, dict[str, int]]:
        return {"lines": {"entries": len(self._lines), "max_entries": self.max_lines, "hits": self.line_hits,
                          "misses": self.line_misses},
                "corners": {"entries": len(self._corners), "max_entries": self.max_corners,
                            "hits": self.corner_hits, "misses": self.corner_misses},
                "reads": {"entries": len(self.memo), "max_entries": self.memo.max_entries,
                          "hits": self.memo.hits, "misses": self.memo.misses}}


def _copy(answer: CornerAnswer) -> CornerAnswer:
    """A copy of ``answer`` that re-ranking may change (the candidates' order, sides and context counts).

    Shallow copies through the positional constructor (a fifth of what ``dataclasses.replace`` costs: no
    ``fields()`` walk, no keyword call): re-ranking sets fields of the answer and of its candidates, never changes
    their lists in place."""
    copied = CornerAnswer(*_answer_fields(answer))
    copied.candidates = [Candidate(*_candidate_fields(c)) for c in answer.candidates]
    copied.alternatives = [Candidate(*_candidate_fields(c)) for c in answer.alternatives]
    return copied


_answer_fields = attrgetter(*(f.name for f in fields(CornerAnswer)))
_candidate_fields = attrgetter(*(f.name for f in fields(Candidate)))
