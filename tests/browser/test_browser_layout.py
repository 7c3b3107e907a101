"""The layout matrix: every main screen, solo and in a room, for 2, 3 and 4 seats, at six window
sizes (desktop, laptop, two phones upright, a phone held sideways). On each, the screen's
primary action and every card of the hand are inside the window and not covered by anything
else, and axe-core finds no serious or critical violation (nor a missing main landmark, content
outside the landmarks or an empty table header); a screenshot of each goes to
artifacts/ (layout-<where>-<seats>-<screen>-<size>.png).

One page per game, resized through the sizes at each screen, and seeded games played by mouse
to each screen keep a configuration to about 25 s (at a load average of 20 on two cores)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_play import WAIT, mouse_turn, next_hand, seeded_game, wait_my_move
from conftest import shot
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from table_helpers import axe, opened

SIZES = ((1280, 800), (1366, 768), (1440, 900), (375, 740), (360, 640), (740, 360))
PRESETS = {2: "oklahoma-big-gin", 3: "oklahoma-multiplayer", 4: "oklahoma-multiplayer"}
SEED = 19

# For each target (a CSS selector): every element it finds must lie inside the window, and the
# point a player would touch (its centre, or for a card in an overlapping fan its visible
# corner) must find the element itself, not something over it.
MEASURE = """(selectors) => {
  const problems = [];
  const W = innerWidth, H = innerHeight;
  const hits = (el, x, y) => { const top = document.elementFromPoint(x, y);
    return !!top && el.contains(top); };
  for (const selector of selectors) {
    const found = [...document.querySelectorAll(selector)];
    if (!found.length) problems.push(`${selector}: none on the screen`);
    for (const el of found) {
      const r = el.getBoundingClientRect();
      const name = `${selector} "${(el.dataset.card || el.textContent || '').trim().slice(0, 30)}"`;
      if (r.width === 0 || r.height === 0) { problems.push(`${name}: not shown`); continue; }
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
        problems.push(`${name}: outside the ${W}x${H} window at ${Math.round(r.left)},${Math.round(r.top)}` +
                      `-${Math.round(r.right)},${Math.round(r.bottom)}`);
        continue;
      }
      const probes = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 6, r.top + 12]];
      if (!probes.some(([x, y]) => hits(el, x, y))) {
        const [x, y] = probes[0];
        const over = document.elementFromPoint(x, y);
        const what = over ? `${over.tagName}#${over.id}.${over.className}` : 'nothing';
        problems.push(`${name}: covered by ${what}`);
      }
    }
  }
  return problems;
}"""

TABLE = ["#hand .card", "#actions button"]
SCREENS: dict[str, list[str]] = {
    "lobby": ["#start-game", "#seats .seat"],
    "table": TABLE,
    "coach": [*TABLE, "#coach h2", "#coach-close", "#coach-toggle", "#menu-toggle"],
    "end-of-hand": ["#result-title", "#result-buttons button.primary"],
    "game-over": ["#result-title", "#final h3", "#result-buttons button.primary"],
}
# Controls that only phones (narrow or held sideways) show: the coach's and the menu's buttons.
PHONE_ONLY = {"#coach-close", "#coach-toggle", "#menu-toggle"}


def settle(page: Page) -> None:
    """Two frames: the resize handled (the hand refitted) and laid out."""
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def check_screen(page: Page, label: str, screen: str) -> None:
    """At each size: measure the targets, keep a screenshot, run axe; then back to 1280×800."""
    failed = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        phone = width < 700 or height < 500
        targets = [s for s in SCREENS[screen] if phone or s not in PHONE_ONLY]
        if screen == "coach" and phone and page.get_attribute("#coach-toggle", "aria-expanded") != "true":
            page.click("#coach-toggle")  # a phone shows the coach when asked
        name = f"layout-{label}-{screen}-{width}x{height}"
        problems = page.evaluate(MEASURE, targets)
        shot(page, name, full_page=False)
        if problems:
            failed.append(f"{name}: {problems[:4]}{' …' if len(problems) > 4 else ''}")
        try:
            axe(page, name, rules=("landmark-one-main", "region", "empty-table-header"))
        except AssertionError as error:
            failed.append(str(error))
    page.set_viewport_size({"width": 1280, "height": 800})
    settle(page)
    assert not failed, "\n".join(failed)


def to_my_discard(page: Page) -> None:
    """Play (by mouse) until the person holds 11 cards and must discard."""
    for _ in range(60):
        assert wait_my_move(page) == "you", "the hand ended before the person's first discard"
        if page.evaluate("document.body.dataset.phase") == "discard":
            return
        mouse_turn(page)
    raise AssertionError("never reached a discard")


def play_to_the_end(page: Page, game: bool = False) -> None:
    """Play (by mouse) to the end of the hand, or with ``game`` to the end of the game."""
    for _ in range(1200):
        turn = mouse_turn(page)
        if turn == "over" or (turn == "hand-over" and not game):
            expect(page.locator("#result")).to_be_visible()
            return
        if turn == "hand-over":
            next_hand(page)  # a void hand: no score, the game goes on
    raise AssertionError("the hand did not end")


def coach(page: Page, on: bool) -> None:
    """Turn the coach on or off in Options, as a player does."""
    page.click("#open-options")
    page.locator('#options-form [name="coach"]').set_checked(on)
    page.click("#options-close")


def open_the_coach(page: Page) -> None:
    """Show the coach's panel (a phone opens it with its button) and wait for its advice."""
    toggle = page.locator("#coach-toggle")
    if toggle.is_visible():
        toggle.click()
    expect(page.locator("#coach .coach-suggestion")).to_be_visible(timeout=WAIT)


