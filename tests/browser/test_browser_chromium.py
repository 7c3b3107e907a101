"""The browser the tests drive: Playwright's own settings kept, and no page nobody sees."""

from __future__ import annotations

from conftest import ARGS, UNSEEN_RENDERERS, new_context, playwright_disables
from playwright.sync_api import Browser


def test_our_disabled_features_keep_playwrights_own() -> None:
    """Ours replace Playwright's switch (Chromium reads the last one), so they name its own too."""
    theirs = playwright_disables()
    assert "PaintHolding" in theirs  # the list was read, not an empty match
    ours = next(arg for arg in ARGS if arg.startswith("--disable-features=")).split("=", 1)[1].split(",")
    assert set(theirs) | set(UNSEEN_RENDERERS) == set(ours)


def test_a_page_opens_no_page_of_the_browsers_own(browser: Browser) -> None:
    """The address bar's popups are not made for each page a test opens (UNSEEN_RENDERERS)."""
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
