"""The daily deal's play: a player's one attempt started (or resumed), a move played with
``hard``'s answers, the next deal dealt; each a blocking call over the store, run in a worker
thread by ``pages/daily.py``, which hands it where ``hard`` thinks (``Think``: the server's
thinking processes). The day's seed is worked out here from the store's secret and is never
returned: what leaves is the attempt (its moves and points) and the seat's own view.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from datetime import date

from okgin.actions import PlayerAction, parse_action
from okgin.daily import (
    DEALS,
    PERSON,
    answered,
    computer_to_play,
    day_seed,
    dealt,
    played_on,
    points,
    replayed,
)
from okgin.errors import OkginError, sentence
from okgin.match import Match
from okgin.server.store.daily_store import AlreadyStarted, Attempt, DailyStore, Moved


class DailyRefused(Exception):
    """A request about the daily deal refused, nothing changed: the message says why."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


DONE = ("You have played today's daily deal: one attempt a day. Today's results are on the day's page; "
        "the next deals come at midnight UTC.")
OUT_OF_DATE = "This page was out of date (the deal moved on, in another tab?): here it is as it stands."

Think = Callable[[str, int, Sequence[str], str | None], list[str]]
"""Where ``hard``'s answers are worked out: ``okgin.daily.answered`` itself (in this thread), or
the same function run elsewhere with the same arguments."""


def seed_of(store: DailyStore, day: date) -> str:
    return day_seed(store.secret(), day)


def start(store: DailyStore, day: date, player: str, think: Think = answered) -> Attempt:
    """The player's attempt at ``day``: the one they started (resumed where it stands), or a new
    one with the first deal dealt. Raises DailyRefused when they finished it already."""
    found = store.attempt(day.isoformat(), player)
    if found is None:
        seed = seed_of(store, day)
        attempt = Attempt(day.isoformat(), player, secrets.token_urlsafe(12), time.time(), [])
        _deal(seed, attempt, think)
        try:
            store.start(attempt)
            return attempt
        except AlreadyStarted:  # the same player's other start, at the same moment, was first
            found = store.attempt(day.isoformat(), player)
            assert found is not None
    if found.finished is not None:
        raise DailyRefused(DONE)
    return found


def current(store: DailyStore, day: date, player: str) -> tuple[Attempt, Match] | None:
    """The player's attempt at ``day`` and its latest deal as played so far; None if not started."""
    attempt = store.attempt(day.isoformat(), player)
    if attempt is None:
        return None
    deal = len(attempt.moves) - 1
    return attempt, replayed(seed_of(store, day), deal, attempt.moves[deal])


def move(store: DailyStore, day: date, player: str, text: str, version: int,
         think: Think = answered) -> Attempt:
    """The player's move ``text`` (record notation, seat 0) in their deal, and ``hard``'s answers.
    Raises DailyRefused, nothing changed: not started, finished, a stale page, an illegal move."""
    attempt, match = _playing(store, day, player, version)
    if match.current is None:
        raise DailyRefused("This deal is over: deal the next one.")
    seed = seed_of(store, day)
    try:
        action = parse_action(text)
        if not isinstance(action, PlayerAction) or action.seat != PERSON:
            raise OkginError("you play seat 0 in the daily deal")
        deal = len(attempt.moves) - 1
        made = think(seed, deal, attempt.moves[deal], str(action))
    except OkginError as error:
        raise DailyRefused(f"That move cannot be played: {sentence(str(error))}", 400) from None
    attempt.moves[deal].extend(made)
    _settle(attempt, played_on(match, made))
    _save(store, attempt)
    return attempt


def next_deal(store: DailyStore, day: date, player: str, version: int, think: Think = answered) -> Attempt:
    """Deal the player's next deal, the one before it being over. Raises DailyRefused."""
    attempt, match = _playing(store, day, player, version)
    if match.current is not None:
        raise DailyRefused("Finish this deal first: its hand is still being played.")
    _deal(seed_of(store, day), attempt, think)
    _save(store, attempt)
    return attempt


def _playing(store: DailyStore, day: date, player: str, version: int) -> tuple[Attempt, Match]:
    found = current(store, day, player)
    if found is None:
        raise DailyRefused("You have not started today's deals: start them first.")
    attempt, match = found
    if attempt.finished is not None:
        raise DailyRefused(DONE)
    if version != attempt.version:
        raise DailyRefused(OUT_OF_DATE)
    return attempt, match


def _deal(seed: str, attempt: Attempt, think: Think) -> None:
    """The attempt's next deal dealt, with ``hard``'s moves if it speaks first (settled if they
    end the hand: a knock on the upcard)."""
    deal = len(attempt.moves)
    match = dealt(seed, deal)
    attempt.moves.append(think(seed, deal, (), None) if computer_to_play(match) else [])
    _settle(attempt, played_on(match, attempt.moves[deal]))


def _settle(attempt: Attempt, match: Match) -> None:
    """A deal that is over gets its points; the fifth's finishes the attempt with its total."""
    scored = points(match)
    if scored is None:
        return
    attempt.points.append(scored)
    if len(attempt.points) == DEALS:
        attempt.finished = time.time()
        attempt.total = sum(attempt.points)


def _save(store: DailyStore, attempt: Attempt) -> None:
    try:
        store.save(attempt)
    except Moved:
        raise DailyRefused(OUT_OF_DATE) from None