def create_room(page: Page, seats: int, rules: dict[str, Any]) -> None:
    """From the solo page: a table for ``seats`` with these rules, computer players in the empty seats.

    The solo game behind the form is a seeded one at this page's move: nothing plays until the
    page does, so no hand there can end and open its result dialog over "Play with friends" (a
    game left to run, or the one the page opened with, could, and then took the click).
    """
    page.evaluate("rules => { localStorage.setItem('okgin.rules', JSON.stringify(rules)); "
                  "localStorage.removeItem('okgin.game'); }", rules)
    page.goto(page.url.split("/r/")[0] if "/r/" in page.url else page.url)
    page.wait_for_selector("#hand .card")
    seeded_game(page, SEED, **rules)
    assert wait_my_move(page) == "you"
    expect(page.locator("#result")).not_to_be_visible()
    page.click("#play-friends")
    page.fill("#friends-name", "Ann")
    page.select_option("#friends-seats", str(seats))
    page.click("#friends-create")
    page.wait_for_url("**/r/*", timeout=WAIT)
    for seat in range(1, seats):
        row = page.locator(f'#seats .seat[data-seat="{seat}"]')
        row.locator(".add-computer").click()
        expect(row).to_contain_text("computer", timeout=WAIT)


def start_room(page: Page) -> None:
    page.evaluate(f"Okgin.send({{type: 'start', seed: {SEED}}})")
    page.wait_for_selector("#hand .card", timeout=WAIT)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("where", ["solo", "room"])
def test_layout_matrix(browser: Browser, server: ServerProcess, where: str, seats: int) -> None:
    label = f"{where}-{seats}"
    levels = ["normal"] * (seats - 1)
    rules = {"preset": PRESETS[seats], "players": seats}
    with opened(browser, server.url, 1280, 800, levels=levels) as page:
        if where == "room":
            create_room(page, seats, {**rules, "target": 10_000})
            check_screen(page, label, "lobby")
            start_room(page)
        else:
            seeded_game(page, SEED, **rules, target=10_000)
        to_my_discard(page)
        check_screen(page, label, "table")
        coach(page, True)
        open_the_coach(page)
        check_screen(page, label, "coach")
        coach(page, False)
        play_to_the_end(page)
        check_screen(page, label, "end-of-hand")
        if where == "room":
            create_room(page, seats, {**rules, "target": 1})
            start_room(page)
        else:
            page.keyboard.press("Escape")
            seeded_game(page, SEED, **rules, target=1)
        play_to_the_end(page, game=True)
        check_screen(page, label, "game-over")

