"""The web game in a real Chromium: a whole game by mouse, a hand by keyboard, reloads,
fair WebSocket frames, and screenshots at phone and desktop widths (under artifacts/)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_play import discard_choice, keyboard_turn, mouse_turn, moved, next_hand, progress, wait_my_move
from conftest import FAST, new_context, shot
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from scripted_client import assert_fair
from server_process import ServerProcess

SNAPSHOT = """[document.body.dataset.phase,
    [...document.querySelectorAll('#hand .card')].map(e => e.dataset.card).sort(),
    document.querySelector('#stock-count').textContent,
    [...document.querySelectorAll('#discard .card')].map(e => e.dataset.card)]"""


def set_house_rule(page: Page, name: str, value: str) -> None:
    page.click("#open-rules")
    field = page.locator(f'#rule-fields [name="{name}"]')
    field.fill(value)
    field.dispatch_event("change")
    page.click("#rules-close")


def start_new_game(page: Page) -> None:
    """New game (confirmed if asked), waiting until the page shows it: the old game's
    ``data-turn`` and phase stay on the page until the new game's first state arrives."""
    before = page.evaluate("Okgin.state() && Okgin.state().game")
    page.click("#new-game")
    if page.locator("#confirm[open]").count():
        expect(page.locator("#confirm")).to_contain_text("The game in progress will be lost.")
        page.click("#confirm-new")
    page.wait_for_function(f"!!Okgin.state() && Okgin.state().game !== {json.dumps(before)}")


def test_a_full_game_to_the_end_by_mouse(page: Page, server: ServerProcess) -> None:
    set_house_rule(page, "target", "60")
    start_new_game(page)
    expect(page.locator("#tagline")).to_contain_text("first to 60")
    hands = 0
    for _ in range(600):
        done = mouse_turn(page)
        if done == "hand-over":
            expect(page.locator("#result")).to_be_visible()
            outcome = page.locator("#result-body .outcome").inner_text()
            if not outcome.startswith("The stock ran out"):  # a void hand scores nothing
                expect(page.locator("#result-body .working").first).to_contain_text("=")
            hands += 1
            if hands == 1:
                shot(page, "desktop-end-of-hand")
            next_hand(page)
        elif done == "over":
            break
    else:
        raise AssertionError("the game did not end")
    expect(page.locator("#final")).to_contain_text("Final score")
    expect(page.locator("#final")).to_contain_text("Game bonus")
    shot(page, "desktop-game-over")
    page.click("#result-buttons button:text-is('New game')")
    expect(page.locator("#tagline")).to_contain_text("first to 60")
    page.wait_for_function("document.querySelector('#sheet tbody td').textContent.startsWith('No hands')")
    page.goto(f"{server.url}/history")
    expect(page.locator("tbody tr")).to_have_count(1)
    with page.expect_download() as download:
        page.click("a[download]")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "okgin/1" and record["rules"]["target"] == 60


@pytest.mark.parametrize("target", [None, "1"], ids=["a-hand", "the-game-in-one-hand"])
def test_a_hand_by_keyboard_alone(page: Page, target: str | None) -> None:
    """A hand played with the keyboard alone, and the next dealt with Enter. To 1 point (a new
    game) the hand ends the game, and Enter is Rematch."""
    if target:
        set_house_rule(page, "target", target)
        start_new_game(page)
    start = page.evaluate("document.body.dataset.seq")
    for _ in range(200):
        ended = keyboard_turn(page)
        if ended in ("hand-over", "over"):  # a first hand may end the game: a doubled gin reaches 150
            break
    else:
        raise AssertionError("the hand did not end")
    expect(page.locator("#result")).to_be_visible()
    focused = "Next hand" if ended == "hand-over" else "Rematch"
    assert page.evaluate("document.activeElement.textContent") == focused
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.turn !== '{ended}'")
    expect(page.locator("#result")).to_be_hidden()
    assert page.evaluate("document.body.dataset.seq") != start
    # H asks for a hint; Escape closes a panel.
    wait_my_move(page)
    page.keyboard.press("h")
    expect(page.locator("#status")).not_to_be_empty()
    page.click("#open-options")
    page.keyboard.press("Escape")
    expect(page.locator("#options")).to_be_hidden()


def test_a_state_sent_again_is_not_taken_for_a_move(page: Page) -> None:
    """Changing an option (the coach) makes the server send the shown state again. The helpers'
    ``moved`` waits for a move's own answer, not for any new state: the layout matrix's room
    game once clicked the card it had just discarded, when such a state came in between."""
    wait_my_move(page)
    before, seq = progress(page), page.evaluate("document.body.dataset.seq")
    page.evaluate("Okgin.send({type: 'options', coach: true})")
    page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")  # shown again
    assert progress(page) == before
    with pytest.raises(PlaywrightTimeoutError):
        moved(page, before, timeout=1_000)
    mouse_turn(page)
    assert progress(page) != before


