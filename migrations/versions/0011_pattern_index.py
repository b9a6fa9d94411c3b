"""The pattern index: each game's facts, and the sorted arrays of its segments as chunked BLOBs.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pattern_game",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_key", sa.String(32), nullable=False, unique=True),
        sa.Column("root", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("black", sa.String(200), nullable=False),
        sa.Column("white", sa.String(200), nullable=False),
        sa.Column("black_rank", sa.String(4), nullable=False),
        sa.Column("white_rank", sa.String(4), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("result", sa.String(40), nullable=False),
        sa.Column("winner", sa.String(1), nullable=False),
        sa.Column("event", sa.String(200), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
    )
    op.create_table(
        "pattern_segment",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("records", sa.Integer(), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "pattern_chunk",
        sa.Column("segment_id", sa.Integer(), sa.ForeignKey("pattern_segment.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("name", sa.String(16), primary_key=True),
        sa.Column("part", sa.Integer(), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pattern_chunk")
    op.drop_table("pattern_segment")
    op.drop_table("pattern_game")
