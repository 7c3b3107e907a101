"""Touch sizes at the table (issue 25): the solo table and a friends' room (its lobby, its table,
game over) on phones by touch (360×640, 375×740, 740×360, a coarse pointer). On each screen, with
the Menu shut and open: no sideways scroll; every visible control (the open dialog's, when one is
open), scrolled to, lies inside the window, is found by `elementFromPoint` and is at least 44×44 px
(a link inside a sentence aside); and what the player needs (the hand, its action buttons, the
stock, the Menu button; the dialog's buttons) is inside the window without scrolling (a room's
Menu open lays its panel over the table's top: then its title, the hand, its buttons and the Menu
button, and the controls under the panel are left to when the Menu is shut). In a room
at 360×640, the turn a knock becomes possible keeps "Knock, discarding …" inside the window."""

from __future__ import annotations

from contextlib import AbstractContextManager

import pytest
from browser_play import WAIT, ending_button, mouse_turn, next_hand, seeded_game, wait_my_move
from conftest import shot
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from table_helpers import opened, planned_turn
from test_browser_layout import SEED, create_room, settle, start_room, to_my_discard

PHONES = ((360, 640), (375, 740), (740, 360))
TOUCH = 44
KNOCK_SEED = 2  # with the plan (never knocking), you may knock on your fifth discard
TAKEN_SEED = 8  # Ruby takes the upcard and throws the jack of clubs: your first move is a draw

# Every visible control under ``root``: scrolled to, inside the window, found by elementFromPoint
# at its centre, and (touch) at least 44×44 px. A link with text of its own around it (a link in
# a sentence) is not measured for size; a check box counts its label. Given ``over`` (a selector),
# a control covered by that element (the open Menu's room panel, which lies over the table's top
# by design) is not a problem: closing the Menu uncovers it.
CONTROLS = """([root, touch, over]) => {
  const problems = [];
  const W = innerWidth, H = innerHeight;
  const sentence = (el) => el.tagName === 'A' && getComputedStyle(el).display === 'inline' &&
    [...el.parentElement.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex="0"]';
  for (const el of document.querySelector(root).querySelectorAll(selector)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    el.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.dataset.card ||
      el.textContent || el.value || el.name || '').trim().replace(/\\s+/g, ' ').slice(0, 34)}"`;
    if (r.left < -0.5 || r.right > W + 0.5 || r.top < -0.5 || r.bottom > H + 0.5) {
      problems.push(`${name}: outside the window at ${Math.round(r.left)},${Math.round(r.top)}-` +
                    `${Math.round(r.right)},${Math.round(r.bottom)}`);
      continue;
    }
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const label = el.id && document.querySelector(`label[for="${el.id}"]`);
    const under = over && top && top.closest(over) && !el.closest(over);
    if (under) continue;
    if (!top || !(el.contains(top) || top.contains(el) || (label && label.contains(top)))) {
      const over = top ? top.tagName + '#' + top.id + '.' + top.className : 'nothing';
      problems.push(`${name}: covered by ${over}`);
    }
    const sized = el.type === 'checkbox' || el.type === 'radio' ? (label || el.closest('label')) : el;
    const box = sized.getBoundingClientRect();
    if (touch && !sentence(el) && (box.width < 44 - 0.5 || box.height < 44 - 0.5)) {
      problems.push(`${name}: ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
  }
  scrollTo(0, 0);
  return problems;
}"""

# Each element of these selectors, the page at its top, wholly inside the window.
IN_SIGHT = """(selectors) => {
  scrollTo(0, 0);
  const problems = [];
  for (const selector of selectors) {
    const found = [...document.querySelectorAll(selector)].filter(el => el.checkVisibility());
    if (!found.length) problems.push(`${selector}: none shown`);
    for (const el of found) {
      const r = el.getBoundingClientRect();
      if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
        problems.push(`${selector} "${(el.dataset.card || el.textContent).trim().slice(0, 34)}": ` +
                      `out of sight at ${Math.round(r.left)},${Math.round(r.top)}-` +
                      `${Math.round(r.right)},${Math.round(r.bottom)}`);
      }
    }
  }
  return problems;
}"""

TABLE = ["#hand .card", "#actions button", "#stock", "#menu-toggle"]
DIALOG = ["dialog[open] h2", "dialog[open] .dialog-buttons button"]


def phone(browser: Browser, server: ServerProcess, **options: object) -> AbstractContextManager[Page]:
    """A touch phone (a coarse pointer, no fine one) at 360×640 showing a new solo game."""
    return opened(browser, server.url, 360, 640, touch=True, mobile=True, **options)


