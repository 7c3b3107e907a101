"""The schema as it was before Alembic (main of 1 Dec 2026): games with their whole record, rooms, statistics.

Written so that it also brings a store made before Alembic to this revision in place: each
table is created only if it is missing (a store that never showed /stats has no statistics
table, an older one no rooms), and a games table from before versions gets its column.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    tables = set(inspector.get_table_names())
    if "games" not in tables:
        op.create_table(
            "games",
            sa.Column("id", sa.String(40), primary_key=True),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("levels", sa.Text, nullable=False),
            sa.Column("record", sa.Text, nullable=False),
            sa.Column("winner", sa.Integer, nullable=True),
            sa.Column("scores", sa.Text, nullable=True),
            sa.Column("version", sa.Integer, nullable=False, server_default="1"),
        )
    elif "version" not in {column["name"] for column in inspector.get_columns("games")}:
        op.add_column("games", sa.Column("version", sa.Integer, nullable=False, server_default="1"))
    if "rooms" not in tables:
        op.create_table(
            "rooms",
            sa.Column("code", sa.String(40), primary_key=True),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
            sa.Column("phase", sa.String(16), nullable=False),
            sa.Column("game", sa.String(40), nullable=True),
            sa.Column("data", sa.Text, nullable=False),
        )
        op.create_index("ix_rooms_game", "rooms", ["game"])
    if "hand_results" not in tables:
        op.create_table(
            "hand_results",
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("hand", sa.Integer, nullable=False),
            sa.Column("finished", sa.Float, nullable=False),
            sa.Column("preset", sa.String(40), nullable=False),
            sa.Column("outcome", sa.String(16), nullable=False),
            sa.Column("won_hand", sa.Boolean, nullable=False),
            sa.Column("points", sa.Integer, nullable=False),
            sa.Column("knocked_against", sa.Integer, nullable=True),
            sa.Column("mistakes", sa.Integer, nullable=True),
            sa.Column("won_game", sa.Boolean, nullable=False),
        )
        op.create_index("ix_hand_results_game", "hand_results", ["game"])


def downgrade() -> None:
    op.drop_table("hand_results")
    op.drop_table("rooms")
    op.drop_table("games")
