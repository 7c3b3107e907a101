"""Each option's visible effect, and house rules that apply to the next game."""

from __future__ import annotations

from browser_play import discard_choice, mouse_turn, next_hand, wait_my_move
from conftest import new_context, shot
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from test_browser_game import set_house_rule, start_new_game


def set_option(page: Page, name: str, value: bool | str) -> None:
    page.click("#open-options")
    field = page.locator(f'#options-form [name="{name}"]')
    if isinstance(value, bool):
        field.set_checked(value)
    else:
        field.select_option(value)
    page.click("#options-close")


def test_coach_shows_tips_and_what_each_discard_leaves(page: Page) -> None:
    expect(page.locator("#coach")).to_be_hidden()
    set_option(page, "coach", True)
    expect(page.locator("#coach")).to_be_visible()
    expect(page.locator("#coach")).to_contain_text("Coach")
    for _ in range(40):
        turn = wait_my_move(page)
        if turn == "hand-over":  # Ruby may end a hand before our first discard
            next_hand(page)
            continue
        if turn == "you" and page.evaluate("document.body.dataset.phase") == "discard":
            break
        mouse_turn(page)
    expect(page.locator("#coach .leaves li").first).to_contain_text("deadwood left")
    set_option(page, "coach", False)
    expect(page.locator("#coach")).to_be_hidden()


def colour(page: Page, selector: str) -> str:
    return str(page.eval_on_selector(selector, "e => getComputedStyle(e).color"))


def test_four_colour_deck_and_large_cards(page: Page) -> None:
    wait_my_move(page)  # the deal has landed and Ruby waits: the hand holds still to be measured
    suit = "D" if page.locator(".card.suit-D").count() else "C"
    selector = f".card.suit-{suit}"
    before = colour(page, selector)
    set_option(page, "fourColour", True)
    after = colour(page, selector)
    assert before != after
    assert after == ("rgb(31, 79, 196)" if suit == "D" else "rgb(23, 130, 59)")
    width = page.eval_on_selector("#hand .card", "e => e.getBoundingClientRect().width")
    set_option(page, "large", True)
    larger = page.eval_on_selector("#hand .card", "e => e.getBoundingClientRect().width")
    assert larger > width * 1.05
    shot(page, "desktop-four-colour-large")


def test_reduce_motion_follows_the_browser_and_the_option(browser: Browser, server: ServerProcess) -> None:
    context = new_context(browser, reduced_motion="reduce")
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector("#hand .card")
    duration = "e => getComputedStyle(e).transitionDuration"
    assert page.eval_on_selector("#hand .card", duration) == "0s"
    set_option(page, "reduceMotion", False)
    assert page.eval_on_selector("#hand .card", duration) != "0s"
    context.close()


def _seconds_to_my_move(page: Page) -> float:
    """How long the opponent's turn is shown after a discard of yours, timed on a turn the hand
    goes on after (a knock or gin right away would time the hand's end and leave its result
    dialog open over the Options button)."""
    for _ in range(20):
        seconds, hand_over = _timed_discard(page)
        if not hand_over:
            return seconds
        next_hand(page)
    raise AssertionError("every timed discard ended the hand")


def _timed_discard(page: Page) -> tuple[float, bool]:
    for _ in range(60):  # get to a discard, then time how long the opponent's turn is shown
        if wait_my_move(page) == "hand-over":
            next_hand(page)
            continue
        if page.evaluate("document.body.dataset.phase") == "discard" and not page.locator(
                "#actions button", has_text="Knock").count() and not page.locator(
                "#actions button", has_text="Gin").count():
            break
        mouse_turn(page)
    card = discard_choice(page)
    page.click(f'#hand .card[data-card="{card}"]')
    page.evaluate("""() => { window.turns = []; new MutationObserver(() => window.turns.push(
        [document.body.dataset.turn, performance.now()])).observe(document.body, {attributes: true}); }""")
    started = page.evaluate("performance.now()")
    page.click(f'#hand .card[data-card="{card}"]')
    page.wait_for_function("window.turns.some(([turn]) => turn === 'others')")
    hand_over = wait_my_move(page) == "hand-over"
    turns = page.evaluate("window.turns")
    back = next(at for turn, at in turns if turn != "others")
    return float(back - started) / 1000, hand_over


def test_opponent_speed(page: Page) -> None:
    instant = _seconds_to_my_move(page)
    set_option(page, "speed", "slow")
    slow = _seconds_to_my_move(page)
    # "slow" shows the opponent's turn for at least 1.4 s; "instant" adds no pause, so on any
    # machine, however loaded, it is well short of the slow one measured just after it.
    assert slow >= 1.4 and instant < slow - 0.7, (slow, instant)


def test_two_computer_players_in_the_next_game(page: Page) -> None:
    page.click("#open-options")
    page.select_option('#options-form [name="count"]', "2")
    page.select_option('#options-form [name="level1"]', "easy")
    page.click("#options-close")
    expect(page.locator("#opponents .opponent")).to_have_count(1)
    start_new_game(page)
    expect(page.locator("#opponents .opponent")).to_have_count(2)
    expect(page.locator("#opponents")).to_contain_text("Sam · easy")
    expect(page.locator("#tagline")).to_contain_text("You against Ruby and Sam")
    assert page.locator("#hand .card").count() in (7, 8)


def test_a_house_rule_applies_to_the_next_game(page: Page) -> None:
    mouse_turn(page)
    set_house_rule(page, "target", "60")
    page.click("#open-rules")
    expect(page.locator("#rules")).to_contain_text("Changes apply to the next game.")
    expect(page.locator("#rules")).to_contain_text("Game ends at")
    page.keyboard.press("Escape")
    expect(page.locator("#tagline")).to_contain_text("first to 150")
    page.click("#new-game")
    expect(page.locator("#confirm")).to_be_visible()
    expect(page.locator("#confirm")).to_contain_text("Start a new game?")
    page.click("#confirm button:text-is('Keep playing')")
    expect(page.locator("#tagline")).to_contain_text("first to 150")
    start_new_game(page)
    expect(page.locator("#tagline")).to_contain_text("first to 60")
    with page.expect_popup() as popup:
        page.click("#howto-link")
    howto = popup.value
    expect(howto.locator("main")).to_contain_text("The first to 60 wins the game")
