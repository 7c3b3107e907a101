"""Abandonments: the rated games of Play online a player left to a computer player.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "abandonments",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_abandonments_player", "abandonments", ["player"])


def downgrade() -> None:
    op.drop_index("ix_abandonments_player", "abandonments")
    op.drop_table("abandonments")
