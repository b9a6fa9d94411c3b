"""Games behind book positions: each learnt game's facts, and bounded references from nodes to games.

Revision ID: 0005
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_record",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_key", sa.String(32), nullable=False, unique=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("black", sa.String(200), nullable=False),
        sa.Column("white", sa.String(200), nullable=False),
        sa.Column("black_rank", sa.String(4), nullable=False),
        sa.Column("white_rank", sa.String(4), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("result", sa.String(40), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("strength", sa.Integer(), nullable=True),
    )
    op.create_table(
        "game_ref",
        sa.Column("profile_id", sa.Integer(), sa.ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("node_id", sa.BigInteger(), sa.ForeignKey("node.id"), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game_record.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("move_number", sa.Integer(), nullable=False),
        sa.Column("corner", sa.Integer(), nullable=False),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("game_ref")
    op.drop_table("game_record")
