"""A tournament as an event in a real browser: a knockout's page shows its bracket (a column
for each round, each match with its players and its winner), the end a winner's headline and
the final table, /t lists the finished tournaments with their winners, the start time is typed
and shown in the viewer's own time zone, and the standings and the bracket fit a phone.

The tournaments are written into the store before the server starts (stored_tournaments.py),
so each test has one finished (or running) without playing it."""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import new_context
from playwright.sync_api import Browser, Page
from server_process import ServerProcess
from stored_tournaments import write_tournament
from table_helpers import axe

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
PHONES = [(360, 640), (375, 740), (740, 360)]


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[ServerProcess, dict[str, str]]]:
    """A server over a store holding a finished knockout of 8, a finished Swiss of 8 with an entry
    fee (its standings' widest table: a Chips won column) and long names, and a running Swiss."""
    db = tmp_path / "games.db"
    url = f"sqlite:///{db}"
    long = ["Annabel Lee-Smith", *(f"{n} Longername" for n in EIGHT[1:])]
    codes = {
        "knockout": write_tournament(url, "knockout", EIGHT),
        "swiss": write_tournament(url, "swiss", long, fee=10),
        "running": write_tournament(url, "swiss", EIGHT[:4], played=1),
    }
    process = ServerProcess(db).start()
    yield process, codes
    process.stop()


def opened(browser: Browser, url: str, **options: object) -> Page:
    context = new_context(browser, **{"viewport": {"width": 1280, "height": 800}, **options})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("#live, main h1")
    assert not errors, errors
    return page


def test_a_knockouts_page_shows_its_bracket_round_by_round(
    browser: Browser, stored: tuple[ServerProcess, dict[str, str]],
) -> None:
    server, codes = stored
    page = opened(browser, f"{server.url}/t/{codes['knockout']}")
    columns = page.locator("#bracket .bracket-round")
    assert [columns.nth(i).locator("h3").inner_text() for i in range(columns.count())] == [
        "Round 1", "Round 2", "Final"]
    assert [columns.nth(i).locator(".match").count() for i in range(3)] == [4, 2, 1]
    boxes = [columns.nth(i).bounding_box() for i in range(3)]
    assert all(b is not None for b in boxes)
    assert [b["x"] for b in boxes if b] == sorted(b["x"] for b in boxes if b)  # side by side, in order
    assert len({round(b["y"]) for b in boxes if b}) == 1
    first = columns.nth(0).locator(".match").nth(0)
    assert first.locator(".players li").count() == 2
    assert first.locator(".players li.winner .who").inner_text().split(" (")[0] in EIGHT
    final = columns.nth(2).locator(".match")
    assert final.locator("li.winner .who").inner_text() == "Ann (easy)"
    assert final.locator(".outcome").inner_text().startswith("Ann (easy) wins")
    assert page.locator("text=Buchholz").count() == 0
    axe(page, "a finished knockout's page")
    page.context.close()


def test_the_end_shows_the_winners_headline_and_the_final_table(
    browser: Browser, stored: tuple[ServerProcess, dict[str, str]],
) -> None:
    server, codes = stored
    page = opened(browser, f"{server.url}/t/{codes['knockout']}")
    assert page.locator("#t-winner").inner_text() == "Ann wins Knockout"
    rows = page.locator("#final-table tbody tr")
    assert rows.count() == 8
    assert rows.nth(0).locator("td").nth(1).inner_text().startswith("Ann")
    assert rows.nth(0).locator("td").nth(2).inner_text() == "Champion"
    assert rows.nth(7).locator("td").nth(2).inner_text() == "Out in round 1"
    swiss = opened(browser, f"{server.url}/t/{codes['swiss']}")
    assert swiss.locator("#t-winner").inner_text() == "Annabel Lee-Smith wins Swiss"
    assert swiss.locator("h2:text-is('Final standings')").count() == 1
    page.context.close()
    swiss.context.close()


def test_finished_tournaments_are_listed_on_t_with_their_winners(
    browser: Browser, stored: tuple[ServerProcess, dict[str, str]],
) -> None:
    server, codes = stored
    page = opened(browser, f"{server.url}/t")
    finished = page.locator("ul.tournaments-finished li")
    assert finished.count() == 2
    listed = {finished.nth(i).locator("a").get_attribute("href"): finished.nth(i).inner_text()
              for i in range(2)}
    assert "won by Ann" in listed[f"/t/{codes['knockout']}"]
    assert "won by Annabel Lee-Smith" in listed[f"/t/{codes['swiss']}"]
    assert page.locator(f"ul.tournaments-running a[href='/t/{codes['running']}']").count() == 1
    axe(page, "the tournaments' list with finished ones")
    page.context.close()


def test_the_start_time_is_typed_and_shown_in_the_viewers_own_time_zone(
    browser: Browser, tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path / "games.db").start()
    try:
        page = opened(browser, f"{server.url}/t", timezone_id="America/New_York")
        zone = zoneinfo.ZoneInfo("America/New_York")
        local = (datetime.datetime.now(zone) + datetime.timedelta(days=2)).replace(
            hour=10, minute=30, second=0, microsecond=0)
        page.fill("#starts-local", local.strftime("%Y-%m-%dT%H:%M"))
        page.fill('input[name="levels"]', "easy")
        page.click("form.tournament-form button[type=submit]")
        page.wait_for_url("**/t/*")
        code = page.url.rsplit("/", 1)[1]
        state = httpx.get(f"{server.url}/t/{code}/state").json()
        assert state["settings"]["starts"] == local.timestamp()  # 10:30 in New York, sent as UTC
        shown = page.locator("time.local").first
        utc = local.astimezone(datetime.UTC)
        assert shown.get_attribute("datetime") == utc.strftime("%Y-%m-%dT%H:%M:%SZ")
        page.wait_for_function("document.querySelector('time.local').dataset.shown === 'local'")
        text = shown.inner_text()
        assert "10:30" in text and str(local.day) in text and "UTC" not in text, text
        listing = opened(browser, f"{server.url}/t", timezone_id="Asia/Tokyo")
        listing.wait_for_function("document.querySelector('time.local')?.dataset.shown === 'local'")
        tokyo = local.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo"))
        assert tokyo.strftime("%H:%M") in listing.locator("ul.tournaments-open time.local").inner_text()
        page.context.close()
        listing.context.close()
    finally:
        server.stop()


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_the_standings_and_the_bracket_fit_a_phone(
    browser: Browser, stored: tuple[ServerProcess, dict[str, str]], width: int, height: int,
) -> None:
    server, codes = stored
    for which, table in (("swiss", "#standings"), ("knockout", "#final-table"), ("knockout", "#bracket")):
        page = opened(browser, f"{server.url}/t/{codes[which]}", viewport={"width": width, "height": height},
                      has_touch=True, is_mobile=True)
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], (which, wide)
        right = page.evaluate(f"document.querySelector('{table}').getBoundingClientRect().right")
        assert right <= width, (which, table, right)
        cells = page.locator(f"{table} th, {table} .who")
        for i in range(cells.count()):
            box = cells.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (i, box)
        page.context.close()
