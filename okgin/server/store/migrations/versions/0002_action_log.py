"""The action log: a game's record becomes its rows in ``game_log``, one per deal or action.

Each game's ``record`` text is split into its head (format, rules, players: the new ``head``
column) and its log rows (each hand's deal, then its actions, numbered from 1), and its
``version`` becomes the number of rows; then the ``record`` column goes. Downgrade puts the
records back together.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_games = sa.table(
    "games", sa.column("id", sa.String), sa.column("record", sa.Text), sa.column("head", sa.Text),
    sa.column("version", sa.Integer),
)
_log = sa.table(
    "game_log", sa.column("game", sa.String), sa.column("seq", sa.Integer), sa.column("hand", sa.Integer),
    sa.column("entry", sa.Text),
)


def _json(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _rows(game: str, record: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for number, hand in enumerate(record.get("hands", []), start=1):
        entries = [_json({"dealer": hand["dealer"], "deal": hand["deal"]}), *hand.get("actions", [])]
        rows.extend({"game": game, "seq": len(rows) + 1, "hand": number, "entry": entry} for entry in entries)
    return rows


def upgrade() -> None:
    op.create_table(
        "game_log",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("entry", sa.Text, nullable=False),
    )
    op.add_column("games", sa.Column("head", sa.Text, nullable=True))
    db = op.get_bind()
    for game, text in db.execute(sa.select(_games.c.id, _games.c.record)).all():
        record = json.loads(text)
        rows = _rows(game, record)
        if rows:
            db.execute(sa.insert(_log), rows)
        head = {key: record[key] for key in ("format", "rules", "players")}
        db.execute(sa.update(_games).where(_games.c.id == game).values(head=_json(head), version=len(rows)))
    with op.batch_alter_table("games") as batch:
        batch.drop_column("record")
        batch.alter_column("head", existing_type=sa.Text, nullable=False)
        batch.alter_column("version", existing_type=sa.Integer, server_default=None)


def downgrade() -> None:
    op.add_column("games", sa.Column("record", sa.Text, nullable=True))
    db = op.get_bind()
    for game, head in db.execute(sa.select(_games.c.id, _games.c.head)).all():
        hands: list[dict[str, Any]] = []
        query = sa.select(_log.c.hand, _log.c.entry).where(_log.c.game == game).order_by(_log.c.seq)
        for number, entry in db.execute(query):
            if number > len(hands):
                hands.append({**json.loads(entry), "actions": []})
            else:
                hands[-1]["actions"].append(entry)
        db.execute(sa.update(_games).where(_games.c.id == game)
                   .values(record=_json({**json.loads(head), "hands": hands}), version=1))
    with op.batch_alter_table("games") as batch:
        batch.drop_column("head")
        batch.alter_column("record", existing_type=sa.Text, nullable=False)
        batch.alter_column("version", existing_type=sa.Integer, server_default="1")
    op.drop_table("game_log")
