"""The profile page: your name, your chips, your account (or how to make one), your signed-in devices."""

from __future__ import annotations

import datetime
import html

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.errors import sentence
from okgin.server.pages.account import account_routes
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.leaderboard import TITLES, ordinal_place, rating_text
from okgin.server.pages.passkey_routes import passkey_routes
from okgin.server.pages.template import page
from okgin.server.players.accounts import Accounts
from okgin.server.players.identity import Players, Session
from okgin.server.players.passkeys import Passkeys
from okgin.server.players.rating_store import RatingStore
from okgin.server.players.ratings import FAMILIES, shown_rating
from okgin.server.players.sessions import session_of
from okgin.server.rooms.room import RoomError
from okgin.server.store.chips import DAILY_CHIPS, Line, Wallets

RECENT = 5
"""How many of your last rated games the profile lists."""


def profile_routes() -> list[BaseRoute]:
    return [
        Route("/profile", profile_page),
        Route("/profile/name", change_name, methods=["POST"]),
        *account_routes(_refused),
        *passkey_routes(_refused),
    ]


async def profile_page(request: Request) -> Response:
    session = session_of(request)
    if session is None:  # only a program without cookies gets here: pages make a guest first
        return page(request, "Your profile",
                    "<p>Open the game first: you are a player from your first visit.</p>", status=404)
    return await _profile(request, session, Refusal(), 200)


class Refusal:
    """What a refused form said (``message``, lower case as errors are written), shown as a
    sentence inside the form whose ``action`` it was (the first of them, for the passkeys'
    removal forms), where profile.js brings it into view and focuses the form's first field.
    ``Refusal()`` is none."""

    def __init__(self, action: str = "", message: str = "") -> None:
        self.action, self.message = action, message

    def beside(self, action: str) -> str:
        """The message's paragraph for the form ``action``, once; else nothing."""
        if not self.message or action != self.action:
            return ""
        self.action = ""
        return f'<p class="error" role="alert">{html.escape(sentence(self.message))}</p>'


async def _refused(request: Request, session: Session, action: str, message: str, status: int) -> Response:
    """The profile page again, the form ``action``'s refusal ``message`` beside it."""
    return await _profile(request, session, Refusal(action, message), status)


def _form(action: str, csrf: str, fields: str, button: str, refusal: Refusal) -> str:
    return (f'<form method="post" action="{action}"><input type="hidden" name="csrf" value="{csrf}">'
            f"{fields} <button type=submit>{button}</button>{refusal.beside(action)}</form>")


def _password(name: str, label: str, new: bool) -> str:
    complete = "new-password" if new else "current-password"
    return (f'<label>{label} <input type="password" name="{name}" autocomplete="{complete}" '
            f'{"minlength=10 " if new else ""}required></label>')


async def _profile(request: Request, session: Session, refusal: Refusal, status: int) -> Response:
    players: Players = request.app.state.players
    accounts = Accounts(players)
    games = await anyio.to_thread.run_sync(players.games_of, session.player)
    username = await anyio.to_thread.run_sync(accounts.username, session.player)
    name, csrf = html.escape(session.name or ""), html.escape(session.csrf)
    who = f"signed in as <b>{html.escape(username)}</b>" if username else "a guest player on this browser"
    body = (
        f"<p class=lead>{'You are ' + name if name else 'You have not chosen a name yet'}: "
        f"{who}, with {len(games)} game{'s' if len(games) != 1 else ''}.</p>"
        + _form("/profile/name", csrf, f'<label>Your name <input name="name" value="{name}" maxlength="20" '
                'autocomplete="nickname" required></label>', "Save the name", refusal)
        + "<p>Your name is shown at the tables you sit at, and fills in your name when you make or join"
        " a room.</p>"
        + await _ratings(request.app.state.ratings, session.player)
        + await _chips(players, session.player)
    )
    if username:
        body += await _signed_in(accounts, session, csrf, refusal)
    else:
        body += _guest(csrf, refusal)
    return page(request, "Your profile", body, scripts=("passkeys.js", "profile.js"), status=status)


async def _ratings(rated: RatingStore, player: str) -> str:
    """Your rating in each family (and place) or how to get one, your last results, and links."""
    standings, recent = await anyio.to_thread.run_sync(
        lambda: (rated.standings(player), rated.history(player, RECENT)))
    rows = "".join(
        f"<li>{TITLES[family]}: <b>{rating_text(standing.rating)}</b>, "
        f"{ordinal_place(standing.place)} of {standing.of:,}</li>"
        for family in FAMILIES if (standing := standings.get(family)) is not None)
    said = f"<ul class=ratings>{rows}</ul>" if rows else "<p>No rating yet: finish a game to get one.</p>"
    if recent:
        said += "<h3>Your last results</h3><ul class=recent>" + "".join(
            f"<li>{_when(point.rated)}: {ordinal_place(point.place)} of {point.seats} "
            f"({point.family} rules), rating after it {shown_rating(point.rating)}</li>"
            for point in reversed(recent)) + "</ul>"
    return (f"<h2>Your rating</h2>{said}<p><a href=\"/leaderboard\">The leaderboard</a> · "
            "<a href=\"/stats\">Your statistics</a></p>")


_KINDS = {"grant": "Daily chips", "stake": "Stake", "payout": "Won from the pool",
          "refund": "Stake refunded"}


