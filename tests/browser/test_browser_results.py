"""Results that explain themselves (issue 25, item 4, and two of item 8): every term of a hand's
sum named, the final tally's rows worked out (the shutout with them), sentences right for every
seat name, a clear moment when the game is won or lost (no movement under reduced motion), the
coach's terms explained, a lost connection shown with the buttons disabled, and focus on the new
hand after New game. Seeds found with `planned_turn`'s plan against `normal` Ruby."""

from __future__ import annotations

import json
import re

import pytest
from browser_play import moved, progress, seeded_game, wait_my_move
from conftest import shot
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from table_helpers import axe, opened, play_planned_hand

UNDERCUT_SEED = 66  # a king of spades up; Ruby knocks with 9, you undercut with 5: (25 + 9 − 5) × 2
RUBY_GIN_SEED = 1  # an ace of spades up; Ruby goes gin against your 2 deadwood: (25 + 2) × 2
BIG_GIN_SEED = 1577  # you go Big Gin; Ruby holds 31 deadwood: 31 + 31
# 004's penalty scoring (oklahoma-reshuffle, two players): each seat's own sum.
PENALTY_KNOCK_SEED = 5  # Ruby knocks with 5 against your 9: Ruby 10, you −(9 − 5)
PENALTY_UNDERCUT_SEED = 12  # Ruby knocks with 6, you undercut with 3: you 25, Ruby −(6 − 3) − 25
RUBY_KNOCKS_SEED = 2997  # you deal; Ruby takes the upcard and knocks at once
ANIMATION = "document.querySelector('#final .game-winner').getAnimations().length"


def _terms(page: Page) -> list[str]:
    return page.locator("#result-body .terms li").all_inner_texts()


def test_an_undercut_on_a_spade_names_its_bonus_its_deadwood_and_the_double(
    browser: Browser, server: ServerProcess,
) -> None:
    with opened(browser, server.url) as page:
        seeded_game(page, UNDERCUT_SEED)
        play_planned_hand(page)
        expect(page.locator("#result-title")).to_have_text("Hand 1: Undercut")
        outcome = page.locator("#result-body .outcome")
        expect(outcome).to_have_text("Ruby knocks and you undercut. You score 58.")
        expect(page.locator("#result-body .working")).to_have_text("You: (25 + 9 − 5) × 2 = 58")
        assert _terms(page) == ["25 undercut bonus", "+ 9 − 5 deadwood difference (Ruby's less yours)",
                                "× 2 spade double: the first upcard was a spade"]
        expect(page.locator("#result-body .totals")).to_have_text("Totals: you 58, Ruby 0.")
        axe(page, "an undercut, its terms named")


def test_penalty_scoring_names_the_knock_bonus_and_the_undercut_penalty(
    browser: Browser, server: ServerProcess,
) -> None:
    with opened(browser, server.url) as page:
        seeded_game(page, PENALTY_KNOCK_SEED, preset="oklahoma-reshuffle")
        play_planned_hand(page)
        expect(page.locator("#result-body .working")).to_have_text(["You: −(9 − 5) = −4", "Ruby: 10"])
        assert _terms(page) == ["−(9 − 5) deadwood difference (yours less Ruby's)", "10 knock bonus"]
        seeded_game(page, PENALTY_UNDERCUT_SEED, preset="oklahoma-reshuffle")
        play_planned_hand(page)
        expect(page.locator("#result-body .outcome")).to_contain_text("Ruby knocks and you undercut.")
        expect(page.locator("#result-body .working")).to_have_text(
            ["You: 25", "Ruby: −(6 − 3) − 25 = −28"])
        assert _terms(page) == ["25 undercut bonus",
                                "−(6 − 3) deadwood difference (Ruby's less yours)", "− 25 undercut penalty"]
        axe(page, "penalty scoring, its terms named")


