"""Puzzles (docs/puzzles.md): each puzzle's rating (and a mined puzzle's JSON, its game and the
one player it is shown to when the game was private), each player's puzzle rating, each
player's one answer to a puzzle, and the finished games already mined for puzzles.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("data", sa.Text, nullable=True),
        sa.Column("game", sa.String(40), nullable=True),
        sa.Column("owner", sa.String(40), nullable=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzles_owner", "puzzles", ["owner"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("puzzle", sa.String(16), primary_key=True),
        sa.Column("answer", sa.String(40), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_attempts_player_created", "puzzle_attempts", ["player", "created"])
    op.create_table(
        "puzzle_mined",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("found", sa.Integer, nullable=False),
        sa.Column("mined", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_mined")
    op.drop_index("ix_puzzle_attempts_player_created", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzles_owner", "puzzles")
    op.drop_table("puzzles")