def measure(page: Page, label: str, root: str, needed: list[str], menu: list[str] | None = None,
            over: str | None = None) -> list[str]:
    """At each phone size, with the Menu shut and (given what must be in sight with it open) open:
    the problems found (with it open, a control under ``over`` is not one)."""
    failed: list[str] = []
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        for opened_menu in (False, True) if menu is not None else (False,):
            if opened_menu:
                page.click("#menu-toggle")
                settle(page)
            where = f"{label}{' menu' if opened_menu else ''} {width}×{height}"
            wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            if wide[0] > wide[1]:
                failed.append(f"{where}: {wide[0]} px wide in a {wide[1]} px window")
            in_sight = menu if opened_menu else needed
            problems = page.evaluate(IN_SIGHT, in_sight) + page.evaluate(
                CONTROLS, [root, True, over if opened_menu else None])
            shot(page, f"touch-{label}{'-menu' if opened_menu else ''}-{width}x{height}", full_page=False)
            if problems:
                failed.append(f"{where}: {problems}")
            if opened_menu:
                page.click("#menu-toggle")
                settle(page)
    page.set_viewport_size({"width": 360, "height": 640})
    settle(page)
    return failed


def play_to(page: Page, end: str) -> None:
    """Play by mouse to the end of the hand (``end="hand-over"``) or of the game (``"over"``)."""
    for _ in range(1200):
        turn = mouse_turn(page)
        if turn == end or turn == "over":
            expect(page.locator("#result")).to_be_visible()
            return
        if turn == "hand-over":
            next_hand(page)
    raise AssertionError(f"never reached {end}")


@pytest.mark.slow
def test_the_solo_table_by_touch(browser: Browser, server: ServerProcess) -> None:
    with phone(browser, server, coach=True) as page:
        seeded_game(page, SEED, target=1)
        to_my_discard(page)
        failed = measure(page, "solo-table", "body", TABLE, menu=TABLE)
        play_to(page, "over")
        failed += measure(page, "solo-game-over", "dialog[open]", DIALOG)
    assert not failed, "\n".join(failed)


@pytest.mark.slow
def test_a_rooms_lobby_table_and_game_over_by_touch(browser: Browser, server: ServerProcess) -> None:
    with phone(browser, server, levels=["normal", "normal"]) as page:
        page.set_viewport_size({"width": 1280, "height": 800})
        create_room(page, 3, {"preset": "oklahoma-multiplayer", "players": 3, "target": 1})
        page.set_viewport_size({"width": 360, "height": 640})
        failed = measure(page, "room-lobby", "body", ["#start-game", "#menu-toggle"])
        start_room(page)
        to_my_discard(page)
        # The Menu open lays the room's panel over the table's top, down to the hand's head at
        # most: the hand, its buttons and the Menu button stay in sight and in reach (the piles
        # under the panel are uncovered again by closing the Menu).
        failed += measure(page, "room-table", "body", TABLE,
                          menu=["#menu-toggle", "#room h2", "#hand .card", "#actions button"], over="#room")
        play_to(page, "over")
        failed += measure(page, "room-game-over", "dialog[open]", DIALOG)
    assert not failed, "\n".join(failed)


def to_a_knock(page: Page) -> bool:
    """Play the plan (never knocking) until the person may knock: True, or the hand ended."""
    for _ in range(120):
        if wait_my_move(page) != "you":
            return False
        if ending_button(page) == "Knock, discarding":
            return True
        planned_turn(page)
    return False


@pytest.mark.slow
def test_the_knock_button_stays_in_a_small_phones_window(browser: Browser, server: ServerProcess) -> None:
    with phone(browser, server) as page:
        page.set_viewport_size({"width": 1280, "height": 800})
        create_room(page, 2, {"preset": "oklahoma-big-gin", "players": 2, "target": 10_000})
        page.set_viewport_size({"width": 360, "height": 640})
        page.evaluate(f"Okgin.send({{type: 'start', seed: {KNOCK_SEED}}})")
        page.wait_for_selector("#hand .card", timeout=WAIT)
        assert to_a_knock(page), "the hand ended before a knock was possible"
        settle(page)
        shot(page, "touch-room-knock-360x640", full_page=False)
        problems = page.evaluate(IN_SIGHT, TABLE) + page.evaluate(CONTROLS, ["#play", True])
    assert not problems, problems


@pytest.mark.slow
def test_a_draw_turn_keeps_its_three_buttons_in_a_phones_window(
    browser: Browser, server: ServerProcess,
) -> None:
    """After Ruby took the upcard, the person's draw has three buttons: Draw from the stock, Take
    the jack of clubs and Hint. At each phone size all three are inside the window without
    scrolling (Hint was below the fold at 360×640, on a second row), reachable, at least 44 px."""
    with phone(browser, server, coach=True) as page:
        seeded_game(page, TAKEN_SEED)
        assert wait_my_move(page) == "you"
        assert page.evaluate("Okgin.state().view.history") == ["1 take", "1 discard JC"]
        buttons = page.locator("#actions button")
        expect(buttons).to_have_count(3)
        expect(buttons.nth(1)).to_contain_text("Take the jack of clubs")
        expect(buttons.nth(2)).to_have_text("Hint")
        failed = measure(page, "draw-turn", "#actions", ["#actions button", "#hand .card", "#stock"])
    assert not failed, "\n".join(failed)


