"""The coach in a real Chromium: on and off, a hint with its reason, a warning before a risky
discard (and discarding anyway), the review after a hand, the replay viewer by keyboard, and
the statistics page with its charts after several games — all under a strict CSP where set."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_play import ending_button, mouse_turn, moved, next_hand, progress, wait_my_move
from conftest import FAST, game_page, new_context, shot
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from stored_games import store_record
from test_browser_options import set_option
from test_coach_server import player_of_cookie, seed_games

from okgin.server.players.identity import Players
from okgin.server.store.storage import Store

COACH = {**FAST, "coach": True}
REASON = re.compile(r"^(Take|Pass|Draw|Discard|Knock|Go)\b[^:]*: \w")


@pytest.fixture
def coached(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    """A page with the coach on from the start."""
    with game_page(browser, server, f"localStorage.setItem('okgin.options', '{json.dumps(COACH)}')") as page:
        yield page


def coached_turn(page: Page) -> str:
    """One move as a person with the coach on: a warned discard is made anyway."""
    if wait_my_move(page) == "you" and page.evaluate("document.body.dataset.phase") == "discard":
        expect(page.locator("#coach .coach-suggestion")).to_be_visible()  # the analysis is in
    return mouse_turn(page)


def test_coach_on_and_off_with_a_hint_and_its_reason(page: Page) -> None:
    expect(page.locator("#coach")).to_be_hidden()
    set_option(page, "coach", True)
    expect(page.locator("#coach")).to_be_visible()
    wait_my_move(page)
    expect(page.locator("#coach .coach-suggestion")).to_have_text(REASON)
    page.keyboard.press("h")
    expect(page.locator("#status")).to_have_text(REASON)
    read = "e => (e.querySelector('.visually-hidden') || e).textContent"  # the words a screen reader reads
    assert page.locator("#status").inner_text() == page.locator("#coach .coach-suggestion").evaluate(read)
    set_option(page, "coach", False)
    expect(page.locator("#coach")).to_be_hidden()


def reach_a_risky_discard(page: Page) -> str:
    """Play on until it is the person's discard and the coach marks one as risky: that card."""
    for _ in range(120):
        if wait_my_move(page) == "hand-over":
            next_hand(page)  # and wait for the deal: looked at before it came, the hand seems over still
            continue
        if page.evaluate("document.body.dataset.phase") == "discard" and not ending_button(page):
            expect(page.locator("#coach .coach-suggestion")).to_be_visible()
            risky = (page.get_attribute("#coach", "data-risky") or "").split()
            if risky:
                break
        coached_turn(page)
    else:
        raise AssertionError("no risky discard came up")
    return risky[0]


def test_a_warning_before_a_risky_discard_then_discard_anyway(coached: Page) -> None:
    page = coached
    card = reach_a_risky_discard(page)
    before = progress(page)
    page.click(f'#hand .card[data-card="{card}"]')
    page.click(f'#hand .card[data-card="{card}"]')
    warning = page.locator("#coach-warning")
    expect(warning).to_be_visible()
    expect(warning.locator("li").first).to_contain_text("⚠")
    shot(page, "coach-warning")
    assert page.locator(f'#hand .card[data-card="{card}"]').count() == 1  # not discarded yet
    page.click("#coach-warning button:text-is('Discard anyway')")
    moved(page, before)
    expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)


def test_the_discard_button_is_warned_about_whatever_its_words(coached: Page) -> None:
    """The coach is asked before the discard itself, not by the button's label: reworded, the
    Discard button still brings the warning first, and "Keep it" keeps the card."""
    page = coached
    card = reach_a_risky_discard(page)
    page.click(f'#hand .card[data-card="{card}"]')  # lifted
    discard = page.locator("#actions button").first
    expect(discard).to_be_enabled()
    discard.evaluate("button => { button.textContent = 'Throw it away'; }")
    discard.click()
    warning = page.locator("#coach-warning")
    expect(warning).to_be_visible()
    page.click("#coach-warning button:text-is('Keep it')")
    expect(warning).to_be_hidden()
    assert page.locator(f'#hand .card[data-card="{card}"]').count() == 1  # kept


