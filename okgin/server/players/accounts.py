"""Accounts: a guest keeps their player on other devices with a username and a password.

Making an account, signing in, changing the password, signing out (this device or the others)
and deleting the account with all its personal data. Sign-in, by password or by passkey, is
limited per address (refused for a growing time after repeated failures; each try counted in
one statement before its password or passkey is checked, ``Accounts.attempt``, so sign-ins sent
together cannot pass the limit) and slowed per account
(a growing delay before each answer, which the rightful owner also waits out, but is never
locked out by). Every refusal about a username says the same, whether it exists or not.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import ColumnElement, case, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from okgin.server.players import passwords, puzzle_store, rating_store
from okgin.server.players.devices import device_name
from okgin.server.players.identity import Players, Session
from okgin.server.store import chips, daily_store, tournament_store
from okgin.server.store.db import storage_errors
from okgin.server.store.schema import (
    abandonments,
    accounts,
    api_tokens,
    bot_accounts,
    challenges,
    game_players,
    games,
    moderation_audit,
    passkey_challenges,
    passkeys,
    player_bans,
    player_blocks,
    player_reports,
    players,
    pool_seekers,
    room_players,
    rooms,
    sessions,
    sign_in_limits,
)

FORMER = "a former player"
"""The name a deleted account's seats and entries show in the games, rooms and tournaments that
stay for the others."""
WRONG = "wrong username or password"
ADDRESS_FREE = 5
"""Failed sign-ins from one address before it waits: then 1, 2, 4 … minutes (at most an hour)."""
MAX_WAIT = 3600.0
ACCOUNT_FREE = 3
"""Failed sign-ins on one account before each answer about it is slowed: 0.25, 0.5 … 4 s."""


class AccountError(ValueError):
    """An account request refused: the message is for the person (never says who exists), the
    status for the page that says it (400 a bad choice, 403 a wrong password, 429 wait)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class TooMany(AccountError):
    """Sign-in refused for now from this address: ``wait`` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"too many failed sign-ins from your address: try again in {max(1, round(wait))} s",
                         429)
        self.wait = wait


@dataclass(frozen=True, slots=True)
class Device:
    """A signed-in browser, as the profile lists it."""

    created: float
    name: str
    """The browser and system ("Firefox on Android", or "Unknown browser"): ``device_name``."""
    last_seen: float
    current: bool


class Attempt:
    """One sign-in's try of its address, taken by ``Accounts.attempt`` before the password or
    passkey is checked. ``failed`` keeps it counted; otherwise it is given back."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.kept = False

    def failed(self, username: str | None) -> None:
        """The password or passkey was checked and refused: the try stays a failure of the
        address, and one more is counted against the account ``username`` when one is known."""
        self.kept = True
        if username is not None:
            with storage_errors("could not sign in"), self.engine.begin() as db:
                _counted(db, _key("account", username), time.time(), lockout=False, unless_waiting=False)


def clean_username(text: object) -> str:
    """A username: 3 to 30 letters, digits, '.', '-' or '_', folded to lower case."""
    if not isinstance(text, str):
        raise AccountError("type a username")
    name = text.strip().lower()
    if not 3 <= len(name) <= 30 or not all(c.isalnum() or c in "._-" for c in name) or not name.isascii():
        raise AccountError("a username is 3 to 30 letters, digits, '.', '-' or '_'")
    return name


