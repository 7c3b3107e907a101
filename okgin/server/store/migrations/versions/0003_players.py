"""Players: guests, accounts and their sessions, sign-in limits, and who sat in each seat of a
game and of a room.

Games stored before this revision have no ``game_players`` rows: they stay in the store,
attached to no player, and so in nobody's history.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("agent", sa.String(120), nullable=True),
    )
    op.create_index("ix_sessions_player", "sessions", ["player"])
    op.create_table(
        "accounts",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("username", sa.String(40), nullable=False, unique=True),
        sa.Column("hash", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sign_in_limits",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    for name, key in (("game_players", "game"), ("room_players", "room")):
        op.create_table(
            name,
            sa.Column(key, sa.String(40), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("player", sa.String(40), nullable=False),
        )
        op.create_index(f"ix_{name}_player", name, ["player"])


def downgrade() -> None:
    for name in ("room_players", "game_players"):
        op.drop_index(f"ix_{name}_player", name)
        op.drop_table(name)
    op.drop_table("sign_in_limits")
    op.drop_table("accounts")
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
    op.drop_table("players")
