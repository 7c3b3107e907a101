"""A tournament in real browsers: a host makes a 3-round Swiss for 4 on /t, two people join
by its link from two browser contexts, computer players take the other two places, each person
plays their own table from the tournament's page round after round (or sits out a bye), and
both pages end on the same final standings; its entry fee of 100 chips makes a pool of 200 that
both pages show split by 004's rule, and each profile's wallet agrees; axe-core finds nothing
serious on its pages. The host sets the short hands it plays in the form's House rules panel."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import httpx
from browser_play import mouse_turn
from conftest import FAST, new_context
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from server_process import ServerProcess
from table_helpers import axe

WAIT = 20_000
OPTIONS = json.dumps(FAST)


def person(browser: Browser, url: str, errors: list[str]) -> Page:
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    context.add_init_script(f"localStorage.setItem('okgin.options', '{OPTIONS}');")
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page


def fill_swiss(page: Page, places: int, rounds: int) -> None:
    """The /t form filled for a Swiss of ``places`` at tables of 2 over ``rounds`` rounds, matches
    to 5, the empty places to easy computer players (not yet sent)."""
    page.select_option('select[name="format"]', "swiss")
    page.fill('input[name="places"]', str(places))
    page.fill('input[name="table"]', "2")
    page.fill('input[name="target"]', "5")
    page.fill('input[name="rounds"]', str(rounds))
    page.fill('input[name="levels"]', "easy")


def join(page: Page, name: str) -> None:
    page.fill('form.join input[name="name"]', name)
    page.click("form.join button")
    page.wait_for_selector(f'#entrants li:text-is("{name}")', timeout=WAIT)


class Entrant:
    """One person's page: on the tournament's page until their table's link for a new round
    shows, then at the table until the match is over, then back."""

    def __init__(self, page: Page, link: str) -> None:
        self.page = page
        self.link = link
        self.round = 0
        self.tables = 0
        self.done = False

    def step(self) -> None:
        page = self.page
        if "/r/" in page.url:
            self._at_table()
            return
        status = page.locator("#t-status")
        if not status.count():
            return
        if status.get_attribute("data-status") == "finished":
            self.done = True
            return
        number = int(status.get_attribute("data-round") or 0)
        table = page.locator("#your-table a")
        if number > self.round and table.count():
            self.round = number
            table.click()
            page.wait_for_url("**/r/*", timeout=WAIT)
            self.tables += 1
        elif number > self.round and "bye" in (page.locator("#your-table").text_content() or ""):
            self.round = number

    def _at_table(self) -> None:
        page = self.page
        turn = str(page.evaluate("document.body.dataset.turn || ''"))
        if turn == "you":
            mouse_turn(page)
        elif turn == "hand-over":
            # Either button, in one look: the other person's Next hand may fold this one into
            # "Back to the table" (or deal on) between a count and a click; then the next step
            # looks again.
            button = page.locator("#result-buttons button:text-is('Next hand'):visible, "
                                  "#result-buttons button:text-is('Back to the table'):visible")
            if button.count():
                with contextlib.suppress(PlaywrightTimeoutError):
                    button.first.click(timeout=2_000)
        elif turn == "over":
            page.click("#result-buttons a:text-is('Back to the tournament')")
            page.wait_for_url(self.link, timeout=WAIT)


def test_a_swiss_of_four_two_people_and_two_computers_played_to_the_end(
    browser: Browser, server: ServerProcess,
) -> None:
    errors: list[str] = []
    ann = person(browser, server.url + "/t", errors)
    axe(ann, "the tournaments' list and form")
    fill_swiss(ann, places=4, rounds=3)
    # Short hands make a short test: set in the House rules panel, where a bad value is refused
    # beside its field and changes nothing.
    ann.fill("#rule-hand_size", "99")
    ann.locator("#rule-hand_size").blur()
    expect(ann.locator("#rule-hand_size-error")).to_contain_text("a whole number from 3 to 24")
    assert ann.input_value("#house") == ""
    ann.fill("#rule-hand_size", "4")
    ann.locator("#rule-hand_size").blur()
    assert json.loads(ann.input_value("#house")) == {"hand_size": 4}
    ann.fill('input[name="fee"]', "100")  # a paid tournament: 100 chips from each person
    ann.click("form.tournament-form button[type=submit]")
    ann.wait_for_url("**/t/*", timeout=WAIT)
    link = ann.url
    axe(ann, "an open tournament's page")
    join(ann, "Ann")
    bob = person(browser, link, errors)
    join(bob, "Bob")
    ann.click("form.start button")
    ann.wait_for_selector('#t-status[data-status="running"]', timeout=WAIT)
    players = [Entrant(ann, link), Entrant(bob, link)]
    deadline = time.monotonic() + 600  # a guard against a hang, not a time limit
    while not all(p.done for p in players) and time.monotonic() < deadline:
        for p in players:
            if not p.done:
                p.step()
        time.sleep(0.05)
    assert all(p.done for p in players), [p.page.url for p in players]
    state: dict[str, Any] = httpx.get(f"{link}/state").json()
    assert state["status"] == "finished" and state["round"] == 3
    names = {e["seed"]: e["name"] for e in state["entrants"]}
    assert sorted(names.values())[:2] == ["Ann", "Bob"] and len(names) == 4
    # Four at tables of two: no byes, so each person had a table every round (the server's
    # record of it). The two pages are driven in turn by one loop, so on a loaded machine one
    # can be left unattended past --away-seconds, and then a computer rightly stands in and
    # may finish that table's match before the page looks: a page reaches each round it sees.
    people = {e["seed"] for e in state["entrants"] if e["person"]}
    assert [(s["played"], s["byes"]) for s in state["standings"] if s["entrant"] in people] == [(3, 0)] * 2
    for p in players:
        assert 1 <= p.tables <= p.round <= 3
        rows = p.page.locator("#standings tbody tr")
        assert rows.count() == 4
        shown = [rows.nth(i).locator("td").nth(1).inner_text().split(" (")[0] for i in range(4)]
        assert shown == [names[e] for e in state["final"]]
        assert p.page.locator("h2:text-is('Final standings')").count() == 1
        # The pool of the two fees split by 004's rule: the people's cells, the computers' empty.
        assert p.page.locator("#t-pool").get_attribute("data-chips") == "200"
        won = [rows.nth(i).locator("td.won").inner_text() for i in range(4)]
        assert won == [str(state["pool"]["won"].get(str(e), "")) for e in state["final"]]
    chips = {names[int(seed)]: c for seed, c in state["pool"]["won"].items()}
    assert sorted(chips) == ["Ann", "Bob"] and sum(chips.values()) == 200 and max(chips.values()) >= 150
    for p, name in zip(players, ("Ann", "Bob"), strict=True):  # each wallet: 1000, less 100, plus won
        p.page.goto(server.url + "/profile")
        assert p.page.locator("#chip-balance").inner_text() == str(1000 - 100 + chips[name])
    axe(ann, "a finished tournament's page")
    assert not errors, errors
    for p in players:
        p.page.context.close()
