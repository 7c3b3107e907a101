"""The daily deal: the secret its seeds come from, and each player's one attempt a day (the
primary key (day, player) is the rule, so two attempts at the same moment cannot both be kept).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_secrets",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("code", sa.String(24), nullable=False, unique=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("points", sa.Text, nullable=False),
        sa.Column("total", sa.Integer, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_index("daily_attempts_player", "daily_attempts", ["player"])


def downgrade() -> None:
    op.drop_index("daily_attempts_player", table_name="daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_secrets")
