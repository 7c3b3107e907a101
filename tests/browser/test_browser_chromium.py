"""The browser the tests drive: Playwright's own settings kept, and no page nobody sees."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from conftest import UNSEEN_RENDERERS, new_context, playwright_disables
from playwright.sync_api import Browser


def browser_command_lines() -> list[list[str]]:
    """The command lines of the Chromium browser processes this worker started (through
    Playwright's driver): its descendants in /proc that hold the DevTools pipe."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])

    def mine(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    found = []
    for pid in filter(mine, parents):
        with contextlib.suppress(OSError):
            line = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
            if "--remote-debugging-pipe" in line and "--type" not in " ".join(line):
                found.append(line)
    return found


def test_our_disabled_features_keep_playwrights_own(browser: Browser) -> None:
    """Chromium reads only the last --disable-features. Playwright passes its own first and ours
    comes after, so ours must name every feature Playwright's names, and the unseen renderers."""
    assert "PaintHolding" in playwright_disables()  # the driver's list was read, not an empty match
    lines = browser_command_lines()
    assert lines, "no Chromium browser process found under this worker"
    for line in lines:
        switches = [arg.split("=", 1)[1].split(",") for arg in line if arg.startswith("--disable-features=")]
        assert len(switches) >= 2, switches
        playwrights, last = set(switches[0]), set(switches[-1])
        assert playwrights <= last, sorted(playwrights - last)
        assert set(UNSEEN_RENDERERS) <= last


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
