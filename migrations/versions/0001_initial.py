"""Initial schema: collections, source files, variation records, the prefix trie.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "collection",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "source_file",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("collection_id", sa.Integer(), sa.ForeignKey("collection.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.Column("paths", sa.Integer(), nullable=False),
        sa.Column("new", sa.Integer(), nullable=False),
        sa.Column("duplicates", sa.Integer(), nullable=False),
        sa.Column("skipped", sa.Integer(), nullable=False),
        sa.UniqueConstraint("collection_id", "sha256"),
    )
    op.create_index("ix_source_file_collection_id", "source_file", ["collection_id"])
    op.create_table(
        "variation",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("collection_id", sa.Integer(), sa.ForeignKey("collection.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("source_file_id", sa.Integer(), sa.ForeignKey("source_file.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("steps", sa.Text(), nullable=False),
        sa.Column("first_color", sa.String(1), nullable=False),
        sa.Column("corner", sa.String(12), nullable=False),
        sa.Column("swapped", sa.Boolean(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("tree_path", sa.Text(), nullable=False),
        sa.Column("setup", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("collection_id", "steps"),
    )
    op.create_index("ix_variation_source_file_id", "variation", ["source_file_id"])
    op.create_table(
        "node",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=False),
        sa.Column("parent_id", sa.BigInteger(), nullable=False),
        sa.Column("move", sa.String(2), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("steps", sa.Text(), nullable=False),
    )
    op.create_index("ix_node_parent_id", "node", ["parent_id"])
    op.create_table(
        "node_book",
        sa.Column("node_id", sa.BigInteger(), sa.ForeignKey("node.id"), primary_key=True),
        sa.Column("collection_id", sa.Integer(), sa.ForeignKey("collection.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("paths", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(20), nullable=True),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("properties", sa.Text(), nullable=True),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("node_book")
    op.drop_table("node")
    op.drop_table("variation")
    op.drop_table("source_file")
    op.drop_table("collection")
