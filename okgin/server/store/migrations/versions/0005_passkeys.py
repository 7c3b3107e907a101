"""Passkeys (WebAuthn credentials) with their single-use challenges, and the players' yes to
making a game public.

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player"])
    op.create_table(
        "passkey_challenges",
        sa.Column("session", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), primary_key=True),
        sa.Column("challenge", sa.String(100), nullable=False),
        sa.Column("rp_id", sa.String(255), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "public_games",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("public_games")
    op.drop_table("passkey_challenges")
    op.drop_index("ix_passkeys_player", "passkeys")
    op.drop_table("passkeys")
