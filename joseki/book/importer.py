"""Importing SGF joseki collections into the store, one transaction per file.

A file is flattened (:mod:`joseki.sgf.forest`) before anything is written, so a malformed file
writes nothing. Its records go into the collection named, else the one its dialect names (:mod:`joseki.sgf.dialects`:
"Kogo's Joseki Dictionary 2014", "Pachi 4-4"; the file stem when it knows none); a record is its
step string and its setup stones (:mod:`joseki.sgf.setups`), and one the collection already has is a
duplicate; a line with an illegal move is refused (counted, named in a warning) and the rest of the
file imported. Every prefix of a new record becomes a ``node`` (once, shared by all collections) and
counts one path in the collection's ``node_book`` row, or ``setup_book`` row when its move is played
with setup stones on the board; the SGF notes along the path, read in the file's dialect
(:mod:`joseki.sgf.booknotes`), give each move its category, comment, conditions and prior
statistics, in the same position. A file whose notes are malformed writes nothing either.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, CursorResult, bindparam, delete, select, update

from joseki.book.learnt.results import add_records, profile_id
from joseki.book.store.database import Store, advisory_lock, batched, bulk_insert
from joseki.book.store.keys import ROOT_ID, node_id
from joseki.core.conditions import to_json
from joseki.core.errors import BadInput
from joseki.core.position import keys_along
from joseki.core.priority import Record
from joseki.sgf.booknotes import book_notes, file_dialect
from joseki.sgf.dialects import collection_title
from joseki.sgf.dialects.dialect import Dialect
from joseki.sgf.forest import Forest, Variation, flatten_bytes, read_sgf_bytes
from joseki.sgf.movenotes import MoveNote
from joseki.sgf.setups import parse_stones, placements, positions, stored_stones

SGF_SUFFIXES = (".sgf", ".SGF")

class MalformedNotes(BadInput):
    """A file's notes cannot be read (:func:`~joseki.sgf.booknotes.book_notes`): nothing of it is written."""


NoteRows = tuple[dict[str, tuple[Any, ...]], dict[str, tuple[int, int, int, int]],
                 dict[tuple[str, str], tuple[Any, ...]]]
"""A file's notes as plain data: the ``node_book`` note columns (:data:`_BOOK_NOTES`) and the
statistics (games, wins, losses, draws) it carries, by step prefix, and the note columns of moves
played with setup stones, by (stones, prefix)."""


@dataclass(slots=True)
class FileReport:
    """What importing one file did."""

    path: str
    collection: str
    status: str = "imported"
    paths: int = 0
    new: int = 0
    duplicates: int = 0
    skipped: int = 0
    refused: int = 0
    """Lines refused for an illegal move (each named in a warning)."""
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """The SGF files named by ``paths``: files as given, folders searched recursively."""
    found: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in SGF_SUFFIXES and p.is_file()))
        else:
            found.append(path)
    return found


def import_files(store: Store, paths: Iterable[Path | str], collection: str | None = None,
                 replace: bool = False,
                 progress: Callable[[Path, FileReport], None] | None = None) -> list[FileReport]:
    """Import every SGF file of ``paths``; a failing file is reported and writes nothing."""
    reports = []
    for path in expand_paths(paths):
        report = import_file(store, path, collection, replace)
        reports.append(report)
        if progress is not None:
            progress(path, report)
    return reports


def import_file(store: Store, path: Path, collection: str | None = None, replace: bool = False) -> FileReport:
    """Import one SGF file in one transaction, into ``collection`` or the one its dialect names
    (:func:`joseki.sgf.dialects.collection_title`)."""
    report = FileReport(str(path), collection or path.stem)
    try:
        data = read_sgf_bytes(path)
        forest = flatten_bytes(data, str(path))
    except ValueError as exc:
        report.status, report.error = "failed", str(exc)
        return report
    name = report.collection = collection or collection_title(file_dialect(forest), forest.game_info, path.stem)
    report.warnings = forest.warnings
    digest = hashlib.sha256(data).hexdigest()
    try:
        with store.write() as conn:
            import_forest(conn, store, forest, name, digest, replace, report)
    except MalformedNotes as exc:
        return FileReport(str(path), name, status="failed", error=str(exc), warnings=forest.warnings)
    return report


