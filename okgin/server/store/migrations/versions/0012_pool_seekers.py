"""Play online's pool of seekers, for a server with no broker (with Redis the pool lives there).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pool_seekers",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("lease", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("claim", sa.String(40), nullable=True),
        sa.Column("claim_until", sa.Float, nullable=True),
        sa.Column("room", sa.String(40), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("changed", sa.Float, nullable=False),
    )
    op.create_index("ix_pool_seekers_player", "pool_seekers", ["player"])
    op.create_index("ix_pool_seekers_state", "pool_seekers", ["state"])


def downgrade() -> None:
    op.drop_index("ix_pool_seekers_state", "pool_seekers")
    op.drop_index("ix_pool_seekers_player", "pool_seekers")
    op.drop_table("pool_seekers")
