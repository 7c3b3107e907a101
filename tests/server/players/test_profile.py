"""The profile page and its name form: Origin and CSRF token checked on every change, as an
attacker would try them (okgin/server/pages/forms.py, profile.py)."""

from __future__ import annotations

import html
import re

import httpx
import pytest
from scripted_client import run
from starlette.applications import Starlette
from test_accounts import PASSWORD, Browser

BASE = "http://127.0.0.1"
OURS = {"origin": BASE}



def _visit(app: Starlette, steps: list[tuple[str, str, dict[str, str], dict[str, str]]],
           cookie: str | None = None) -> list[httpx.Response]:
    """One browser: each (method, path, headers, form) in turn, its cookies kept."""
    async def go() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as web:
            if cookie:
                web.cookies.set("okgin_session", cookie)
            answers = []
            for method, path, headers, form in steps:
                answers.append(await web.request(method, path, headers=headers, data=form or None))
            return answers

    return run(go())


def _token(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found, page.text
    return found.group(1)


def _name_on(app: Starlette, cookie: str) -> str:
    page = _visit(app, [("GET", "/", {}, {})], cookie)[0].text
    found = re.search(r'<meta name="okgin-name" content="([^"]*)">', page)
    assert found
    return found.group(1)


def _guest(app: Starlette) -> tuple[str, str]:
    """A new guest's cookie and the CSRF token of its profile page."""
    page = _visit(app, [("GET", "/profile", {}, {})])[0]
    return page.cookies["okgin_session"], _token(page)


def test_the_profile_form_changes_the_name_used_everywhere(app: Starlette) -> None:
    cookie, token = _guest(app)
    answer = _visit(app, [("POST", "/profile/name", OURS, {"csrf": token, "name": "  Zed   Q "})], cookie)[0]
    assert answer.status_code == 303 and answer.headers["location"] == "/profile"
    assert _name_on(app, cookie) == "Zed Q"
    page = _visit(app, [("GET", "/profile", {}, {})], cookie)[0].text
    assert "You are Zed Q" in page


@pytest.mark.parametrize(("headers", "field"), [
    ({"origin": "https://evil.example"}, "right"),  # a cross-site form, even with the token
    ({"origin": "null"}, "right"),  # a sandboxed or file page
    ({"origin": "null", "sec-fetch-site": "cross-site"}, "right"),  # another site, no referrer
    ({"sec-fetch-site": "same-site"}, "right"),  # a sibling subdomain
    ({}, "right"),  # no Origin at all
    (OURS, None),  # no token
    (OURS, "wrong"),  # a made-up token
    (OURS, "another"),  # another session's token
])
def test_a_change_without_our_origin_and_this_sessions_token_is_refused(
    app: Starlette, headers: dict[str, str], field: str | None,
) -> None:
    cookie, token = _guest(app)
    _other_cookie, other_token = _guest(app)
    form = {"name": "Mallory"}
    if field is not None:
        form["csrf"] = {"right": token, "wrong": "x" * 43, "another": other_token}[field]
    answer = _visit(app, [("POST", "/profile/name", headers, form)], cookie)[0]
    assert answer.status_code == 403 and "Mallory" not in answer.text
    assert _name_on(app, cookie) == ""  # nothing changed


def test_our_own_page_posting_origin_null_under_no_referrer_is_accepted(app: Starlette) -> None:
    cookie, token = _guest(app)
    ours = {"origin": "null", "sec-fetch-site": "same-origin"}  # what Chromium sends from our page
    answer = _visit(app, [("POST", "/profile/name", ours, {"csrf": token, "name": "Zed"})], cookie)[0]
    assert answer.status_code == 303 and _name_on(app, cookie) == "Zed"


def test_a_form_without_a_session_or_with_a_bad_name_changes_nothing(app: Starlette) -> None:
    cookie, token = _guest(app)
    stranger = _visit(app, [("POST", "/profile/name", OURS, {"csrf": token, "name": "Eve"})])[0]
    assert stranger.status_code == 403 and "session" in stranger.text
    long = _visit(app, [("POST", "/profile/name", OURS, {"csrf": token, "name": "x" * 21})], cookie)[0]
    assert long.status_code == 400 and "1 to 20 characters" in long.text
    empty = _visit(app, [("POST", "/profile/name", OURS, {"csrf": token, "name": " "})], cookie)[0]
    assert empty.status_code == 400
    assert _name_on(app, cookie) == ""


REFUSALS = [
    # (as an account?, the form posted, its fields, what the page says): all but the last are forms
    # the profile does not show this player: a guest has no password, deletion or passkeys; an account
    # no sign-up or sign-in; nobody blocked, no token held, no passkey: no form to unblock, revoke or remove.
    (False, "/profile/unblock", {"key": "nokey"}, "That player is not blocked by you."),
    (False, "/account/password", {"current": PASSWORD, "password": "y" * 12}, "Make an account first."),
    (False, "/account/delete", {"password": PASSWORD}, "Your password is not that: the account is kept."),
    (False, "/account/passkeys/remove", {"passkey": "abc"}, "No passkey of yours has that id."),
    (True, "/account/create", {"username": "bob", "password": "y" * 12},
     "You already have an account: sign out to make another."),
    (True, "/account/sign-in", {"username": "nobody", "password": "y" * 12}, "Wrong username or password."),
    (True, "/account/tokens/revoke", {"token": "abc"}, "No such token: it may be revoked already."),
    (False, "/profile/name", {"name": " "}, "Your name must be 1 to 20 characters."),  # shown: said beside it
]


@pytest.mark.parametrize(("account", "path", "form", "why"), REFUSALS,
                         ids=[f"{path}{' as an account' if account else ''}" for account, path, *_ in
                              REFUSALS])
def test_a_refused_form_the_page_does_not_show_still_says_why(
    app: Starlette, account: bool, path: str, form: dict[str, str], why: str,
) -> None:
    """A refusal is said beside its form; a form the page does not show this player (posted from an
    old tab, or by a program) is refused with the reason said at the top, not a silent 4xx."""
    someone = Browser(app)
    someone.go("GET", "/")
    if account:
        assert someone.post("/account/create", username="ann", password=PASSWORD).status_code == 303
    answer = someone.post(path, **form)
    assert 400 <= answer.status_code < 500
    assert f'role="alert">{why}</p>' in html.unescape(answer.text), answer.text[-1200:]
    assert answer.text.count('role="alert"') == 1  # said once: beside its form, else at the top
