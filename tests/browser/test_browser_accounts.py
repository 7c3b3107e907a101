"""An account in a real Chromium: a guest plays a game to its end, makes an account on the
profile page and adds a passkey (Chromium's virtual authenticator, through the DevTools
protocol), signs in from a second browser context and sees the same history there, chooses a
name there that fills the room's name field, and signs the first one out from the second; a
third context signs in with the passkey (moved to its authenticator), removes it and is then
refused; and the account is deleted with all its data. A browser without WebAuthn is shown
no passkey button.

Served as http://localhost:PORT: WebAuthn refuses an IP address as the relying party."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import pytest
from browser_play import mouse_turn, next_hand
from conftest import new_context
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_process import ServerProcess
from test_browser_game import set_house_rule, start_new_game

PASSWORD = "a long table of cards"
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True}



@pytest.fixture
def server(own_server: ServerProcess) -> ServerProcess:
    """Each test's store of its own: a test counts the accounts left after a deletion."""
    return own_server

def _authenticator(context: BrowserContext, page: Page) -> tuple[Any, str]:
    """A virtual authenticator (a platform passkey store) for ``page``: its CDP session and id."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, added["authenticatorId"]


def _play_to_the_end(page: Page) -> None:
    for _ in range(600):
        done = mouse_turn(page)
        if done == "hand-over":
            next_hand(page)
        elif done == "over":
            return
    raise AssertionError("the game did not end")


def test_a_guest_plays_makes_an_account_and_sees_the_same_history_elsewhere(
    page: Page, browser: Browser, server: ServerProcess,
) -> None:
    site = f"http://localhost:{server.port}"
    page.goto(site)
    page.wait_for_selector("#hand .card")
    set_house_rule(page, "target", "10")
    start_new_game(page)
    _play_to_the_end(page)
    page.goto(site + "/history")
    game = page.locator('a[href$="/replay"]').first.get_attribute("href")
    assert game is not None and re.fullmatch(r"/games/[\w-]+/replay", game)
    page.goto(site + "/profile")
    page.fill('form[action="/account/create"] input[name="username"]', "Table-Ann")
    page.fill('form[action="/account/create"] input[name="password"]', PASSWORD)
    page.click('form[action="/account/create"] button')
    expect(page.locator("p.lead")).to_contain_text("signed in as table-ann")

    cdp, authenticator = _authenticator(page.context, page)  # a passkey on the profile
    page.reload()
    page.fill("#passkey-name", "test laptop")
    page.click("#passkey-create")
    expect(page.locator("ul.passkeys li")).to_contain_text("test laptop, added")
    (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert credential["rpId"] == "localhost" and credential["isResidentCredential"]

    other = new_context(browser)
    other.add_init_script("delete window.PublicKeyCredential")  # a browser without WebAuthn
    phone = other.new_page()
    phone.goto(site + "/history")
    expect(phone.locator("main")).to_contain_text("No finished games yet.")
    phone.goto(site + "/profile")
    expect(phone.locator("#passkey-sign-in")).to_be_hidden()
    phone.fill('form[action="/account/sign-in"] input[name="username"]', "table-ann")
    phone.fill('form[action="/account/sign-in"] input[name="password"]', PASSWORD)
    phone.click('form[action="/account/sign-in"] button')
    expect(phone.locator("p.lead")).to_contain_text("signed in as table-ann")
    expect(phone.locator("ul.devices li")).to_have_count(2)
    expect(phone.locator("#passkey-create")).to_be_hidden()
    phone.goto(site + "/history")
    expect(phone.locator(f'a[href="{game}"]')).to_have_count(1)

    phone.goto(site + "/profile")  # the name chosen once fills the room's name field
    phone.fill('form[action="/profile/name"] input[name="name"]', "Ann")
    phone.click('form[action="/profile/name"] button')
    phone.goto(site)
    phone.click("#play-friends")
    expect(phone.locator("#friends-name")).to_have_value("Ann")

    phone.goto(site + "/profile")  # sign out everywhere else
    phone.click('form[action="/account/sign-out-others"] button')
    expect(phone.locator("ul.devices li")).to_have_count(1)
    page.goto(site + "/history")  # the first browser was signed out: a new guest there
    expect(page.locator("main")).to_contain_text("No finished games yet.")

    _passkey_signs_in_until_removed(browser, site, game, credential)

    phone.goto(site + "/profile")  # delete the account and its data
    phone.fill('form[action="/account/delete"] input[name="password"]', PASSWORD)
    phone.click('form[action="/account/delete"] button')
    phone.goto(site + "/history")
    expect(phone.locator("main")).to_contain_text("No finished games yet.")
    with sqlite3.connect(server.db) as connection:
        dump = "\n".join(connection.iterdump())
        assert connection.execute("SELECT count(*) FROM accounts").fetchone() == (0,)
    assert "table-ann" not in dump and "'Ann'" not in dump and "test laptop" not in dump
    other.close()


def _passkey_signs_in_until_removed(browser: Browser, site: str, game: str, credential: Any) -> None:
    """A third browser whose authenticator holds the passkey signs in with it and sees the
    game; it removes the passkey, signs out, and the passkey is then refused. It keeps the
    pages' CSP (no bypass): its steps use no eval."""
    third = browser.new_context()  # under the pages' real CSP: passkeys.js needs nothing inline
    tablet = third.new_page()
    cdp, authenticator = _authenticator(third, tablet)
    cdp.send("WebAuthn.addCredential", {"authenticatorId": authenticator, "credential": credential})
    tablet.goto(site + "/profile")
    tablet.click("#passkey-sign-in")
    expect(tablet.locator("p.lead")).to_contain_text("signed in as table-ann")
    tablet.goto(site + "/history")
    expect(tablet.locator(f'a[href="{game}"]')).to_have_count(1)
    tablet.goto(site + "/profile")
    expect(tablet.locator("ul.passkeys li")).to_contain_text("last used")
    tablet.click('form[action="/account/passkeys/remove"] button')
    expect(tablet.locator("main")).to_contain_text("No passkeys yet.")
    tablet.click('form[action="/account/sign-out"] button')
    tablet.goto(site + "/profile")
    tablet.click("#passkey-sign-in")
    expect(tablet.locator("#passkey-status")).to_contain_text("not on any account here")
    expect(tablet.locator("p.lead")).to_contain_text("a guest player")
    third.close()


FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"
CHROMIUM_LINUX = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chromium/130.0.0.0 Chrome/130.0.0.0 Safari/537.36")
PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True}


def _fill_and_send(page: Page, action: str, fields: dict[str, str]) -> None:
    form = page.locator(f'form[action="{action}"]')
    for name, value in fields.items():
        form.locator(f'input[name="{name}"]').fill(value)
    form.locator("button[type=submit]").click()


def test_a_refused_form_says_why_beside_itself_in_a_sentence(browser: Browser, server: ServerProcess) -> None:
    """On a phone a wrong password's message is inside the sign-in form, in view, a capitalised
    sentence, with the focus in that form; a wrong current password's is beside the password
    form, not at the top of the page."""
    context = new_context(browser, **PHONE)
    page = context.new_page()
    try:
        page.goto(server.url + "/profile")
        _fill_and_send(page, "/account/sign-in", {"username": "nobody-here", "password": "not the one"})
        said = page.locator('form[action="/account/sign-in"] [role=alert]')
        expect(said).to_be_in_viewport()
        expect(said).to_have_text(re.compile(r"^[A-Z].*\.$"))
        assert page.evaluate("document.activeElement.closest('form')?.getAttribute('action')") == \
            "/account/sign-in"
        assert page.locator("[role=alert]").count() == 1

        _fill_and_send(page, "/account/create", {"username": "form-ann", "password": PASSWORD})
        _fill_and_send(page, "/account/password", {"current": "not my password", "password": PASSWORD + "!"})
        said = page.locator('form[action="/account/password"] [role=alert]')
        expect(said).to_be_in_viewport()
        expect(said).to_have_text("Your current password is not that.")
        assert page.locator("[role=alert]").count() == 1
    finally:
        context.close()


def test_devices_are_named_by_browser_and_system_with_when_last_seen(browser: Browser,
                                                                       server: ServerProcess) -> None:
    phone = new_context(browser, user_agent=FIREFOX_ANDROID, **PHONE)
    laptop = new_context(browser, user_agent=CHROMIUM_LINUX)
    try:
        first = phone.new_page()
        first.goto(server.url + "/profile")
        _fill_and_send(first, "/account/create", {"username": "device-ann", "password": PASSWORD})
        second = laptop.new_page()
        second.goto(server.url + "/profile")
        _fill_and_send(second, "/account/sign-in", {"username": "device-ann", "password": PASSWORD})
        rows = second.locator("ul.devices li")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text(re.compile(r"^Firefox on Android, signed in .+, last seen "))
        expect(rows.nth(1)).to_contain_text(re.compile(r"^Chromium on Linux, signed in .+ \(this one\)"))
        assert "Mozilla" not in (second.text_content("ul.devices") or "")
    finally:
        phone.close()
        laptop.close()
