"""Rate limits: token buckets per connection, per player, per address and per seat, for
messages, new games, coach questions, new connections and new guests.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; each message spends one.
An empty bucket refuses with a clear error, so one client flooding the server costs the
others nothing but the reading of its frames. Many people may share one address (an office,
a school, a phone carrier's NAT), so a connection known to be a real player (its session took
a seat, or it presented a valid seat token) spends its player's budgets, as strict as one connection's, not
its address's; anonymous connections (no session, or a session with no seat) share their
address's. A new connection with a session spends its session's connection budget and its
address's budget for people; one without spends its address's, unless it presents a valid seat
token (a player coming back after a restart). An address makes guests (sessions) only so fast,
so a flooder cannot make itself many players.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from okgin.errors import OkginError

FLOOD_CLOSE = 50
"""Messages refused for a rate limit after which the connection is closed (a person's page,
far below the limits, is never refused at all)."""
MALFORMED_CLOSE = 5
"""Malformed frames (not JSON, too long or deep, not a message) after which the connection is
closed. The page never sends one, and a flood of 16 KB garbage costs the server its reading:
closed after 5 instead of after 100 read in the burst and 50 refused."""
CLOSE_WAIT = 10.0
"""Seconds a close waits to be sent: a page that stopped reading may never take it."""

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
    # The players behind one address together: each seated player has a connection's budgets,
    # and an address may make players (guests, seats) only so fast; this ceiling bounds what a
    # flooder gains by making many, far above what a school of people at a person's pace needs
    # (a question a turn, a game every few minutes, a few messages a turn).
    address_player_messages: float = 2000.0
    address_player_message_burst: float = 5000.0
    address_player_games: float = 10.0
    address_player_game_burst: float = 200.0
    address_player_coach: float = 40.0
    address_player_coach_burst: float = 200.0
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
    # A page opened with its session cookie: its session's connections (what a person's reloads
    # need), within its address's budget for people (a class or an office opening the page at
    # once); past either, it is counted as an anonymous connection.
    session_connections: float = 1.0
    session_connection_burst: float = 10.0
    address_session_connections: float = 20.0
    address_session_connection_burst: float = 100.0
    # Guests (a browser's first page, which makes a session): a school's pages all at once, then
    # one every few seconds; past it, the page is served without a session (as anonymous).
    address_guests: float = 0.5
    address_guest_burst: float = 100.0
    # Tournaments (the /t form): a host makes a few, then one a minute; an address's players
    # together a class's worth at once, then one every ten seconds.
    tournaments: float = 1 / 60
    tournament_burst: float = 5.0
    address_tournaments: float = 0.1
    address_tournament_burst: float = 30.0
    # Play online's calls (a seek, the page's look every second, a cancel, the computer taken):
    # each a write to the pool; a person's page makes one a second, a few more at a click.
    pool_calls: float = 3.0
    pool_call_burst: float = 20.0
    # The coach's work asked over HTTP: a position on the analysis board (/analysis) or a puzzle,
    # each the coach's whole analysis (a tenth of a second or more of CPU), or a hand's review
    # (a quarter of a second at the median, a second at most); a person studies a few a minute,
    # a program is held to this.
    analyses: float = 0.5
    analysis_burst: float = 20.0
    # The daily deal's moves (/daily): each may run hard's look-ahead (tens of milliseconds of
    # CPU). A whole day (five deals, rarely 150 moves) fits in the burst; a program is then held
    # to a person's pace.
    daily_moves: float = 3.0
    daily_move_burst: float = 200.0
    # A personal API token (docs/api.md): a bot's requests (a move each, its streams opened),
    # each token its own bucket, so one program's flood is refused (429) and slows nobody else.
    api_requests: float = 10.0
    api_request_burst: float = 60.0
    api_streams: int = 8
    """Streams one token may hold open at once (its event stream and a game stream per table)."""
    # Frames waiting in one connection's outbox. A page reads every frame as it comes (a tab in
    # the background too: the browser reads the socket); a page 256 behind has stopped
    # reading, and is closed (1008) rather than held without end, its seat away.
    outbox_frames: int = 256


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
                           address_token_failures=0, address_session_connections=0, address_guests=0,
                           address_player_messages=0, address_player_games=0, address_player_coach=0)
"""For a load test from one address (`okgin serve --no-address-limits`)."""


class Limiter:
    """The server's limits: per address shared by its anonymous connections, per player shared
    by a player's connections, and one set per connection."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limit = limits or Limits()
        self.messages = AddressBuckets(limit.address_messages, limit.address_message_burst)
        self.games = AddressBuckets(limit.address_games, limit.address_game_burst)
        self.coaching = AddressBuckets(limit.address_coach, limit.address_coach_burst)
        # A player's budgets are a connection's: players do not share them with their address.
        self.player_messages = AddressBuckets(limit.messages, limit.message_burst)
        self.player_games = AddressBuckets(limit.games, limit.game_burst)
        self.player_coaching = AddressBuckets(limit.coach, limit.coach_burst)
        self.players_messages = AddressBuckets(
            limit.address_player_messages, limit.address_player_message_burst)
        self.players_games = AddressBuckets(limit.address_player_games, limit.address_player_game_burst)
        self.players_coaching = AddressBuckets(limit.address_player_coach, limit.address_player_coach_burst)
        self.connections = AddressBuckets(limit.address_connections, limit.address_connection_burst)
        self._seats = AddressBuckets(limit.seat_connections, limit.seat_connection_burst)
        self._sessions = AddressBuckets(limit.session_connections, limit.session_connection_burst)
        self._people = AddressBuckets(limit.address_session_connections,
                                      limit.address_session_connection_burst)
        self._guests = AddressBuckets(limit.address_guests, limit.address_guest_burst)
        self._tournaments = AddressBuckets(limit.tournaments, limit.tournament_burst)
        self._address_tournaments = AddressBuckets(limit.address_tournaments, limit.address_tournament_burst)
        self._token_failures = AddressBuckets(limit.address_token_failures, limit.address_token_failure_burst)
        self._pool_calls = AddressBuckets(limit.pool_calls, limit.pool_call_burst)
        self._analyses = AddressBuckets(limit.analyses, limit.analysis_burst)
        self._daily = AddressBuckets(limit.daily_moves, limit.daily_move_burst)
        self._api = AddressBuckets(limit.api_requests, limit.api_request_burst)
        self._api_streams: dict[str, int] = {}

    def for_connection(self, address: str, player: str | None = None) -> ConnectionLimits:
        """A new connection's limits; ``player``: its session's player, if it has a live session.
        Raises RateLimited when its address opens too many."""
        if player is not None and self._sessions.bucket(player).has_one() and self._people.take(address):
            self._sessions.take(player)
            return ConnectionLimits(self, address, spent_address=False)
        if not self.connections.take(address):
            raise RateLimited(OVER_ADDRESS)
        return ConnectionLimits(self, address)

    def for_player(self, address: str, seat: str) -> ConnectionLimits:
        """A new connection that presented ``seat``'s valid token while its address was over its
        budget: counted against the seat. Raises RateLimited when the seat reconnects too often."""
        if not self._seats.take(seat):
            raise RateLimited(OVER_SEAT)
        return ConnectionLimits(self, address, spent_address=False)

    def may_make_guest(self, address: str) -> bool:
        """Spend one of ``address``'s new guests; False when it makes them too fast."""
        return self._guests.take(address)

    def may_make_tournament(self, address: str, player: str) -> bool:
        """Spend one of ``player``'s (and its address's) new tournaments; False when too fast."""
        if not self._tournaments.bucket(player).has_one() or not self._address_tournaments.take(address):
            return False
        return self._tournaments.take(player)

    def may_call_pool(self, player: str) -> bool:
        """Spend one of ``player``'s calls to Play online's pool; False when too fast."""
        return self._pool_calls.take(player)

    def may_analyse(self, who: str) -> bool:
        """Spend one of ``who``'s (a player's, or an address's without a session) asks for the
        coach's work over HTTP: a position on the board, a puzzle, a hand's review; False when
        too fast."""
        return self._analyses.take(who)

    def may_play_daily(self, player: str) -> bool:
        """Spend one of ``player``'s moves in the daily deal; False when too fast."""
        return self._daily.take(player)

    def may_check_token(self, address: str) -> bool:
        """May an address over its budget have a seat token looked up (it has not failed too often)?"""
        return self._token_failures.bucket(address).has_one()

    def api_call(self, token_hash: str) -> RateLimited | None:
        """Spend one of an API token's requests; the error to answer when it sends too many."""
        if self._api.take(token_hash):
            return None
        rate = self.limits.api_requests
        return RateLimited(f"too many requests with this token: at most {rate:g} a second")

    def open_stream(self, token_hash: str) -> bool:
        """Count one more stream open for an API token; False (nothing counted) at its limit."""
        held = self._api_streams.get(token_hash, 0)
        if held >= self.limits.api_streams:
            return False
        self._api_streams[token_hash] = held + 1
        return True

    def close_stream(self, token_hash: str) -> None:
        held = self._api_streams.get(token_hash, 0) - 1
        if held > 0:
            self._api_streams[token_hash] = held
        else:
            self._api_streams.pop(token_hash, None)

    def token_failed(self, address: str) -> None:
        self._token_failures.take(address)

    def seat_returned(self, address: str, seat: str) -> None:
        """A connection counted against its address presented ``seat``'s valid token: the
        address gets its connection back, and the seat spends one instead (when it has one)."""
        if self._seats.take(seat):
            self.connections.bucket(address).give_back()