def test_the_review_after_a_hand(coached: Page) -> None:
    page = coached
    for _ in range(200):
        if coached_turn(page) == "hand-over":
            break
    button = page.locator("#result-buttons button:text-is('Review this hand')")
    expect(button).to_be_visible()
    button.click()
    review = page.locator("#review")
    expect(review).to_contain_text("Your review", timeout=30_000)
    said = r"No costly mistakes in your \d+ decisions|Hand \d+, your \d+\w\w turn"
    expect(review).to_contain_text(re.compile(said))
    shot(page, "coach-review")


def test_a_review_asked_while_the_coach_is_busy_waits_its_turn(coached: Page) -> None:
    """A player who plays fast uses up the coach's questions (2 a second, 10 at once) with the
    panel's own advice; the review they then ask for is answered a moment later, never refused
    to their face (the page asks again when the server says to wait)."""
    page = coached
    for _ in range(200):
        if coached_turn(page) == "hand-over":
            break
    page.evaluate("() => { for (let i = 0; i < 12; i++) Okgin.send({type: 'hint'}); }")
    page.locator("#result-buttons button:text-is('Review this hand')").click()
    review = page.locator("#review")
    said = r"No costly mistakes in your \d+ decisions|Hand \d+, your \d+\w\w turn"
    expect(review).to_contain_text(re.compile(said), timeout=30_000)
    expect(review).not_to_contain_text("too many")


def session_cookie(page: Page) -> str:
    """The page's session cookie (HttpOnly: read through the browser's cookie jar)."""
    return next(c["value"] for c in page.context.cookies() if c["name"] == "okgin_session")


