"""Joins the two revisions made beside each other on 0003: ratings (0004) and passkeys with
public games (0005). Nothing to change: a store at either one gets the other on its way here.

Revision ID: 0006
Revises: 0004, 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

revision = "0006"
down_revision = ("0004", "0005")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
