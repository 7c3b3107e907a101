"""The site frame (issue 25, item 1): the table's header and every page off the table offer
Play, Play with friends, Tables, Tournaments, the daily deal, Leaderboard and the profile (where you
sign in), and a link to "Play with friends" from another page opens its dialog at the table."""

from __future__ import annotations

from conftest import new_context
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from test_browser_coach import session_cookie
from test_coach_server import seed_games

SITE = ("Play", "Play online", "Play with friends", "Tables", "Tournaments", "Puzzles", "Daily deal",
        "Leaderboard", "Sign in")
PAGES = ("/tables", "/t", "/leaderboard", "/stats", "/history", "/profile", "/how-to-play", "/daily",
         "/puzzles")


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
        links = (("Tables", "/tables"), ("Tournaments", "/t"), ("Daily deal", "/daily"),
                 ("Leaderboard", "/leaderboard"), ("Sign in", "/profile#sign-in"))
        for name, href in links:
            expect(nav.get_by_role("link", name=name, exact=True)).to_have_attribute("href", href)
        expect(nav.locator("#new-game")).to_be_visible()  # the table's own items stay
    finally:
        context.close()


def test_the_statistics_page_fits_a_phone(browser: Browser, server: ServerProcess) -> None:
    """/stats with three games against the computer fits 360, 375 and 740 px (a guard: the 502 px
    the issue saw at 375 needs data this test does not build yet, so it passed before too)."""
    context = new_context(browser, viewport={"width": 375, "height": 740}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/history")  # a guest from this first visit: the games are theirs
        seed_games(server.db, range(3), session_cookie(page))
        for width, height in ((360, 640), (375, 740), (740, 360)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(server.url + "/stats")
            expect(page.locator("#points svg.chart")).to_be_visible()
            wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1], (width, wide)
    finally:
        context.close()


def _make_account(page: Page, site: str, username: str) -> None:
    page.goto(site + "/profile")
    page.fill('form[action="/account/create"] input[name="username"]', username)
    page.fill('form[action="/account/create"] input[name="password"]', "a long table of cards")
    page.click('form[action="/account/create"] button')
    expect(page.locator("p.lead")).to_contain_text(f"signed in as {username}")


def test_the_frame_names_who_is_signed_in_or_offers_sign_in(browser: Browser, server: ServerProcess) -> None:
    """A guest's frame offers Sign in (to the profile's form); once signed in, every page's frame
    and the table's Menu name the player (escaped) and link to the profile."""
    context = new_context(browser, viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.click("#menu-toggle")
        expect(page.locator("#game-nav").get_by_role("link", name="Sign in", exact=True)).to_be_visible()
        page.goto(server.url + "/leaderboard")
        sign_in = page.get_by_role("navigation", name="Site").get_by_role("link", name="Sign in", exact=True)
        sign_in.click()
        expect(page.locator('form[action="/account/sign-in"]')).to_be_in_viewport()
        _make_account(page, server.url, "frame-ann")
        page.fill('form[action="/profile/name"] input[name="name"]', "Ann <i>x</i>")
        page.click('form[action="/profile/name"] button')
        for path in PAGES:
            page.goto(server.url + path)
            nav = page.get_by_role("navigation", name="Site")
            you = nav.get_by_role("link", name="Ann <i>x</i>")
            expect(you).to_have_attribute("href", "/profile")
            expect(nav.get_by_role("link", name="Sign in")).to_have_count(0)
            assert page.locator("header i").count() == 0, path  # the name is text, not markup
        page.goto(server.url + "/")
        page.click("#menu-toggle")
        you = page.locator("#game-nav").get_by_role("link", name="Ann <i>x</i>")
        expect(you).to_be_visible()
        expect(you).to_have_attribute("href", "/profile")
    finally:
        context.close()