def note_rows(forest: Forest, dialect: Dialect | None = None) -> NoteRows:
    """What ``forest``'s notes say about each move (:func:`~joseki.sgf.booknotes.book_notes`), as plain data."""
    notes = book_notes(forest, dialect)
    moves = notes.moves
    return ({p: _note_columns(n) for p, n in moves.items()},
            {p: (n.record.games, n.record.wins, n.record.losses, n.record.draws)
             for p, n in moves.items() if n.record},
            {k: _note_columns(n) for k, n in notes.positions.items()})


def import_forest(conn: Connection, store: Store, forest: Forest, name: str, digest: str, replace: bool,
                  report: FileReport) -> None:
    """Write a flattened file into collection ``name`` on ``conn`` (inside the caller's transaction).

    MalformedNotes if the file's notes (:func:`note_rows`) cannot be read. Concurrent imports into one collection
    queue on an advisory lock (PostgreSQL; SQLite's write lock already serialises them).
    """
    advisory_lock(conn, f"collection:{name}")
    dialect = file_dialect(forest)
    t = store.tables
    now = datetime.now(UTC).replace(tzinfo=None)
    collection_id = conn.execute(select(t["collection"].c.id).where(t["collection"].c.name == name)).scalar()
    new_collection = collection_id is None
    if collection_id is None:
        collection_id = _inserted_id(conn.execute(t["collection"].insert().values(name=name, created_at=now)))
    sf = t["source_file"]
    old = conn.execute(select(sf.c.id).where(sf.c.collection_id == collection_id, sf.c.sha256 == digest)).scalar()
    if old is not None:
        if not replace:
            report.status = "already imported"
            return
        remove_source_file(conn, store, old, collection_id)
        report.status = "replaced"
    report.paths = len(forest.variations) + forest.skipped + forest.refused
    report.skipped = forest.skipped
    report.refused = forest.refused
    var = t["variation"]
    known = {(str(steps), str(stones)) for steps, stones in conn.execute(
        select(var.c.steps, var.c.setup_stones).where(var.c.collection_id == collection_id))}
    fresh: dict[tuple[str, str], Variation] = {}
    for v in forest.variations:
        record = (v.steps, stored_stones(placements(v), v.steps))
        if record in known or record in fresh:
            report.duplicates += 1
        else:
            fresh[record] = v
    report.new = len(fresh)
    source_id = _inserted_id(conn.execute(sf.insert().values(
        collection_id=collection_id, path=forest.source, sha256=digest, imported_at=now, paths=report.paths,
        new=report.new, duplicates=report.duplicates, skipped=report.skipped, dialect=dialect.name)))
    if not fresh:
        return
    bulk_insert(conn, var, ("collection_id", "source_file_id", "steps", "first_color", "corner", "swapped", "game",
                            "tree_path", "setup", "setup_stones"),
                [(collection_id, source_id, v.steps, v.first_colour, v.corner.value, v.swap, v.game, v.tree_path,
                  v.setup, stones) for (_, stones), v in fresh.items()])
    counts, setup_counts = position_counts(fresh)
    ids = add_nodes(conn, store, dict.fromkeys(steps for steps, _ in fresh))
    try:
        columns, records, setup_columns = note_rows(forest, dialect)
    except ValueError as exc:
        raise MalformedNotes(str(exc)) from None
    add_paths(conn, store, collection_id, counts, ids, columns, new_collection)
    if setup_counts:
        add_setup_paths(conn, store, collection_id, setup_counts, setup_columns)
    add_source_records(conn, store, {ids[p]: Record(*r) for p, r in records.items() if p in ids})


def _inserted_id(result: CursorResult[Any]) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def prefix_counts(steps: Iterable[str]) -> Counter[str]:
    """How many of the step strings pass through each non-empty prefix."""
    return Counter(s[:end] for s in steps for end in range(2, len(s) + 1, 2))


