"""Scoring one finished hand: who won, the points each seat gets, and the sum worked out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from okgin.rules import Rules

SPADE_DOUBLE = "spade double"
"""The name of a hand's multiplier: only a spade upcard doubles a hand (``Rules.multiplier_for``)."""


class Outcome(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big-gin"
    UNDERCUT = "undercut"
    VOID = "void"


class Term(NamedTuple):
    """One term of a seat's sum, before the multiplier: what it is, as the sum writes it
    ("25", "14 − 6", "−(14 − 6)"), and its points. A deadwood term names the seat whose deadwood
    it is (``of``) and the seat it is measured against (``against``: None after gin, when it
    is measured against nothing)."""

    name: str
    text: str
    points: int
    of: int | None = None
    against: int | None = None


BONUS_NAMES = {
    Outcome.KNOCK: "knock bonus",
    Outcome.GIN: "gin bonus",
    Outcome.BIG_GIN: "Big Gin bonus",
    Outcome.UNDERCUT: "undercut bonus",
}


@dataclass(frozen=True, slots=True)
class HandScore:
    """The scored result of a hand.

    ``working[seat]`` shows how a seat's points were worked out, e.g. "(14 − 6) × 2 = 16";
    ``terms[seat]`` names each term of that sum (the multiplier, when not 1, is the
    ``SPADE_DOUBLE``).
    """

    outcome: Outcome
    winner: int | None
    points: tuple[int, ...]
    boxes: tuple[int, ...]
    working: tuple[str | None, ...]
    terms: tuple[tuple[Term, ...] | None, ...]


def void_score(players: int) -> HandScore:
    zeros = (0,) * players
    return HandScore(Outcome.VOID, None, zeros, zeros, (None,) * players, (None,) * players)


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
    par_seat = knocker if outcome == Outcome.KNOCK else winner
    against = par_seat if par else None
    differences: list[tuple[int, int]] = [(seat, deadwood[seat] - par) for seat in order]
    if winner != knocker:
        differences = [(knocker, deadwood[knocker] - par)] + [d for d in differences if d[0] != winner]
    penalty = rules.undercut_penalty if outcome == Outcome.UNDERCUT else 0
    sheet: list[list[Term]] = [[] for _ in range(players)]
    if bonus or outcome != Outcome.KNOCK or not differences:
        sheet[winner].append(Term(BONUS_NAMES[outcome], str(bonus), bonus))
    named = "deadwood difference" if par else "deadwood"
    for seat, diff in differences:
        if rules.scoring == "difference":
            text = f"{deadwood[seat]} − {par}" if par else str(deadwood[seat])
            sheet[winner].append(Term(named, text, diff, seat, against))
        else:
            # Every penalty line reads the same way, "−(deadwood − par) = −points", even after gin.
            sheet[seat].append(Term(named, f"−({deadwood[seat]} − {par})", -diff, seat, against))
    if penalty:
        sheet[knocker].append(Term("undercut penalty", f"−{penalty}", -penalty))
    raw = [sum(term.points for term in terms_of_seat) for terms_of_seat in sheet]
    working = tuple(_working(t, multiplier) if t else None for t in sheet)
    points = tuple(value * multiplier for value in raw)
    boxes = [0] * players
    if rules.boxes is not None:
        boxes[winner] = {Outcome.UNDERCUT: 1, Outcome.GIN: 2, Outcome.BIG_GIN: 2}.get(outcome, 0)
        boxes[winner] *= multiplier
    terms = tuple(tuple(t) if t else None for t in sheet)
    return HandScore(outcome, winner, points, tuple(boxes), working, terms)


def _working(terms: Sequence[Term], multiplier: int) -> str:
    """A seat's sum as a score sheet writes it: "(25 + 6 − 4) × 2 = 54", "−(14 − 6) = −8"."""
    body = terms[0].text + "".join(
        f" − {term.text[1:]}" if term.text.startswith("−") else f" + {term.text}" for term in terms[1:]
    )
    total = sum(term.points for term in terms) * multiplier
    shown = f"−{-total}" if total < 0 else str(total)
    if multiplier != 1:
        bare = " " not in body or (len(terms) == 1 and body.startswith("−("))
        return f"{body if bare else f'({body})'} × {multiplier} = {shown}"
    return shown if body == shown else f"{body} = {shown}"
