"""Joins ratings (0004, made on 0003) to the line passkeys and chips took (0005 on 0003, 0007
on 0005). Nothing to change: a store at 0004 gets 0005 and 0007 on its way here, and a store at
0005 or 0007 gets 0004.

Revision ID: 0008
Revises: 0004, 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

revision = "0008"
down_revision = ("0004", "0007")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
