"""Playing the page as a person would: by mouse (clicks) or by keyboard alone."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}
WAIT = 20_000
LONG_HAND_SEED = 1577
"""A deal in which nobody goes out before the person's fifth draw, played by the table tests'
plan (``table_helpers.planned_turn``): pass the upcard, draw from the stock, throw the highest
unmatched card. The ``page`` fixture deals it, so that no test meets a hand ended by Ruby's first
moves (an unseeded deal may: her gin on the upcard ended one under a test pressing keys)."""


def seeded_game(page: Page, seed: int, **rules: Any) -> None:
    """Start a game with a known deal (the server runs with --allow-seeds), the page's rules."""
    before = page.evaluate("Okgin.state().game")
    page.evaluate("([seed, extra]) => Okgin.send({type: 'new', seed, "
                  "opponents: Okgin.Settings.options.levels, "
                  "rules: {...Okgin.Settings.currentRules(), ...extra}})", [seed, rules])
    page.wait_for_function(f"Okgin.state().game !== {json.dumps(before)}")


def wait_my_move(page: Page) -> str:
    """Wait until the person may act; return body's data-turn: you, hand-over or over."""
    page.wait_for_selector('body[data-turn="you"], body[data-turn="hand-over"], body[data-turn="over"]',
                           timeout=WAIT)
    return str(page.evaluate("document.body.dataset.turn"))


def discard_choice(page: Page) -> str:
    """The card to throw: the highest unmatched card that may be discarded (not one just taken)."""
    view = page.evaluate("Okgin.state().view")
    loose = [c for c in view["arrangement"]["unmatched"] if c != view["taken"]]
    loose = loose or [c for c in view["hand"] if c != view["taken"]]
    return str(max(loose, key=lambda c: (POINTS[c[0]], c)))


def ending_button(page: Page) -> str | None:
    for word in ("Big Gin", "Gin, discarding", "Knock, discarding"):
        button = page.locator("#actions button", has_text=word)
        if button.count():
            return word
    return None


def mouse_turn(page: Page) -> str:
    """Play one move by mouse; return what was done."""
    turn = wait_my_move(page)
    if turn != "you":
        return turn
    phase = str(page.evaluate("document.body.dataset.phase"))
    before = progress(page)
    if phase in ("offer", "last-chance"):
        page.click("#actions button:text-is('Pass')")
    elif phase == "draw":
        page.click("#stock")
    else:
        word = ending_button(page)
        if word:
            page.locator("#actions button", has_text=word).first.click()
        else:
            card = discard_choice(page)
            corner = {"x": 6, "y": 12}  # the corner a player taps: cards to the right overlap the rest
            page.click(f'#hand .card[data-card="{card}"]', position=corner)
            page.click(f'#hand .card[data-card="{card}"]', position=corner)
            discard_anyway(page)
    moved(page, before)
    return phase


def keyboard_turn(page: Page) -> str:
    """Play one move with the keyboard alone; return the phase played."""
    turn = wait_my_move(page)
    if turn != "you":
        return turn
    phase = str(page.evaluate("document.body.dataset.phase"))
    before = progress(page)
    if phase in ("offer", "last-chance", "draw"):
        page.keyboard.press("s")
    elif word := ending_button(page):
        page.keyboard.press("k" if word.startswith("Knock") else "g")
        if page.evaluate("document.activeElement.classList.contains('gin-choice')"):
            page.keyboard.press("Enter")  # several discards go gin: the first offered is chosen
    else:
        card = discard_choice(page)
        is_card = f"e => e.dataset.card === '{card}'"
        press_until_focused(page, is_card, keys=("ArrowRight",), first="ArrowLeft")
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        discard_anyway(page)
    moved(page, before)
    return phase


def next_hand(page: Page, tap: bool = False) -> None:
    """Press "Next hand" and wait for the deal (the page says "hand-over" until it arrives)."""
    button = "#result-buttons button:text-is('Next hand')"
    page.tap(button) if tap else page.click(button)
    page.wait_for_function("document.body.dataset.turn !== 'hand-over'", timeout=WAIT)


def discard_anyway(page: Page) -> None:
    """With the coach on, a risky discard asks first (static/coach.js): discard anyway."""
    if page.locator("#coach-warning[open]").count():
        page.click("#coach-warning button:text-is('Discard anyway')")


PROGRESS = ("(() => { const s = Okgin.state(); "
            "return JSON.stringify([s.game, s.hand_number, s.view.history.length]); })()")
"""How far the shown game has gone: the game, the hand and the number of its moves."""


def progress(page: Page) -> str:
    """Where the shown game is, before a move (for ``moved``)."""
    return str(page.evaluate(PROGRESS))


def moved(page: Page, before: str, timeout: float = WAIT) -> None:
    """Wait until the page shows the game past ``before`` (``progress`` before the move): the move
    made, or a new hand or game. Any new state is not enough: the server sends the same state
    again when the person changes an option (the coach), and that one can arrive after the
    person's move was sent but before its answer."""
    assert before.startswith("["), f"moved() takes progress(page), not {before!r}"
    page.wait_for_function(f"{PROGRESS} !== {json.dumps(before)}", timeout=timeout)


def press_until_focused(page: Page, test: str, keys: tuple[str, ...] = ("Tab",), first: str = "") -> None:
    """Press ``keys`` until the focused element passes ``test`` (a JavaScript predicate)."""
    if first:
        for _ in range(12):
            page.keyboard.press(first)
    for _ in range(40):
        if page.evaluate(f"(() => {{ const e = document.activeElement; return !!e && ({test})(e); }})()"):
            return
        for key in keys:
            page.keyboard.press(key)
    raise AssertionError(f"could not reach {test} by keyboard")