OVER_ADDRESS = "too many connections from your address: wait a few seconds"
OVER_SEAT = "too many connections for your seat: wait a few seconds"


class ConnectionLimits:
    """One connection's buckets, and whose it shares: its address's, or once it is a real
    player, its player's."""

    def __init__(self, limiter: Limiter, address: str, spent_address: bool = True) -> None:
        limits = limiter.limits
        self._limiter = limiter
        self._address = address
        self._spent_address = spent_address
        self.owner: str | None = None
        """The player this connection counts against (None: anonymous, its address)."""
        self._messages = Bucket(limits.messages, limits.message_burst)
        self._games = Bucket(limits.games, limits.game_burst)
        self._coach = Bucket(limits.coach, limits.coach_burst)
        self.outbox_frames = limits.outbox_frames
        """The frames this connection may have waiting to be sent (``Limits.outbox_frames``)."""

    def returned(self, seat: str) -> None:
        """This connection presented ``seat``'s valid token (see ``Limiter.seat_returned``)."""
        if self._spent_address:
            self._spent_address = False
            self._limiter.seat_returned(self._address, seat)

    def player(self, owner: str) -> None:
        """This connection took a seat as ``owner`` (a session's player, or a seat token's seat):
        from now on its messages, new games and coach questions are counted against that
        player, not its address. The first seat taken names it for the connection's life."""
        if self.owner is None:
            self.owner = owner

    def message(self) -> RateLimited | None:
        """Count one message; the error to answer when this connection or player (or anonymous:
        address) sends too many."""
        if not self._messages.take():
            return RateLimited(f"too many messages: at most {self._limiter.limits.messages:g} a second")
        limiter = self._limiter
        if self.owner is not None:
            if not limiter.player_messages.take(self.owner):
                return RateLimited(f"too many messages: at most {limiter.limits.messages:g} a second")
            if not limiter.players_messages.take(self._address):
                return RateLimited("too many messages from your address: slow down")
        elif not limiter.messages.take(self._address):
            return RateLimited("too many messages from your address: slow down")
        return None

    def new_game(self) -> None:
        """Count one new game or room. Raises RateLimited when too many are made too fast."""
        if not self._games.take():
            raise RateLimited("too many new games: wait a few seconds")
        limiter, address = self._limiter, self._address
        if self.owner is not None and not limiter.player_games.take(self.owner):
            raise RateLimited("too many new games: wait a few seconds")
        if not (limiter.games if self.owner is None else limiter.players_games).take(address):
            raise RateLimited("too many new games from your address: wait a few seconds")

    def coach(self) -> None:
        """Count one hint, advice or review. Raises RateLimited when asked too often."""
        too_many = f"too many coach questions: at most {self._limiter.limits.coach:g} a second"
        if not self._coach.take():
            raise RateLimited(too_many)
        limiter, address = self._limiter, self._address
        if self.owner is not None and not limiter.player_coaching.take(self.owner):
            raise RateLimited(too_many)
        if not (limiter.coaching if self.owner is None else limiter.players_coaching).take(address):
            raise RateLimited("too many coach questions from your address: wait a few seconds")
