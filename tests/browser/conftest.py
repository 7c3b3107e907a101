"""Browser fixtures: a real server, and Debian's Chromium driven by Playwright (no download)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import playwright
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "support"))

from browser_play import LONG_HAND_SEED, seeded_game
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from server_process import ServerProcess

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = Path(playwright.__file__).parent / "driver" / "package" / "lib"


def playwright_disables() -> tuple[str, ...]:
    """The features the installed Playwright turns off itself (its ``disabledFeatures`` list, in
    its driver). Chromium reads only the last --disable-features it is given, and Playwright's
    comes first, so ours names them again."""
    for script in sorted(DRIVER.rglob("*.js")):
        found = re.search(r"disabledFeatures = \[(.*?)\]", script.read_text(errors="replace"), re.S)
        if found:
            code = re.sub(r"//[^\n]*", "", found.group(1))  # its comments name features too
            return tuple(re.findall(r'"([A-Za-z0-9]+)"', code))
    raise RuntimeError(f"no disabledFeatures list in Playwright's driver under {DRIVER}")


UNSEEN_RENDERERS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess")
"""For every new page (a window of its own) headless Chromium 156 still loads the address bar's
two popups as web pages in a renderer process of their own, and keeps a spare renderer ready for
the next site: about 0.7 s of CPU for each page a test opens, for nothing anybody sees."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-features=" + ",".join(playwright_disables() + UNSEEN_RENDERERS)]
ARTIFACTS = Path(__file__).parents[2] / "artifacts"
FAST = {"speed": "instant", "levels": ["normal"], "reduceMotion": True}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (make test installs it)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """A browser context for a test. Playwright's string expressions (wait_for_function,
    evaluate) are eval()s, which the pages' CSP forbids, so tests bypass the CSP; one test
    checks the pages against it without bypassing."""
    return browser.new_context(bypass_csp=True, **options)


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own: a fresh store, and free to be stopped and started. (The
    others share their file's ``server``, tests/conftest.py: each test's pages are new guests,
    in browser contexts of their own, so the tests share no game.)"""
    process = ServerProcess(tmp_path / "games.db", allow_seeds=True).start()
    yield process
    process.stop()


@contextlib.contextmanager
def game_page(browser: Browser, server: ServerProcess, init_script: str) -> Iterator[Page]:
    """A page at desktop width showing a new game, set up by ``init_script``; on leaving, no
    script error may have happened on it."""
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    context.add_init_script(init_script)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server.url)
    opened.wait_for_selector("#hand .card")
    yield opened
    context.close()
    assert not errors, errors


@pytest.fixture
def page(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    """A fresh page at desktop width, with instant opponents, showing a new game of a known
    deal whose first hand is long (``LONG_HAND_SEED``)."""
    with game_page(browser, server, "if (!localStorage.getItem('okgin.options')) "
                   f"localStorage.setItem('okgin.options', '{json.dumps(FAST)}')") as opened:
        seeded_game(opened, LONG_HAND_SEED)
        yield opened


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A browser test that fails leaves its evidence in artifacts/failed/: a screenshot and the
    HTML of every page still open, and the log of every server it started (its tmp_path holds
    them and is gone by the next run), so a failure met once under load can be read after."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        _keep_evidence(item)


def _keep_evidence(item: pytest.Item) -> None:
    values = getattr(item, "funcargs", {})
    kept = ARTIFACTS / "failed"
    kept.mkdir(parents=True, exist_ok=True)
    stem = "".join(c if c.isalnum() or c in "-_." else "-" for c in item.name)[:120]
    browser = values.get("browser")
    pages = [p for context in browser.contexts for p in context.pages] if browser is not None else []
    for number, open_page in enumerate(pages):
        with contextlib.suppress(Exception):  # a page that cannot be drawn is no evidence
            open_page.screenshot(path=str(kept / f"{stem}-{number}.png"), full_page=True)
            (kept / f"{stem}-{number}.html").write_text(open_page.url + "\n" + open_page.content())
    tmp = values.get("tmp_path")
    logs = list(Path(tmp).glob("*.log")) if tmp is not None else []
    logs += [v.log_path for v in values.values() if isinstance(v, ServerProcess) and v.log_path.exists()]
    for log in dict.fromkeys(logs):
        shutil.copy(log, kept / f"{stem}-{log.name}")


DOC_SHOTS = frozenset({
    "desktop-table", "phone-375x740", "phone-360x640", "layout-room-4-table-1280x800",
    "layout-solo-2-table-740x360", "phone-table-375x740", "pages-tournament-finished-1280x800",
    "pages-leaderboard-1280x800",
})
"""The pictures the README shows (`make screenshots` copies them into docs/): always taken."""
EVERY_SHOT = os.environ.get("OKGIN_SCREENSHOTS") == "1"
"""OKGIN_SCREENSHOTS=1 takes every other screen's picture too (about 300, some 15 s of a run):
for looking the screens over, not needed to pass a test."""


def shot(page: Page, name: str, full_page: bool = True) -> None:
    if not (EVERY_SHOT or name in DOC_SHOTS):
        return
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
