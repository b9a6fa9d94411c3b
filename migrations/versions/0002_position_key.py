"""Transposition keys: node.position_key, the Zobrist key of the local position a node reaches.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("node") as batch:
        batch.add_column(sa.Column("position_key", sa.BigInteger(), nullable=True))
    op.create_index("ix_node_position_key", "node", ["position_key"])
    from joseki.core.position import keys_along

    conn = op.get_bind()
    steps = [row[0] for row in conn.execute(sa.text("SELECT steps FROM node"))]
    if steps:
        keys = keys_along(steps)
        node = sa.table("node", sa.column("steps", sa.Text), sa.column("position_key", sa.BigInteger))
        conn.execute(node.update().where(node.c.steps == sa.bindparam("k_steps"))
                     .values(position_key=sa.bindparam("k_key")),
                     [{"k_steps": s, "k_key": k} for s, k in keys.items()])


def downgrade() -> None:
    op.drop_index("ix_node_position_key", "node")
    with op.batch_alter_table("node") as batch:
        batch.drop_column("position_key")