class Accounts:
    """Accounts over the players' store (see the module's docstring)."""

    def __init__(self, players: Players) -> None:
        self.players = players
        self.engine: Engine = players.engine

    def create(self, session: Session, username: object, password: str, agent: str) -> tuple[Session, str]:
        """The guest of ``session`` becomes an account; returns its new session and cookie id."""
        name = clean_username(username)
        try:
            passwords.check_new(password, name)
        except passwords.PasswordError as error:
            raise AccountError(str(error)) from None
        stored = passwords.hashed(password)
        taken = AccountError("that username is taken: choose another")
        with storage_errors("could not make the account"), self.engine.begin() as db:
            if db.execute(select(accounts.c.player).where(accounts.c.player == session.player)).first():
                raise AccountError("you already have an account: sign out to make another")
            if db.execute(select(accounts.c.player).where(accounts.c.username == name)).first():
                raise taken
            try:
                with db.begin_nested():  # two at once: the unique index refuses the second
                    db.execute(insert(accounts).values(player=session.player, username=name, hash=stored,
                                                       created=time.time()))
            except IntegrityError:
                raise taken from None
        return self.players.new_session(session.player, agent, replacing=session)

    def check_address(self, address: str) -> None:
        """Raise TooMany while ``address`` must wait after its failed sign-ins."""
        wait = self._waiting(_key("address", address), time.time())
        if wait > 0:
            raise TooMany(wait)

    def delay(self, username: object) -> float:
        """Seconds to wait before answering a sign-in to ``username`` (its recent failures)."""
        with storage_errors("could not sign in"), self.engine.connect() as db:
            return _slowdown(db, _key("account", _folded(username)))

    @contextmanager
    def attempt(self, address: str) -> Iterator[Attempt]:
        """A sign-in's try from ``address``, taken before its password or passkey is checked:
        counted as a failure at once, in one statement, or TooMany while the address must wait.
        However many sign-ins arrive together, on one process or several, no more are checked
        than the limit lets through. The try stays counted if the sign-in calls
        ``Attempt.failed``; a right answer, or a request refused before any check, gives it back."""
        key = _key("address", address)
        self._take_try(key, time.time())
        attempt = Attempt(self.engine)
        try:
            yield attempt
        finally:
            if not attempt.kept:
                self._give_back(key, time.time())

    def sign_in(self, session: Session | None, username: object, password: str, address: str,
                agent: str) -> tuple[Session, str]:
        """A new session for the account, replacing ``session``, and its cookie id.
        Raises TooMany for an address over its limit (its try taken first: ``attempt``),
        AccountError(WRONG) for anything wrong."""
        with self.attempt(address) as attempt:
            name = _folded(username)
            with storage_errors("could not sign in"), self.engine.connect() as db:
                row = db.execute(select(accounts.c.player, accounts.c.hash)
                                 .where(accounts.c.username == name)).first()
            given = password[:passwords.MAX_LENGTH]
            if not passwords.verify(row.hash if row else None, given) or row is None:
                attempt.failed(name)
                raise AccountError(WRONG, 403)
            self.succeeded(name)
            return self.players.new_session(row.player, agent, replacing=session)

    def succeeded(self, username: str) -> None:
        """A sign-in to ``username`` succeeded: its slowdown ends."""
        self._clear(_key("account", username))

    def change_password(self, session: Session, current: str, new: str) -> None:
        with storage_errors("could not read the account"), self.engine.connect() as db:
            row = db.execute(select(accounts.c.username, accounts.c.hash)
                             .where(accounts.c.player == session.player)).first()
        if row is None:
            raise AccountError("make an account first")
        if not passwords.verify(row.hash, current[:passwords.MAX_LENGTH]):
            raise AccountError("your current password is not that", 403)
        try:
            passwords.check_new(new, row.username)
        except passwords.PasswordError as error:
            raise AccountError(str(error)) from None
        with storage_errors("could not save the password"), self.engine.begin() as db:
            db.execute(update(accounts).where(accounts.c.player == session.player)
                       .values(hash=passwords.hashed(new)))

    def username(self, player: str) -> str | None:
        with storage_errors("could not read the account"), self.engine.connect() as db:
            return db.execute(select(accounts.c.username).where(accounts.c.player == player)).scalar()

    def devices(self, session: Session) -> list[Device]:
        query = (select(sessions.c.id_hash, sessions.c.created, sessions.c.agent, sessions.c.last_seen)
                 .where(sessions.c.player == session.player).order_by(sessions.c.created))
        with storage_errors("could not read your devices"), self.engine.connect() as db:
            rows = db.execute(query).all()
        return [Device(created, device_name(agent), seen or created, id_hash == session.id_hash)
                for id_hash, created, agent, seen in rows]

    def sign_out(self, session: Session, others: bool) -> int:
        """End this session, or (``others``) every other one of its player; returns how many."""
        query = delete(sessions).where(sessions.c.player == session.player)
        query = query.where(sessions.c.id_hash != session.id_hash if others
                            else sessions.c.id_hash == session.id_hash)
        with storage_errors("could not sign out"), self.engine.begin() as db:
            return int(db.execute(query).rowcount)

    def delete(self, session: Session, password: str) -> None:
        """Remove the account and all its personal data; its seats in games stay as FORMER."""
        with storage_errors("could not read the account"), self.engine.connect() as db:
            row = db.execute(select(accounts.c.username, accounts.c.hash)
                             .where(accounts.c.player == session.player)).first()
        if row is None or not passwords.verify(row.hash, password[:passwords.MAX_LENGTH]):
            raise AccountError("your password is not that: the account is kept", 403)
        with storage_errors("could not delete the account"), self.engine.begin() as db:
            _forget(db, session.player)
            db.execute(delete(sign_in_limits).where(sign_in_limits.c.key == _key("account", row.username)))

    # -- limits ---------------------------------------------------------------------------------

    def _waiting(self, key: str, now: float) -> float:
        with storage_errors("could not sign in"), self.engine.connect() as db:
            until = db.execute(select(sign_in_limits.c.until).where(sign_in_limits.c.key == key)).scalar()
        return 0.0 if until is None else max(0.0, float(until) - now)

    def _take_try(self, key: str, now: float) -> None:
        """Count one failure more against the address ``key`` before its password is checked,
        unless it must wait (then TooMany): one statement, so two at once never both pass."""
        with storage_errors("could not sign in"), self.engine.begin() as db:
            if _counted(db, key, now, lockout=True, unless_waiting=True) is None:
                until = db.execute(select(sign_in_limits.c.until).where(sign_in_limits.c.key == key)).scalar()
                raise TooMany(float(until or now) - now)

    def _give_back(self, key: str, now: float) -> None:
        """The try taken for a right password was no failure: one failure less, and no wait (a
        wait it began is its own; one begun meanwhile by another try counted this one)."""
        limit = sign_in_limits.c
        with storage_errors("could not sign in"), self.engine.begin() as db:
            db.execute(update(sign_in_limits).where(limit.key == key, limit.failures > 0)
                       .values(failures=limit.failures - 1,
                               until=case((limit.until > now, 0.0), else_=limit.until)))

    def _clear(self, key: str) -> None:
        with storage_errors("could not sign in"), self.engine.begin() as db:
            db.execute(delete(sign_in_limits).where(sign_in_limits.c.key == key))


