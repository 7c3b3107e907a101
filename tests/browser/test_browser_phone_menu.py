"""The table's Menu on a phone (issue 25): opened, it moves nothing of the table (the hand, the
piles and the action buttons stay where they were, and usable), alone or at a friends' table
where the room's panel (phrases, seats) opens with it; closing it leaves the table as it was.
Upright (360×640, 375×740) and sideways (740×360), by touch: no sideways scroll, every control
of the open Menu at least 44 px."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_play import seeded_game, wait_my_move
from conftest import FAST, new_context, shot
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_process import ServerProcess
from table_helpers import opened
from test_browser_rooms import RULES

WAIT = 20_000
SEED = 1577  # the person's first move: pass the upcard or take it
SIZES = ((360, 640), (375, 740), (740, 360))
TABLE = ("#hand .card", "#actions button", "#stock")

# Where each of the table's controls is, and whether a touch at its centre reaches it (what the
# centre finds, when it does not; None for a control whose centre is below the fold: at 360×640
# a second row of buttons, when a turn has four or more (gin and knock choices with the Hint), is
# reached by scrolling, and nothing covers it). Measured on a still table: once no card is flying and no
# animation runs (a card that lands is hidden while its copy flies in, and a touch passes
# through it), in one task just after a frame was drawn, when the frame's ResizeObserver (the
# hand's refit, which may fold it into two rows) has run.
PLACES = """(selectors) => new Promise(done => {
  const still = () => !document.querySelector('#flying > *, #hand .arriving')
    && document.getAnimations().every(a => a.playState !== 'running');
  const measure = () => selectors.flatMap(selector => [...document.querySelectorAll(selector)]
    .filter(el => el.getClientRects().length)
    .map(el => { const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return [selector, Math.round(r.left),
        Math.round(r.top), Math.round(r.width), Math.round(r.height), null, null];
      const top = document.elementFromPoint(x, y);
      const reached = !!top && el.contains(top);
      return [selector, Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height),
              reached, reached || !top ? null : top.outerHTML.slice(0, 120)]; }));
  let frames = 0;
  const look = () => requestAnimationFrame(() => setTimeout(
    () => (still() || ++frames > 300 ? done(measure()) : look()), 0));
  look();
})"""


def places(page: Page) -> list[Any]:
    found: list[Any] = page.evaluate(PLACES, list(TABLE))
    return found


def unreached(found: list[Any]) -> list[Any]:
    """The places in the window that a touch at their centre does not reach."""
    return [place for place in found if place[5] is False]


def open_menu_moves_nothing(page: Page, size: tuple[int, int], panel: str | None = None) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    before = places(page)
    assert before and not unreached(before), (size, unreached(before))
    # The hand and the main move are in the window, the first row of buttons with them.
    assert all(place[5] for place in before if place[0] in ("#hand .card", "#stock")), (size, before)
    buttons = [place for place in before if place[0] == "#actions button"]  # none on another's turn
    assert not buttons or buttons[0][5], (size, before)
    page.click("#menu-toggle")
    expect(page.locator("#menu-toggle")).to_have_attribute("aria-expanded", "true")
    nav = page.locator("#game-nav")
    expect(nav).to_be_visible()
    if panel is not None:
        expect(page.locator(panel)).to_be_visible()
    # What the Menu opens is over the table, not in its flow: the table has not moved.
    during = places(page)
    assert [place[:5] for place in during] == [place[:5] for place in before], (size, during, before)
    # ... and the hand and its buttons are still in reach (a touch at each one's centre finds it).
    reach = [place for place in during if place[0] != "#stock"]
    assert not unreached(reach), (size, unreached(reach))
    wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], (size, wide)
    for control in nav.locator("button:visible, a:visible").all():
        box = control.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, (size, control.inner_text(), box)
    toggle = page.locator("#menu-toggle").bounding_box()
    assert toggle and toggle["height"] >= 44 and toggle["y"] >= 0, (size, toggle)
    page.click("#menu-toggle")
    expect(nav).to_be_hidden()
    after = places(page)
    assert after == before, (size, after, before)


@pytest.mark.parametrize("size", SIZES)
def test_the_open_menu_moves_nothing_of_a_table_against_the_computer(
    browser: Browser, server: ServerProcess, size: tuple[int, int],
) -> None:
    with opened(browser, server.url, size[0], size[1], touch=True, mobile=True) as page:
        # A known deal, at the person's move (a random one may end at once: Ruby takes the
        # upcard and knocks, and the result covers the table).
        seeded_game(page, SEED)
        assert wait_my_move(page) == "you"
        open_menu_moves_nothing(page, size)


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def phone(browser: Browser, made: list[BrowserContext], url: str) -> Page:
    context = new_context(browser, viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
    made.append(context)
    context.add_init_script(
        f"localStorage.setItem('okgin.options', '{json.dumps(FAST)}');"
        f"localStorage.setItem('okgin.rules', '{json.dumps(RULES)}');")
    page = context.new_page()
    page.goto(url)
    return page


@pytest.mark.slow
def test_the_open_menu_at_a_friends_table_shows_the_room_over_the_table(
    browser: Browser, phones: list[BrowserContext], tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path / "rooms.db").start()
    try:
        ann = phone(browser, phones, server.url + "/#friends")
        ann.fill("#friends-name", "Ann")
        ann.click("#friends-create")
        ann.wait_for_url("**/r/*", timeout=WAIT)
        bob = phone(browser, phones, ann.url)
        row = bob.locator('#seats .seat[data-seat="1"]')
        row.get_by_label("Your name").fill("Bob")
        row.get_by_role("button", name="Take this seat").click()
        expect(row).to_contain_text("Bob · you", timeout=WAIT)
        ann.click("#start-game")
        for page in (ann, bob):
            page.wait_for_selector("#hand .card", timeout=WAIT)
        for size in SIZES:
            open_menu_moves_nothing(bob, size, panel="#room")
            # The phrases are in reach while the Menu is open.
            bob.click("#menu-toggle")
            phrase = bob.locator("#room button.phrase").first
            expect(phrase).to_be_in_viewport()
            box = phrase.bounding_box()
            assert box and box["height"] >= 44, (size, box)
            shot(bob, f"phone-menu-room-{size[0]}x{size[1]}", full_page=False)
            bob.click("#menu-toggle")
    finally:
        server.stop()
