"""When each session was last seen, for the profile's list of signed-in devices.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as table:
        table.add_column(sa.Column("last_seen", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as table:
        table.drop_column("last_seen")
