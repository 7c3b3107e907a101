"""The daily deal in Chromium (docs/daily.md): two players in two browser contexts play the
seeded day through, one by mouse and one by keyboard, and see the duplicate scores worked out by
hand; an old tab's start is refused once the day is played; the next day (the server's clock file
moved) the day's page shows the seed, `okgin sim --daily` deals exactly the deals played, and the
replay viewer steps through them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import new_context
from daily_days import DAY, NEXT_DAY, SECRET, choose, clock_file, seeded_store
from playwright.sync_api import Browser, Page, expect
from server_process import ServerProcess
from test_daily import SEED

from okgin import daily
from okgin.record import deal_to_json


@pytest.fixture
def day_server(tmp_path: Path) -> Iterator[tuple[ServerProcess, Path]]:
    """A server on the test day: its store's secret known, its clock a file."""
    seeded_store(tmp_path / "games.db")
    clock = clock_file(tmp_path)
    process = ServerProcess(tmp_path / "games.db", allow_seeds=True, extra=("--clock-file", str(clock)))
    process.start()
    yield process, clock
    process.stop()


def _play(page: Page, knocker: bool, keyboard: bool) -> None:
    """Play the day from the start button to the end, by mouse clicks or by focus and Enter."""

    def press(target: str) -> None:
        button = page.locator(target).first
        if keyboard:
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click()
        page.wait_for_load_state("domcontentloaded")

    press("#daily-start")
    while True:
        page.wait_for_selector("#daily-done, #daily-next, button[name=move]")
        if page.locator("#daily-done").count():
            return
        if page.locator("#daily-next").count():
            press("#daily-next")
            continue
        moves = page.locator("button[name=move]").evaluate_all("bs => bs.map(b => b.value)")
        chosen = choose(moves, knocker)
        press(f'button[name=move][value="{chosen}"]')


@pytest.mark.slow
def test_two_players_play_the_day_and_the_next_day_its_seed_checks_the_deals(
    browser: Browser, day_server: tuple[ServerProcess, Path],
) -> None:
    server, clock = day_server
    ann_context = new_context(browser, viewport={"width": 1280, "height": 800})
    bob_context = new_context(browser, viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    try:
        ann, ann_old_tab, bob = ann_context.new_page(), ann_context.new_page(), bob_context.new_page()
        ann.goto(server.url + "/daily")
        ann_old_tab.goto(server.url + "/daily")  # an old tab, its start button left there
        expect(ann.locator("#daily-start")).to_be_visible()
        assert SEED not in ann.content()
        _play(ann, knocker=True, keyboard=False)
        expect(ann.locator("#daily-done")).to_contain_text(
            "-336 points over the five deals (-1, -66, -42, -158, -69)")
        expect(ann.locator("#daily-score")).to_have_text("0.0")  # alone so far
        bob.goto(server.url + "/daily")
        _play(bob, knocker=False, keyboard=True)
        expect(bob.locator("#daily-done")).to_contain_text(
            "-513 points over the five deals (-54, -97, -68, -200, -94)")
        # By hand: the average of -336 and -513 is -424.5; Bob's score -513 + 424.5 = -88.5.
        expect(bob.locator("#daily-score")).to_have_text("-88.5")

        ann.goto(server.url + "/daily")
        expect(ann.locator("#daily-score")).to_have_text("+88.5")  # -336 + 424.5, once Bob finished
        ann_old_tab.locator("#daily-start").click()
        expect(ann_old_tab.locator("#daily-error")).to_have_text(re.compile(
            r"^You have played today's daily deal: one attempt a day\."))
        ann.goto(f"{server.url}/daily/{DAY}")
        rows = ann.locator(".daily-results tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("1A guest (you)-336+88.5")
        expect(rows.nth(1)).to_contain_text("2A guest-513-88.5")
        expect(ann.locator("#daily-average")).to_have_text("-424.5")
        pages = [ann.content(), bob.content(), ann_old_tab.content()]
        assert not any(SEED in text for text in pages)
        assert ann.locator("#daily-seed").count() == 0

        clock.write_text(NEXT_DAY, encoding="utf-8")
        bob.goto(f"{server.url}/daily/{DAY}")
        expect(bob.locator("#daily-seed")).to_have_text(SEED)
        printed = subprocess.run([sys.executable, "-m", "okgin.cli", "sim", "--daily", SEED],
                                 capture_output=True, text=True, check=True).stdout.splitlines()
        records = [json.loads(line) for line in printed]
        # The deals Bob played, from his replay: the same five the command prints.
        bob.locator(".daily-results tbody tr", has_text="(you)").get_by_role("link", name="Replay").click()
        expect(bob.locator("#replay-hand option")).to_have_count(daily.DEALS)
        code = bob.url.rsplit("/", 1)[-1]
        data = bob.request.get(f"{server.url}/api/daily/{DAY}/{code}/replay").json()
        for number, (record, hand) in enumerate(zip(records, data["hands"], strict=True)):
            played = daily.replayed(SEED, number, hand["moves"]).hands[-1]
            assert record["hands"][0]["deal"] == deal_to_json(played.deal)
            assert record["hands"][0]["dealer"] == hand["dealer"]
        expect(bob.locator("#replay-move")).to_contain_text("Hand 1")
        # The next day is a new day: a start button again.
        bob.goto(server.url + "/daily")
        expect(bob.locator("#daily-start")).to_be_visible()
        assert SECRET not in bob.content()
    finally:
        ann_context.close()
        bob_context.close()
