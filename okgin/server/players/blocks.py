"""Blocks: a player (signed in or a guest) blocks another, and Play online's pool never seats
the two at one table (``Blocks.among``, read by ``Matchmaker.pair`` each look, so every
process sees a block at once). A player is blocked from a game both sat in (by its seat:
players' ids are never shown) and unblocked by a key naming the row only to its blocker.
Calls block: run them in a thread.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import and_, delete, insert, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from okgin.server.store.db import storage_errors
from okgin.server.store.schema import game_players, games, player_blocks, players

LATELY = 10
"""How many of a player's last games the profile lists the other people of, to block."""


class BlockError(ValueError):
    """A block or unblock refused: the message says why; nothing changed."""


@dataclass(frozen=True, slots=True)
class Opponent:
    """Another person in one of your games, as the profile lists them to block."""

    game: str
    seat: int
    name: str
    blocked: bool


@dataclass(frozen=True, slots=True)
class Blocked:
    """A player you blocked: their name, when, and the key that unblocks them."""

    key: str
    name: str
    created: float


def block_key(blocker: str, blocked: str) -> str:
    """The key naming a block to its blocker (not the blocked player's id)."""
    return hashlib.sha256(f"block:{blocker}:{blocked}".encode()).hexdigest()[:24]


class Blocks:
    """The blocks between players, in the players' store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def block_seat(self, player: str, game: object, seat: object) -> str:
        """``player`` blocks whoever sat at ``seat`` of ``game``, a game ``player`` sat in too.
        Returns the blocked player's id. Raises BlockError for anything else (nothing changes)."""
        with storage_errors("could not block the player"), self.engine.begin() as db:
            try:
                other = person_at(db, player, game, seat, "block")
            except LookupError as error:
                raise BlockError(str(error)) from None
            try:
                with db.begin_nested():
                    db.execute(insert(player_blocks).values(blocker=player, blocked=other,
                                                            created=time.time()))
            except IntegrityError:
                pass  # blocked already: the same outcome
        return str(other)

    def unblock(self, player: str, key: object) -> bool:
        """``player`` unblocks the one their block's ``key`` names; False if none."""
        with storage_errors("could not unblock the player"), self.engine.begin() as db:
            mine = select(player_blocks.c.blocked).where(player_blocks.c.blocker == player)
            for (blocked,) in db.execute(mine).all():
                if block_key(player, blocked) == key:
                    db.execute(delete(player_blocks).where(player_blocks.c.blocker == player,
                                                           player_blocks.c.blocked == blocked))
                    return True
        return False

    def listed(self, player: str) -> list[Blocked]:
        """The players ``player`` blocked, the latest first."""
        query = (select(player_blocks.c.blocked, player_blocks.c.created, players.c.name)
                 .outerjoin(players, players.c.id == player_blocks.c.blocked)
                 .where(player_blocks.c.blocker == player).order_by(player_blocks.c.created.desc()))
        with storage_errors("could not read whom you blocked"), self.engine.connect() as db:
            rows = db.execute(query).all()
        return [Blocked(block_key(player, r.blocked), r.name or "a guest", r.created) for r in rows]

    def opponents(self, player: str, limit: int = LATELY) -> list[Opponent]:
        """The other people at ``player``'s last ``limit`` games, the latest first, each by the
        name they sat under (as the table showed it), else their chosen name."""
        mine = (select(game_players.c.game).join(games, games.c.id == game_players.c.game)
                .where(game_players.c.player == player).order_by(games.c.updated.desc()).limit(limit))
        with storage_errors("could not read your games"), self.engine.connect() as db:
            recent = [game for (game,) in db.execute(mine)]
            rows = db.execute(select(game_players.c.game, game_players.c.seat, game_players.c.player,
                                     players.c.name)
                              .outerjoin(players, players.c.id == game_players.c.player)
                              .where(game_players.c.game.in_(recent), game_players.c.player != player)).all()
            seated = {game: _seat_names(head) for game, head in db.execute(
                select(games.c.id, games.c.head).where(games.c.id.in_(recent)))}
            mine_blocked = {b for (b,) in db.execute(select(player_blocks.c.blocked)
                                                     .where(player_blocks.c.blocker == player))}
        order = {game: i for i, game in enumerate(recent)}
        return [Opponent(r.game, r.seat, _at(seated.get(r.game, []), r.seat) or r.name or "a guest",
                         r.player in mine_blocked)
                for r in sorted(rows, key=lambda r: (order[r.game], r.seat))]

    def among(self, ids: Collection[str]) -> set[frozenset[str]]:
        """The pairs of ``ids`` where either blocked the other (the pool's one read a look)."""
        if len(ids) < 2:
            return set()
        chosen = list(set(ids))
        query = select(player_blocks.c.blocker, player_blocks.c.blocked).where(
            and_(player_blocks.c.blocker.in_(chosen), player_blocks.c.blocked.in_(chosen)))
        with storage_errors("could not read the blocks"), self.engine.connect() as db:
            return {frozenset(row) for row in db.execute(query)}


def _seat_names(head: str | None) -> list[str]:
    """The names a stored game's record head gives its seats ([] if it gives none)."""
    try:
        names = json.loads(head or "{}").get("players", [])
    except (ValueError, AttributeError):
        return []
    return [name if isinstance(name, str) else "" for name in names] if isinstance(names, list) else []


def _at(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else ""


def person_at(db: Connection, player: str, game: object, seat: object, verb: str) -> str:
    """The person ``player`` met at ``seat`` of ``game`` (a game both sat in: a block's or a
    report's subject, named by what the page showed). LookupError saying why, for anything else."""
    if not isinstance(game, str) or not isinstance(seat, str) or not seat.isdecimal():
        raise LookupError(f"choose a player from one of your games to {verb}")
    query = select(game_players.c.seat, game_players.c.player).where(game_players.c.game == game[:40])
    seated = {s: p for s, p in db.execute(query)}
    other = seated.get(int(seat))
    if player not in seated.values() or other is None:
        raise LookupError(f"you can {verb} only a person from a game you played")
    if other == player:
        raise LookupError(f"you cannot {verb} yourself")
    return str(other)
