"""Reading the pattern index's segments back: each array with ``numpy.frombuffer`` (no copy when it is one chunk).

The reads go through :func:`joseki.book.store.bookfile.rows`, on a store or a read-only SQLite file, without
SQLAlchemy (:mod:`joseki.book.patterns.storage` writes them).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from joseki.book.patterns.segment import ARRAY_NAMES, DTYPES, Segment
from joseki.book.store.bookfile import ReadConnection, rows, scalar
from joseki.core.errors import UserError


def segment_list(conn: ReadConnection) -> list[tuple[int, int, int]]:
    """Every segment's id, level and records, oldest first."""
    return [(int(i), int(level), int(records))
            for i, level, records in rows(conn, "SELECT id, level, records FROM pattern_segment ORDER BY id")]


UPGRADE = "run joseki index on any games to bring it up to date"
"""What a segment of an earlier layout asks of the user: the index writer upgrades it (:func:`storage.upgrade`)."""


def layout_error(segment_id: int, names: Iterable[str]) -> UserError | None:
    """The one-line error for segment ``segment_id`` stored as arrays ``names`` when they are not this version's
    (:data:`ARRAY_NAMES`); None when they are."""
    present = set(names)
    unknown = sorted(present - set(ARRAY_NAMES))
    if unknown:
        return UserError(f"the pattern index's segment {segment_id} has an array {unknown[0]!r} this version does "
                         "not know (an index of a later version of joseki)")
    missing = [name for name in ARRAY_NAMES if name not in present]
    if missing:
        return UserError(f"the pattern index's segment {segment_id} lacks its {', '.join(missing)} (an index of an "
                         f"earlier version: {UPGRADE})")
    return None


def read_segment(conn: ReadConnection, segment_id: int) -> Segment:
    """The arrays of segment ``segment_id``; UserError for a segment of another layout."""
    parts: dict[str, list[bytes]] = {}
    for name, _part, data in rows(conn, "SELECT name, part, data FROM pattern_chunk WHERE segment_id = :s "
                                        "ORDER BY name, part", {"s": segment_id}):
        parts.setdefault(str(name), []).append(bytes(data) if not isinstance(data, bytes) else data)
    error = layout_error(segment_id, parts)
    if error is not None:
        raise error
    arrays = {name: np.frombuffer(p[0] if len(p) == 1 else b"".join(p), dtype=DTYPES[name])
              for name, p in parts.items()}
    return Segment.from_arrays(arrays)


def read_array(conn: ReadConnection, segment_id: int, name: str) -> npt.NDArray[np.generic]:
    """Array ``name`` of segment ``segment_id``, its chunks read one at a time into one array (a merge reads each
    array of its parts when it needs it: never two copies of a big one, nor the segment's other arrays)."""
    sizes = rows(conn, "SELECT part, length(data) FROM pattern_chunk WHERE segment_id = :s AND name = :n "
                       "ORDER BY part", {"s": segment_id, "n": name})
    if not sizes:
        raise UserError(f"the pattern index's segment {segment_id} lacks its {name} (an index of an earlier "
                        f"version: {UPGRADE})")
    found = np.empty(sum(int(size) for _, size in sizes), dtype=np.uint8)
    at = 0
    for part, size in sizes:
        data = scalar(conn, "SELECT data FROM pattern_chunk WHERE segment_id = :s AND name = :n AND part = :p",
                      {"s": segment_id, "n": name, "p": int(part)})
        found[at:at + int(size)] = np.frombuffer(data, dtype=np.uint8)
        at += int(size)
    return found.view(DTYPES[name])


def segment_arrays(conn: ReadConnection) -> dict[int, set[str]]:
    """The names of the arrays each segment is stored as."""
    found: dict[int, set[str]] = {}
    for segment_id, name in rows(conn, "SELECT DISTINCT segment_id, name FROM pattern_chunk"):
        found.setdefault(int(segment_id), set()).add(str(name))
    return found


def stored_bytes(conn: ReadConnection) -> tuple[int, int]:
    """The games indexed and the bytes of their segments' arrays."""
    games = int(scalar(conn, "SELECT count(*) FROM pattern_game") or 0)
    size = int(scalar(conn, "SELECT coalesce(sum(bytes), 0) FROM pattern_segment") or 0)
    return games, size