def test_cards_have_names_in_words(page: Page) -> None:
    wait_my_move(page)  # Ruby's turn done: a take shows 11 cards until its discard is drawn
    labels = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) >= 10
    assert all(" of " in label for label in labels)
    fans = page.eval_on_selector_all("#opponents .fan", "els => els.map(e => e.getAttribute('aria-label'))")
    assert fans == ["Ruby's hand: 10 cards"]
    expect(page.locator("#limit")).to_contain_text("Knock limit")


def test_reload_in_the_middle_of_a_hand_resumes_it(page: Page) -> None:
    for _ in range(3):
        mouse_turn(page)
    wait_my_move(page)
    before = page.evaluate(SNAPSHOT)
    page.reload()
    page.wait_for_selector("#hand .card")
    wait_my_move(page)
    after = page.evaluate(SNAPSHOT)
    assert after == before


def test_no_websocket_frame_shows_a_hidden_card(browser: Browser, server: ServerProcess) -> None:
    context = new_context(browser, viewport={"width": 375, "height": 812})
    context.add_init_script("localStorage.setItem('okgin.options', JSON.stringify("
                            + json.dumps({**FAST, "levels": ["hard"], "coach": True}) + "))")
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.goto(server.url)
    page.wait_for_selector("#hand .card")
    shot(page, "phone-table")
    for _ in range(200):
        if mouse_turn(page) == "hand-over":
            break
    shot(page, "phone-end-of-hand")
    context.close()
    states = [f for f in frames if '"type": "state"' in f or '"type":"state"' in f]
    assert len(states) > 5
    assert_fair(frames)


def test_desktop_screenshot(page: Page) -> None:
    mouse_turn(page)
    wait_my_move(page)
    shot(page, "desktop-table")
    assert Path(__file__).parents[2].joinpath("artifacts", "desktop-table.png").exists()


def hand_order(page: Page) -> list[str]:
    return list(page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)"))


def test_sort_and_move_cards_by_drag_and_by_keyboard(page: Page) -> None:
    rank = "A23456789TJQK"
    wait_my_move(page)  # nothing redraws the hand mid-drag: the deal has landed, Ruby waits
    page.click("#sort-rank")
    order = hand_order(page)
    assert [rank.index(c[0]) for c in order] == sorted(rank.index(c[0]) for c in order)
    page.click("#sort-suit")
    order = hand_order(page)
    assert [c[1] for c in order] == sorted((c[1] for c in order), key="CDHS".index)
    first, fifth = (page.locator("#hand .card").nth(i).bounding_box() for i in (0, 4))
    assert first and fifth
    page.mouse.move(first["x"] + 10, first["y"] + 30)
    page.mouse.down()
    distance = fifth["x"] + fifth["width"] - first["x"]
    for step in range(1, 11):
        page.mouse.move(first["x"] + 10 + step * distance / 10, first["y"] + 30)
    page.mouse.up()
    moved = hand_order(page)
    assert moved[:4] == order[1:5] and moved[4] == order[0], (order, moved)
    assert page.locator("#hand .card.lifted").count() == 0  # a drag is not a tap
    expect(page.locator("#live")).to_contain_text("Moved the")
    # Shift+→ moves the focused card one place right.
    page.locator("#hand .card").first.focus()
    page.keyboard.press("Shift+ArrowRight")
    assert hand_order(page)[:2] == [moved[1], moved[0]]


def test_history_lists_finished_games_with_their_records(page: Page, server: ServerProcess) -> None:
    page.goto(f"{server.url}/history")
    expect(page.locator("main")).to_contain_text("No finished games yet.")
    page.goto(f"{server.url}/how-to-play")
    expect(page.locator("main")).to_contain_text("The knock limit")
    expect(page.locator("main")).to_contain_text("The first to 150 wins the game")


def test_touch_tap_lifts_then_discards_on_a_phone(browser: Browser, server: ServerProcess) -> None:
    context = new_context(browser, viewport={"width": 375, "height": 812}, has_touch=True, is_mobile=True)
    context.add_init_script("localStorage.setItem('okgin.options', '{\"speed\": \"instant\"}')")
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector("#hand .card")
    for _ in range(30):
        turn = wait_my_move(page)
        if turn == "hand-over":
            next_hand(page, tap=True)
            continue
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "discard":
            break
        before = progress(page)
        page.tap("#stock") if phase == "draw" else page.tap("#actions button:text-is('Pass')")
        moved(page, before)
    card = discard_choice(page)
    page.tap(f'#hand .card[data-card="{card}"]', position={"x": 6, "y": 12})
    expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_class(re.compile("lifted"))
    expect(page.locator("#actions button.primary").first).to_contain_text("Discard the")
    page.tap(f'#hand .card[data-card="{card}"]', position={"x": 6, "y": 12})
    expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
    expect(page.locator("#live")).to_contain_text(f"You discard the {card_words(card)}")
    context.close()


def card_words(code: str) -> str:
    ranks = dict(zip("A23456789TJQK", ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack",
                                        "queen", "king"], strict=True))
    return f"{ranks[code[0]]} of {dict(C='clubs', D='diamonds', H='hearts', S='spades')[code[1]]}"