def position_counts(records: Iterable[tuple[str, str]]) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    """How many records (steps, setup stones as stored) play each prefix on a board without setup stones,
    and how many play it with each set of setup stones (keyed by stones and prefix)."""
    plain: Counter[str] = Counter()
    stones: Counter[tuple[str, str]] = Counter()
    for steps, stones_text in records:
        if not stones_text:
            plain.update(steps[:end] for end in range(2, len(steps) + 1, 2))
            continue
        for setup, prefix in positions(steps, parse_stones(stones_text)):
            if setup:
                stones[(setup, prefix)] += 1
            else:
                plain[prefix] += 1
    return plain, stones


_FIRST = itemgetter(0)
"""Sort key of rows by node key (faster than comparing whole tuples of 64-bit integers)."""


def add_nodes(conn: Connection, store: Store, lines: Iterable[str]) -> dict[str, int]:
    """Insert the trie nodes of ``lines`` (every non-empty prefix of each) that the store lacks.

    Returns the node key of each prefix. Rows are written in key order (see :func:`add_paths`).
    """
    keys = keys_along(lines)
    ids = {p: node_id(p) for p in keys}
    parents = {"": ROOT_ID, **ids}
    rows = [(ids[p], parents[p[:-2]], p[-2:], len(p) // 2, p, key) for p, key in keys.items()]
    rows.sort(key=_FIRST)
    bulk_insert(conn, store.tables["node"], ("id", "parent_id", "move", "depth", "steps", "position_key"), rows,
                ignore_existing=True)
    return ids


_BOOK_KEY = ("node_id", "collection_id", "paths")
_BOOK_NOTES = ("category", "comment", "properties", "prior_games", "prior_wins", "conditions")


def add_paths(conn: Connection, store: Store, collection_id: int, counts: Counter[str], ids: dict[str, int],
              notes: dict[str, tuple[Any, ...]], new_collection: bool = False) -> None:
    """Add ``counts`` to the collection's per-node path counts, with what the file says about each move.

    ``notes`` holds the note columns (:data:`_BOOK_NOTES`) of the moves the file speaks of.

    Rows go in key order, as nodes do: the clustered keys of SQLite's tables grow at the end,
    and concurrent PostgreSQL writers take row locks in one order and cannot deadlock. Nodes
    without notes are written apart with their three key columns only (binding the six empty
    ones costs more than the write itself).
    """
    nb = store.tables["node_book"]
    existing: dict[int, int] = {}
    if not new_collection:
        for chunk in batched([ids[p] for p in counts]):
            existing.update(conn.execute(select(nb.c.node_id, nb.c.paths).where(
                nb.c.collection_id == collection_id, nb.c.node_id.in_(chunk))).all())
    new: dict[str, int] = counts
    updates: list[dict[str, Any]] = []
    if existing:
        new = {p: n for p, n in counts.items() if ids[p] not in existing}
        updates = [{"k_node": ids[p], "k_paths": existing[ids[p]] + n} for p, n in counts.items() if p not in new]
    plain = [(ids[p], collection_id, n) for p, n in new.items() if p not in notes]
    noted = [(ids[p], collection_id, n, *notes[p]) for p, n in new.items() if p in notes]
    plain.sort(key=_FIRST)
    noted.sort(key=_FIRST)
    updates.sort(key=itemgetter("k_node"))
    bulk_insert(conn, nb, _BOOK_KEY, plain)
    bulk_insert(conn, nb, _BOOK_KEY + _BOOK_NOTES, noted)
    if updates:
        conn.execute(update(nb).where(nb.c.collection_id == collection_id, nb.c.node_id == bindparam("k_node"))
                     .values(paths=bindparam("k_paths")), updates)


def add_setup_paths(conn: Connection, store: Store, collection_id: int, counts: Counter[tuple[str, str]],
                    notes: dict[tuple[str, str], tuple[Any, ...]]) -> None:
    """Add ``counts`` (by setup stones and prefix) to the collection's ``setup_book`` rows, with their notes."""
    sb = store.tables["setup_book"]
    keyed = {(node_id(p), setup): n for (setup, p), n in counts.items()}
    existing: dict[tuple[int, str], int] = {}
    for chunk in batched(sorted({nid for nid, _ in keyed})):
        existing.update(((nid, setup), paths) for nid, setup, paths in conn.execute(
            select(sb.c.node_id, sb.c.setup, sb.c.paths).where(sb.c.collection_id == collection_id,
                                                               sb.c.node_id.in_(chunk))))
    rows = sorted((nid, collection_id, setup, n, *notes.get((setup, p), (None,) * len(_BOOK_NOTES)))
                  for (setup, p), n in counts.items() if (nid := node_id(p), setup) not in existing)
    bulk_insert(conn, sb, ("node_id", "collection_id", "setup", "paths", *_BOOK_NOTES), rows)
    updates = [{"k_node": nid, "k_setup": setup, "k_paths": existing[(nid, setup)] + n}
               for (nid, setup), n in sorted(keyed.items()) if (nid, setup) in existing]
    if updates:
        conn.execute(update(sb).where(sb.c.collection_id == collection_id, sb.c.node_id == bindparam("k_node"),
                                      sb.c.setup == bindparam("k_setup")).values(paths=bindparam("k_paths")), updates)


def _note_columns(note: MoveNote) -> tuple[Any, ...]:
    """The values of :data:`_BOOK_NOTES` for ``note``."""
    return (note.category, "\n\n".join(note.comments) or None,
            json.dumps(note.properties, ensure_ascii=False) if note.properties else None,
            note.prior_games or None, note.prior_wins if note.prior_games else None, to_json(note.conditions))


def add_source_records(conn: Connection, store: Store, records: dict[int, Record]) -> None:
    """Global statistics a file carries (an export's ``JS``), for the nodes that have none yet.

    So re-importing an export restores the statistics once, and never counts games twice.
    """
    if not records:
        return
    pid = profile_id(conn, store, None, create=True)
    assert pid is not None
    ns = store.tables["node_stats"]
    have: set[int] = set()
    for chunk in batched(sorted(records)):
        have.update(conn.execute(select(ns.c.node_id).where(ns.c.profile_id == pid, ns.c.node_id.in_(chunk)))
                    .scalars())
    add_records(conn, store, pid, {nid: r for nid, r in records.items() if nid not in have})


def remove_source_file(conn: Connection, store: Store, source_id: int, collection_id: int) -> None:
    """Delete a file's records and take their paths off the node counts."""
    var, nb, sb = store.tables["variation"], store.tables["node_book"], store.tables["setup_book"]
    records = [(str(steps), str(stones)) for steps, stones in conn.execute(
        select(var.c.steps, var.c.setup_stones).where(var.c.source_file_id == source_id))]
    counts, setup_counts = position_counts(records)
    rows = [{"k_node": node_id(p), "k_minus": n} for p, n in counts.items()]
    if rows:
        conn.execute(update(nb).where(nb.c.collection_id == collection_id, nb.c.node_id == bindparam("k_node"))
                     .values(paths=nb.c.paths - bindparam("k_minus")), rows)
        conn.execute(delete(nb).where(nb.c.collection_id == collection_id, nb.c.paths <= 0))
    setup_rows = [{"k_node": node_id(p), "k_setup": setup, "k_minus": n} for (setup, p), n in setup_counts.items()]
    if setup_rows:
        in_file = update(sb).where(sb.c.collection_id == collection_id, sb.c.node_id == bindparam("k_node"),
                                   sb.c.setup == bindparam("k_setup"))
        conn.execute(in_file.values(paths=sb.c.paths - bindparam("k_minus")), setup_rows)
        conn.execute(delete(sb).where(sb.c.collection_id == collection_id, sb.c.paths <= 0))
    conn.execute(delete(var).where(var.c.source_file_id == source_id))
    conn.execute(delete(store.tables["source_file"]).where(store.tables["source_file"].c.id == source_id))


