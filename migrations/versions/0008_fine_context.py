"""Context signatures of seven characters: the opposite corner and the adjacent corners' first stones.

The four region characters stay first; the three fine ones (:mod:`joseki.core.context`) are
recorded only for a corner's first local moves, ``---`` after them, which is what every
signature stored before this revision becomes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":  # SQLite keeps any length in a VARCHAR
        op.alter_column("context_stats", "context", type_=sa.String(7), existing_nullable=False)
    op.execute("UPDATE context_stats SET context = context || '---' WHERE length(context) = 4")


def downgrade() -> None:
    op.execute("CREATE TABLE context_stats_old AS SELECT parent_id, substr(context, 1, 4) AS context, profile_id, "
               "move, sum(games) AS games, sum(wins) AS wins, sum(losses) AS losses, sum(draws) AS draws "
               "FROM context_stats GROUP BY parent_id, substr(context, 1, 4), profile_id, move")
    op.execute("DELETE FROM context_stats")
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("context_stats", "context", type_=sa.String(4), existing_nullable=False)
    op.execute("INSERT INTO context_stats (parent_id, context, profile_id, move, games, wins, losses, draws) "
               "SELECT parent_id, context, profile_id, move, games, wins, losses, draws FROM context_stats_old")
    op.execute("DROP TABLE context_stats_old")
