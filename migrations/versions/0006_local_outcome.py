"""Local outcomes: each corner judged by an engine where its joseki ended, per book move and profile.

Revision ID: 0006
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "node_local",
        sa.Column("node_id", sa.BigInteger(), sa.ForeignKey("node.id"), primary_key=True),
        sa.Column("profile_id", sa.Integer(), sa.ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("corners", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("margin", sa.Float(), nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "judged_game",
        sa.Column("profile_id", sa.Integer(), sa.ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_key", sa.String(32), primary_key=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("judged_at", sa.DateTime(), nullable=False),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("judged_game")
    op.drop_table("node_local")
