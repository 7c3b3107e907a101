"""Rate limits: token buckets per connection, per address and per seat, for messages, new
games and new connections.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; each message spends one.
An empty bucket refuses with a clear error, so one client flooding the server costs the
others nothing but the reading of its frames. A new connection spends its address's budget,
unless it presents a valid seat token: many players may share one address (an office, a
school, a phone carrier's NAT) and all come back at once after a restart, so a player's
connection spends its seat's budget instead.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from okgin.errors import OkginError


class RateLimited(OkginError):
    """Too many messages or new games in too short a time."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The rates (per second) and bursts allowed; 0 as a rate switches that limit off."""

    messages: float = 50.0
    message_burst: float = 100.0
    address_messages: float = 500.0
    address_message_burst: float = 1000.0
    games: float = 0.5
    game_burst: float = 10.0
    address_games: float = 2.0
    address_game_burst: float = 60.0
    # The coach's answers cost milliseconds of engine time each, holding the interpreter lock:
    # a page asks once per turn (and on a Hint), so 2 a second is plenty for a person.
    coach: float = 2.0
    coach_burst: float = 10.0
    address_coach: float = 4.0
    address_coach_burst: float = 20.0
    # A flooder closed for flooding opens another connection: each costs a handshake and the
    # reading of what it sends before it is closed again, so they are limited per address too.
    # The burst is what a few tabs opened at once need, not more: an idle flooder's full
    # bucket is that many connections read at once before the rate holds it.
    address_connections: float = 5.0
    address_connection_burst: float = 10.0
    # A player coming back (a reload, a dropped phone, a restart) with its seat token: a page
    # retries once a second, so this is what a person needs and what a stolen token may flood.
    seat_connections: float = 1.0
    seat_connection_burst: float = 10.0
    # Over its connection budget, an address may still present seat tokens; each costs a look-up,
    # so only this many may fail before its connections are closed unread again.
    address_token_failures: float = 1.0
    address_token_failure_burst: float = 10.0


class Bucket:
    """One token bucket."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one; False when the bucket is empty."""
        if not self.has_one():
            return False
        self.tokens -= 1
        return True

    def has_one(self) -> bool:
        """Is there a token to spend? (Spends nothing.)"""
        if self.rate <= 0:
            return True
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1

    def give_back(self) -> None:
        """Return one token spent on something that turned out not to count."""
        self.tokens = min(self.burst, self.tokens + 1)

    @property
    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst


class AddressBuckets:
    """The buckets of every address (or seat); full (idle) ones are dropped now and then to bound memory."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, Bucket] = {}

    def take(self, address: str) -> bool:
        return self.bucket(address).take()

    def bucket(self, address: str) -> Bucket:
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._buckets = {a: b for a, b in self._buckets.items() if not b.full}
            bucket = self._buckets[address] = Bucket(self.rate, self.burst)
        return bucket


NO_ADDRESS_LIMITS = Limits(address_messages=0, address_games=0, address_coach=0, address_connections=0,
                           address_token_failures=0)
"""For a load test from one address (`okgin serve --no-address-limits`)."""


class Limiter:
    """The server's limits: one per address shared by its connections, one per connection."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._messages = AddressBuckets(self.limits.address_messages, self.limits.address_message_burst)
        self._games = AddressBuckets(self.limits.address_games, self.limits.address_game_burst)
        self._coach = AddressBuckets(self.limits.address_coach, self.limits.address_coach_burst)
        self._connections = AddressBuckets(
            self.limits.address_connections, self.limits.address_connection_burst)
        self._seats = AddressBuckets(self.limits.seat_connections, self.limits.seat_connection_burst)
        self._token_failures = AddressBuckets(
            self.limits.address_token_failures, self.limits.address_token_failure_burst)

    def for_connection(self, address: str) -> ConnectionLimits:
        """A new connection's limits. Raises RateLimited when its address opens too many."""
        if not self._connections.take(address):
            raise RateLimited(OVER_ADDRESS)
        return ConnectionLimits(self, address)

    def for_player(self, address: str, seat: str) -> ConnectionLimits:
        """A new connection that presented ``seat``'s valid token while its address was over its
        budget: counted against the seat. Raises RateLimited when the seat reconnects too often."""
        if not self._seats.take(seat):
            raise RateLimited(OVER_SEAT)
        return ConnectionLimits(self, address, seat)

    def may_check_token(self, address: str) -> bool:
        """May an address over its budget have a seat token looked up (it has not failed too often)?"""
        return self._token_failures.bucket(address).has_one()

    def token_failed(self, address: str) -> None:
        self._token_failures.take(address)


OVER_ADDRESS = "too many connections from your address: wait a few seconds"
OVER_SEAT = "too many connections for your seat: wait a few seconds"


class ConnectionLimits:
    """One connection's buckets, and its address's (a player's coach questions: its seat's)."""

    def __init__(self, limiter: Limiter, address: str, seat: str | None = None) -> None:
        limits = limiter.limits
        self._limiter = limiter
        self._address = address
        self._seat = seat
        self._messages = Bucket(limits.messages, limits.message_burst)
        self._games = Bucket(limits.games, limits.game_burst)
        self._coach = Bucket(limits.coach, limits.coach_burst)

    def player(self, seat: str) -> None:
        """This connection, counted against its address, presented ``seat``'s valid token: the
        address gets its connection back and the seat spends one instead (when it has one); its
        coach questions are counted against the seat from now on, not the address."""
        self._seat = seat
        if self._limiter._seats.take(seat):
            self._limiter._connections.bucket(self._address).give_back()

    def message(self) -> RateLimited | None:
        """Count one message; the error to answer when this connection or address sends too many."""
        if not self._messages.take():
            return RateLimited(f"too many messages: at most {self._limiter.limits.messages:g} a second")
        if not self._limiter._messages.take(self._address):
            return RateLimited("too many messages from your address: slow down")
        return None

    def new_game(self) -> None:
        """Count one new game or room. Raises RateLimited when too many are made too fast."""
        if not self._games.take():
            raise RateLimited("too many new games: wait a few seconds")
        if not self._limiter._games.take(self._address):
            raise RateLimited("too many new games from your address: wait a few seconds")

    def coach(self) -> None:
        """Count one hint, advice or review. Raises RateLimited when asked too often."""
        if not self._coach.take():
            raise RateLimited(f"too many coach questions: at most {self._limiter.limits.coach:g} a second")
        if self._seat is not None:  # players behind one address each ask for their own seat
            if not self._limiter._coach.take(f"seat {self._seat}"):
                raise RateLimited("too many coach questions for your seat: wait a few seconds")
        elif not self._limiter._coach.take(self._address):
            raise RateLimited("too many coach questions from your address: wait a few seconds")
