"""Play chips: a wallet per player (never below zero), each staked game's pool, and the ledger.

No existing row changes: every player starts with an empty wallet and gets the daily grant
the first time their chips are looked at (okgin/server/store/chips.py, docs/players.md).

Revision ID: 0007
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chip_wallets",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("balance", sa.Integer, nullable=False),
        sa.Column("granted", sa.String(10), nullable=False),
        sa.CheckConstraint("balance >= 0", name="ck_chip_wallets_balance"),
    )
    op.create_table(
        "chip_pools",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("room", sa.String(40), nullable=False),
        sa.Column("stake", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("settled", sa.Float, nullable=True),
        sa.CheckConstraint("stake > 0 AND total >= 0", name="ck_chip_pools_amounts"),
    )
    op.create_table(
        "chip_ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("balance", sa.Integer, nullable=False),
        sa.Column("game", sa.String(40), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.UniqueConstraint("game", "seat", "kind", name="uq_chip_ledger_move"),
    )
    op.create_index("ix_chip_ledger_player", "chip_ledger", ["player"])


def downgrade() -> None:
    op.drop_index("ix_chip_ledger_player", "chip_ledger")
    op.drop_table("chip_ledger")
    op.drop_table("chip_pools")
    op.drop_table("chip_wallets")
