"""Bots in Play online's pool: each seeker says whether it is a bot account seeking through the
API and whether its person allows bot opponents; a player's last choice of the latter is kept
(null until chosen: no bots at Play online's rated tables).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pool_seekers") as table:
        table.add_column(sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()))
        table.add_column(sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("players") as table:
        table.add_column(sa.Column("allow_bots", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as table:
        table.drop_column("allow_bots")
    with op.batch_alter_table("pool_seekers") as table:
        table.drop_column("bots")
        table.drop_column("bot")