def _counted(db: Connection, key: str, now: float, lockout: bool, unless_waiting: bool) -> int | None:
    """One failure more against ``key`` in one statement (an insert, or on conflict an update:
    atomic on SQLite and on PostgreSQL), its new count; with ``lockout`` the address's wait
    begins once the count reaches ADDRESS_FREE. ``unless_waiting``: nothing is counted while
    ``key`` must wait, and the answer is None."""
    limit = sign_in_limits.c
    insert_into = postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert
    # ``until`` moves only when a wait begins: two requests' clocks are not in their statements'
    # order, so an ``until`` of "now" written by one would be a wait for the other.
    first = insert_into(sign_in_limits).values(key=key, failures=1,
                                               until=now + _address_wait(1) if _address_wait(1) else 0.0)
    failures = limit.failures + 1
    statement = first.on_conflict_do_update(
        index_elements=[limit.key],
        set_={"failures": failures, "until": _waiting_until(failures, now) if lockout else limit.until},
        where=limit.until <= now if unless_waiting else None)
    counted = db.execute(statement.returning(limit.failures)).scalar()
    return None if counted is None else int(counted)


def _address_wait(failures: int) -> float:
    """Seconds an address waits after its ``failures``-th failed sign-in."""
    return 0.0 if failures < ADDRESS_FREE else min(MAX_WAIT, 60.0 * 2.0 ** (failures - ADDRESS_FREE))


