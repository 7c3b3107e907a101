"""Tournaments over rooms: the event, its entrants, its rounds, and each round's tables (a room
each) with the finished match's result.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("code", sa.String(40), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host", sa.String(40), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("driver", sa.String(64), nullable=True),
        sa.Column("lease", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament", sa.String(40), primary_key=True),
        sa.Column("seed", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(40), nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
    )
    op.create_index("ix_tournament_entrants_player", "tournament_entrants", ["player"])
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament", sa.String(40), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("byes", sa.Text, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament", sa.String(40), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("room", sa.String(40), nullable=False, unique=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("game", sa.String(40), nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_entrants_player", "tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
