"""The ASGI app: routes, security headers, and the store, rooms and broker every request shares."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Sequence

import anyio.to_thread
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from okgin.errors import sentence
from okgin.server.coach import statistics
from okgin.server.coach.answers import coach_work
from okgin.server.coach.line import CoachBusy, CoachLine
from okgin.server.pages.api_routes import api_routes
from okgin.server.pages.bot_pages import bot_routes
from okgin.server.pages.coach_routes import coach_routes
from okgin.server.pages.daily import daily_routes
from okgin.server.pages.health import healthz
from okgin.server.pages.history import history_page
from okgin.server.pages.play_online import play_online_routes
from okgin.server.pages.profile import profile_routes
from okgin.server.pages.public_games import public_routes
from okgin.server.pages.site import (
    STATIC,
    howto_page,
    index,
    record_download,
    rules_api,
)
from okgin.server.pages.tables import Latest, table_routes
from okgin.server.pages.template import message
from okgin.server.pages.tournaments import tournament_routes
from okgin.server.players.abandonments import Abandonments
from okgin.server.players.accounts import Accounts
from okgin.server.players.blocks import Blocks
from okgin.server.players.bots import BotAccounts
from okgin.server.players.identity import Players
from okgin.server.players.moderation import Moderation
from okgin.server.players.passkeys import Passkeys
from okgin.server.players.rating_store import RatingStore
from okgin.server.players.sessions import Sessions
from okgin.server.pool.backends import make_pool_store
from okgin.server.pool.choices import PoolSettings
from okgin.server.pool.matchmaker import Matchmaker
from okgin.server.rooms.backends import make_broker, make_presence
from okgin.server.rooms.hall import Hall
from okgin.server.rooms.services import PROCESS, RoomServices
from okgin.server.rooms.thinking import Thinking
from okgin.server.store.daily_store import DailyStore
from okgin.server.store.storage import DEFAULT_URL, StorageError, Store
from okgin.server.store.tournament_store import TournamentStore
from okgin.server.tournaments.director import Director
from okgin.server.tournaments.events import Tournaments
from okgin.server.wire.admission import game_socket
from okgin.server.wire.clock import Clock
from okgin.server.wire.headers import DEFAULT_HOSTS, SecurityHeaders
from okgin.server.wire.limits import Limiter, Limits
from okgin.server.wire.messages import ID_PATTERN
from okgin.server.wire.metrics import Metrics, metrics_page
from okgin.server.wire.settings import Settings

log = logging.getLogger("okgin.server")


class IdConvertor(Convertor[str]):
    """A game id or room code in a path (``{game:id}``): anything else is 404 before a handler
    runs, so no database is asked about a NUL or a megabyte of text."""

    regex = ID_PATTERN

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("id", IdConvertor())


def create_app(
    db_url: str = DEFAULT_URL, *, broker_url: str | None = None, allow_seeds: bool = False,
    origins: Sequence[str] = (), idle_hours: float | None = 24.0, limits: Limits | None = None,
    away_seconds: float = 60.0, hosts: Sequence[str] = DEFAULT_HOSTS, secure_cookies: bool = False,
    pool: PoolSettings | None = None, clock_file: str | None = None,
) -> Starlette:
    """The web game, storing games at ``db_url`` (any SQLAlchemy URL).

    ``allow_seeds`` lets a client choose the shuffle (tests only); ``origins`` are the
    pages besides our own that may open the WebSocket; ``hosts`` the host names requests may
    name (any other Host header is refused: DNS rebinding); unfinished games untouched for
    ``idle_hours`` are removed (None: kept for ever); a host may hand an away player's seat
    to a computer player after ``away_seconds``; ``secure_cookies`` marks the session cookie
    Secure (served over https, directly or behind a proxy); ``pool``: Play online's waits and
    timer (``PoolSettings``' defaults if None); ``clock_file``: the daily deal's time read from
    this file (tests only: refused without ``allow_seeds``).
    """
    if clock_file and not allow_seeds:
        raise ValueError("a clock file is for tests only: it needs allow_seeds (--allow-seeds)")
    store = Store(db_url)
    broker = make_broker(broker_url)
    thinking = Thinking()
    coach_line = CoachLine()
    presence = make_presence(broker_url, PROCESS)
    players = Players(store.engine)
    rated = RatingStore(store.engine)
    poked = asyncio.Event()  # a tournament's table ended here: its director looks again at once
    hall = Hall(RoomServices.of(
        store, broker, thinking, functools.partial(coach_work, coach_line), presence,
        finished=rated.rate_later,
        solo_finished=functools.partial(statistics.record_finished, store.engine, line=coach_line),
        table_finished=lambda _code: poked.set()))
    limiter = Limiter(limits)
    metrics = Metrics(lambda: len(hall))

    def may_make_guest(address: str) -> bool:
        """An address within its guest budget (``Limiter``); a page past it is counted as refused."""
        if limiter.may_make_guest(address):
            return True
        metrics.refused("guests")
        return False

    tournaments = TournamentStore(store.engine)
    director = Director(hall, tournaments, players, away_seconds, poked=poked)
    moderation, abandonments = Moderation(store.engine), Abandonments(store.engine)
    matchmaker = Matchmaker(make_pool_store(broker_url, store.engine), hall.services.rooms,
                            rated.shown_at, pool, away_seconds, Blocks(store.engine).among,
                            lambda player: moderation.refusal(player) or abandonments.refusal(player))

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await broker.start()
        sweeper = asyncio.create_task(_sweep(hall, players, rated, idle_hours)) if idle_hours else None
        keeper = asyncio.create_task(hall.keep_presence())
        directing = asyncio.create_task(director.run())
        pairing = asyncio.create_task(matchmaker.run())
        yield
        pairing.cancel()
        directing.cancel()
        keeper.cancel()
        if sweeper is not None:
            sweeper.cancel()
        await broker.close()
        await presence.close()
        matchmaker.store.close()
        thinking.close()
        coach_line.close()
        store.close()

    app = Starlette(lifespan=lifespan, middleware=[
        Middleware(SecurityHeaders, hosts), Middleware(Sessions, players=players, secure=secure_cookies,
                                                     may_make_guest=may_make_guest),
    ],
                    exception_handlers={StorageError: _store_failed, CoachBusy: _coach_busy}, routes=[
        Route("/", index),
        Route("/r/{code:id}", index),
        Route("/how-to-play", howto_page),
        Route("/history", history_page),
        Route("/games/{game:id}/record", record_download),
        Route("/api/rules", rules_api),
        Route("/healthz", healthz),
        Route("/metrics", metrics_page),
        *coach_routes(),
        *daily_routes(),
        *profile_routes(),
        *tournament_routes(),
        *table_routes(),
        *public_routes(),
        *play_online_routes(),
        *bot_routes(),
        *api_routes(),
        WebSocketRoute("/ws", game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.store = store
    app.state.hall = hall
    app.state.players = players
    app.state.ratings = rated
    app.state.table_lists = Latest()
    app.state.tournaments = Tournaments(tournaments, moderation.refusal, BotAccounts(store.engine).is_bot)
    app.state.director = director
    app.state.pool = matchmaker
    app.state.secure_cookies = secure_cookies
    app.state.hosts = frozenset(host.lower() for host in hosts)
    app.state.metrics = metrics
    app.state.limiter = limiter
    app.state.coach_line = coach_line
    app.state.settings = Settings(allow_seeds, frozenset(origins), away_seconds, Clock(clock_file))
    app.state.daily = DailyStore(store.engine)
    return app


async def _coach_busy(request: Request, error: Exception) -> Response:
    """A page whose coach's work found the line full or its asker's share taken (``CoachLine``):
    nothing was worked out. The API's answer is JSON, a page's a page."""
    status = error.status if isinstance(error, CoachBusy) else 503
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": str(error)}, status_code=status, headers={"Retry-After": "2"})
    page = message(request, "The coach", sentence(str(error)), status, error=True, coach=True)
    page.headers["Retry-After"] = "2"
    return page


async def _store_failed(_request: Request, error: Exception) -> Response:
    """A page whose store failed (locked, lost): one line in the log, one line to the reader."""
    log.warning("%s", error)
    return PlainTextResponse(f"{error}\n", status_code=503)


async def _sweep(hall: Hall, players: Players, rated: RatingStore, idle_hours: float) -> None:
    """Now and then, remove the unfinished games nobody has touched for ``idle_hours``, and the
    guests made that long ago who never sat at a table, and passkey challenges nobody answered
    in time; rate any finished game a stopped process left unrated (docs/players.md)."""
    seconds = idle_hours * 3600
    while True:
        try:
            removed = await hall.sweep(seconds)
            if removed:
                log.warning("removed %d abandoned unfinished games", len(removed))
            await anyio.to_thread.run_sync(players.forget_idle_guests, time.time() - seconds)
            await anyio.to_thread.run_sync(rated.rate_unrated, time.time() - 60)
            await anyio.to_thread.run_sync(Passkeys(Accounts(players)).forget_expired, time.time())
        except Exception as error:  # a locked database: try again next time
            log.warning("could not remove abandoned games: %s", error)
        await asyncio.sleep(min(600.0, max(1.0, seconds / 4)))
