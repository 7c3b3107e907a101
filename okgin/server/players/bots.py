"""Bot accounts: an account made, for ever, a computer player written by someone else.

A bot account plays through the API (docs/api.md) with a personal token (``api_tokens``); it
is marked BOT wherever its name is shown, is rated in its own pool (``rating_store``: the
families ``bot-two-player`` and ``bot-multi-player``, which no leaderboard lists) and is never
listed among people. An account becomes one only before it has played a rated game as a
person, and never goes back. Calls block: run them in a thread.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, insert, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from okgin.server.store.db import storage_errors
from okgin.server.store.schema import accounts, bot_accounts, players, rating_history, room_players, rooms

BOT_PREFIX = "bot-"
"""A bot's rating family is its table's family with this prefix (``bot_family``)."""


class BotError(ValueError):
    """A bot account refused: the message says why (the status for the page or the API;
    ``beside``: whether the profile still shows the form it answers)."""

    def __init__(self, message: str, status: int = 400, beside: bool = True) -> None:
        super().__init__(message)
        self.status = status
        self.beside = beside


@dataclass(frozen=True, slots=True)
class Bot:
    """A bot account as pages list it: its username and the name it plays under."""

    player: str
    username: str
    name: str


def bot_family(family: str) -> str:
    """The rating family a bot is rated in at a table of ``family`` (its own pool)."""
    return BOT_PREFIX + family


class BotAccounts:
    """The bot accounts, in the players' store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def make_bot(self, player: str) -> None:
        """Make ``player``'s account a bot account, for ever. Raises BotError for a guest (no
        account), a bot already, or an account that has played a rated game as a person."""
        with storage_errors("could not make the bot account"), self.engine.begin() as db:
            if db.execute(select(accounts.c.player).where(accounts.c.player == player)).first() is None:
                raise BotError("make an account first: a bot account is an account")
            if is_bot(db, player):
                raise BotError("this account is a bot account already", beside=False)
            if db.execute(select(rating_history.c.game).where(rating_history.c.player == player)
                          .limit(1)).first() is not None:
                raise BotError("this account has played rated games as a person: make a new account "
                               "for your bot")
            try:
                with db.begin_nested():
                    db.execute(insert(bot_accounts).values(player=player, created=time.time()))
            except IntegrityError:  # two at once: the first made it
                raise BotError("this account is a bot account already", beside=False) from None

    def is_bot(self, player: str | None) -> bool:
        if player is None:
            return False
        with storage_errors("could not read the account"), self.engine.connect() as db:
            return is_bot(db, player)

    def by_username(self, username: str) -> Bot | None:
        """The bot account ``username`` (folded to lower case), or None (no such bot)."""
        query = _bots().where(accounts.c.username == username.strip().lower()[:40])
        with storage_errors("could not read the bot"), self.engine.connect() as db:
            row = db.execute(query).first()
        return None if row is None else Bot(row.player, row.username, row.name or row.username)

    def listed(self, limit: int = 200) -> list[Bot]:
        """Every bot account (the first ``limit`` by username), for the bots' page."""
        with storage_errors("could not read the bots"), self.engine.connect() as db:
            rows = db.execute(_bots().order_by(accounts.c.username).limit(limit)).all()
        return [Bot(row.player, row.username, row.name or row.username) for row in rows]


    def tables_of(self, player: str) -> list[Table]:
        """The rooms ``player`` holds a seat in (the newest 50), as the event stream watches them."""
        query = (select(rooms.c.code, room_players.c.seat, rooms.c.phase, rooms.c.game)
                 .join(rooms, rooms.c.code == room_players.c.room)
                 .where(room_players.c.player == player).order_by(rooms.c.created.desc()).limit(50))
        with storage_errors("could not read your tables"), self.engine.connect() as db:
            return [Table(row.code, row.seat, row.phase, row.game) for row in db.execute(query)]

    def name_of(self, player: str) -> str:
        """The name ``player`` plays under: their display name, else their username."""
        query = (select(players.c.name, accounts.c.username)
                 .outerjoin(accounts, accounts.c.player == players.c.id).where(players.c.id == player))
        with storage_errors("could not read the player"), self.engine.connect() as db:
            row = db.execute(query).first()
        return (row.name or row.username or "a player") if row is not None else "a former player"


@dataclass(frozen=True, slots=True)
class Table:
    """A room a bot holds a seat in: its code, the seat, its phase and its current game."""

    room: str
    seat: int
    phase: str
    game: str | None


def is_bot(db: Connection, player: str) -> bool:
    found = db.execute(select(bot_accounts.c.player).where(bot_accounts.c.player == player)).first()
    return found is not None


def bots_among(db: Connection, candidates: Iterable[str]) -> set[str]:
    """Which of ``candidates`` (player ids) are bot accounts."""
    ids = list(candidates)
    if not ids:
        return set()
    return {p for (p,) in db.execute(select(bot_accounts.c.player).where(bot_accounts.c.player.in_(ids)))}


def _bots() -> Select[Any]:
    return (select(bot_accounts.c.player, accounts.c.username, players.c.name)
            .join(accounts, accounts.c.player == bot_accounts.c.player)
            .join(players, players.c.id == bot_accounts.c.player))
