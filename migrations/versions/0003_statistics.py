"""Game statistics: profiles, per-node results, learnt games, and prior statistics from sources.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    profile = op.create_table(
        "profile",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.bulk_insert(profile, [{"id": 1, "name": "global", "created_at": datetime.now(UTC).replace(tzinfo=None)}])
    if op.get_context().dialect.name == "postgresql":
        # an explicit id does not advance the SERIAL sequence: move it past 1, or the next profile collides
        op.execute("SELECT setval(pg_get_serial_sequence('profile', 'id'), (SELECT max(id) FROM profile))")
    op.create_table(
        "node_stats",
        sa.Column("node_id", sa.BigInteger(), sa.ForeignKey("node.id"), primary_key=True),
        sa.Column("profile_id", sa.Integer(), sa.ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "learnt_game",
        sa.Column("profile_id", sa.Integer(), sa.ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_key", sa.String(32), primary_key=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("result", sa.String(40), nullable=False),
        sa.Column("learnt_at", sa.DateTime(), nullable=False),
        sqlite_with_rowid=False,
    )
    with op.batch_alter_table("node_book") as batch:
        batch.add_column(sa.Column("prior_games", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("prior_wins", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("node_book") as batch:
        batch.drop_column("prior_wins")
        batch.drop_column("prior_games")
    op.drop_table("learnt_game")
    op.drop_table("node_stats")
    op.drop_table("profile")
