"""An account in a real Chromium: a guest plays a game to its end, makes an account on the
profile page, signs in from a second browser context and sees the same history there, chooses
a name there that fills the room's name field, and signs the first one out from the second."""

from __future__ import annotations

import re

from browser_play import mouse_turn, next_hand
from conftest import new_context
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from test_browser_game import set_house_rule, start_new_game

PASSWORD = "a long table of cards"


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
    set_house_rule(page, "target", "10")
    start_new_game(page)
    _play_to_the_end(page)
    page.goto(server.url + "/history")
    game = page.locator('a[href$="/replay"]').first.get_attribute("href")
    assert game is not None and re.fullmatch(r"/games/[\w-]+/replay", game)
    page.goto(server.url + "/profile")
    page.fill('form[action="/account/create"] input[name="username"]', "Table-Ann")
    page.fill('form[action="/account/create"] input[name="password"]', PASSWORD)
    page.click('form[action="/account/create"] button')
    expect(page.locator("p.lead")).to_contain_text("signed in as table-ann")

    other = new_context(browser)
    phone = other.new_page()
    phone.goto(server.url + "/history")
    expect(phone.locator("main")).to_contain_text("No finished games yet.")
    phone.goto(server.url + "/profile")
    phone.fill('form[action="/account/sign-in"] input[name="username"]', "table-ann")
    phone.fill('form[action="/account/sign-in"] input[name="password"]', PASSWORD)
    phone.click('form[action="/account/sign-in"] button')
    expect(phone.locator("p.lead")).to_contain_text("signed in as table-ann")
    expect(phone.locator("ul.devices li")).to_have_count(2)
    phone.goto(server.url + "/history")
    expect(phone.locator(f'a[href="{game}"]')).to_have_count(1)

    phone.goto(server.url + "/profile")  # the name chosen once fills the room's name field
    phone.fill('form[action="/profile/name"] input[name="name"]', "Ann")
    phone.click('form[action="/profile/name"] button')
    phone.goto(server.url)
    phone.click("#play-friends")
    expect(phone.locator("#friends-name")).to_have_value("Ann")

    phone.goto(server.url + "/profile")
    phone.click('form[action="/account/sign-out-others"] button')
    expect(phone.locator("ul.devices li")).to_have_count(1)
    page.goto(server.url + "/history")  # the first browser was signed out: a new guest there
    expect(page.locator("main")).to_contain_text("No finished games yet.")
    other.close()