async def _chips(players: Players, player: str) -> str:
    """Your balance (after today's grant) and your last movements of chips."""
    wallets = Wallets(players.engine)
    balance = await anyio.to_thread.run_sync(wallets.balance, player)
    lines = await anyio.to_thread.run_sync(wallets.ledger, player)
    events = await anyio.to_thread.run_sync(wallets.tournaments, [line.game for line in lines])
    rows = "".join(_line(line, events.get(line.game or "")) for line in lines)
    return (
        f"<h2>Your chips</h2><p class=chips>You have <b id=chip-balance>{balance}</b> play chips "
        f"(never money). Each day (UTC) you are topped up to {DAILY_CHIPS}; tables with a stake "
        "take it when their game starts and split the pool when it ends; a tournament's entry fee is "
        "taken as you join and its pool split when it ends.</p>"
        + ("<table class=ledger><thead><tr><th scope=col>When</th><th scope=col>What</th>"
           "<th scope=col>Chips</th><th scope=col>Balance</th></tr></thead>"
           f"<tbody>{rows}</tbody></table>" if rows else "")
    )


def _line(line: Line, tournament: str | None) -> str:
    """One movement; ``tournament``: the name of the tournament whose entry fees its pool is."""
    when = datetime.datetime.fromtimestamp(line.at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    what = _KINDS.get(line.kind, line.kind)
    if tournament is not None:
        what = {"stake": "Entry fee", "refund": "Entry fee given back"}.get(line.kind, what)
        what += f", {tournament}"
    elif line.game is not None:
        what += f", game {line.game[:8]}, seat {(line.seat or 0) + 1}"
    return (f"<tr><td>{when}</td><td>{html.escape(what)}</td><td>{line.amount:+d}</td>"
            f"<td>{line.balance}</td></tr>")


def _guest(csrf: str, refusal: Refusal) -> str:
    user = ('<label>Username <input name="username" autocomplete="username" minlength=3 maxlength=30 '
            "required></label>")
    return (
        "<h2>Keep your games on other devices</h2><p>Make an account: this browser's games and name "
        "become the account's, and you sign in with it anywhere.</p>"
        + _form("/account/create", csrf,
                user + " " + _password("password", "Password (10 or more characters)", True),
                "Make an account", refusal)
        + '<h2 id="sign-in">Sign in</h2><p>Signing in on this browser leaves its guest games behind.</p>'
        + _form("/account/sign-in", csrf, user + " " + _password("password", "Password", False), "Sign in",
                refusal)
        + '<p id="passkey-sign-in-row" hidden>Or, with a passkey this device or a security key holds: '
        '<button type="button" id="passkey-sign-in">Sign in with a passkey</button></p>' + _STATUS
    )


async def _signed_in(accounts: Accounts, session: Session, csrf: str, refusal: Refusal) -> str:
    devices = await anyio.to_thread.run_sync(accounts.devices, session)
    rows = "".join(
        f"<li>{html.escape(d.name)}, signed in {_when(d.created)}"
        f"{' (this one)' if d.current else ', last seen ' + _when(d.last_seen)}</li>" for d in devices)
    return (
        f"<h2>Signed-in devices</h2><ul class=devices>{rows}</ul>"
        + _form("/account/sign-out-others", csrf, "", "Sign out all other devices", refusal)
        + _form("/account/sign-out", csrf, "", "Sign out", refusal)
        + await _passkeys(accounts, session, csrf, refusal)
        + "<h2>Change your password</h2>"
        + _form("/account/password", csrf, _password("current", "Current password", False) + " "
                + _password("password", "New password", True), "Change the password", refusal)
        + "<h2>Delete your account</h2><p>Your name, account, sessions and the list of your games go; "
        "the games stay for the others, your seat named “a former player”.</p>"
        + _form("/account/delete", csrf, _password("password", "Your password", False), "Delete my account",
                refusal)
    )


_STATUS = '<p id="passkey-status" role="status" aria-live="polite"></p>'


def _when(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


async def _passkeys(accounts: Accounts, session: Session, csrf: str, refusal: Refusal) -> str:
    """The account's passkeys, each with its Remove button, and the button that adds one (shown
    by passkeys.js only where the browser has WebAuthn)."""
    keys = await anyio.to_thread.run_sync(Passkeys(accounts).listed, session.player)
    rows = "".join(
        f"<li>{html.escape(k.name)}, added {_when(k.created)}, "
        f"{'last used ' + _when(k.last_used) if k.last_used else 'not used yet'} "
        + _form("/account/passkeys/remove", csrf,
                f'<input type="hidden" name="passkey" value="{html.escape(k.id)}">',
                f'Remove <span class="visually-hidden">{html.escape(k.name)}</span>', refusal)
        + "</li>" for k in keys)
    listed = f"<ul class=passkeys>{rows}</ul>" if keys else "<p>No passkeys yet.</p>"
    return (
        "<h2>Passkeys</h2><p>A passkey signs you in with this device's screen lock or a security key,"
        " with no password to type.</p>" + listed
        + '<p id="passkey-add" hidden><label>A name for the new passkey <input id="passkey-name" '
        'maxlength="60" placeholder="this phone"></label> '
        '<button type="button" id="passkey-create">Add a passkey</button></p>' + _STATUS
    )


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