@pytest.mark.slow
def test_a_lost_game_says_who_won_and_works_out_the_shutout(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, reduce=False) as page:
        seeded_game(page, RUBY_GIN_SEED, preset="oklahoma-big-gin", target=50)
        play_planned_hand(page)
        expect(page.locator("#result-title")).to_have_text("Game over")
        assert _terms(page) == ["25 gin bonus", "+ 2 your deadwood",
                                "× 2 spade double: the first upcard was a spade"]
        winner = page.locator("#final .game-winner")
        expect(winner).to_have_text("Ruby wins the game")
        expect(winner).to_have_attribute("data-mood", "lost")
        expect(page.locator("#final .shutout")).to_have_text(
            "A shutout: you won no hand, so Ruby's final score is doubled (179 more).")
        ruby = "#final tr[data-row='{}'] td:nth-of-type(2)"
        expect(page.locator(ruby.format("hand_bonus"))).to_have_text("25 1 × 25")
        expect(page.locator(ruby.format("shutout_bonus") + " .how")).to_have_text("54 + 25 + 100, doubled")
        expect(page.locator(ruby.format("score"))).to_have_text("358 54 + 25 + 100 + 179")
        expect(page.locator("#final tr[data-row='box_bonus']")).to_have_count(0)  # no boxes in these rules
        axe(page, "a lost game")


@pytest.mark.slow
def test_a_won_game_celebrates_and_every_row_is_worked_out(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url, reduce=False) as page:
        seeded_game(page, BIG_GIN_SEED, preset="oklahoma-big-gin", target=40, boxes=25)
        play_planned_hand(page)
        expect(page.locator("#result-title")).to_have_text("Game over")
        assert _terms(page) == ["31 Big Gin bonus", "+ 31 Ruby's deadwood"]
        winner = page.locator("#final .game-winner")
        expect(winner).to_have_text("You win the game!")
        expect(winner).to_have_attribute("data-mood", "won")
        # The celebration is set (its 0.9 s may be over by the time a loaded machine looks, and a
        # finished animation is no longer listed, so its style is read, not getAnimations).
        moving = winner.evaluate("e => [getComputedStyle(e).animationName, "
                                 "getComputedStyle(e).animationDuration]")
        assert moving == ["game-won", "0.9s"]
        expect(page.locator("#final .shutout")).to_have_text(
            "A shutout: Ruby won no hand, so your final score is doubled (237 more).")
        you = "#final tr[data-row='{}'] td:nth-of-type(1) .how"
        expect(page.locator(you.format("hand_bonus"))).to_have_text("1 × 25")
        expect(page.locator(you.format("box_bonus"))).to_have_text("2 boxes × 25")
        expect(page.locator(you.format("shutout_bonus"))).to_have_text("62 + 25 + 100 + 50, doubled")
        expect(page.locator(you.format("score"))).to_have_text("62 + 25 + 100 + 237 + 50")
        expect(page.locator("#final tr[data-row='box_bonus'] th")).to_have_text("Boxes (25 a box)")
        expect(page.locator("#result-body .totals")).to_have_text("Totals: you 62, Ruby 0.")
        shot(page, "desktop-game-won")


@pytest.mark.slow
@pytest.mark.parametrize("how", ["system", "option"])
def test_the_winning_moment_does_not_move_under_reduced_motion(
    browser: Browser, server: ServerProcess, how: str,
) -> None:
    options = {"reduceMotion": True} if how == "option" else {}
    with opened(browser, server.url, reduce=how == "system", **options) as page:
        if how == "option":
            assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches") is False
        seeded_game(page, BIG_GIN_SEED, preset="oklahoma-big-gin", target=40)
        play_planned_hand(page)
        expect(page.locator("#final .game-winner")).to_have_text("You win the game!")
        assert page.evaluate(ANIMATION) == 0
        winner = page.locator("#final .game-winner")
        assert winner.evaluate("e => getComputedStyle(e).animationName") == "none"


