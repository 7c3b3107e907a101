"""The move the strongest computer player would make in a view, and one sentence saying why.

The choice is `hard`'s: draws by `normal`'s judgement; a discard from `normal`'s ranking;
gin at once; an ordinary knock only when the guessed deals say it pays better than playing
on (with the same benefit of the doubt `hard` gives). The figures are made deterministic
by a fixed number of guesses seeded from the view (``Worlds``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.advice.words import cards_text, percent, seat_name, short
from okgin.advice.worlds import Worlds
from okgin.bots.judge import Judge
from okgin.bots.knowledge import wanted_by
from okgin.bots.memo import deadwood, discard_value
from okgin.bots.normal import best_knock, rank_discards, should_take
from okgin.cards import DECK, Card
from okgin.hand import Phase
from okgin.melds import arrangement_of_mask
from okgin.view import SeatView

PRIOR = 1.0
"""Points of benefit of the doubt given to an ordinary knock, which ends the hand now, over
playing on, whose worth rests on guessing the draws to come as well as the hands."""
SHORTLIST = 3
"""Discards, best first by `normal`'s ranking, whose worth the analysis reports."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The move to make, the sentence saying why, and the moves weighed (worth in points)."""

    action: PlayerAction
    text: str
    values: tuple[tuple[PlayerAction, float], ...]


def suggest(
    view: SeatView, worlds: Worlds, names: Sequence[str] = (), weigh: bool = True
) -> Suggestion | None:
    """The suggested move for ``view`` with its reason; None when it is not the seat's turn.

    ``weigh``: work out every candidate's worth for ``Suggestion.values`` (a review, which
    only needs the suggestion and the move played, leaves them out: they are the slow part).
    """
    if not view.my_turn or not view.legal:
        return None
    if view.phase in (Phase.OFFER, Phase.DRAW, Phase.LAST_CHANCE):
        suggestion = _draw_choice(view, worlds)
    else:
        suggestion = _discard_choice(view, worlds, names)
    if not weigh:
        return suggestion
    return replace(suggestion, values=_weigh(worlds, candidates(view, worlds)))


def candidates(view: SeatView, worlds: Worlds) -> list[PlayerAction]:
    """The moves worth weighing in ``view``: the draws, or the best knock and discards."""
    if view.phase != Phase.DISCARD:
        return list(view.legal)
    judge = Judge(worlds.knowledge, view.stock_count)
    found: list[PlayerAction] = [a for a in view.legal if isinstance(a, BigGin)]
    knock = best_knock(view)
    if knock is not None:
        found.append(knock)
    ranked = rank_discards(view, judge)
    found += [Discard(view.seat, DECK[choice.card]) for choice in ranked[:SHORTLIST]]
    return found


def _weigh(worlds: Worlds, moves: Sequence[PlayerAction]) -> tuple[tuple[PlayerAction, float], ...]:
    return tuple((move, round(worlds.value(move), 2)) for move in moves)


# -- drawing ------------------------------------------------------------------------------


def _draw_choice(view: SeatView, worlds: Worlds) -> Suggestion:
    seat = view.seat
    top = view.discards[-1]
    judge = Judge(worlds.knowledge, view.stock_count)
    stay: PlayerAction = Draw(seat) if Draw(seat) in view.legal else Pass(seat)
    take = Take(seat) in view.legal and should_take(view, judge, top.index)
    if view.phase == Phase.LAST_CHANCE:
        take = Take(seat) in view.legal and discard_value(view.hand_mask | top.mask) <= view.knock_limit
    action: PlayerAction = Take(seat) if take else stay
    return Suggestion(action, _draw_reason(view, top, take), ())


def _draw_reason(view: SeatView, top: Card, take: bool) -> str:
    now = deadwood(view.hand_mask)
    after = discard_value(view.hand_mask | top.mask)
    meld = _meld_with(view.hand_mask | top.mask, top)
    if take:
        if view.phase == Phase.LAST_CHANCE:
            return f"Take the {short(top)}: it lets you knock with {after} before the stock runs out."
        if meld:
            return (f"Take the {short(top)}: it {_joins(meld, top)} and drops your "
                    f"deadwood from {now} to {after}.")
        if after < now:
            return (f"Take the {short(top)}: it drops your deadwood from {now} to {after} "
                    "and gives you more ways to meld.")
        near = [c for c in view.hand if _related(c, top)]
        return (f"Take the {short(top)}: with your {cards_text(near)} it is one card from a meld, "
                f"and your deadwood stays {after} after your best discard.")
    verb = "Draw from the stock" if view.phase == Phase.DRAW else "Pass"
    if meld and after < now:
        return (f"{verb}: the {short(top)} would complete {cards_text(meld)}, but it shows your "
                f"hand and saves less than a draw is likely to ({now} to {after} deadwood).")
    if meld:
        return f"{verb}: the {short(top)} would join a meld but not lower your {now} deadwood."
    return f"{verb}: the {short(top)} joins no meld of yours, so it would not lower your {now} deadwood."


