"""Play online (issue 26, item 1): people who press Play online with the same choice are seated
together at one rated table; a lone seeker is offered a computer player after the server's
wait (``--pool-offer-seconds``, 1 s here) and is seated with one only on choosing it; a seeker
may cancel. The page fits a phone."""

from __future__ import annotations

import contextlib
import re
import sqlite3
import time
from collections.abc import Iterator

import pytest
from conftest import new_context
from playwright.sync_api import Browser, Page, expect
from server_process import Serve, ServerProcess
from table_helpers import axe
from test_browser_rooms import open_page, play_together

pytestmark = pytest.mark.slow
TABLE = re.compile(r"/r/[A-Za-z0-9_-]+$")


@pytest.fixture(scope="module")
def pool_server(serve: Serve) -> ServerProcess:
    return serve(extra=("--pool-offer-seconds", "1"))


@contextlib.contextmanager
def people(browser: Browser, count: int, phone: bool = False) -> Iterator[list[Page]]:
    """``count`` people, each in a browser of their own (the first on a phone if ``phone``)."""
    contexts = [new_context(browser, viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
                if phone and i == 0 else new_context(browser, viewport={"width": 1280, "height": 800})
                for i in range(count)]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield pages
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def seek(page: Page, server: ServerProcess, choice: str, from_table: bool = False) -> None:
    """Press Play online (in the site frame, or in the table's Menu) and seek ``choice``."""
    if from_table:
        page.goto(server.url + "/")
        page.click("#menu-toggle")
        page.locator("#game-nav").get_by_role("link", name="Play online").click()
    else:
        page.goto(server.url + "/leaderboard")
        page.get_by_role("navigation", name="Site").get_by_role("link", name="Play online").click()
    expect(page).to_have_url(server.url + "/play-online")
    page.get_by_label(choice).check()
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#seek-status")).to_contain_text("Waiting")
    expect(page.locator("#seek")).to_be_hidden()


def seated_together(pages: list[Page], cards: int) -> str:
    for page in pages:
        expect(page).to_have_url(TABLE, timeout=20_000)
    urls = {page.url for page in pages}
    assert len(urls) == 1, urls
    for page in pages:  # each holds a seat (their own hand), none is a spectator
        expect(page.locator("#hand .card")).to_have_count(cards, timeout=20_000)
    return urls.pop()


def test_two_people_pressing_play_online_for_oklahoma_sit_at_one_table(
        browser: Browser, pool_server: ServerProcess) -> None:
    with people(browser, 2, phone=True) as (ann, ben):
        seek(ann, pool_server, "2 players: Oklahoma Gin, classic (no Big Gin)", from_table=True)
        wide = ann.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], wide
        for button in ("Cancel", "Play a computer player instead"):
            box = ann.get_by_role("button", name=button).bounding_box()
            assert box is None or box["height"] >= 44, (button, box)
        seek(ben, pool_server, "2 players: Oklahoma Gin, classic (no Big Gin)")
        url = seated_together([ann, ben], 10)
        assert ann.locator("#opponents").inner_text() != ""
        for page in (ann, ben):
            expect(page.locator("#opponents")).not_to_contain_text("Ruby")  # two people, no computer
        assert url.startswith(pool_server.url)


def test_three_people_fill_a_three_seat_table(browser: Browser, pool_server: ServerProcess) -> None:
    with people(browser, 3) as three:
        for page in three:
            seek(page, pool_server, "3 players: Oklahoma Gin for 2 to 4 players (penalty scoring)")
        seated_together(three, 7)
        expect(three[0].locator("#opponents .opponent")).to_have_count(2)


