"""The store's tables, as SQLAlchemy Core tables; changes go through Alembic migrations.

Core rather than ORM models: nothing here needs a session, and the CLI never pays for
importing ``sqlalchemy.orm``.

- ``collection``: a named book (a file stem by default).
- ``source_file``: one imported file, by content hash, so that re-importing adds nothing, and the
  dialect it was read in (:mod:`joseki.sgf.dialects`), by which its comments are read for a player.
- ``variation``: the flat records, one canonical step string per root-to-leaf path and the setup
  stones it puts down (:mod:`joseki.sgf.setups`), with the influence model's verdict on its end
  position (:mod:`joseki.book.query.favour`) once computed.
- ``node``: every prefix of every record, once, keyed by :func:`joseki.book.store.keys.node_id` of its
  step string; the next-move query reads a node's children through ``parent_id``, and finds
  transpositions through ``position_key`` (:mod:`joseki.core.position`).
- ``node_book``: a node's membership in a collection: how many of its variations pass
  through it, and what the collection says about the move (category, comment, the node's
  other SGF properties as JSON, prior statistics where the source has them, and the
  conditions the move depends on as JSON, :mod:`joseki.core.conditions`), for moves on a board
  without setup stones.
- ``setup_book``: the same for moves played with setup stones on the board, by the stones (a
  setup condition's text): what a line says there is about that position only.
- ``profile``, ``node_stats``: game results credited to the player who chose each book move,
  per profile (``global`` by default); ``learnt_game``: the games already learnt, by key.
- ``beyond_book``: the moves a mined book saw after its lines in too few games to keep them.
- ``pattern_game``, ``pattern_segment``, ``pattern_chunk``: the pattern index, its games' facts and the sorted
  arrays of its segments (:mod:`joseki.book.patterns`).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NODE_KEY = BigInteger().with_variant(Integer(), "sqlite")
"""A node key: 64-bit everywhere; on SQLite an INTEGER PRIMARY KEY is the rowid itself, one index less."""


metadata = MetaData()
"""Every table of the store; Alembic migrations create them (``migrations/``)."""

collection = Table(
    "collection", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), unique=True, nullable=False),
    Column("created_at", DateTime, nullable=False),
)

source_file = Table(
    "source_file", metadata,
    Column("id", Integer, primary_key=True),
    Column("collection_id", Integer, ForeignKey("collection.id", ondelete="CASCADE"), index=True, nullable=False),
    Column("path", Text, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("imported_at", DateTime, nullable=False),
    Column("paths", Integer, nullable=False),
    Column("new", Integer, nullable=False),
    Column("duplicates", Integer, nullable=False),
    Column("skipped", Integer, nullable=False),
    Column("dialect", String(20)),
    UniqueConstraint("collection_id", "sha256"),
)

variation = Table(
    "variation", metadata,
    Column("id", Integer, primary_key=True),
    Column("collection_id", Integer, ForeignKey("collection.id", ondelete="CASCADE"), nullable=False),
    Column("source_file_id", Integer, ForeignKey("source_file.id", ondelete="CASCADE"), index=True),
    Column("steps", Text, nullable=False),
    Column("first_color", String(1), nullable=False),
    Column("corner", String(12), nullable=False),
    Column("swapped", Boolean, nullable=False),
    Column("game", Integer, nullable=False),
    Column("tree_path", Text, nullable=False),
    Column("setup", Boolean, nullable=False),
    Column("setup_stones", Text, nullable=False, server_default=""),
    Column("area_first", Integer),
    Column("area_second", Integer),
    Column("influence_first", Integer),
    Column("influence_second", Integer),
    Column("favour_first", Float),
    Column("favour_second", Float),
    UniqueConstraint("collection_id", "steps", "setup_stones", name="uq_variation_record"),
)

node = Table(
    "node", metadata,
    Column("id", NODE_KEY, primary_key=True, autoincrement=False),
    Column("parent_id", BigInteger, index=True, nullable=False),
    Column("move", String(2), nullable=False),
    Column("depth", Integer, nullable=False),
    Column("steps", Text, nullable=False),
    Column("position_key", BigInteger, index=True),
)

node_book = Table(
    "node_book", metadata,
    Column("node_id", BigInteger, ForeignKey("node.id"), primary_key=True),
    Column("collection_id", Integer, ForeignKey("collection.id", ondelete="CASCADE"), primary_key=True),
    Column("paths", Integer, nullable=False),
    Column("category", String(20)),
    Column("comment", Text),
    Column("properties", Text),
    Column("prior_games", Integer),
    Column("prior_wins", Integer),
    Column("conditions", Text),
    sqlite_with_rowid=False,
)

setup_book = Table(
    "setup_book", metadata,
    Column("node_id", BigInteger, ForeignKey("node.id"), primary_key=True),
    Column("collection_id", Integer, ForeignKey("collection.id", ondelete="CASCADE"), primary_key=True),
    Column("setup", Text, primary_key=True),
    Column("paths", Integer, nullable=False),
    Column("category", String(20)),
    Column("comment", Text),
    Column("properties", Text),
    Column("prior_games", Integer),
    Column("prior_wins", Integer),
    Column("conditions", Text),
    sqlite_with_rowid=False,
)
"""What a collection says about a move played with setup stones on the board (``setup``: the stones, as the text
of a ``setup`` condition in the record's canonical frame, :func:`joseki.core.conditions.merged_setup`)."""

profile = Table(
    "profile", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), unique=True, nullable=False),
    Column("created_at", DateTime, nullable=False),
)