def test_the_coach_explains_points_and_live_outs_where_they_appear(
    browser: Browser, server: ServerProcess,
) -> None:
    with opened(browser, server.url, coach=True) as page:
        seeded_game(page, BIG_GIN_SEED)
        wait_my_move(page)
        expect(page.locator("#coach .weighed li").first).to_contain_text(re.compile(r"about [+−]?\d+ points"))
        expect(page.locator("#coach .outs li").first).to_contain_text(re.compile(r"\d+ live outs? of \d+"))
        for topic, words in (("points", "on average"), ("outs", "can still come to you")):
            box = page.locator(f"#coach details.coach-explain[data-topic='{topic}']")
            expect(box).to_have_count(1)
            expect(box.locator("p")).to_be_hidden()
            box.locator("summary").click()
            expect(box.locator("p")).to_be_visible()
            expect(box.locator("p")).to_contain_text(words)
        page.locator("#stock").click()  # the panel is drawn again: what was opened stays open
        wait_my_move(page)
        expect(page.locator("#coach details.coach-explain[data-topic='outs'] p")).to_be_visible()


def test_a_solo_table_shows_a_lost_connection_and_disables_its_buttons(
    browser: Browser, own_server: ServerProcess,
) -> None:
    server = own_server  # stopped and started again here
    with opened(browser, server.url) as page:
        seeded_game(page, BIG_GIN_SEED)
        wait_my_move(page)
        expect(page.locator("#actions button").first).to_be_enabled()
        page.locator("#actions button").first.focus()
        server.stop()
        banner = page.locator("#offline")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Connection lost")
        for button in page.locator("#actions button, #stock").all():
            expect(button).to_be_disabled()
        assert page.evaluate("!!document.activeElement.closest('#hand')")  # not dropped to <body>
        page.keyboard.press("s")  # a move by key is refused in words, not silently lost
        refused = "The connection is lost: reconnecting. Your move was not sent."
        expect(page.locator("#status")).to_have_text(refused)
        server.start()
        expect(banner).to_be_hidden(timeout=20_000)
        expect(page.locator("#stock")).to_be_enabled()
        expect(page.locator("#actions button").first).to_be_enabled()


def test_a_hands_end_waits_until_the_dialog_the_person_opened_is_closed(
    browser: Browser, server: ServerProcess,
) -> None:
    """Met in a full run: at /#friends (a solo game under the Play with friends dialog) Ruby
    knocked, and the hand's result opened over the dialog, taking the tap meant for it. A dialog
    the person opened is not covered: the result opens when it is closed, its first button focused."""
    with opened(browser, server.url, speed="fast") as page:
        wait_my_move(page)
        page.click("#open-options")
        expect(page.locator("#options")).to_be_visible()
        seeded_game(page, RUBY_KNOCKS_SEED)
        page.wait_for_selector('body[data-turn="hand-over"]')
        expect(page.locator("#options")).to_be_visible()
        expect(page.locator("#result")).to_be_hidden()
        page.keyboard.press("Escape")
        expect(page.locator("#options")).to_be_hidden()
        expect(page.locator("#result")).to_be_visible()
        expect(page.get_by_role("button", name="Next hand")).to_be_focused()
        expect(page.locator("#result-body")).to_contain_text("Ruby knocks")


def test_after_new_game_focus_is_on_the_hand(browser: Browser, server: ServerProcess) -> None:
    with opened(browser, server.url) as page:
        seeded_game(page, BIG_GIN_SEED)
        wait_my_move(page)
        drawn_from = progress(page)
        page.locator("#stock").click()  # a move: the game is in progress, New game asks first
        moved(page, drawn_from)  # once the page holds the draw: until then nothing has been played
        wait_my_move(page)
        before = page.evaluate("Okgin.state().game")
        page.locator("#new-game").click()
        page.locator("#confirm-new").click()
        page.wait_for_function(f"Okgin.state().game !== {json.dumps(before)}")
        page.wait_for_function("!!document.activeElement.closest('#hand')")
        assert page.evaluate("document.activeElement.classList.contains('card')")