MENU_ROW = """() => {
  const nav = document.querySelector('#game-nav');
  const style = getComputedStyle(nav);
  const cue = () => [nav.dataset.more || '', style.maskImage || style.webkitMaskImage];
  const links = [...nav.querySelectorAll('a[href], button')].filter(el => el.checkVisibility());
  const shown = links.filter(el => el.getBoundingClientRect().right <= innerWidth + 0.5);
  const start = cue();
  const problems = [];
  for (const el of links) {
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const outside = r.left < -0.5 || r.right > innerWidth + 0.5;
    if (outside || !top || !el.contains(top)) problems.push(el.textContent.trim());
    if (r.width < 43.5 || r.height < 43.5) problems.push(`${el.textContent.trim()}: ${r.width}x${r.height}`);
  }
  nav.dispatchEvent(new Event('scroll'));
  return {links: links.length, shown: shown.length, start, end: cue(), problems,
          wide: nav.scrollWidth > nav.clientWidth};
}"""


@pytest.mark.slow
def test_the_open_menus_row_shows_that_more_can_be_swiped_and_every_link_is_reachable(
    browser: Browser, server: ServerProcess,
) -> None:
    with phone(browser, server) as page:
        page.wait_for_selector("#hand .card", timeout=WAIT)
        page.click("#menu-toggle")
        settle(page)
        row = page.evaluate(MENU_ROW)
        shot(page, "touch-menu-row-360x640", full_page=False)
    assert row["wide"] and row["shown"] < row["links"], row  # the row is wider than the phone
    assert row["start"][0] == "right" and "gradient" in row["start"][1], row  # faded: more to swipe
    assert row["end"][0] == "left" and "gradient" in row["end"][1], row  # at the end: more back left
    assert not row["problems"], row["problems"]


@pytest.mark.slow
def test_a_solo_hands_result_by_touch_at_375x740(browser: Browser, server: ServerProcess) -> None:
    """A solo hand played to its end on a 375×740 touch phone: the result dialog's buttons are
    inside the window, uncovered and at least 44×44 px, and Next hand deals by a tap."""
    with phone(browser, server) as page:
        page.set_viewport_size({"width": 375, "height": 740})
        settle(page)
        seeded_game(page, SEED, target=500)  # far off: the hand's end is not the game's
        play_to(page, "hand-over")
        expect(page.locator("#result-buttons button:text-is('Next hand')")).to_be_visible()
        problems = page.evaluate(IN_SIGHT, DIALOG) + page.evaluate(CONTROLS, ["dialog[open]", True])
        shot(page, "touch-solo-hand-over-375x740", full_page=False)
        assert not problems, problems
        hand = page.evaluate("Okgin.state().hand_number")
        next_hand(page, tap=True)
        page.wait_for_function("hand => Okgin.state().hand_number > hand", arg=hand, timeout=WAIT)
        expect(page.locator("#result")).to_be_hidden()
        expect(page.locator("#hand .card").first).to_be_visible()


@pytest.mark.slow
def test_a_four_seat_lobby_held_sideways_by_touch(browser: Browser, server: ServerProcess) -> None:
    """A lobby of four at 740×360 by touch: no sideways scroll, and every seat's controls (the
    host's level choices, Start game) reachable, uncovered and at least 44×44 px."""
    with phone(browser, server, levels=["normal", "normal", "normal"]) as page:
        page.set_viewport_size({"width": 1280, "height": 800})
        create_room(page, 4, {"preset": "oklahoma-multiplayer", "players": 4, "target": 1})
        page.set_viewport_size({"width": 740, "height": 360})
        settle(page)
        expect(page.locator("#seats .seat")).to_have_count(4)
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        seats = page.evaluate("[...document.querySelectorAll('#seats .seat')].map(row =>"
                              " row.querySelectorAll('button, select, input').length)")
        problems = page.evaluate(IN_SIGHT, ["#start-game", "#menu-toggle"]) + \
            page.evaluate(CONTROLS, ["body", True])
        shot(page, "touch-room-lobby-4-740x360", full_page=False)
    assert wide[0] <= wide[1], wide
    assert all(count >= 1 for count in seats[1:]), seats  # each computer's seat has its controls
    assert not problems, problems