def _joins(meld: tuple[Card, ...], card: Card) -> str:
    """ "completes 7♥ 8♥ 9♥", or "extends your 7♥ 8♥ 9♥" when the rest is a meld already."""
    rest = tuple(c for c in meld if c != card)
    return f"extends your {cards_text(rest)}" if len(rest) >= 3 else f"completes {cards_text(meld)}"


def _related(card: Card, other: Card) -> bool:
    """Whether two cards could be in one meld: same rank, or within two in one suit."""
    same_suit = card.suit == other.suit and abs(card.rank - other.rank) <= 2
    return card.rank == other.rank or same_suit


def _meld_with(mask: int, card: Card) -> tuple[Card, ...]:
    """The meld ``card`` joins in the best arrangement of ``mask`` less its best discard."""
    rest = arrangement_of_mask(mask)
    for meld in rest.melds:
        if card in meld:
            return meld
    return ()


# -- discarding ---------------------------------------------------------------------------


def _discard_choice(view: SeatView, worlds: Worlds, names: Sequence[str]) -> Suggestion:
    moves = candidates(view, worlds)
    values = ()
    first = moves[0]
    if isinstance(first, BigGin):
        return Suggestion(first, "Go Big Gin: all eleven cards meld, with no discard.", values)
    knock = next((m for m in moves if isinstance(m, Knock)), None)
    discard = next(m for m in moves if isinstance(m, Discard))
    assert isinstance(discard, Discard)
    if knock is not None:
        left = deadwood(view.hand_mask & ~knock.card.mask)
        if left == 0:
            return Suggestion(knock, _gin_reason(view, knock, names), values)
        knock_worth, play_worth = worlds.value(knock), worlds.value(discard)
        risk = worlds.undercut_share(knock)
        if knock_worth + PRIOR >= play_worth:
            return Suggestion(knock, _knock_reason(knock, left, risk, knock_worth), values)
        return Suggestion(discard, _play_on_reason(discard, left, risk, knock_worth, play_worth), values)
    return Suggestion(discard, _discard_reason(view, worlds, discard.card, names), values)


def _gin_reason(view: SeatView, knock: Knock, names: Sequence[str]) -> str:
    doubled = ", doubled by the spade upcard" if view.multiplier > 1 else ""
    return (f"Go gin by discarding the {short(knock.card)}: all ten cards meld, worth "
            f"{view.rules.gin_bonus} plus the others' deadwood{doubled}.")


def _play_on_reason(discard: Discard, left: int, risk: float, knock: float, play: float) -> str:
    text = (f"Discard the {short(discard.card)} and play on rather than knock with {left}: playing on "
            f"is worth about {play:+.0f} points against {knock:+.0f} for the knock")
    if risk >= 0.1:
        return text + f", which would be undercut in about {percent(risk)} of likely deals."
    return text + "."


def _knock_reason(knock: Knock, left: int, risk: float, worth: float) -> str:
    return (f"Knock, discarding the {short(knock.card)}: {left} deadwood, and an undercut in only "
            f"about {percent(risk)} of likely deals (worth about {worth:+.0f} points).")


def _nobody(who: list[str]) -> str:
    """ "Ruby has shown no sign of", "neither Ruby nor Sam has shown any sign of", ..."""
    if len(who) == 1:
        return f"{who[0]} has shown no sign of"
    if len(who) == 2:
        return f"neither {who[0]} nor {who[1]} has shown any sign of"
    return f"none of {', '.join(who[:-1])} and {who[-1]} has shown any sign of"


def _instead(view: SeatView, worlds: Worlds, least: int, names: Sequence[str]) -> str:
    """Why not the least-deadwood discard: it may feed someone, or it keeps fewer chances."""
    options = [a.card for a in view.legal if isinstance(a, Discard)]
    lowest = [c for c in options if deadwood(view.hand_mask & ~c.mask) == least]
    for other in lowest:
        for seat in worlds.knowledge.others():
            if wanted_by(worlds.knowledge, seat, other.index) > 0:
                return f"rather than the {short(other)}, which {seat_name(names, seat)} may want"
    return "but keeps more ways to meld"


def _discard_reason(view: SeatView, worlds: Worlds, card: Card, names: Sequence[str]) -> str:
    left = arrangement_of_mask(view.hand_mask ^ card.mask)
    least = discard_value(view.hand_mask)
    if left.deadwood == least:
        head = f"Discard the {short(card)}: it leaves {left.deadwood} deadwood, the least you can"
    else:
        head = (f"Discard the {short(card)}: it leaves {left.deadwood} deadwood "
                f"({left.deadwood - least} more than the least) {_instead(view, worlds, least, names)}")
    interest = [(s, wanted_by(worlds.knowledge, s, card.index)) for s in worlds.knowledge.others()]
    if "may want" in head:
        return head + "."
    if all(score <= 0 for _, score in interest):
        return head + f", and {_nobody([seat_name(names, s) for s, _ in interest])} wanting it."
    keen = " and ".join(seat_name(names, s) for s, score in interest if score > 0)
    return head + f", though {keen} may want it."
