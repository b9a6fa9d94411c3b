"""The store's tables, as SQLAlchemy 2 typed models. Changes go through Alembic migrations.

- ``collection``: a named book (a file stem by default).
- ``source_file``: one imported file, by content hash, so that re-importing adds nothing.
- ``variation``: the flat records, one canonical step string per root-to-leaf path, with
  the influence model's verdict on its end position (:mod:`joseki.book.favour`) once computed.
- ``node``: every prefix of every record, once, keyed by :func:`joseki.book.store.node_id` of its
  step string; the next-move query reads a node's children through ``parent_id``, and finds
  transpositions through ``position_key`` (:mod:`joseki.core.position`).
- ``node_book``: a node's membership in a collection: how many of its variations pass
  through it, and what the collection says about the move (category, comment, the node's
  other SGF properties as JSON, prior statistics where the source has them, and the
  conditions the move depends on as JSON, :mod:`joseki.core.conditions`).
- ``profile``, ``node_stats``: game results credited to the player who chose each book move,
  per profile (``global`` by default); ``learnt_game``: the games already learnt, by key.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NODE_KEY = BigInteger().with_variant(Integer(), "sqlite")
"""A node key: 64-bit everywhere; on SQLite an INTEGER PRIMARY KEY is the rowid itself, one index less."""


class Base(DeclarativeBase):
    pass


class Collection(Base):
    __tablename__ = "collection"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class SourceFile(Base):
    __tablename__ = "source_file"
    __table_args__ = (UniqueConstraint("collection_id", "sha256"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    collection_id: Mapped[int] = mapped_column(ForeignKey("collection.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    imported_at: Mapped[datetime] = mapped_column(DateTime)
    paths: Mapped[int] = mapped_column(Integer)
    new: Mapped[int] = mapped_column(Integer)
    duplicates: Mapped[int] = mapped_column(Integer)
    skipped: Mapped[int] = mapped_column(Integer)


class Variation(Base):
    __tablename__ = "variation"
    __table_args__ = (UniqueConstraint("collection_id", "steps"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    collection_id: Mapped[int] = mapped_column(ForeignKey("collection.id", ondelete="CASCADE"))
    source_file_id: Mapped[int | None] = mapped_column(
        ForeignKey("source_file.id", ondelete="CASCADE"), index=True)
    steps: Mapped[str] = mapped_column(Text)
    first_color: Mapped[str] = mapped_column(String(1))
    corner: Mapped[str] = mapped_column(String(12))
    swapped: Mapped[bool] = mapped_column(Boolean)
    game: Mapped[int] = mapped_column(Integer)
    tree_path: Mapped[str] = mapped_column(Text)
    setup: Mapped[bool] = mapped_column(Boolean)
    area_first: Mapped[int | None] = mapped_column(Integer)
    area_second: Mapped[int | None] = mapped_column(Integer)
    influence_first: Mapped[int | None] = mapped_column(Integer)
    influence_second: Mapped[int | None] = mapped_column(Integer)
    favour_first: Mapped[float | None] = mapped_column(Float)
    favour_second: Mapped[float | None] = mapped_column(Float)


class Node(Base):
    __tablename__ = "node"

    id: Mapped[int] = mapped_column(NODE_KEY, primary_key=True, autoincrement=False)
    parent_id: Mapped[int] = mapped_column(BigInteger, index=True)
    move: Mapped[str] = mapped_column(String(2))
    depth: Mapped[int] = mapped_column(Integer)
    steps: Mapped[str] = mapped_column(Text)
    position_key: Mapped[int | None] = mapped_column(BigInteger, index=True)


class NodeBook(Base):
    __tablename__ = "node_book"
    __table_args__ = ({"sqlite_with_rowid": False},)

    node_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("node.id"), primary_key=True)
    collection_id: Mapped[int] = mapped_column(ForeignKey("collection.id", ondelete="CASCADE"), primary_key=True)
    paths: Mapped[int] = mapped_column(Integer)
    category: Mapped[str | None] = mapped_column(String(20))
    comment: Mapped[str | None] = mapped_column(Text)
    properties: Mapped[str | None] = mapped_column(Text)
    prior_games: Mapped[int | None] = mapped_column(Integer)
    prior_wins: Mapped[int | None] = mapped_column(Integer)
    conditions: Mapped[str | None] = mapped_column(Text)


class Profile(Base):
    __tablename__ = "profile"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class NodeStats(Base):
    __tablename__ = "node_stats"
    __table_args__ = ({"sqlite_with_rowid": False},)

    node_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("node.id"), primary_key=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    losses: Mapped[int] = mapped_column(Integer)
    draws: Mapped[int] = mapped_column(Integer)


class LearntGame(Base):
    __tablename__ = "learnt_game"
    __table_args__ = ({"sqlite_with_rowid": False},)

    profile_id: Mapped[int] = mapped_column(ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True)
    game_key: Mapped[str] = mapped_column(String(32), primary_key=True)
    source: Mapped[str] = mapped_column(Text)
    result: Mapped[str] = mapped_column(String(40))
    learnt_at: Mapped[datetime] = mapped_column(DateTime)
