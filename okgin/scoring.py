"""Scoring one finished hand: who won, the points each seat gets, and the sum worked out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from okgin.rules import Rules


class Outcome(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big-gin"
    UNDERCUT = "undercut"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class HandScore:
    """The scored result of a hand.

    ``working[seat]`` shows how a seat's points were worked out, e.g. "(14 − 6) × 2 = 16".
    """

    outcome: Outcome
    winner: int | None
    points: tuple[int, ...]
    boxes: tuple[int, ...]
    working: tuple[str | None, ...]


def void_score(players: int) -> HandScore:
    zeros = (0,) * players
    return HandScore(Outcome.VOID, None, zeros, zeros, (None,) * players)


def score_hand(
    rules: Rules, ending: Outcome, knocker: int, deadwood: Sequence[int], multiplier: int
) -> HandScore:
    """Score a hand ended by ``knocker`` with ``ending`` (knock, gin or big-gin).

    ``deadwood`` is every seat's deadwood after layoffs. A defender at or under the
    knocker's deadwood undercuts; with several, the lowest wins, the first in turn order
    after the knocker on a tie.
    """
    players = len(deadwood)
    order = [(knocker + i) % players for i in range(1, players)]
    outcome, winner = ending, knocker
    if ending == Outcome.KNOCK:
        under = [seat for seat in order if deadwood[seat] <= deadwood[knocker]]
        if under:
            outcome = Outcome.UNDERCUT
            winner = min(under, key=lambda seat: (deadwood[seat], under.index(seat)))
    bonus = {
        Outcome.KNOCK: rules.knock_bonus,
        Outcome.GIN: rules.gin_bonus,
        Outcome.BIG_GIN: rules.big_gin_bonus or 0,
        Outcome.UNDERCUT: rules.undercut_bonus,
    }[outcome]
    # After a knock the others are measured against the knock; otherwise against the winner.
    par = deadwood[knocker] if outcome == Outcome.KNOCK else deadwood[winner]
    terms: list[tuple[int, int]] = [(seat, deadwood[seat] - par) for seat in order]
    if winner != knocker:
        terms = [(knocker, deadwood[knocker] - par)] + [t for t in terms if t[0] != winner]
    penalty = rules.undercut_penalty if outcome == Outcome.UNDERCUT else 0
    sheet: list[list[tuple[str, int]]] = [[] for _ in range(players)]
    if bonus or outcome != Outcome.KNOCK or not terms:
        sheet[winner].append((str(bonus), bonus))
    for seat, diff in terms:
        text = f"{deadwood[seat]} − {par}" if par else str(deadwood[seat])
        if rules.scoring == "difference":
            sheet[winner].append((text, diff))
        else:
            # Every penalty line reads the same way, "−(deadwood − par) = −points", even after gin.
            sheet[seat].append((f"−({deadwood[seat]} − {par})", -diff))
    if penalty:
        sheet[knocker].append((f"−{penalty}", -penalty))
    raw = [sum(value for _, value in terms_of_seat) for terms_of_seat in sheet]
    working = tuple(_working(t, multiplier) if t else None for t in sheet)
    points = tuple(value * multiplier for value in raw)
    boxes = [0] * players
    if rules.boxes is not None:
        boxes[winner] = {Outcome.UNDERCUT: 1, Outcome.GIN: 2, Outcome.BIG_GIN: 2}.get(outcome, 0)
        boxes[winner] *= multiplier
    return HandScore(outcome, winner, points, tuple(boxes), working)



def _working(terms: Sequence[tuple[str, int]], multiplier: int) -> str:
    """A seat's sum as a score sheet writes it: "(25 + 6 − 4) × 2 = 54", "−(14 − 6) = −8"."""
    body = terms[0][0] + "".join(
        f" − {text[1:]}" if text.startswith("−") else f" + {text}" for text, _ in terms[1:]
    )
    total = sum(value for _, value in terms) * multiplier
    shown = f"−{-total}" if total < 0 else str(total)
    if multiplier != 1:
        bare = " " not in body or (len(terms) == 1 and body.startswith("−("))
        return f"{body if bare else f'({body})'} × {multiplier} = {shown}"
    return shown if body == shown else f"{body} = {shown}"
