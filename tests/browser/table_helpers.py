"""Helpers for the table tests: pages with chosen options, seeded games, the axe scan."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browser_play import POINTS, moved, progress, wait_my_move
from conftest import new_context
from playwright.sync_api import Browser, Page

AXE = Path(__file__).parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@contextmanager
def opened(browser: Browser, url: str, width: int = 1280, height: int = 800, reduce: bool = True,
           touch: bool = False, mobile: bool = False, **options: Any) -> Iterator[Page]:
    """A page at ``width``×``height`` with these options (instant opponents unless told); ``touch``
    makes a touch-only device (a coarse pointer and no fine one), ``mobile`` a phone's browser."""
    context = new_context(browser, viewport={"width": width, "height": height}, has_touch=touch,
                          is_mobile=mobile, reduced_motion="reduce" if reduce else "no-preference")
    chosen = {"speed": "instant", "levels": ["normal"], **options}
    context.add_init_script(f"localStorage.setItem('okgin.options', {json.dumps(json.dumps(chosen))})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("#hand .card")
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def restart_with_rules(page: Page, **rules: Any) -> None:
    """Keep these house rules and reload: the page starts a new game with them."""
    page.evaluate("rules => { localStorage.setItem('okgin.rules', JSON.stringify(rules)); "
                  "localStorage.removeItem('okgin.game'); }", rules)
    page.reload()
    page.wait_for_selector("#hand .card")


def planned_turn(page: Page) -> str:
    """The plan the seeds were found with (by keyboard): pass the upcard, draw from the stock,
    go Big Gin when it is there, else throw the highest unmatched card; never knock."""
    turn = wait_my_move(page)
    if turn != "you":
        return turn
    view = page.evaluate("Okgin.state().view")
    before = progress(page)
    if "big-gin" in view["legal"]:
        page.keyboard.press("g")
    elif view["phase"] != "discard":
        page.keyboard.press("s")
    else:
        loose = [c for c in view["arrangement"]["unmatched"] if c != view["taken"]]
        loose = loose or [c for c in view["hand"] if c != view["taken"]]
        card = max(loose, key=lambda c: (POINTS[c[0]], c))
        page.locator(f'#hand .card[data-card="{card}"]').focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
    moved(page, before)
    return str(view["phase"])


def play_planned_hand(page: Page) -> None:
    for _ in range(120):
        if planned_turn(page) in ("hand-over", "over"):
            return
    raise AssertionError("the hand did not end")


def axe(page: Page, screen: str, rules: tuple[str, ...] = ()) -> None:
    """Run axe-core (from npm, read from disk) on the page; no serious or critical violation,
    nor any violation of ``rules`` (axe rule ids, e.g. "landmark-one-main") whatever its impact."""
    if not page.evaluate("!!window.axe"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async (rules) => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.filter(v => ['serious', 'critical'].includes(v.impact) || rules.includes(v.id))
        .map(v => v.id + ': ' + v.help + ' @ '
             + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))""", list(rules))
    assert not found, f"{screen}: {found}"
