"""A signed-in device's name for people: its browser and system ("Firefox on Android"), read
from the User-Agent it sent by ua-parser (the maintained port of Browserscope's rules)."""

from __future__ import annotations

from ua_parser import parse

UNKNOWN = "Unknown browser"
_OTHER = "Other"


def device_name(agent: str | None) -> str:
    """``agent`` (a User-Agent) as "Browser on System", "Browser" when the system is not known,
    or "Unknown browser" for an empty one or one no rule knows."""
    if not agent:
        return UNKNOWN
    found = parse(agent)
    browser = found.user_agent.family if found.user_agent else _OTHER
    system = found.os.family if found.os else _OTHER
    if browser == _OTHER:
        return UNKNOWN
    browser = " ".join(word for word in browser.split() if word != "Mobile") or browser
    return browser if system == _OTHER else f"{browser} on {system}"
