"""The Tables page in real browsers (issue 26): a host opens a table for anyone; a second person,
already on /tables in another context, sees it appear without reloading and joins it with one
click; a listed game in play is watched from the list of games being played now with one click,
the spectator's page showing the table and no frame holding a card it may not see."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_play import mouse_turn
from conftest import new_context, shot
from playwright.sync_api import Browser, Page, expect
from scripted_client import assert_fair
from server_process import ServerProcess
from test_browser_rooms import OPENED, open_page, open_play_with_friends

RULES = {"preset": "oklahoma", "target": 10}
INSIDE_ITS_SCORE = """el => { const o = el.getBoundingClientRect();
  const s = el.closest('.score').getBoundingClientRect();
  return o.left >= s.left - 1 && o.right <= s.right + 1; }"""
WAIT = 20_000


@pytest.fixture
def tables_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "tables.db").start()
    yield process
    process.stop()


@pytest.fixture(autouse=True)
def _close_contexts() -> Iterator[None]:
    yield
    while OPENED:
        OPENED.pop().close()


def _open_table(
    browser: Browser, server: ServerProcess, errors: list[str], seats: int = 2,
) -> tuple[Page, str]:
    """Ann makes a table for ``seats`` and ticks Open table; her page and the room's code."""
    host = open_page(browser, server.url, errors, rules=RULES)
    open_play_with_friends(host)
    host.fill("#friends-name", "Ann")
    host.select_option("#friends-seats", str(seats))
    host.check("#friends-public")
    host.click("#friends-create")
    host.wait_for_url("**/r/*", timeout=WAIT)
    expect(host.locator("#public-line")).to_contain_text("An open table", timeout=WAIT)
    return host, host.url.rsplit("/", 1)[1]


@pytest.mark.slow
def test_an_open_table_appears_in_the_list_without_a_reload_and_is_joined_with_one_click(
    browser: Browser, tables_server: ServerProcess,
) -> None:
    errors: list[str] = []
    bob = open_page(browser, tables_server.url + "/tables", errors, rules=RULES, name="Bob")
    expect(bob.locator("#waiting-none")).to_be_visible()
    bob.evaluate("window.sameLoad = true")  # gone if the page were loaded again
    host, code = _open_table(browser, tables_server, errors)
    row = bob.locator(f'#waiting li[data-code="{code}"]')
    expect(row).to_contain_text("Ann's table for 2", timeout=WAIT)
    expect(row).to_contain_text("1 of 2 seats free; no turn timer; no coach (rated).")
    assert bob.evaluate("window.sameLoad") is True
    row.get_by_role("link", name="Join Ann's table").click()
    bob.wait_for_url(f"**/r/{code}", timeout=WAIT)
    expect(bob.locator('#seats .seat[data-seat="1"]')).to_contain_text("Bob · you", timeout=WAIT)
    expect(host.locator('#seats .seat[data-seat="1"]')).to_contain_text("Bob", timeout=WAIT)
    bob.goto(tables_server.url + "/tables")  # the table is full: it has left the list
    expect(bob.locator("#waiting-none")).to_be_visible(timeout=WAIT)
    assert not errors, errors


@pytest.mark.slow
def test_a_listed_game_is_watched_from_the_games_being_played_and_shows_no_hidden_card(
    browser: Browser, tables_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, code = _open_table(browser, tables_server, errors)
    host.click('#seats .seat[data-seat="1"] .add-computer')
    expect(host.locator('#seats .seat[data-seat="1"]')).to_contain_text("(computer, normal)", timeout=WAIT)
    host.click("#start-game")
    host.wait_for_selector("#hand .card", timeout=WAIT)
    watcher = open_page(browser, tables_server.url + "/tables", errors, rules=RULES)
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    row = watcher.locator(f'#playing li[data-code="{code}"]')
    expect(row).to_contain_text("Ann (1500) and Ruby (computer)", timeout=WAIT)
    expect(watcher.locator("#waiting-none")).to_be_visible()  # started: no longer waiting
    row.get_by_role("link", name="Watch Ann, Ruby").click()
    watcher.wait_for_url(f"**/r/{code}", timeout=WAIT)
    expect(watcher.locator("body")).to_have_class(re.compile(r"\bspectator\b"), timeout=WAIT)
    expect(watcher.locator("#watcher-line")).to_have_text("You are watching this table.")
    expect(watcher.locator("#opponents .fan").first).to_be_visible()
    seen = watcher.evaluate("document.body.dataset.seq")
    for _ in range(4):  # the host plays on while the watcher looks (Ruby answers at once)
        mouse_turn(host)
    watcher.wait_for_function("seen => document.body.dataset.seq !== seen", arg=seen, timeout=WAIT)
    assert watcher.locator("#hand .card").count() == 0
    states = [f for f in frames if json.loads(f)["type"] == "state"]
    assert len(states) >= 2 and all(json.loads(f)["view"]["seat"] is None for f in states)
    assert_fair(frames)
    # The watchers' odds, a move late: under each seat's score for the spectator, never for a player.
    odds = watcher.locator("#scores .score .odds")
    expect(odds).to_have_count(2)
    expect(odds.first).to_have_text(re.compile(r"^hand \d+%\s+game \d+%$"))
    assert any(json.loads(f).get("odds") for f in states)
    assert host.locator(".score .odds").count() == 0 and host.evaluate("!('odds' in Okgin.state())")
    assert not errors, errors


@pytest.mark.slow
def test_a_phone_watching_a_table_of_four_sees_every_seats_odds_without_sideways_scroll(
    browser: Browser, tables_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, code = _open_table(browser, tables_server, errors, seats=4)
    for seat in (1, 2, 3):
        host.click(f'#seats .seat[data-seat="{seat}"] .add-computer')
        expect(host.locator(f'#seats .seat[data-seat="{seat}"]')).to_contain_text("(computer", timeout=WAIT)
    host.click("#start-game")
    host.wait_for_selector("#hand .card", timeout=WAIT)
    context = new_context(browser, viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
    OPENED.append(context)
    phone = context.new_page()
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(f"{tables_server.url}/r/{code}")
    expect(phone.locator("body")).to_have_class(re.compile(r"\bspectator\b"), timeout=WAIT)
    for _ in range(2):  # the host plays on: the odds of the moment before come to the phone
        mouse_turn(host)
    odds = phone.locator("#scores .score .odds")
    expect(odds).to_have_count(4, timeout=WAIT)
    for width, height in ((360, 640), (375, 740), (740, 360)):
        phone.set_viewport_size({"width": width, "height": height})
        wide = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], (width, height, wide)
        for seat in range(4):
            expect(odds.nth(seat)).to_be_in_viewport()
            assert re.fullmatch(r"hand \d+% game \d+%", " ".join(odds.nth(seat).inner_text().split()))
            inside = odds.nth(seat).evaluate(INSIDE_ITS_SCORE)
            assert inside, (width, height, seat)  # within its own score, over no other
        shot(phone, f"spectator-odds-{width}x{height}", full_page=False)
    assert not errors, errors
