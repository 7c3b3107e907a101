"""Rooms in real browsers: friends join through an invite link and play a game to its end,
a spectator watches it, a player reloads mid-game and rejoins, an away seat is played by a
computer and given back, and a rematch keeps the room and its seats."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_play import mouse_turn
from conftest import new_context
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_process import ServerProcess

RULES = {"preset": "oklahoma-multiplayer", "target": 10}
WAIT = 20_000
OPENED: list[BrowserContext] = []


@pytest.fixture
def rooms_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "rooms.db", extra=("--away-seconds", "0.5")).start()
    yield process
    process.stop()


def open_page(browser: Browser, url: str, errors: list[str]) -> Page:
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    OPENED.append(context)
    context.add_init_script(
        f"localStorage.setItem('okgin.options', '{json.dumps({'speed': 'instant', 'levels': ['normal']})}');"
        f"localStorage.setItem('okgin.rules', '{json.dumps(RULES)}');"
    )
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page


def host_room(browser: Browser, server: ServerProcess, seats: int, errors: list[str],
              name: str = "Ann") -> tuple[Page, str]:
    host = open_page(browser, server.url, errors)
    host.click("#play-friends")
    host.fill("#friends-name", name)
    host.select_option("#friends-seats", str(seats))
    host.click("#friends-create")
    host.wait_for_url("**/r/*", timeout=WAIT)
    link = host.locator("#room-link").input_value(timeout=WAIT)
    assert link == host.url
    return host, link


def sit(browser: Browser, link: str, seat: int, name: str, errors: list[str]) -> Page:
    guest = open_page(browser, link, errors)
    row = guest.locator(f'#seats .seat[data-seat="{seat}"]')
    row.get_by_label("Your name").fill(name)
    row.get_by_role("button", name="Take this seat").click()
    expect(row).to_contain_text(f"{name} · you", timeout=WAIT)
    return guest


def play_together(pages: list[Page], limit: int = 4000) -> None:
    """Each page plays its own turns by mouse, and presses Next hand, until the game is over."""
    for _ in range(limit):
        turns = [str(page.evaluate("document.body.dataset.turn || ''")) for page in pages]
        if all(turn == "over" for turn in turns):
            return
        for page, turn in zip(pages, turns, strict=True):
            if turn == "you":
                mouse_turn(page)
            elif turn == "hand-over":
                button = page.locator("#result-buttons button:text-is('Next hand')")
                if button.count():
                    button.click()
        time.sleep(0.02)
    raise AssertionError("the game did not end")


def until_turn(player: Page, other: Page) -> None:
    """The other page plays its turns until it is ``player``'s move."""
    for _ in range(200):
        if player.evaluate("document.body.dataset.turn") == "you":
            return
        if other.evaluate("document.body.dataset.turn") == "you":
            mouse_turn(other)
        time.sleep(0.05)
    raise AssertionError("it never became the player's turn")


@pytest.fixture(autouse=True)
def _close_contexts() -> Iterator[None]:
    yield
    while OPENED:
        OPENED.pop().close()


def test_three_friends_play_to_the_end_watched_then_rematch(
    browser: Browser, rooms_server: ServerProcess,
) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 3, errors)
    bob = sit(browser, link, 1, "Bob", errors)
    cy = sit(browser, link, 2, "Cy", errors)
    watcher = open_page(browser, link, errors)
    expect(host.locator("#seats")).to_contain_text("Cy")
    host.click("#start-game")
    players = [host, bob, cy]
    for page in [*players, watcher]:
        page.wait_for_selector("#hand .card, body.spectator", timeout=WAIT)
    assert watcher.locator("#hand .card").count() == 0
    play_together(players)
    expect(watcher.locator("body")).to_have_attribute("data-turn", "over", timeout=WAIT)
    assert watcher.locator("#hand .card").count() == 0
    bob.click("#result-buttons button:text-is('Rematch')")
    for page in players:
        expect(page.locator("body")).not_to_have_attribute("data-turn", "over", timeout=WAIT)
    expect(host.locator("#seats")).to_contain_text("Bob")
    assert not errors, errors


def test_reload_away_computer_stand_in_and_return(browser: Browser, rooms_server: ServerProcess) -> None:
    errors: list[str] = []
    host, link = host_room(browser, rooms_server, 2, errors)
    bob = sit(browser, link, 1, "Bob", errors)
    host.click("#start-game")
    bob.wait_for_selector("#hand .card", timeout=WAIT)
    until_turn(bob, host)
    before = bob.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card).sort()")
    phase = bob.evaluate("document.body.dataset.phase")
    bob.reload()  # mid-turn: the same seat, the same cards, still Bob's move
    expect(bob.locator("body")).to_have_attribute("data-turn", "you", timeout=WAIT)
    after = bob.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card).sort()")
    assert after == before
    assert bob.evaluate("document.body.dataset.phase") == phase
    mouse_turn(bob)  # and the move is taken
    bob_context = bob.context
    bob.close()
    away = host.locator('#seats .seat[data-seat="1"]')
    expect(away).to_contain_text("away", timeout=WAIT)
    time.sleep(0.6)
    host.click("#seats .stand-in")
    expect(away).to_contain_text("the computer plays for now", timeout=WAIT)
    for _ in range(4):
        mouse_turn(host)  # the computer plays Bob's turns meanwhile
    back = bob_context.new_page()
    back.goto(link)
    back.wait_for_selector("#hand .card", timeout=WAIT)
    expect(host.locator('#seats .seat[data-seat="1"]')).not_to_contain_text("away", timeout=WAIT)
    play_together([host, back])
    expect(host.locator("#result-buttons button:text-is('Rematch')")).to_be_visible()
    assert not errors, errors
