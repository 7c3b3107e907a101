"""The browser the tests drive: Playwright's own settings kept, and no page nobody sees."""

from __future__ import annotations

import re
from pathlib import Path

import playwright
from conftest import PLAYWRIGHT_DISABLES, UNSEEN_RENDERERS, new_context
from playwright.sync_api import Browser

DRIVER = Path(playwright.__file__).parent / "driver" / "package" / "lib"


def playwright_disables() -> set[str]:
    """The features the installed Playwright turns off (its ``disabledFeatures`` list)."""
    for script in sorted(DRIVER.rglob("*.js")):
        text = script.read_text(errors="replace")
        found = re.search(r"disabledFeatures = \[(.*?)\]", text, re.S)
        if found:
            code = re.sub(r"//[^\n]*", "", found.group(1))  # its comments name features too
            return set(re.findall(r'"([A-Za-z0-9]+)"', code))
    raise AssertionError(f"no disabledFeatures list in Playwright's driver under {DRIVER}")


def test_our_disabled_features_keep_playwrights_own() -> None:
    """Ours replace Playwright's switch (Chromium reads the last one), so they must name its own."""
    theirs = playwright_disables()
    assert "PaintHolding" in theirs  # the list was read, not an empty match
    missing = theirs - set(PLAYWRIGHT_DISABLES)
    assert not missing, f"Playwright now also turns off {sorted(missing)}: add them to PLAYWRIGHT_DISABLES"


def test_a_page_opens_no_page_of_the_browsers_own(browser: Browser) -> None:
    """The address bar's popups are not made for each page a test opens (UNSEEN_RENDERERS)."""
    assert "WebUIOmniboxPopup" in UNSEEN_RENDERERS
    context = new_context(browser)
    page = context.new_page()
    page.goto("data:text/html,<p>hi</p>")
    session = browser.new_browser_cdp_session()
    try:
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
    finally:
        session.detach()
        context.close()
    kinds = sorted((target["type"], target["url"]) for target in targets)
    assert not [url for kind, url in kinds if kind == "browser_ui"], kinds
    assert ("page", "data:text/html,<p>hi</p>") in kinds
