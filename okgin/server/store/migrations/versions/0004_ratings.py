"""Ratings: each finished game rated once, every player's current rating per family (and how
many are in each tenth of a rating, for a place), and a history row per rated game and player.

Every game already finished when the store is upgraded is marked rated for nobody
(``rated_games.family`` null): its players' ratings start from the next game they finish.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rated_games",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("rated", sa.Float, nullable=False),
        sa.Column("family", sa.String(16), nullable=True),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("solo", sa.Boolean, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("bucket", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_counts",
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("bucket", sa.Integer, primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_family_ordinal", "ratings", ["family", "ordinal", "player"])
    op.create_table(
        "rating_history",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("rated", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("weight", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player_rated", "rating_history", ["player", "rated"])
    # The games finished before ratings: rated for nobody, once and for all.
    op.execute(sa.text(
        "INSERT INTO rated_games (game, rated, family, preset, solo, seats) "
        "SELECT id, :now, NULL, '', :no, 0 FROM games WHERE status = 'finished'"
    ).bindparams(now=time.time(), no=False))


def downgrade() -> None:
    op.drop_index("ix_rating_history_player_rated", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_family_ordinal", "ratings")
    op.drop_table("rating_counts")
    op.drop_table("ratings")
    op.drop_table("rated_games")