def test_play_cannot_be_pressed_before_the_pages_script_can_seek(
        browser: Browser, pool_server: ServerProcess) -> None:
    """On a slow connection the page may show before play-online.js has run. Play stays disabled
    until then: pressed earlier, it sent the form as a plain GET, the page came back with the
    choice in its address and nobody was seeking (a loaded run's flake of the three-seat test)."""
    with people(browser, 1) as (dee,):
        dee.route("**/static/play-online.js", lambda route: route.abort())  # the script never comes
        dee.goto(pool_server.url + "/play-online")
        play = dee.get_by_role("button", name="Play", exact=True)
        expect(play).to_be_disabled()
        assert "needs JavaScript" in (dee.locator("noscript").text_content() or "")  # said without it
        dee.unroute("**/static/play-online.js")
        seek(dee, pool_server, "2 players: Standard Gin Rummy (knock with 10 or less)")
        dee.get_by_role("button", name="Cancel").click()
        expect(play).to_be_enabled()


def test_a_lone_seeker_may_cancel_and_is_offered_a_computer_after_the_wait(
        browser: Browser, pool_server: ServerProcess) -> None:
    with people(browser, 1) as (cat,):
        seek(cat, pool_server, "2 players: Standard Gin Rummy (knock with 10 or less)")
        cat.get_by_role("button", name="Cancel").click()
        expect(cat.get_by_role("button", name="Play", exact=True)).to_be_visible()
        expect(cat.locator("#waiting")).to_be_hidden()
        seek(cat, pool_server, "2 players: Standard Gin Rummy (knock with 10 or less)")
        offer = cat.get_by_role("button", name="Play a computer player instead")
        expect(offer).to_be_visible(timeout=10_000)
        expect(cat.locator("#seek-status")).to_contain_text("you may play a computer player")
        expect(cat).to_have_url(pool_server.url + "/play-online")  # never seated with one unasked
        axe(cat, "play online, waiting with the offer", rules=("landmark-one-main", "region", "label"))
        offer.click()
        expect(cat).to_have_url(TABLE, timeout=20_000)
        expect(cat.locator("#hand .card")).to_have_count(10, timeout=20_000)
        expect(cat.locator("#opponents")).to_contain_text("Ruby")




@pytest.fixture(scope="module")
def leaving_server(serve: Serve) -> ServerProcess:
    return serve(extra=("--pool-offer-seconds", "600", "--away-seconds", "1"))


def test_a_player_who_closes_the_table_is_played_for_and_rated_as_losing(
        browser: Browser, leaving_server: ServerProcess) -> None:
    """Issue 26, item 4: Ben closes his table for good; a computer player stands in after the
    grace (1 s here) and finishes his seat while Ann plays hers by mouse; the game is rated with
    Ben last whoever won, and his rating goes down."""
    errors: list[str] = []
    ann, ben = (open_page(browser, leaving_server.url + "/play-online", errors) for _ in range(2))
    for page, name in ((ann, "Ann"), (ben, "Ben")):
        page.get_by_label("Your name").fill(name)
        page.get_by_label("2 players: Standard Gin Rummy (knock with 10 or less)").check()
        page.get_by_role("button", name="Play", exact=True).click()
    seated_together([ann, ben], 10)
    ben.context.close()
    expect(ann.locator("#seats")).to_contain_text("Ben", timeout=20_000)
    play_together([ann])
    expect(ann.locator("#final")).to_contain_text("Ben")
    game = ann.evaluate("Okgin.state().game")
    with sqlite3.connect(leaving_server.db) as db:
        deadline = time.monotonic() + 20
        while len(db.execute("SELECT 1 FROM rating_history WHERE game = ?", (game,)).fetchall()) < 2:
            assert time.monotonic() < deadline, "the game was not rated"
            time.sleep(0.1)
        placed = dict(db.execute("SELECT p.name, h.place FROM rating_history h JOIN players p ON "
                                 "p.id = h.player WHERE h.game = ?", (game,)).fetchall())
        mu = dict(db.execute("SELECT p.name, r.mu FROM ratings r JOIN players p ON p.id = r.player"
                             " WHERE r.family = 'two-player'").fetchall())
    assert placed == {"Ann": 1, "Ben": 2}
    assert mu["Ben"] < 25 < mu["Ann"]  # openskill's new player is mu 25
    assert not errors, errors
