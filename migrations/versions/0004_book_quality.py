"""Book quality: conditions per move, and the influence model's verdict per variation.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

VARIATION_COLUMNS = (("area_first", sa.Integer()), ("area_second", sa.Integer()),
                     ("influence_first", sa.Integer()), ("influence_second", sa.Integer()),
                     ("favour_first", sa.Float()), ("favour_second", sa.Float()))


def upgrade() -> None:
    with op.batch_alter_table("node_book") as batch:
        batch.add_column(sa.Column("conditions", sa.Text(), nullable=True))
    with op.batch_alter_table("variation") as batch:
        for name, kind in VARIATION_COLUMNS:
            batch.add_column(sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("variation") as batch:
        for name, _ in reversed(VARIATION_COLUMNS):
            batch.drop_column(name)
    with op.batch_alter_table("node_book") as batch:
        batch.drop_column("conditions")
