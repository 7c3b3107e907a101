"""Joins ratings (0004, made on 0003) to the line the other revisions took (passkeys 0005 on
0003, chips 0007 on 0005, tournaments 0008 on 0007). Nothing to change: a store at 0004 gets the
others on its way here, and a store at any of the others gets 0004.

Revision ID: 0009
Revises: 0004, 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

revision = "0009"
down_revision = ("0004", "0008")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
