"""The profile page: your name, your ratings and puzzles, your chips, your account (or how to make
one), your signed-in devices."""

from __future__ import annotations

import datetime
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.errors import sentence
from okgin.server.pages.account import account_routes
from okgin.server.pages.bot_account import bot_account_routes
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.leaderboard import BOT_TITLES, TITLES
from okgin.server.pages.passkey_routes import passkey_routes
from okgin.server.pages.template import message, render
from okgin.server.players.accounts import Accounts
from okgin.server.players.api_tokens import ApiTokens
from okgin.server.players.blocks import BlockError, Blocks
from okgin.server.players.bots import BotAccounts
from okgin.server.players.identity import Players, Session
from okgin.server.players.passkeys import Passkeys
from okgin.server.players.puzzle_store import PuzzleStore
from okgin.server.players.rating_store import RatingStore
from okgin.server.players.ratings import FAMILIES, PROVISIONAL, shown_rating
from okgin.server.players.reports import REASONS, ReportError, Reports
from okgin.server.players.sessions import session_of
from okgin.server.rooms.room import RoomError
from okgin.server.store.chips import DAILY_CHIPS, Line, Wallets
from okgin.server.tournaments.words import format_name

RECENT = 5
"""How many of your last rated games the profile lists."""


def profile_routes() -> list[BaseRoute]:
    return [
        Route("/profile", profile_page),
        Route("/profile/name", change_name, methods=["POST"]),
        Route("/profile/block", block_player, methods=["POST"]),
        Route("/profile/unblock", unblock_player, methods=["POST"]),
        Route("/profile/report", report_player, methods=["POST"]),
        *account_routes(_refused),
        *bot_account_routes(_refused, _with_token),
        *passkey_routes(_refused),
    ]


async def profile_page(request: Request) -> Response:
    session = session_of(request)
    if session is None:  # only a program without cookies gets here: pages make a guest first
        return message(request, "Your profile",
                       "Open the game first: you are a player from your first visit.", 404)
    reported = request.query_params.get("reported") == "1"  # back from a report just sent
    return await _profile(request, session, Refusal(), 200, reported=reported)


class Refusal:
    """What a refused form said (``message``, lower case as errors are written), shown as a
    sentence inside the form whose ``action`` it was (the first of them, for the passkeys'
    removal forms), where profile.js brings it into view and focuses the form's first field;
    or, when the page shows this player no such form, at the top of the page (``unsaid``).
    ``Refusal()`` is none."""

    def __init__(self, action: str = "", message: str = "") -> None:
        self.action, self.message = action, message

    def beside(self, action: str) -> str:
        """The message as a sentence for the form ``action``, once; else nothing."""
        if not self.message or action != self.action:
            return ""
        self.action = ""
        return sentence(self.message)

    def unsaid(self) -> str:
        """The message as a sentence if no form said it (asked once every form was made); else nothing."""
        return sentence(self.message) if self.message and self.action else ""


async def _refused(request: Request, session: Session, action: str, message: str, status: int) -> Response:
    """The profile page again, the form ``action``'s refusal ``message`` beside it."""
    return await _profile(request, session, Refusal(action, message), status)


_KINDS = {"grant": "Daily chips", "stake": "Stake", "payout": "Won from the pool",
          "refund": "Stake refunded"}


def _what(line: Line, tournament: str | None) -> str:
    """A movement of chips in words; ``tournament``: the name of the tournament whose entry fees
    its pool is."""
    what = _KINDS.get(line.kind, line.kind)
    if tournament is not None:
        what = {"stake": "Entry fee", "refund": "Entry fee given back"}.get(line.kind, what)
        return f"{what}, {tournament}"
    if line.game is not None:
        return f"{what}, game {line.game[:8]}, seat {(line.seat or 0) + 1}"
    return what