node_stats = Table(
    "node_stats", metadata,
    Column("node_id", BigInteger, ForeignKey("node.id"), primary_key=True),
    Column("profile_id", Integer, ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    sqlite_with_rowid=False,
)

learnt_game = Table(
    "learnt_game", metadata,
    Column("profile_id", Integer, ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
    Column("game_key", String(32), primary_key=True),
    Column("source", Text, nullable=False),
    Column("result", String(40), nullable=False),
    Column("learnt_at", DateTime, nullable=False),
    sqlite_with_rowid=False,
)

node_local = Table(
    "node_local", metadata,
    Column("node_id", BigInteger, ForeignKey("node.id"), primary_key=True),
    Column("profile_id", Integer, ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
    Column("corners", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("margin", Float, nullable=False),
    sqlite_with_rowid=False,
)
"""Local outcomes (:mod:`joseki.engine.judge`): each corner judged by an engine where its joseki ended,
credited to the player who chose each book move on the way, per profile; ``margin`` sums the chooser's points."""

judged_game = Table(
    "judged_game", metadata,
    Column("profile_id", Integer, ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
    Column("game_key", String(32), primary_key=True),
    Column("source", Text, nullable=False),
    Column("judged_at", DateTime, nullable=False),
    sqlite_with_rowid=False,
)
"""The games whose corners were judged into a profile's local outcomes, by key (a second judging adds nothing)."""

game_record = Table(
    "game_record", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_key", String(32), unique=True, nullable=False),
    Column("source", Text, nullable=False),
    Column("black", String(200), nullable=False),
    Column("white", String(200), nullable=False),
    Column("black_rank", String(4), nullable=False),
    Column("white_rank", String(4), nullable=False),
    Column("date", String(10), nullable=False),
    Column("result", String(40), nullable=False),
    Column("moves", Integer, nullable=False),
    Column("strength", Integer),
)
"""A learnt or mined game's facts, once per game (:mod:`joseki.book.gamerefs.read`): players, ranks
('' unknown), ISO date ('' unknown), result, the SGF file (absolute path), main-line moves, and
the strength the ``strongest`` order sorts by (:func:`joseki.core.gameinfo.strength`)."""

game_ref = Table(
    "game_ref", metadata,
    Column("profile_id", Integer, ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
    Column("node_id", BigInteger, ForeignKey("node.id"), primary_key=True),
    Column("game_id", Integer, ForeignKey("game_record.id", ondelete="CASCADE"), primary_key=True),
    Column("move_number", Integer, nullable=False),
    Column("corner", Integer, nullable=False),
    sqlite_with_rowid=False,
)
"""The games behind a book node under a profile, bounded: the newest and the strongest
:data:`joseki.book.gamerefs.read.REFS_PER_NODE` of those credited there (the full count is ``node_stats.games``);
the game move that reached the node (from 1) and the corner (index in :class:`joseki.core.geometry.Corner`)."""

context_stats = Table(
    "context_stats", metadata,
    Column("parent_id", BigInteger, primary_key=True),
    Column("context", String(7), primary_key=True),
    Column("profile_id", Integer, ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
    Column("move", String(2), primary_key=True),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    sqlite_with_rowid=False,
)
"""Learnt and mined results per whole-board context (:mod:`joseki.book.learnt.contexts`): the move played
after book line ``parent_id`` (a node id, that of the empty line for the root) in ``context``
(:mod:`joseki.core.context`), as a token in the frame of that line and context."""

beyond_book = Table(
    "beyond_book", metadata,
    Column("parent_id", BigInteger, primary_key=True),
    Column("collection_id", Integer, ForeignKey("collection.id", ondelete="CASCADE"), primary_key=True),
    Column("move", String(2), primary_key=True),
    Column("games", Integer, nullable=False),
    sqlite_with_rowid=False,
)
"""Moves played after a mined book line (``parent_id``, a node id, that of the empty line for the root) in too few
games to be book moves of collection ``collection_id`` (:mod:`joseki.book.learnt.beyond`): a line's end still says
what was played there."""

pattern_game = Table(
    "pattern_game", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_key", String(32), unique=True, nullable=False),
    Column("root", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("black", String(200), nullable=False),
    Column("white", String(200), nullable=False),
    Column("black_rank", String(4), nullable=False),
    Column("white_rank", String(4), nullable=False),
    Column("date", String(10), nullable=False),
    Column("result", String(40), nullable=False),
    Column("winner", String(1), nullable=False),
    Column("event", String(200), nullable=False),
    Column("moves", Integer, nullable=False),
)
"""A game of the pattern index (:mod:`joseki.book.patterns.storage`), in the order added (``id``): the folder it
was indexed from, its file relative to it, players, ranks, ISO date, result, ``b``/``w``/``d`` winner or '', event
and main-line moves. Its moves live in the segment that holds it."""

pattern_segment = Table(
    "pattern_segment", metadata,
    Column("id", Integer, primary_key=True),
    Column("level", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("records", Integer, nullable=False),
    Column("bytes", BigInteger, nullable=False),
)
"""A segment of the pattern index (:mod:`joseki.book.patterns.segment`): how many merges made it (``level``), its
games, move-list records and stored bytes."""

pattern_chunk = Table(
    "pattern_chunk", metadata,
    Column("segment_id", Integer, ForeignKey("pattern_segment.id", ondelete="CASCADE"), primary_key=True),
    Column("name", String(16), primary_key=True),
    Column("part", Integer, primary_key=True),
    Column("data", LargeBinary, nullable=False),
)
"""A segment's arrays: array ``name`` is its parts' ``data`` in ``part`` order, little-endian."""