def _waiting_until(failures: ColumnElement[int], now: float) -> ColumnElement[float]:
    """``now`` plus ``_address_wait`` of a count in SQL, once the count is at the limit (one
    CASE: SQLite may lack power())."""
    steps, count = [], ADDRESS_FREE
    while (wait := _address_wait(count)) < MAX_WAIT:
        steps.append((failures == count, now + wait))
        count += 1
    return case((failures < ADDRESS_FREE, sign_in_limits.c.until), *steps, else_=now + MAX_WAIT)


def _slowdown(db: Connection, key: str) -> float:
    failures = db.execute(select(sign_in_limits.c.failures).where(sign_in_limits.c.key == key)).scalar() or 0
    return 0.0 if failures < ACCOUNT_FREE else min(4.0, 0.25 * 2.0 ** (failures - ACCOUNT_FREE))


def _forget(db: Connection, player: str) -> None:
    """Every row about ``player`` goes; the games and rooms they sat in and the tournaments they
    entered name them FORMER; their chips and ledger, their entries and the tournaments they host
    pass to an id that names nobody (``chips.forget``: no chip is lost)."""
    db.execute(delete(pool_seekers).where(pool_seekers.c.player == player))  # a place in Play online's pool
    seats = db.execute(select(game_players.c.game, game_players.c.seat)
                       .where(game_players.c.player == player)).all()
    for game, seat in seats:
        head = db.execute(select(games.c.head).where(games.c.id == game)).scalar()
        if head is not None:
            data = json.loads(head)
            if seat < len(data.get("players", [])):
                data["players"][seat] = FORMER
                db.execute(update(games).where(games.c.id == game).values(head=json.dumps(data)))
    for room, seat in db.execute(select(room_players.c.room, room_players.c.seat)
                                 .where(room_players.c.player == player)).all():
        text = db.execute(select(rooms.c.data).where(rooms.c.code == room)).scalar()
        if text is not None:
            data = json.loads(text)
            if seat < len(data.get("seats", [])) and data["seats"][seat].get("kind") == "person":
                data["seats"][seat]["name"] = FORMER
                db.execute(update(rooms).where(rooms.c.code == room).values(data=json.dumps(data)))
    rating_store.forget(db, player)
    daily_store.forget(db, player)  # the daily deal's attempts
    puzzle_store.forget(db, player)
    db.execute(delete(passkey_challenges).where(passkey_challenges.c.session.in_(
        select(sessions.c.id_hash).where(sessions.c.player == player))))
    for table in (game_players, room_players, sessions, passkeys, api_tokens, bot_accounts, abandonments):
        db.execute(delete(table).where(table.c.player == player))
    db.execute(delete(challenges).where(
        (challenges.c.challenger_player == player) | (challenges.c.bot_player == player)))
    db.execute(delete(player_blocks).where(
        (player_blocks.c.blocker == player) | (player_blocks.c.blocked == player)))
    db.execute(delete(player_reports).where(
        (player_reports.c.reporter == player) | (player_reports.c.reported == player)))
    db.execute(delete(player_bans).where(player_bans.c.player == player))
    # The audit keeps that an action was taken, not on whom nor the names it gave.
    db.execute(update(moderation_audit).where(moderation_audit.c.player == player)
               .values(player=FORMER, detail=""))
    gone = chips.forget(db, player)
    tournament_store.forget(db, player, gone, FORMER)
    db.execute(delete(accounts).where(accounts.c.player == player))
    db.execute(delete(players).where(players.c.id == player))


def _folded(username: object) -> str:
    return username.strip().lower()[:40] if isinstance(username, str) else ""


def _key(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()

