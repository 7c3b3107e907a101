"""The page matrix (issue 25): every page off the table, with real data in it (games played,
ratings, a tournament running and one finished), at 360×640, 375×740 and 740×360 by touch and
at 1280×800 by mouse. On each: no sideways scroll; every control, scrolled to, lies inside the
window and is not covered; by touch every control is at least 44×44 px (a link inside a
sentence aside); axe-core finds no serious or critical violation. A screenshot of each goes to
artifacts/ (pages-<page>-<size>.png)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeAlias
from urllib.parse import urlencode

import pytest
from conftest import new_context, shot
from daily_days import play_attempt
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from sqlalchemy import create_engine, insert
from table_helpers import axe
from test_browser_coach import session_cookie
from test_coach_server import seed_games
from tournament_client import FAST
from tournament_client import Browser as Visitor

from okgin.puzzles.puzzle import shipped
from okgin.rules import preset
from okgin.server.pages.analysis import EXAMPLE
from okgin.server.players.identity import Players
from okgin.server.rooms.room import Room
from okgin.server.store.room_store import RoomTable
from okgin.server.store.schema import players, rated_games, rating_history, ratings
from okgin.server.store.storage import Store

Site: TypeAlias = tuple[ServerProcess, str, dict[str, str]]
"""The server, the guest's cookie whose games and tournaments these are, and the pages' paths by name."""

SIZES = ((360, 640, True), (375, 740, True), (740, 360, True), (1280, 800, False))
TOUCH = 44

# Every control on the page: where it is once scrolled to, whether the point a player touches
# finds it, its size, and whether it is a link inside a sentence (text of its own around it).
CONTROLS = """(touch) => {
  const problems = [];
  const W = innerWidth, H = innerHeight;
  const sentence = (el) => el.tagName === 'A' && el.parentElement &&
    el.parentElement.textContent.trim().length > el.textContent.trim().length + 2 &&
    getComputedStyle(el).display === 'inline';
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex="0"]';
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    el.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = `${el.tagName.toLowerCase()} "${(el.textContent || el.value || el.name || el.id || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 30)}"`;
    if (r.left < -0.5 || r.right > W + 0.5 || r.top < -0.5 || r.bottom > H + 0.5) {
      problems.push(`${name}: outside the window at ${Math.round(r.left)},${Math.round(r.top)}-` +
                    `${Math.round(r.right)},${Math.round(r.bottom)}`);
      continue;
    }
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const label = el.id && document.querySelector(`label[for="${el.id}"]`);
    if (!top || !(el.contains(top) || top.contains(el) || (label && label.contains(top)))) {
      const over = top ? top.tagName + '#' + top.id + '.' + top.className : 'nothing';
      problems.push(`${name}: covered by ${over}`);
    }
    const small = el.type === 'checkbox' || el.type === 'radio'
      ? (label || el.closest('label')) : el;
    const box = small.getBoundingClientRect();
    if (touch && !sentence(el) && (box.width < 44 - 0.5 || box.height < 44 - 0.5)) {
      problems.push(`${name}: ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
  }
  return problems;
}"""


def _rated_players(db: Path) -> None:
    """Named players with ratings in both families, as the leaderboard lists them."""
    engine = create_engine(f"sqlite:///{db}")
    now = time.time()
    with engine.begin() as connection:
        for number, name in enumerate(("Ann", "Bob", "Cy", "Dora", "Eve <b>")):
            player = f"pages-player-{number}"
            connection.execute(insert(players).values(id=player, created=now, name=name))
            for family in ("two-player", "multi-player"):
                mu, sigma = 25 + 2 * number, 4.0
                ordinal = mu - 3 * sigma
                connection.execute(insert(ratings).values(
                    player=player, family=family, mu=mu, sigma=sigma, ordinal=ordinal,
                    bucket=int(ordinal * 10), games=12 + number, updated=now))
    engine.dispose()


def _guest_results(db: Path, cookie: str) -> None:
    """A rated three-seat room game of the guest's, so /stats shows its results by rules from the
    start (the running Swiss below adds the game played for them only some time later: the
    matrix once measured the page before it and once after, and the table ran past a phone)."""
    engine = create_engine(f"sqlite:///{db}")
    session = Players(engine).session(cookie)
    assert session is not None
    now = time.time()
    with engine.begin() as connection:
        connection.execute(insert(rated_games).values(
            game="pages-rated-0", rated=now, family="multi-player", preset="oklahoma-multiplayer",
            solo=False, seats=3))
        connection.execute(insert(rating_history).values(
            player=session.player, game="pages-rated-0", family="multi-player", rated=now, place=2,
            weight=1.0, mu=24.0, sigma=7.0, ordinal=3.0))
    engine.dispose()


def _open_tables(db: Path) -> None:
    """Two open tables waiting for players (one with a long name and house rules) and two listed
    games being played by the rated players, written to the store as the server writes them."""
    store = Store(f"sqlite:///{db}")
    rooms = RoomTable(store, Room.from_data)
    waiting, _ = Room.create(preset("oklahoma-big-gin"), 4, "Dora", timer=60, listed=True)
    rooms.create(waiting, seated={0: "pages-player-3"})
    house, _ = Room.create(preset("gin").replace(gin_bonus=20, target=50), 2, "Eve <b> of the longs",
                           coach=True, listed=True)
    rooms.create(house, seated={0: "pages-player-4"})
    for host, guest, seats in (("Ann", "Bob", 2), ("Cy", None, 3)):
        room, _ = Room.create(preset("oklahoma-multiplayer" if seats > 2 else "oklahoma"), seats, host,
                              listed=True)
        if guest:
            room.sit(1, guest)
        for seat in range(seats):
            if room.seats[seat].kind == "empty":
                room.set_computer(0, seat, "hard", time.time())
        room.start(0, f"pages-game-{host}")
        people = {"Ann": "pages-player-0", "Bob": "pages-player-1", "Cy": "pages-player-2"}
        rooms.create(room, seated={i: people[s.name] for i, s in enumerate(room.seats) if s.name in people})
    store.close()


def _daily(db: Path, cookie: str) -> dict[str, str]:
    """The daily deal: yesterday finished by Ann and Eve <b> (its results and a replay: the day
    is over), and today's deal of the guest, waiting for their discard (a button a card)."""
    url = f"sqlite:///{db}"
    store = Store(url)
    session = Players(store.engine).session(cookie)
    store.close()
    assert session is not None
    today = datetime.now(UTC).date()
    yesterday = today - timedelta(days=1)
    code = play_attempt(url, yesterday, "pages-player-0", True).code
    play_attempt(url, yesterday, "pages-player-4", False)
    play_attempt(url, today, session.player, True, until_discard=True)
    return {"daily": "/daily", "daily-results": f"/daily/{yesterday.isoformat()}",
            "daily-replay": f"/daily/{yesterday.isoformat()}/replay/{code}"}


def _tournaments(server: ServerProcess, cookie: str) -> dict[str, str]:
    """One knockout of computers played to the end, and a Swiss with a person waiting at
    their table (running)."""
    host = Visitor(server.url, cookie)
    finished = host.create(FAST)
    assert host.post(f"/t/{finished}/start", {}).status_code == 303
    host.wait(finished)
    running = host.create({**FAST, "format": "swiss", "places": "4", "rounds": "2"})
    assert host.post(f"/t/{running}/join", {"name": "Ann"}).status_code == 303
    assert host.post(f"/t/{running}/start", {}).status_code == 303
    host.wait(running, "running")
    return {"tournament-finished": f"/t/{finished}", "tournament-running": f"/t/{running}"}


def _puzzles(server: ServerProcess, cookie: str) -> dict[str, str]:
    """A discard puzzle not answered yet (the hand's cards as buttons), and a draw's puzzle the
    guest answered (the coach's table and the rating's move)."""
    discard = next(p for p in shipped() if " discard " in p.answer or " knock " in p.answer)
    answered = next(p for p in shipped() if p.answer.split()[1] in ("take", "draw", "pass"))
    visitor = Visitor(server.url, cookie)
    assert visitor.post(f"/puzzles/{answered.id}", {"move": answered.answer}).status_code == 303
    return {"puzzle": f"/puzzles/{discard.id}", "puzzle-answered": f"/puzzles/{answered.id}"}


@pytest.fixture(scope="module")
def site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A server with games played by one guest (their cookie), ratings and tournaments; the pages by name."""
    db = tmp_path_factory.mktemp("pages") / "games.db"
    server = ServerProcess(db, allow_seeds=True).start()
    context = new_context(browser)
    page = context.new_page()
    page.goto(server.url + "/history")  # a guest from this first visit: the games are theirs
    cookie = session_cookie(page)
    context.close()
    games = seed_games(db, range(3), cookie)
    _rated_players(db)
    _guest_results(db, cookie)
    _open_tables(db)
    pages = {"play-online": "/play-online", "tables": "/tables", "bots": "/bots", "tournaments": "/t",
             "leaderboard": "/leaderboard", "statistics": "/stats",
             "history": "/history", "profile": "/profile", "how-to-play": "/how-to-play",
             "review": f"/games/{games[0]}/review", "replay": f"/games/{games[0]}/replay",
             "analysis": "/analysis?" + urlencode(EXAMPLE), **_tournaments(server, cookie),
             **_daily(db, cookie), **_puzzles(server, cookie)}
    yield server, cookie, pages
    server.stop()


PAGES = ("play-online", "tables", "bots", "tournaments", "tournament-finished", "tournament-running",
         "leaderboard", "statistics",
         "history", "profile", "how-to-play", "review", "replay", "analysis", "daily", "daily-results",
         "daily-replay", "puzzle", "puzzle-answered")


@pytest.mark.slow
@pytest.mark.parametrize("name", PAGES)
def test_page_matrix(browser: Browser, site: Site, name: str) -> None:
    server, cookie, pages = site
    failed: list[str] = []
    for width, height, touch in SIZES:
        context = new_context(browser, viewport={"width": width, "height": height},
                              has_touch=touch, is_mobile=touch)
        context.add_cookies([{"name": "okgin_session", "value": cookie, "url": server.url}])
        page: Page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, found=errors: found.append(str(error)))
        try:
            page.goto(server.url + pages[name])
            page.wait_for_load_state("networkidle")
            where = f"{name} at {width}×{height}"
            # A phone's browser widens its layout to what is laid out too wide (innerWidth with it),
            # so the page's width is measured against the window asked for.
            wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            if max(wide) > width:
                failed.append(f"{where}: {max(wide)} px wide in a {width} px window")
            problems = page.evaluate(CONTROLS, touch)
            if problems:
                failed.append(f"{where}: {problems[:6]}{' …' if len(problems) > 6 else ''}")
            page.evaluate("scrollTo(0, 0)")
            shot(page, f"pages-{name}-{width}x{height}")
            try:
                axe(page, where)
            except AssertionError as error:
                failed.append(str(error))
            if errors:
                failed.append(f"{where}: script errors {errors}")
        finally:
            context.close()
    assert not failed, "\n".join(failed)


def test_the_matrix_pages_hold_real_data(browser: Browser, site: Site) -> None:
    """The matrix is measured on pages with something in them, not empty ones."""
    server, cookie, pages = site
    context = new_context(browser)
    context.add_cookies([{"name": "okgin_session", "value": cookie, "url": server.url}])
    page = context.new_page()
    try:
        page.goto(server.url + pages["tables"])
        assert page.locator("#waiting li").count() == 2 and page.locator("#playing li").count() == 2
        expect(page.locator("#playing li").first).to_contain_text("Cy (2350)")  # before (2150 + 2250) / 2
        page.goto(server.url + pages["history"])
        assert page.locator("tbody tr").count() >= 3
        page.goto(server.url + pages["leaderboard"])
        assert "Eve &lt;b&gt;" in page.content() and page.locator("tbody tr").count() >= 5
        page.goto(server.url + pages["statistics"])
        assert re.search(r"3 finished games", page.inner_text("main"))
        assert page.locator("table.results tbody tr").count() >= 1  # your results by rules
        page.goto(server.url + pages["tournament-finished"])
        expect(page.locator("#t-winner")).to_contain_text(" wins ")  # the finished knockout's headline
        page.goto(server.url + pages["tournament-running"])
        assert "Ann" in page.inner_text("main")
        page.goto(server.url + pages["analysis"])
        assert page.locator("#board-analysis .board-values tbody tr").count() >= 2
        page.goto(server.url + pages["daily"])
        assert page.locator("button[name=move]").count() >= 10  # a discard a card
        page.goto(server.url + pages["daily-results"])
        assert page.locator(".daily-results tbody tr").count() == 2 and "Eve &lt;b&gt;" in page.content()
        page.goto(server.url + pages["daily-replay"])
        expect(page.locator("#replay-hand option")).to_have_count(5)
        page.goto(server.url + pages["puzzle"])
        assert page.locator("#puzzle-choices .card-button").count() >= 7  # 4 seats are dealt 7 cards
        page.goto(server.url + pages["puzzle-answered"])
        assert page.locator("#answer .values tbody tr").count() >= 2
        page.goto(server.url + pages["profile"])
        assert page.locator(".puzzle-history tbody tr").count() == 1
    finally:
        context.close()
