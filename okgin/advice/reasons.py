"""The sentences the coach gives: why its move, and what made another move worse.

Each names the fact that decided it: the meld a card completes, the deadwood against the least
a legal discard leaves (never counting the card just taken, which cannot go back), the card a
discard would feed the next seat and what that seat picked up, or the worth of the moves over
the guessed deals when the hand's own figures point the other way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.advice.words import cards_text, has, percent, seat_name, short
from okgin.advice.worlds import Worlds
from okgin.bots.knowledge import wanted_by
from okgin.bots.memo import deadwood, discard_without
from okgin.cards import DECK, Card
from okgin.hand import Phase
from okgin.melds import arrangement_of_mask, meld_kind
from okgin.view import SeatView

Values = Mapping[PlayerAction, float]


def reason(
    view: SeatView, worlds: Worlds, action: PlayerAction, values: Values, names: Sequence[str]
) -> str:
    """Why ``action`` is the move in ``view`` (``values``: the worth of each move weighed)."""
    if isinstance(action, BigGin):
        return "Go Big Gin: all eleven cards meld, with no discard."
    if isinstance(action, (Take, Draw, Pass)):
        return _draw_reason(view, action, values)
    assert isinstance(action, (Knock, Discard))
    knock = next((move for move in values if isinstance(move, Knock)), None)
    if isinstance(action, Knock):
        return _knock_reason(view, worlds, action, values)
    if knock is not None:
        return _play_on_reason(view, worlds, action, knock, values)
    return _discard_reason(view, worlds, action.card, values, names)


def _signed(value: float | None) -> str:
    return "?" if value is None else f"{round(value):+d}"


# -- drawing ------------------------------------------------------------------------------


def _draw_reason(view: SeatView, action: PlayerAction, values: Values) -> str:
    if not view.discards or not any(isinstance(move, Take) for move in values):
        return "Draw from the stock: there is no discard to take." if isinstance(action, Draw) else "Pass."
    top = view.discards[-1]
    now = deadwood(view.hand_mask)
    after = discard_without(view.hand_mask | top.mask, top.index)[0]  # the take cannot go back
    meld = _meld_with(view.hand_mask | top.mask, top)
    take = next((v for m, v in values.items() if isinstance(m, Take)), None)
    stay = next((v for m, v in values.items() if not isinstance(m, Take)), None)
    worth = f"about {_signed(take)} points against {_signed(stay)}"
    if isinstance(action, Take):
        if view.phase == Phase.LAST_CHANCE and after <= view.knock_limit:
            return f"Take the {short(top)}: it lets you knock with {after} before the stock runs out."
        if meld and after < now:
            return (f"Take the {short(top)}: it {_joins(meld, top)} and drops your "
                    f"deadwood from {now} to {after}.")
        if after < now:
            return (f"Take the {short(top)}: it drops your deadwood from {now} to {after} "
                    "and gives you more ways to meld.")
        near = [c for c in view.hand if _related(c, top)]
        if near:
            stays = "stays" if after == now else "is"
            return (f"Take the {short(top)}: with your {cards_text(near)} it is one card from a "
                    f"meld, and your deadwood {stays} {after} after your best discard.")
        return (f"Take the {short(top)}: over likely deals taking it is worth {worth} for "
                f"{'passing' if view.phase != Phase.DRAW else 'a draw'}, though your deadwood "
                f"is {after} after your best discard.")
    verb, noun = ("Draw from the stock", "a draw") if isinstance(action, Draw) else ("Pass", "passing")
    if after < now:
        gain = f"would complete {cards_text(meld)}" if meld else "would lower your deadwood"
        return (f"{verb}: the {short(top)} {gain} ({now} to {after} deadwood), but over likely "
                f"deals {noun} is worth about {_signed(stay)} points against {_signed(take)} "
                "for taking it.")
    if meld:
        return f"{verb}: the {short(top)} would join a meld but not lower your {now} deadwood."
    return f"{verb}: the {short(top)} joins no meld of yours, so it would not lower your {now} deadwood."


def _joins(meld: tuple[Card, ...], card: Card) -> str:
    """ "completes 7♥ 8♥ 9♥", or "extends your 7♥ 8♥ 9♥" when the rest is a meld already."""
    rest = tuple(c for c in meld if c != card)
    return f"extends your {cards_text(rest)}" if len(rest) >= 3 else f"completes {cards_text(meld)}"


def _meld_with(mask: int, card: Card) -> tuple[Card, ...]:
    """The meld ``card`` joins in the best arrangement of ``mask``."""
    return next((meld for meld in arrangement_of_mask(mask).melds if card in meld), ())


# -- knocking -------------------------------------------------------------------------------


def _knock_reason(view: SeatView, worlds: Worlds, knock: Knock, values: Values) -> str:
    left = deadwood(view.hand_mask & ~knock.card.mask)
    if left == 0:
        doubled = ", doubled by the spade upcard" if view.multiplier > 1 else ""
        return (f"Go gin by discarding the {short(knock.card)}: all ten cards meld, worth "
                f"{view.rules.gin_bonus} plus the others' deadwood{doubled}.")
    risk = worlds.undercut_share(knock)
    return (f"Knock, discarding the {short(knock.card)}: {left} deadwood, and an undercut in only "
            f"about {percent(risk)} of likely deals (worth about {_signed(values.get(knock))} points).")


def _play_on_reason(
    view: SeatView, worlds: Worlds, discard: Discard, knock: Knock, values: Values
) -> str:
    left = deadwood(view.hand_mask & ~knock.card.mask)
    risk = worlds.undercut_share(knock)
    text = (f"Discard the {short(discard.card)} and play on rather than knock with {left}: playing "
            f"on is worth about {_signed(values.get(discard))} points against "
            f"{_signed(values.get(knock))} for the knock")
    if risk >= 0.1:
        return text + f", which would be undercut in about {percent(risk)} of likely deals."
    return text + "."


# -- discarding -----------------------------------------------------------------------------


def least_deadwood(view: SeatView) -> int:
    """The least deadwood a legal discard leaves (the card just taken is not one)."""
    options = [a.card for a in view.legal if isinstance(a, Discard)]
    return min(deadwood(view.hand_mask & ~card.mask) for card in options)


def feeds(view: SeatView, worlds: Worlds, card: Card, names: Sequence[str]) -> str | None:
    """What discarding ``card`` would hand the next seat, named: "would complete the Q♥ Q♦
    Ruby picked up", or "would go with the Q♥ Ruby picked up (a meld for them in about 50% of
    likely deals)"; None when it goes with nothing that seat is known to hold."""
    following = (view.seat + 1) % view.rules.players
    held = [DECK[i] for i in range(52) if worlds.knowledge.held[following] >> i & 1]
    who = seat_name(names, following)
    for i, first in enumerate(held):
        for second in held[i + 1:]:
            if meld_kind((first, second, card)) is not None:
                return f"would complete the {cards_text((first, second))} {who} picked up"
    near = [c for c in held if _related(c, card)]
    if not near:
        return None
    share = worlds.want_share(following, card.index)
    return (f"would go with the {cards_text(near)} {who} picked up (a meld for "
            f"{'you' if who == 'you' else 'them'} in about {percent(share)} of likely deals)")


