"""Positions with setup stones: a record is its moves and its setup stones; what a collection says of a move
played with setup stones on the board is kept apart from the same move on a board without them. And each
file's dialect, by which its comments are read for a player.

``variation.setup_stones`` holds a record's setup stones and where they go down ('' for none), and is part
of the record's identity; ``setup_book`` is ``node_book`` for positions with setup stones, keyed also by the
stones; ``source_file.dialect`` names the dialect a file was read in (:mod:`joseki.sgf.dialects`). Stores
imported before keep their old rows until their files are imported again (``--replace``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

SQLITE_NAMES = {"uq": "uq_%(table_name)s_%(column_0_N_name)s"}
"""Names for SQLite's unnamed unique constraints, so that batch mode can drop the old one."""
POSTGRES_OLD = "variation_collection_id_steps_key"


def upgrade() -> None:
    with op.batch_alter_table("source_file") as batch:
        batch.add_column(sa.Column("dialect", sa.String(20), nullable=True))
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("variation", naming_convention=SQLITE_NAMES if sqlite else None) as batch:
        batch.add_column(sa.Column("setup_stones", sa.Text(), nullable=False, server_default=""))
        batch.drop_constraint("uq_variation_collection_id_steps" if sqlite else POSTGRES_OLD, type_="unique")
        batch.create_unique_constraint("uq_variation_record", ["collection_id", "steps", "setup_stones"])
    op.create_table(
        "setup_book",
        sa.Column("node_id", sa.BigInteger(), sa.ForeignKey("node.id"), primary_key=True),
        sa.Column("collection_id", sa.Integer(), sa.ForeignKey("collection.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("setup", sa.Text(), primary_key=True),
        sa.Column("paths", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(20)),
        sa.Column("comment", sa.Text()),
        sa.Column("properties", sa.Text()),
        sa.Column("prior_games", sa.Integer()),
        sa.Column("prior_wins", sa.Integer()),
        sa.Column("conditions", sa.Text()),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("setup_book")
    op.execute("DELETE FROM variation WHERE setup_stones <> '' AND EXISTS (SELECT 1 FROM variation AS other "
               "WHERE other.collection_id = variation.collection_id AND other.steps = variation.steps "
               "AND other.id < variation.id)")
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("variation") as batch:
        batch.drop_constraint("uq_variation_record", type_="unique")
        batch.drop_column("setup_stones")
        batch.create_unique_constraint("uq_variation_collection_id_steps" if sqlite else POSTGRES_OLD,
                                       ["collection_id", "steps"])
    with op.batch_alter_table("source_file") as batch:
        batch.drop_column("dialect")
