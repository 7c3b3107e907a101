"""Players and their sessions in the store: guests, display names, and the seats they took.

A browser's session id lives only in its cookie; the store keeps its SHA-256, so the rows
alone cannot be used as a cookie. Every game a player sits in is recorded against the
player (``game_players``); that, and nothing else, opens its record, review and replay.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import delete, exists, insert, select, update
from sqlalchemy.engine import Connection, Engine

from okgin.server.rooms.room import RoomError, clean_name
from okgin.server.store.db import storage_errors
from okgin.server.store.name_keys import name_key
from okgin.server.store.schema import accounts, daily_attempts, game_players, players, room_players, sessions

SEEN_EVERY = 60.0
"""A session's last_seen is written again only once this many seconds have passed: a page's
every request reads the session, and only about one a minute writes."""


@dataclass(frozen=True, slots=True)
class Session:
    """Who a request comes from: the player, their display name, and the session's CSRF token."""

    player: str
    name: str | None
    csrf: str
    id_hash: str
    username: str | None = None
    """The account's username when the player has one (signed in), else None (a guest)."""

    @property
    def shown(self) -> str | None:
        """The name the site frame shows for a signed-in player (their display name, else the
        account's username), or None for a guest."""
        return None if self.username is None else self.name or self.username


class Players:
    """The players, their sessions and their seats, in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def new_guest(self, agent: str = "") -> tuple[Session, str]:
        """A new guest player with a new session; returns it and the cookie's session id."""
        player = secrets.token_urlsafe(16)
        with storage_errors("could not make a new player"), self.engine.begin() as db:
            db.execute(insert(players).values(id=player, created=time.time(), name=None))
            return _open_session(db, player, None, agent)

    def new_session(self, player: str, agent: str, replacing: Session | None) -> tuple[Session, str]:
        """A new session (and cookie id) for ``player``, ending ``replacing``: a sign-in never
        keeps the session id the browser had before (no session fixation)."""
        with storage_errors("could not sign in"), self.engine.begin() as db:
            if replacing is not None:
                db.execute(delete(sessions).where(sessions.c.id_hash == replacing.id_hash))
            name = db.execute(select(players.c.name).where(players.c.id == player)).scalar()
            return _open_session(db, player, name, agent)

    def session(self, session_id: str) -> Session | None:
        """The session whose cookie holds ``session_id``, or None (unknown or signed out)."""
        if not 20 <= len(session_id) <= 100:
            return None
        hashed = _hashed(session_id)
        query = (select(sessions.c.player, sessions.c.csrf, sessions.c.last_seen, players.c.name,
                        accounts.c.username)
                 .join(players, players.c.id == sessions.c.player)
                 .outerjoin(accounts, accounts.c.player == sessions.c.player)
                 .where(sessions.c.id_hash == hashed))
        with storage_errors("could not read the session"), self.engine.connect() as db:
            row = db.execute(query).first()
        if row is None:
            return None
        now = time.time()
        if row.last_seen is None or now - row.last_seen >= SEEN_EVERY:
            with storage_errors("could not read the session"), self.engine.begin() as db:
                db.execute(update(sessions).where(sessions.c.id_hash == hashed).values(last_seen=now))
        return Session(row.player, row.name, row.csrf, hashed, row.username)

    def set_name(self, player: str, name: object) -> str:
        """Give ``player`` the display name ``name`` (spaces folded); returns it. Raises RoomError,
        also for a name another player's looks like (``names.name_key``)."""
        name = clean_name(name)
        with storage_errors("could not save the name"), self.engine.begin() as db:
            give_name(db, player, name)
        return name

    def name_once(self, player: str, name: str) -> None:
        """The name a player first typed at a table becomes their display name, if they had none
        and no other player's name looks like it."""
        try:
            name = clean_name(name)
        except RoomError:
            return
        with storage_errors("could not save the name"), self.engine.begin() as db:
            if db.execute(select(players.c.name).where(players.c.id == player)).scalar() is None:
                with contextlib.suppress(RoomError):
                    give_name(db, player, name)

    def allows_bots(self, player: str) -> bool | None:
        """Play online's "allow bot opponents" as ``player`` last chose it (None: never chosen)."""
        with storage_errors("could not read the player"), self.engine.connect() as db:
            found = db.execute(select(players.c.allow_bots).where(players.c.id == player)).first()
        return None if found is None or found.allow_bots is None else bool(found.allow_bots)

    def choose_bots(self, player: str, allow: bool) -> None:
        """Keep ``player``'s choice of Play online's "allow bot opponents" for next time."""
        with storage_errors("could not save the choice"), self.engine.begin() as db:
            db.execute(update(players).where(players.c.id == player).values(allow_bots=allow))

    def forget_idle_guests(self, older_than: float) -> int:
        """Delete guests made before ``older_than`` (Unix time) who never sat at a table, never
        played a daily deal and have no account: a page opened once, or by a program, leaves no
        row for ever. Returns how many."""
        idle = (players.c.created < older_than) & ~exists().where(game_players.c.player == players.c.id) \
            & ~exists().where(room_players.c.player == players.c.id) \
            & ~exists().where(daily_attempts.c.player == players.c.id) \
            & ~exists().where(accounts.c.player == players.c.id)
        with storage_errors("could not forget idle guests"), self.engine.begin() as db:
            gone = [player for (player,) in db.execute(select(players.c.id).where(idle).limit(1000))]
            if gone:
                db.execute(delete(sessions).where(sessions.c.player.in_(gone)))
                db.execute(delete(players).where(players.c.id.in_(gone)))
        return len(gone)

    # -- seats --------------------------------------------------------------------------------

    def sat_in_game(self, game: str, seats: Mapping[int, str]) -> None:
        """Record that each ``seats[seat]`` player sits at ``seat`` of ``game``."""
        with storage_errors("could not record the game's players"), self.engine.begin() as db:
            _put_seats(db, game, seats)

    def sat_in_room(self, room: str, seat: int, player: str) -> None:
        """Record that ``player`` took ``seat`` of ``room`` (its later games are theirs too)."""
        with storage_errors("could not record the seat"), self.engine.begin() as db:
            db.execute(delete(room_players).where(room_players.c.room == room, room_players.c.seat == seat))
            db.execute(insert(room_players).values(room=room, seat=seat, player=player))

    def games_of(self, player: str) -> dict[str, int]:
        """The games ``player`` sat in, each with their seat."""
        query = select(game_players.c.game, game_players.c.seat).where(game_players.c.player == player)
        with storage_errors("could not read your games"), self.engine.connect() as db:
            return {game: seat for game, seat in db.execute(query)}

    def seat_in_room(self, player: str | None, room: str) -> int | None:
        """The seat ``player`` took in ``room`` (and still holds, unless another took it since)."""
        if player is None:
            return None
        query = select(room_players.c.seat).where(room_players.c.room == room,
                                                  room_players.c.player == player)
        with storage_errors("could not read the room's players"), self.engine.connect() as db:
            seat = db.execute(query).scalar()
        return None if seat is None else int(seat)

    def seat_in(self, player: str | None, game: str) -> int | None:
        """``player``'s seat in ``game``, or None when they did not sit in it."""
        if player is None:
            return None
        query = select(game_players.c.seat).where(game_players.c.game == game,
                                                  game_players.c.player == player)
        with storage_errors("could not read the game's players"), self.engine.connect() as db:
            seat = db.execute(query).scalar()
        return None if seat is None else int(seat)


def _open_session(db: Connection, player: str, name: str | None, agent: str) -> tuple[Session, str]:
    session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    hashed = _hashed(session_id)
    now = time.time()
    db.execute(insert(sessions).values(id_hash=hashed, player=player, created=now, csrf=csrf,
                                       agent=agent[:120] or None, last_seen=now))
    return Session(player, name, csrf, hashed), session_id


def _put_seats(db: Connection, game: str, seats: Mapping[int, str]) -> None:
    if not seats:  # a room of programs without cookies: nobody's game
        return
    db.execute(delete(game_players).where(game_players.c.game == game,
                                          game_players.c.seat.in_(list(seats))))
    db.execute(insert(game_players), [{"game": game, "seat": s, "player": p} for s, p in seats.items()])


def _hashed(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def give_name(db: Connection, player: str, name: str) -> None:
    """``player``'s chosen name becomes ``name`` (already clean); RoomError if another player's
    chosen name looks like it (the same look-alike key)."""
    key = name_key(name)
    other = db.execute(select(players.c.id).where(players.c.name_key == key, players.c.id != player)).first()
    if other is not None:
        raise RoomError(f"another player is called {name} or a name that looks like it: choose another")
    db.execute(update(players).where(players.c.id == player).values(name=name, name_key=key))
