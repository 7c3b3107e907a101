"""Puzzles in a real browser (issue 28, item 1): a guest solves three puzzles by mouse and one
by keyboard alone, sees the coach's explanation of every choice each time, and sees their
puzzle rating move up by each right answer (before → after, then the next page's rating)."""

from __future__ import annotations

import re

from conftest import new_context
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess

from okgin.puzzles.puzzle import Puzzle, shipped_by_id


def _puzzle_of(page: Page) -> Puzzle:
    found = re.search(r"/puzzles/([0-9a-f]+)", page.url)
    assert found, page.url
    return shipped_by_id()[found.group(1)]


def _rating_shown(page: Page) -> int:
    text = page.locator("#puzzle-rating b").inner_text()
    found = re.match(r"(\d+)", text)
    assert found, text
    return int(found.group(1))


def _explained(page: Page, puzzle: Puzzle, before: int) -> int:
    """The answer's part: right, every choice in the coach's table with its reason, and the
    rating's move up from ``before``; the rating after."""
    answer = page.locator("#answer")
    expect(answer).to_be_focused()
    expect(page.locator("#answer-title")).to_contain_text("Right:")
    expect(answer.locator(".values tbody tr")).to_have_count(len(puzzle.values))
    expect(answer.locator("tr.answer td").last).not_to_be_empty()  # the coach's reason for it
    change = page.locator("#rating-change").inner_text()
    found = re.search(r"(\d+) → (\d+)", change)
    assert found, change
    assert int(found.group(1)) == before and int(found.group(2)) > before
    return int(found.group(2))


def _by_keys(page: Page, puzzle: Puzzle) -> None:
    """Answer with the keys alone: T, D or P for the draw's choices, a card's rank then suit
    for a discard, else ← and → to the choice and Enter."""
    verb = puzzle.answer.split()[1]
    if verb in ("take", "draw", "pass"):
        page.keyboard.press(verb[0])
        return
    if verb == "discard":
        code = puzzle.answer.split()[2]
        page.keyboard.press(code[0].lower())
        page.keyboard.press(code[1].lower())
        return
    for _ in range(len(puzzle.values) + 1):
        page.keyboard.press("ArrowRight")
        if page.evaluate("document.activeElement.value") == puzzle.answer:
            page.keyboard.press("Enter")
            return
    raise AssertionError(f"the arrows never reached {puzzle.answer}")


def test_a_guest_solves_three_puzzles_by_mouse_and_one_by_keyboard(browser: Browser,
                                                                  server: ServerProcess) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(server.url + "/leaderboard")  # the site frame of a page off the table
        page.get_by_role("navigation", name="Site").get_by_role("link", name="Puzzles").click()
        expect(page).to_have_url(re.compile(r"/puzzles/[0-9a-f]+$"))
        rating = _rating_shown(page)
        assert rating == 1500
        seen: list[str] = []
        for attempt in range(4):
            puzzle = _puzzle_of(page)
            assert puzzle.id not in seen  # never one already done
            seen.append(puzzle.id)
            assert _rating_shown(page) == rating
            expect(page.locator("#puzzle-choices button.choice")).to_have_count(len(puzzle.values))
            if attempt < 3:
                page.locator(f'#puzzle-choices button[value="{puzzle.answer}"]').click()
            else:
                page.locator("#puzzle-choices button.choice").first.focus()
                _by_keys(page, puzzle)
            expect(page).to_have_url(re.compile(rf"/puzzles/{puzzle.id}#answer$"))
            rating = _explained(page, puzzle, rating)
            if attempt < 3:
                page.get_by_role("button", name="Next puzzle").click()
            else:
                page.keyboard.press("n")
            expect(page).not_to_have_url(re.compile(rf"/puzzles/{puzzle.id}"))
        assert _rating_shown(page) == rating
        page.goto(server.url + "/profile")
        expect(page.locator(".puzzle-history tbody tr")).to_have_count(4)
    finally:
        context.close()
