"""The daily deal's and the puzzles' tables (docs/daily.md, docs/puzzles.md), on the store's one
MetaData; ``schema`` names them with every other table."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
)

from okgin.server.store.metadata import metadata

# -- the daily deal (okgin/server/store/daily_store.py; docs/daily.md) --

daily_secrets = Table(
    "daily_secrets",
    metadata,
    # The one secret every day's seed is worked out from (HMAC-SHA256 of the date): made at the
    # first daily deal, never sent to anyone; only a day's seed is published, once the day is over.
    Column("id", Integer, primary_key=True),
    Column("secret", String(64), nullable=False),
)

daily_attempts = Table(
    "daily_attempts",
    metadata,
    # A player's one attempt at a day's deals: the primary key is the rule (one a player a day).
    # ``moves``: JSON, a list per deal started of its moves in record notation (the person's and
    # hard's); ``points``: the finished deals' points to the player; ``total`` and ``finished``
    # once all five are over. ``code``: the attempt's name on the results page (never the id).
    # ``version`` grows with each save, which is compare-and-set on it.
    Column("day", String(10), primary_key=True),
    Column("player", String(40), primary_key=True),
    Column("code", String(24), nullable=False, unique=True),
    Column("started", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Column("moves", Text, nullable=False),
    Column("points", Text, nullable=False),
    Column("total", Integer, nullable=True),
    Column("version", Integer, nullable=False),
    Index("daily_attempts_player", "player"),
)

# -- puzzles (okgin/server/players/puzzle_store.py, docs/puzzles.md) --

puzzles = Table(
    "puzzles",
    metadata,
    # A puzzle's rating (openskill mu and sigma, moved by each first answer to it) and, for a
    # puzzle mined from a stored game, its JSON (a shipped puzzle's is okgin's package data).
    Column("id", String(16), primary_key=True),
    Column("data", Text, nullable=True),
    # The game it was mined from (null: shipped); its owner: null when everyone may be given
    # it (shipped, or from a public game), else the one player whose private game it came from.
    Column("game", String(40), nullable=True),
    Column("owner", String(40), nullable=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Index("ix_puzzles_owner", "owner"),
)

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    # A player's puzzle rating: openskill's mu and sigma after ``attempts`` answered puzzles.
    Column("player", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    # A player's one answer to a puzzle (the key: a second answer finds this row and changes
    # nothing), whether it was the answer, and their shown puzzle rating before and after.
    Column("player", String(40), primary_key=True),
    Column("puzzle", String(16), primary_key=True),
    Column("answer", String(40), nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("before", Integer, nullable=False),
    Column("after", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Index("ix_puzzle_attempts_player_created", "player", "created"),
)

puzzle_mined = Table(
    "puzzle_mined",
    metadata,
    # A finished game looked at for puzzles (once each), and how many it gave.
    Column("game", String(40), primary_key=True),
    Column("found", Integer, nullable=False),
    Column("mined", Float, nullable=False),
)
