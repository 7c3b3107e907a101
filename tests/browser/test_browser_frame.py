"""The site frame (issue 25, item 1): the table's header and every page off the table offer
Play, Play with friends, Tournaments, Leaderboard and the profile (where you sign in), and a
link to "Play with friends" from another page opens its dialog at the table."""

from __future__ import annotations

from conftest import new_context
from playwright.sync_api import Browser, expect
from server_process import ServerProcess

SITE = ("Play", "Play with friends", "Tournaments", "Leaderboard", "Your profile")
PAGES = ("/t", "/leaderboard", "/stats", "/history", "/profile", "/how-to-play")


def test_every_page_off_the_table_has_the_site_links(browser: Browser, server: ServerProcess) -> None:
    context = new_context(browser, viewport={"width": 375, "height": 740}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        for path in PAGES:
            page.goto(server.url + path)
            nav = page.get_by_role("navigation", name="Site")
            for name in SITE:
                link = nav.get_by_role("link", name=name, exact=True)
                expect(link).to_be_visible()
                box = link.bounding_box()
                assert box and box["height"] >= 44, (path, name, box)
        page.get_by_role("navigation", name="Site").get_by_role("link", name="Play with friends").click()
        expect(page.locator("#friends")).to_be_visible()
    finally:
        context.close()


def test_the_tables_menu_reaches_tournaments_leaderboard_and_profile(browser: Browser,
                                                                      server: ServerProcess) -> None:
    context = new_context(browser, viewport={"width": 375, "height": 740}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.click("#menu-toggle")
        nav = page.locator("#game-nav")
        for name, href in (("Tournaments", "/t"), ("Leaderboard", "/leaderboard"), ("Your profile", "/profile")):
            expect(nav.get_by_role("link", name=name, exact=True)).to_have_attribute("href", href)
        expect(nav.locator("#new-game")).to_be_visible()  # the table's own items stay
    finally:
        context.close()