def _when(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _read(players: Players, rated: RatingStore, session: Session) -> dict[str, Any]:
    """Everything the page shows of ``session``'s player, read in one trip to a worker thread."""
    accounts, wallets, player = Accounts(players), Wallets(players.engine), session.player
    username = accounts.username(player)
    lines = wallets.ledger(player)
    events = {pool: name or format_name(fmt)
              for pool, (name, fmt) in wallets.tournaments([line.game for line in lines]).items()}
    return {
        "games": len(players.games_of(player)), "username": username,
        "standings": rated.standings(player), "recent": list(reversed(rated.history(player, RECENT))),
        "balance": wallets.balance(player),
        "ledger": [(line, _what(line, events.get(line.game or ""))) for line in lines],
        "devices": accounts.devices(session) if username else [],
        "passkeys": Passkeys(accounts).listed(player) if username else [],
        "bot": BotAccounts(players.engine).is_bot(player) if username else False,
        "tokens": ApiTokens(players.engine).listed(player) if username else [],
        "opponents": Blocks(players.engine).opponents(player),
        "blocked": Blocks(players.engine).listed(player),
        "puzzle_rating": PuzzleStore(players.engine).rating_of(player),
        "puzzles": PuzzleStore(players.engine).history(player),
    }


async def _with_token(request: Request, session: Session, token: str) -> Response:
    """The profile page showing a new API token, this once (only its hash is kept)."""
    return await _profile(request, session, Refusal(), 200, token)


async def _profile(request: Request, session: Session, refusal: Refusal, status: int,
                   new_token: str | None = None, reported: bool = False) -> Response:
    players: Players = request.app.state.players
    read = await anyio.to_thread.run_sync(_read, players, request.app.state.ratings, session)
    return render(request, "profile.html", status, **read, name=session.name or "", csrf=session.csrf,
                  new_token=new_token, bot_titles=BOT_TITLES, reasons=REASONS, reported=reported,
                  refusal=refusal, when=_when, families=FAMILIES, titles=TITLES, provisional=PROVISIONAL,
                  daily=DAILY_CHIPS, shown_rating=shown_rating)


async def change_name(request: Request) -> Response:
    """POST /profile/name: a new display name, from the profile page's own form."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return refused.page(request)
    players: Players = request.app.state.players
    try:
        await anyio.to_thread.run_sync(players.set_name, session.player, fields.get("name"))
    except RoomError as error:
        return await _refused(request, session, "/profile/name", str(error), 400)
    return RedirectResponse("/profile", status_code=303)


async def block_player(request: Request) -> Response:
    """POST /profile/block: the person at ``seat`` of ``game`` (one of yours) is blocked: Play
    online never seats the two of you at one table."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return refused.page(request)
    players: Players = request.app.state.players
    try:
        await anyio.to_thread.run_sync(Blocks(players.engine).block_seat, session.player,
                                       fields.get("game"), fields.get("seat"))
    except BlockError as error:
        return await _refused(request, session, "/profile/block", str(error), 400)
    return RedirectResponse("/profile#blocked", status_code=303)


async def report_player(request: Request) -> Response:
    """POST /profile/report: the person at ``seat`` of ``game`` (one of yours) is reported to the
    server's operator for ``reason``, with ``text`` if given (docs/moderation.md)."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return refused.page(request)
    players: Players = request.app.state.players
    try:
        await anyio.to_thread.run_sync(Reports(players.engine).report, session.player, fields.get("game"),
                                       fields.get("seat"), fields.get("reason"), fields.get("text"))
    except ReportError as error:
        return await _refused(request, session, "/profile/report", str(error), 400)
    return RedirectResponse("/profile?reported=1#blocked", status_code=303)  # a reload sends nothing again


async def unblock_player(request: Request) -> Response:
    """POST /profile/unblock: the block named by ``key`` (one of yours) is lifted."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return refused.page(request)
    players: Players = request.app.state.players
    if not await anyio.to_thread.run_sync(Blocks(players.engine).unblock, session.player, fields.get("key")):
        return await _refused(request, session, "/profile/unblock", "that player is not blocked by you", 400)
    return RedirectResponse("/profile#blocked", status_code=303)
