"""Public games: a game opens to everyone once every person who sat in it has said yes.

Each person's seat says yes or takes it back (``public_games`` keeps a row per seat that said
yes, naming no player); the game is public while every seat a person sat at (the game's
``levels`` that are no computer player) has said yes: a solo game by its one player. A
seat whose player is gone (an account deleted, or a program without a cookie) cannot say yes,
so a game is public only if they had said yes before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from okgin.server.store.db import storage_errors
from okgin.server.store.schema import game_players, games, public_games


class NotYours(LookupError):
    """A game the asker did not sit in (or none at all): answered as no such game."""


@dataclass(frozen=True, slots=True)
class Shared:
    """Who has said yes to making a game public, of the seats people sat at."""

    people: frozenset[int]
    said: frozenset[int]

    @property
    def public(self) -> bool:
        return bool(self.people) and self.people <= self.said

    @property
    def waiting(self) -> int:
        """People who have not said yes yet."""
        return len(self.people - self.said)


class Sharing:
    """Public games in the store (see the module's docstring)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def shared(self, game: str) -> Shared:
        """Who has said yes in ``game`` (no seats at all for an unknown game)."""
        with storage_errors("could not read the game"), self.engine.connect() as db:
            levels = db.execute(select(games.c.levels).where(games.c.id == game)).scalar()
            said = db.execute(select(public_games.c.seat).where(public_games.c.game == game)).scalars()
            return Shared(people(json.loads(levels) if levels else ()), frozenset(int(seat) for seat in said))

    def said_in(self, game_ids: Sequence[str]) -> dict[str, frozenset[int]]:
        """The seats that said yes in each of ``game_ids`` (one query for a history page)."""
        said: dict[str, set[int]] = {game: set() for game in game_ids}
        query = (select(public_games.c.game, public_games.c.seat)
                 .where(public_games.c.game.in_(list(game_ids))))
        with storage_errors("could not read the games"), self.engine.connect() as db:
            for game, seat in db.execute(query) if game_ids else ():
                said[game].add(int(seat))
        return {game: frozenset(seats) for game, seats in said.items()}

    def is_public(self, game: str) -> bool:
        return self.shared(game).public

    def say(self, player: str, game: str, yes: bool) -> Shared:
        """``player``'s seat in ``game`` says yes (or takes it back). Raises NotYours."""
        with storage_errors("could not save your choice"), self.engine.begin() as db:
            seat = db.execute(select(game_players.c.seat).where(game_players.c.game == game,
                                                                game_players.c.player == player)).scalar()
            if seat is None:
                raise NotYours(game)
            db.execute(delete(public_games).where(public_games.c.game == game, public_games.c.seat == seat))
            if yes:
                try:
                    with db.begin_nested():
                        db.execute(insert(public_games).values(game=game, seat=seat))
                except IntegrityError:  # said at once from two devices: one row is enough
                    pass
        return self.shared(game)


def people(levels: Sequence[str | None]) -> frozenset[int]:
    """The seats people sat at: those with no computer level."""
    return frozenset(seat for seat, level in enumerate(levels) if level is None)
