"""A tournament in players' words: its formats and presets by name, and its own name (the
host's, or "Ann's Swiss"), bounded and checked."""

from __future__ import annotations

import unicodedata

from okgin.server.tournaments.settings import TournamentError

FORMAT_NAMES = {"swiss": "Swiss", "knockout": "Knockout", "round-robin": "Round robin"}
"""Each format as the form and the pages show it."""
PRESET_NAMES = {
    "oklahoma-big-gin": "Oklahoma Gin with Big Gin",
    "oklahoma": "Oklahoma Gin, classic (no Big Gin)",
    "oklahoma-multiplayer": "Oklahoma Gin for 2 to 4 players (penalty scoring)",
    "oklahoma-reshuffle": "Oklahoma Gin, reshuffle the pile when the stock runs out",
    "gin": "Standard Gin Rummy (knock with 10 or less)",
}
"""Each preset as the form and the pages show it (the game's own words: static/houserules.js)."""
MAX_NAME = 40
"""The longest name a tournament may have, in characters."""


def format_name(fmt: str) -> str:
    return FORMAT_NAMES.get(fmt, fmt)


def preset_name(preset: str) -> str:
    return PRESET_NAMES.get(preset, preset)


def default_name(fmt: str, host: str | None) -> str:
    """The name of a tournament its host did not name: "Ann's Swiss", "Ann's knockout"; a host
    without a name yet gives the format's own ("Swiss")."""
    if not host:
        return format_name(fmt)
    shown = format_name(fmt) if fmt == "swiss" else format_name(fmt).lower()
    return f"{host}'s {shown}"


def read_name(text: object, fmt: str, host: str | None) -> str:
    """The tournament's name from the form (spaces folded; empty: ``default_name``). Raises
    TournamentError saying why when it is too long or holds control characters."""
    if not isinstance(text, str):
        text = ""
    name = " ".join(text.split())
    if not name:
        return default_name(fmt, host)[:MAX_NAME]
    if len(name) > MAX_NAME:
        raise TournamentError(f"the tournament's name must be 1 to {MAX_NAME} characters, not {len(name)}")
    if any(unicodedata.category(char)[0] == "C" for char in name):
        raise TournamentError("the tournament's name may not hold control characters")
    return name