def _related(card: Card, other: Card) -> bool:
    """Whether two cards could be in one meld: same rank, or within two in one suit."""
    same_suit = card.suit == other.suit and abs(card.rank - other.rank) <= 2
    return card.rank == other.rank or same_suit


def _discard_reason(
    view: SeatView, worlds: Worlds, card: Card, values: Values, names: Sequence[str]
) -> str:
    left = deadwood(view.hand_mask & ~card.mask)
    least = least_deadwood(view)
    options = [a.card for a in view.legal if isinstance(a, Discard) and a.card != card]
    lowest = [c for c in options if deadwood(view.hand_mask & ~c.mask) == least]
    fed = next(((c, fact) for c in lowest if (fact := feeds(view, worlds, c, names))), None)
    head = f"Discard the {short(card)}: it leaves {left} deadwood"
    if left == least:
        head += ", the least you can"
        if fed is not None:
            return head + f"; the {short(fed[0])} leaves as little but {fed[1]}."
    elif fed is not None:
        return (head + f" ({left - least} more than the least) rather than the "
                f"{short(fed[0])}, which {fed[1]}.")
    else:
        other = lowest[0]
        worth = values.get(Discard(view.seat, other))
        ahead = (f": about {_signed(values.get(Discard(view.seat, card)))} points against "
                 f"{_signed(worth)} for the {short(other)}") if worth is not None else ""
        head += f" ({left - least} more than the least) but keeps more ways to meld{ahead}"
    return head + _interest(worlds, card, names)


def _interest(worlds: Worlds, card: Card, names: Sequence[str]) -> str:
    interest = [(s, wanted_by(worlds.knowledge, s, card.index)) for s in worlds.knowledge.others()]
    if all(score <= 0 for _, score in interest):
        return f", and {_nobody([seat_name(names, s) for s, _ in interest])} wanting it."
    keen = " and ".join(seat_name(names, s) for s, score in interest if score > 0)
    return f", though {keen} may want it."


def _nobody(who: list[str]) -> str:
    """ "Ruby has shown no sign of", "neither Ruby nor Sam has shown any sign of", ..."""
    if len(who) == 1:
        return f"{has(who[0])} shown no sign of"
    if len(who) == 2:
        return f"neither {who[0]} nor {has(who[1])} shown any sign of"
    return f"none of {', '.join(who[:-1])} and {who[-1]} has shown any sign of"


# -- what made another move worse (a review) ---------------------------------------------------


def contrast(
    view: SeatView, worlds: Worlds, chosen: PlayerAction, suggested: PlayerAction,
    names: Sequence[str], said: str = "",
) -> str | None:
    """The fact that made ``chosen`` worse than ``suggested``, when the hand shows one and the
    suggestion's reason ``said`` does not already: a knock with more deadwood than a legal one,
    a discard that feeds the next seat, a discard that leaves more deadwood. None when only the
    guessed deals tell them apart."""
    if isinstance(chosen, Knock):
        best = min((a for a in view.legal if isinstance(a, Knock)),
                   key=lambda a: deadwood(view.hand_mask & ~a.card.mask))
        mine, least = (deadwood(view.hand_mask & ~k.card.mask) for k in (chosen, best))
        if least < mine:
            verb = "Go gin" if least == 0 else f"Knock with {least}"
            return (f"{verb}, not {mine}: discarding the {short(best.card)} leaves {least} "
                    f"deadwood where the {short(chosen.card)} left {mine}.")
        return None
    if not isinstance(chosen, Discard) or not isinstance(suggested, (Discard, Knock)):
        return None
    fact = feeds(view, worlds, chosen.card, names)
    if fact is not None and fact not in said and feeds(view, worlds, suggested.card, names) is None:
        return f"The {short(chosen.card)} {fact}; the {short(suggested.card)} feeds nothing you can see."
    mine, better = (deadwood(view.hand_mask & ~c.mask) for c in (chosen.card, suggested.card))
    if better < mine:
        return (f"The {short(chosen.card)} left {mine} deadwood where the "
                f"{short(suggested.card)} leaves {better}.")
    return None
