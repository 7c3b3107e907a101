"""The coach at competitive tables, in Debian's Chromium: no Hint button at a tournament's table
nor at a friends' table whose host left the coach off (the lobby says so in words), and a Hint
that answers at a table whose host allowed it."""

from __future__ import annotations

import pytest
from browser_play import wait_my_move
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from test_browser_rooms import WAIT, open_page, open_play_with_friends
from test_browser_tournament import fill_swiss, join, person

HINT = "#actions button:text-is('Hint')"


def _room_with_a_computer(browser: Browser, server: ServerProcess, errors: list[str], coach: bool) -> Page:
    """Ann's room of two (the coach allowed or not), a computer player in the other seat, started."""
    host = open_page(browser, server.url, errors)
    open_play_with_friends(host)
    host.fill("#friends-name", "Ann")
    host.select_option("#friends-seats", "2")
    if coach:
        host.check("#friends-coach")
    host.click("#friends-create")
    host.wait_for_url("**/r/*", timeout=WAIT)
    words = ("The coach is allowed at this table: Hint and advice are on, and its games are not rated."
             if coach else "No coach at this table: its games are rated.")
    expect(host.locator("#coach-line")).to_have_text(words, timeout=WAIT)
    host.locator('#seats .seat[data-seat="1"] button.add-computer').click()
    expect(host.locator('#seats .seat[data-seat="1"]')).to_contain_text("Ruby", timeout=WAIT)
    host.click("#start-game")
    return host


def _at_my_turn(page: Page) -> None:
    """The page's turn, its action buttons drawn (a Draw or a Take among them)."""
    assert wait_my_move(page) == "you"
    expect(page.locator("#actions button").first).to_be_visible(timeout=WAIT)


@pytest.mark.slow
def test_no_hint_at_a_room_without_the_coach_and_a_hint_where_it_is_allowed(
    browser: Browser, server: ServerProcess,
) -> None:
    errors: list[str] = []
    off = _room_with_a_computer(browser, server, errors, coach=False)
    _at_my_turn(off)
    assert off.locator(HINT).count() == 0
    expect(off.locator("#coach-line")).to_have_count(0)  # the lobby's line goes with the lobby
    on = _room_with_a_computer(browser, server, errors, coach=True)
    _at_my_turn(on)
    expect(on.locator(HINT)).to_be_visible()
    assert not errors, errors


@pytest.mark.slow
def test_no_hint_at_a_tournament_table(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    ann = person(browser, server.url + "/t", errors)
    fill_swiss(ann, places=2, rounds=1)
    ann.click("form.tournament-form button[type=submit]")
    ann.wait_for_url("**/t/*", timeout=WAIT)
    join(ann, "Ann")
    ann.click("form.start button")
    ann.wait_for_selector("#your-table a", timeout=WAIT)
    ann.click("#your-table a")
    ann.wait_for_url("**/r/*", timeout=WAIT)
    _at_my_turn(ann)
    assert ann.locator(HINT).count() == 0
    assert not errors, errors