def csp_errors(page: Page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def test_the_replay_viewer_stepped_by_keyboard(browser: Browser, server: ServerProcess) -> None:
    page = browser.new_page()
    blocked = csp_errors(page)
    page.goto(server.url + "/history")  # a guest from this first visit: the game is theirs
    game = seed_games(server.db, range(1), session_cookie(page))[0]
    page.reload()
    page.click(f'a[href="/games/{game}/replay"]')
    move = page.locator("#replay-move")
    expect(move).to_have_text(re.compile(r"^Hand 1: \w+ deals?; the upcard is the "))
    assert move.get_attribute("aria-live") == "polite"
    expect(page.locator("#replay-table .replay-seat").first.locator(".card")).to_have_count(10)
    page.keyboard.press("ArrowRight")
    expect(move).to_have_text(re.compile(r"^(You|Ruby) (pass|passes)\.$"))
    expect(page.locator("#replay-position")).to_have_text(re.compile(r"^Move 1 of \d+$"))
    page.keyboard.press("End")
    expect(move).to_have_text(re.compile(r"(scores \d+|void: no score)\.$"))
    expect(page.locator("#replay-forward")).to_be_disabled()
    board = page.locator("#replay-analyse")
    expect(board).to_be_hidden()  # the hand is over: nobody is to play
    page.keyboard.press("Home")
    expect(page.locator("#replay-position")).to_have_text(re.compile(r"^Move 0 of "))
    page.keyboard.press("ArrowLeft")  # nothing before the deal
    expect(page.locator("#replay-position")).to_have_text(re.compile(r"^Move 0 of "))
    expect(page.get_by_role("button", name="Forward")).to_be_enabled()
    shot(page, "replay-viewer")
    page.keyboard.press("ArrowRight")  # the seat to play here, on the analysis board
    expect(board).to_have_text(re.compile(r"^Analyse this position for (You|Ruby) on the board$"))
    board.click()
    expect(page.locator("#board-analysis")).to_contain_text("The coach's analysis")
    expect(page.locator("#board-error")).to_have_count(0)
    page.goto(server.url + "/replay")
    page.set_input_files("#record-file", str(Path(__file__).parents[1] / "records" / "coach_feed.json"))
    expect(move).to_have_text("Hand 1: Ruby deals; the upcard is the 9♠.")
    page.close()
    assert not blocked, blocked


def test_the_review_page_as_a_player_reads_it(browser: Browser, server: ServerProcess) -> None:
    """coach_feed.json's costliest mistake (the 6♦ thrown into the sixes Ruby picked up), with Ruby
    named as markup: the review shows a table with the cards, both moves, the cost and why,
    named by hand and turn, and its link opens the replay viewer at that move."""
    record = json.loads((Path(__file__).parents[1] / "records" / "coach_feed.json").read_text("utf-8"))
    record["players"] = ["You", "<img src=x id=pwn>"]
    record["rules"] = {"preset": "oklahoma", "target": 25}  # its one hand (0 to 60) ends the game
    page = browser.new_page()
    blocked = csp_errors(page)
    page.goto(server.url + "/history")  # a guest from this first visit: the game is theirs
    store = Store(f"sqlite:///{server.db}")
    store_record(store, "feed", record, ["normal"])
    Players(store.engine).sat_in_game("feed", {0: player_of_cookie(store, session_cookie(page))})
    store.close()
    page.goto(server.url + "/games/feed/review?hand=1")
    expect(page.locator("p.lead")).to_have_text(re.compile(r"^Of your \d+ decisions this hand, \d were"))
    mistake = page.locator("section.mistake").first  # the costliest
    expect(mistake.locator("h2")).to_have_text("Hand 1, your 10th turn")
    table = mistake.locator("table.mistake-table")
    ace = table.locator("ul.chips li.chip").first
    expect(ace.locator("[aria-hidden=true]")).to_have_text("A♣")  # seen as a card, read as words
    expect(ace.locator(".visually-hidden")).to_have_text("ace of clubs")
    expect(table.locator("ul[aria-label='The cards held'] li")).to_have_count(11)
    expect(table.locator("tr", has_text="You did").locator("td")).to_have_text("Discard the 6♦")
    expect(table.locator("tr", has_text="Better").locator("td")).to_have_text("Discard the 3♦")
    cost = table.locator("tr", has_text="Cost").locator("td")
    expect(cost).to_have_text(re.compile(r"^about \d+\.\d points$"))
    expect(table.locator("tr", has_text="Why").locator("td")).to_contain_text(
        "rather than the 6♦, which would complete the 6♣ 6♠ <img src=x id=pwn> picked up.")
    assert page.locator("#pwn, main img").count() == 0  # the name is text, never an element
    shot(page, "coach-review-page")
    mistake.get_by_role("link", name="See this move in the replay").click()
    expect(page.locator("#replay-position")).to_have_text(re.compile(r"^Move 37 of \d+$"))
    expect(page.locator("#replay-move")).to_have_text("You discard the 6♦.")
    page.close()
    assert not blocked, blocked


def test_the_statistics_page_after_several_games(browser: Browser, server: ServerProcess) -> None:
    page = browser.new_page()
    blocked = csp_errors(page)
    page.goto(server.url + "/stats")
    seed_games(server.db, range(3), session_cookie(page))
    page.reload()
    expect(page.locator("h1")).to_have_text("Your statistics")
    expect(page.locator("p.lead")).to_contain_text("3 finished games")
    figures = page.locator("figure.chart-box")
    assert figures.count() >= 5
    for title in ("Games and hands won", "Points per hand, game by game", "How hands ended",
                  "deadwood when the opponent knocked", "Mistakes per hand"):
        figure = page.locator("figure.chart-box", has_text=title).first
        expect(figure.locator("svg.chart")).to_be_visible()
        expect(figure.locator("table.chart-table tbody tr").first).to_be_attached()
    points = page.locator("#points table tbody tr")
    expect(points).to_have_count(3)
    shot(page, "statistics")
    page.close()
    assert not blocked, blocked


@pytest.mark.parametrize("width,height", [(360, 640), (375, 740), (740, 360)])
def test_the_analysis_boards_answer_is_in_view_after_a_tap_on_a_phone(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    """On a phone the board's form fills the screen and more: after a tap on Analyse, what came
    back (the refusal that says what was wrong, or the coach's analysis) is in the window, not
    below the form where the player would have to know to look for it."""
    phone = {"viewport": {"width": width, "height": height}, "has_touch": True, "is_mobile": True}
    context = new_context(browser, **phone)
    page = context.new_page()
    try:
        page.goto(server.url + "/analysis")
        page.fill("input[name=hand]", "2C 3C 4C 7D 8D 9D KH KS QC 5H XX")
        page.get_by_role("button", name="Analyse").tap()
        error = page.locator("#board-error")
        expect(error).to_contain_text("cannot be analysed")
        expect(error).to_be_in_viewport()
        page.fill("input[name=hand]", "2C 3C 4C 7D 8D 9D KH KS QC 5H 6S")
        page.get_by_role("button", name="Analyse").tap()
        expect(page.locator("#board-title")).to_have_text("The coach's analysis")
        expect(page.locator("#board-title")).to_be_in_viewport()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
