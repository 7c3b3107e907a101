"""Open tables: a room's ``listed`` flag as a column of its own, indexed with its phase, so the
lists of tables waiting for players and of games being played now read only the listed rooms.
Every room stored before is private (its data has no ``listed``: ``Room.from_data`` reads False).

Revision ID: 0013
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as table:
        table.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_rooms_listed_phase", "rooms", ["listed", "phase"])


def downgrade() -> None:
    op.drop_index("ix_rooms_listed_phase", "rooms")
    with op.batch_alter_table("rooms") as table:
        table.drop_column("listed")
