"""A table of three friends, each on a phone (375×740, touch): a quick phrase shows as a bubble
by its sender's seat on the other two phones, the turn timer counts down at the seat whose turn
it is on all three, a full table says so to a latecomer, and a rematch is an offer: Ann offers,
Bob accepts, Cy leaves the table instead, and the new game is dealt to Ann and Bob: two seats,
the two people (Cy's seat is taken away between games, never below two seats)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FAST, new_context, shot
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from server_process import ServerProcess
from test_browser_rooms import RULES, play_together

WAIT = 20_000
PHONE = {"width": 375, "height": 740}


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def phone(browser: Browser, made: list[BrowserContext], url: str, errors: list[str]) -> Page:
    context = new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    made.append(context)
    context.add_init_script(
        f"localStorage.setItem('okgin.options', '{json.dumps(FAST)}');"
        f"localStorage.setItem('okgin.rules', '{json.dumps(RULES)}');")
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page


def sit(page: Page, seat: int, name: str) -> None:
    row = page.locator(f'#seats .seat[data-seat="{seat}"]')
    row.get_by_label("Your name").fill(name)
    row.get_by_role("button", name="Take this seat").click()
    expect(row).to_contain_text(f"{name} · you", timeout=WAIT)


def inside(page: Page, selector: str) -> None:
    """The element is shown whole inside the phone's window."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= PHONE["height"] + 0.5, (selector, box)


@pytest.mark.slow
def test_three_phones_see_phrases_the_timer_and_answer_a_rematch(
    browser: Browser, phones: list[BrowserContext], tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path / "rooms.db").start()
    try:
        errors: list[str] = []
        ann = phone(browser, phones, server.url + "/#friends", errors)
        ann.fill("#friends-name", "Ann")
        ann.select_option("#friends-seats", "3")
        ann.select_option("#friends-timer", "120")
        ann.click("#friends-create")
        ann.wait_for_url("**/r/*", timeout=WAIT)
        link = ann.url
        # Before anyone sits, the lobby says the rules and the target in words.
        bob = phone(browser, phones, link, errors)
        expect(bob.locator("#room-rules")).to_contain_text("first to 10", timeout=WAIT)
        sit(bob, 1, "Bob")
        cy = phone(browser, phones, link, errors)
        sit(cy, 2, "Cy")
        late = phone(browser, phones, link, errors)  # a fourth friend, too late
        expect(late.locator("#room")).to_contain_text("The table is full", timeout=WAIT)
        expect(late.get_by_role("button", name="Take this seat")).to_have_count(0)
        players = [ann, bob, cy]
        ann.click("#start-game")
        for page in players:
            page.wait_for_selector("#hand .card", timeout=WAIT)

        # The turn timer: a countdown at the seat whose turn it is, on every phone.
        for page in players:
            clock = page.locator("#scores .score.turn .seat-clock")
            expect(clock).to_have_text(re.compile(r"^\d+ s$"), timeout=WAIT)
            inside(page, "#scores .score.turn .seat-clock")

        # Bob says "Good game" (his phrases are in the Menu): a bubble by his seat on the others.
        bob.click("#menu-toggle")
        bob.locator("#room button.phrase", has_text="Good game").click()
        for page in (ann, cy):
            bubble = page.locator('.bubble[data-seat="1"]')
            expect(bubble).to_be_visible(timeout=2_000)
            expect(bubble).to_contain_text("Bob: Good game")
            inside(page, '.bubble[data-seat="1"]')
        shot(ann, "phone-table-375x740")  # the README's phone at a friends' table
        # The Menu, open, lies over the table's top and above the hand's head, covering neither
        # the hand nor its buttons (test_browser_phone_menu.py: nor does it move them).
        head = bob.locator(".hand-head").bounding_box()
        room = bob.locator("#room").bounding_box()
        assert head and room
        assert room["y"] + room["height"] <= head["y"], (room, head)
        bob.click("#menu-toggle")

        play_together(players)
        first = ann.evaluate("Okgin.state().game")
        ann.locator("#result-buttons button", has_text="Offer a rematch").click()
        for page in (bob, cy):
            expect(page.locator("#result")).to_contain_text("Ann offers a rematch", timeout=WAIT)
            expect(page.locator("#result-buttons button", has_text="Accept")).to_be_visible()
            expect(page.locator("#result-buttons button", has_text="Leave the table")).to_be_visible()
        bob.locator("#result-buttons button", has_text="Accept").click()
        # The others' screens follow the answers; nothing is dealt while Cy has not answered.
        expect(ann.locator("#result")).to_contain_text("waiting for Cy", timeout=WAIT)
        expect(cy.locator("#result")).to_contain_text("Bob said yes", timeout=WAIT)
        assert ann.evaluate("Okgin.state().game") == first
        cy.locator("#result-buttons button", has_text="Leave the table").click()
        cy.click("#leave-confirm")
        cy.wait_for_url(server.url + "/", timeout=WAIT)
        for page in (ann, bob):
            page.wait_for_function("game => Okgin.state().game !== game", arg=first, timeout=WAIT)
            expect(page.locator("body")).not_to_have_attribute("data-turn", "over", timeout=WAIT)
            expect(page.locator("#hand .card").first).to_be_visible()
            # The new game has exactly two seats, the two people who stayed.
            assert page.evaluate("Okgin.state().names") == ["Ann", "Bob"]
            assert page.evaluate("Okgin.state().view.hand_sizes.length") == 2
            expect(page.locator("#seats .seat")).to_have_count(2)
            expect(page.locator("#seats .seat .who")).to_have_text([
                re.compile(r"^Ann · host"), re.compile(r"^Bob")])
        expect(ann.locator("#said")).to_contain_text("Cy left the table.")
        expect(bob.locator("#seats .seat .who").nth(1)).to_contain_text("Bob · you")
        assert not errors, errors
    finally:
        server.stop()


@pytest.mark.slow
def test_a_room_page_opens_its_socket_only_once_every_module_has_run(
    browser: Browser, phones: list[BrowserContext], tmp_path: Path,
) -> None:
    """room.js is still being fetched when game.js runs (a loaded machine): the page must not
    open its socket yet, or its open is heard before room.js listens and the room is never
    entered (the seat rows never drawn: the flake of the test above)."""
    server = ServerProcess(tmp_path / "rooms.db").start()
    try:
        errors: list[str] = []
        ann = phone(browser, phones, server.url + "/#friends", errors)
        ann.fill("#friends-name", "Ann")
        ann.click("#friends-create")
        ann.wait_for_url("**/r/*", timeout=WAIT)
        context = new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
        phones.append(context)
        context.add_init_script("""window.__sockets = 0;
            const Made = window.WebSocket;
            window.WebSocket = class extends Made {
              constructor(...args) { super(...args); window.__sockets += 1; } };""")
        held: list[Route] = []
        context.route("**/static/room.js", lambda route: held.append(route))
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(ann.url, wait_until="commit")
        page.wait_for_function("window.Okgin !== undefined && window.__sockets !== undefined", timeout=WAIT)
        assert held and page.evaluate("window.__sockets") == 0
        held[0].continue_()
        name = page.locator('#seats .seat[data-seat="1"]').get_by_label("Your name")
        expect(name).to_be_visible(timeout=WAIT)
        assert page.evaluate("window.__sockets") == 1 and not errors, errors
    finally:
        server.stop()
