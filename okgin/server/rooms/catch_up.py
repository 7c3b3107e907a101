"""Bring a match in memory up to its stored record by applying only what is new.

Another process saved a change: replaying the whole game to see it costs the whole game's
actions (tens of milliseconds late in a game, for every event, on every other process);
applying the new actions costs one action each. Anything that is not a plain extension of
what this match holds (a change of ours the store refused, a hand dealt differently) answers
False, and the caller replays the record from the start.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from okgin.actions import parse_action
from okgin.errors import OkginError
from okgin.match import Match
from okgin.record import deal_from_json, deal_to_json


def catch_up(match: Match, record: Mapping[str, Any]) -> bool:
    """Apply to ``match`` what ``record`` holds beyond it; False when it is not an extension.

    After False the match may be half changed: the caller must replace it.
    """
    stored = record.get("hands")
    ours = match.hands
    if not isinstance(stored, list) or not ours or len(stored) < len(ours):
        return False
    if any(len(stored[i].get("actions", ())) != len(ours[i].actions) for i in range(len(ours) - 1)):
        return False
    last, data = ours[-1], stored[len(ours) - 1]
    texts = data.get("actions", [])
    if data.get("deal") != deal_to_json(last.deal) or len(texts) < len(last.actions):
        return False
    if [str(action) for action in last.actions] != texts[: len(last.actions)]:
        return False
    try:
        for text in texts[len(last.actions):]:
            match.apply(parse_action(text))
        for data in stored[len(ours):]:
            match.start_hand(deal_from_json(data["deal"]), data["dealer"])
            for text in data["actions"]:
                match.apply(parse_action(text))
    except (OkginError, KeyError, TypeError):
        return False
    return True
