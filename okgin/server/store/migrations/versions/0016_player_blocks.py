"""Blocks between players: Play online's pool never seats two players where either blocked the other.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_blocks",
        sa.Column("blocker", sa.String(40), primary_key=True),
        sa.Column("blocked", sa.String(40), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_player_blocks_blocked", "player_blocks", ["blocked"])


def downgrade() -> None:
    op.drop_index("ix_player_blocks_blocked", "player_blocks")
    op.drop_table("player_blocks")
