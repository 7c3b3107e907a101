"""Moderation: players' reports, the operator's bans, the audit of every admin action, and each
chosen name's look-alike key (filled in for the names already chosen).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from okgin.server.store.name_keys import name_key

    op.add_column("players", sa.Column("name_key", sa.String(80), nullable=True))
    op.create_index("ix_players_name_key", "players", ["name_key"])
    named = sa.table("players", sa.column("id", sa.String), sa.column("name", sa.String),
                     sa.column("name_key", sa.String))
    db = op.get_bind()
    chosen = sa.select(named.c.id, named.c.name).where(named.c.name.is_not(None))
    for player, name in db.execute(chosen).all():
        db.execute(sa.update(named).where(named.c.id == player).values(name_key=name_key(name)))
    op.create_table(
        "player_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String(40), nullable=False),
        sa.Column("reported", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("handled", sa.Float, nullable=True),
    )
    op.create_index("ix_player_reports_reporter", "player_reports", ["reporter"])
    op.create_index("ix_player_reports_reported", "player_reports", ["reported"])
    op.create_table(
        "player_bans",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("reason", sa.String(300), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "moderation_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("detail", sa.String(300), nullable=False),
        sa.Column("why", sa.String(300), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_moderation_audit_player", "moderation_audit", ["player"])


def downgrade() -> None:
    op.drop_index("ix_players_name_key", "players")
    op.drop_column("players", "name_key")
    op.drop_index("ix_moderation_audit_player", "moderation_audit")
    op.drop_table("moderation_audit")
    op.drop_table("player_bans")
    op.drop_index("ix_player_reports_reported", "player_reports")
    op.drop_index("ix_player_reports_reporter", "player_reports")
    op.drop_table("player_reports")
