"""Bot accounts, personal API tokens (stored hashed) and challenges to bots (docs/api.md).

Revision ID: 0015
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_accounts",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("ix_api_tokens_player", "api_tokens", ["player"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("challenger_player", sa.String(40), nullable=False),
        sa.Column("bot_player", sa.String(40), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("room", sa.String(40), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_challenger_player", "challenges", ["challenger_player"])
    op.create_index("ix_challenges_bot_player", "challenges", ["bot_player"])


def downgrade() -> None:
    op.drop_index("ix_challenges_bot_player", "challenges")
    op.drop_index("ix_challenges_challenger_player", "challenges")
    op.drop_table("challenges")
    op.drop_index("ix_api_tokens_player", "api_tokens")
    op.drop_table("api_tokens")
    op.drop_table("bot_accounts")
