"""Moves played beyond a mined book's lines: the continuations below its threshold, with their games.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "beyond_book",
        sa.Column("parent_id", sa.BigInteger(), primary_key=True),
        sa.Column("collection_id", sa.Integer(), sa.ForeignKey("collection.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("move", sa.String(2), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("beyond_book")
