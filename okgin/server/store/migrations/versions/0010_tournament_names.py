"""A tournament's name (``tournaments.name``), given by its host; the tournaments made before
it are named by their format ("Swiss", "Knockout", "Round robin").

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_FORMATS = {"swiss": "Swiss", "knockout": "Knockout", "round-robin": "Round robin"}


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as table:
        table.add_column(sa.Column("name", sa.String(60), nullable=False, server_default=""))
    db = op.get_bind()
    for code, data in db.execute(sa.text("SELECT code, data FROM tournaments")).all():
        try:
            fmt = json.loads(data).get("format", "")
        except (ValueError, AttributeError):
            fmt = ""
        db.execute(sa.text("UPDATE tournaments SET name = :name WHERE code = :code"),
                   {"name": _FORMATS.get(fmt, "Tournament"), "code": code})


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as table:
        table.drop_column("name")
