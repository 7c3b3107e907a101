"""The daily deal's five hands, its seats and its scores, from a seed (docs/daily.md).

Everything here follows from the day's seed alone, with no I/O: the server derives the seed
in secret (``day_seed``) and plays with these functions; once the day is over the seed is
published, and ``okgin sim --daily SEED`` deals the same five hands from it, so anyone can
check the deals (and, move by move, ``hard``'s answers: its randomness is drawn from the seed,
the deal and the number of moves made, so the same moves always get the same answers).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections.abc import Mapping, Sequence
from datetime import date
from fractions import Fraction
from typing import Any

from okgin.actions import PlayerAction, parse_action
from okgin.bots import make_player
from okgin.errors import OkginError
from okgin.hand import Hand, play_chance
from okgin.match import Match
from okgin.record import match_to_record
from okgin.rules import Rules, preset

DEALS = 5
"""Hands a day: the same five for everyone."""
PRESET = "oklahoma"
RULES: Rules = preset(PRESET)
"""The default ruleset, two seats. Each deal is one hand of these rules, not a match."""
PERSON = 0
"""The person's seat, every deal."""
COMPUTER = 1
"""``hard``'s seat, every deal."""
LEVEL = "hard"
NAMES = ("You", "hard")
"""The seats' names in a deal's record."""

_SEED = re.compile(r"[0-9a-f]{64}")


def day_seed(secret: bytes, day: date) -> str:
    """The day's seed: HMAC-SHA256 of the date with the server's secret, as 64 hex digits.
    Nobody can work it out before it is published without the secret."""
    return hmac.new(secret, f"okgin daily {day.isoformat()}".encode(), hashlib.sha256).hexdigest()


def check_seed(seed: str) -> str:
    """``seed`` as 64 lower-case hex digits. Raises OkginError saying what a seed looks like."""
    text = seed.strip().lower()
    if not _SEED.fullmatch(text):
        raise OkginError("a daily seed is 64 hexadecimal digits, as the day's results page shows it")
    return text


def _draw(seed: str, *parts: object) -> random.Random:
    """A generator drawn from ``seed`` and ``parts`` alone (SHA-256, so no two parts collide)."""
    text = ":".join([seed, *map(str, parts)])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big"))


def dealer(deal: int) -> int:
    """Who deals deal ``deal`` (0 to 4): ``hard`` deals the first, third and fifth, the person
    the second and fourth (the non-dealer speaks first to the upcard)."""
    return COMPUTER if deal % 2 == 0 else PERSON


def dealt(seed: str, deal: int) -> Match:
    """Deal ``deal`` (0 to 4) of the day whose seed is ``seed``, nothing played yet."""
    if not 0 <= deal < DEALS:
        raise OkginError(f"a day has deals 1 to {DEALS}")
    match = Match(RULES, first_dealer=dealer(deal))
    match.deal_next(_draw(seed, "deal", deal))
    return match


def hard_answer(seed: str, deal: int, match: Match) -> PlayerAction:
    """``hard``'s move where it is to play: its randomness drawn from the seed, the deal and the
    moves made so far, so the same moves always get the same answer."""
    hand = _hand(match)
    player = make_player(LEVEL, _draw(seed, "hard", deal, len(hand.actions)))
    return player.act(match.view(COMPUTER))


def _hand(match: Match) -> Hand:
    """The deal's one hand, being played or over."""
    return match.hands[-1]


def _chance(seed: str, deal: int, match: Match) -> None:
    """Any chance move (a reshuffle, under rules that have one) drawn from the seed too."""
    hand = _hand(match)
    play_chance(hand, _draw(seed, "chance", deal, len(hand.actions)))


def computer_to_play(match: Match) -> bool:
    """Is ``hard`` to play in the deal (dealt and not over)?"""
    return match.current is not None and match.current.to_act == COMPUTER


def play(seed: str, deal: int, match: Match, action: PlayerAction | None) -> list[str]:
    """The person's ``action`` (None: none, at the deal) and then ``hard``'s answers until the
    person is to play again or the hand is over; the moves made, in record notation. Raises
    OkginError, changing nothing, when ``action`` may not be played."""
    moves: list[str] = []
    if action is not None:
        if action.seat != PERSON:
            raise OkginError("you play seat 0 in the daily deal")
        match.apply(action)
        moves.append(str(action))
        _chance(seed, deal, match)
    while computer_to_play(match):
        answer = hard_answer(seed, deal, match)
        match.apply_legal(answer)
        moves.append(str(answer))
        _chance(seed, deal, match)
    return moves


def answered(seed: str, deal: int, moves: Sequence[str], action: str | None) -> list[str]:
    """``play`` on deal ``deal`` with ``moves`` (as stored) played again: the person's ``action``
    (record notation; None: none, at the deal) and ``hard``'s answers, the moves made. A function
    of its arguments alone, so the server works it out in its thinking processes. Raises
    OkginError when ``action`` may not be played."""
    chosen = None if action is None else parse_action(action)
    if chosen is not None and not isinstance(chosen, PlayerAction):
        raise OkginError("you play seat 0 in the daily deal")
    return play(seed, deal, replayed(seed, deal, moves), chosen)


def replayed(seed: str, deal: int, moves: Sequence[str]) -> Match:
    """Deal ``deal`` with ``moves`` (as stored) played again. Raises OkginError on a bad move."""
    return played_on(dealt(seed, deal), moves)


def played_on(match: Match, moves: Sequence[str]) -> Match:
    """``match`` with ``moves`` (record notation) played on from where it stands. Raises
    OkginError on a bad move."""
    for text in moves:
        match.apply(parse_action(text))
    return match


def points(match: Match) -> int | None:
    """The deal's points to the person: the hand's points to the person less its points to
    ``hard``, as the rules score the hand (a spade upcard doubling both); None while unfinished."""
    hand = _hand(match)
    if hand.result is None:
        return None
    return hand.result.points[PERSON] - hand.result.points[COMPUTER]


def duplicate(totals: Mapping[str, int]) -> dict[str, Fraction]:
    """Each player's day score: their total over the five deals less the average of the totals
    of everyone in ``totals`` (every player who finished the day), exactly."""
    if not totals:
        return {}
    average = Fraction(sum(totals.values()), len(totals))
    return {player: total - average for player, total in totals.items()}


def shown(score: Fraction) -> str:
    """A score as the pages write it: signed, to one decimal place (halves away from zero)."""
    tenths = abs(score) * 10
    whole = int(tenths) + (1 if tenths - int(tenths) >= Fraction(1, 2) else 0)
    sign = "-" if score < 0 and whole else "+" if whole else ""
    return f"{sign}{whole // 10}.{whole % 10}"


def records(seed: str, moves: Sequence[Sequence[str]] = ()) -> list[dict[str, Any]]:
    """The five deals of ``seed`` as game records (docs/records.md), each one hand, with the
    moves played in it where ``moves`` gives them."""
    out = []
    for deal in range(DEALS):
        played = moves[deal] if deal < len(moves) else ()
        out.append(match_to_record(replayed(seed, deal, played), NAMES))
    return out
