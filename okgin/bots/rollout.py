"""Fast play-outs of a hand whose every card is placed (a guess), for the `hard` player.

A ``World`` holds masks and card indices only; every seat plays the quick policy of the
`simple` baseline (take a discard that melds and lowers the deadwood, discard the
least-deadwood card, knock as soon as the limit allows), except that one seat may play for
gin (``Table.gin_seeker``). A stock run down to two ends the hand void.
"""

from __future__ import annotations

from dataclasses import dataclass

from okgin.bots.knowledge import completers
from okgin.bots.memo import deadwood, discard_without
from okgin.cards import mask_of
from okgin.hand import STOCK_FLOOR
from okgin.layoffs import best_layoffs
from okgin.melds import arrangement_of_mask
from okgin.rules import Rules
from okgin.scoring import Outcome, score_hand


@dataclass(slots=True)
class World:
    """One guess at the whole hand: every seat's cards, the stock and the pile (top last)."""

    hands: list[int]
    stock: list[int]
    pile: list[int]

    def copy(self) -> World:
        return World(self.hands[:], self.stock[:], self.pile[:])


@dataclass(frozen=True, slots=True)
class Table:
    """What a play-out needs to know of the hand's rules."""

    rules: Rules
    knock_limit: int
    multiplier: int
    gin_seeker: int = -1
    """A seat that plays for gin: it knocks only with gin until the stock runs low (when a
    void hand is near), where every other seat knocks as soon as it may. -1: none."""

    @property
    def players(self) -> int:
        return self.rules.players


def knock_points(table: Table, hands: list[int], knocker: int, card: int) -> tuple[int, ...]:
    """Each seat's points when ``knocker`` knocks with ``card`` (its hand still holds it)."""
    rest = hands[knocker] & ~(1 << card)
    shown = arrangement_of_mask(rest)
    melds = [mask_of(meld) for meld in shown.melds]
    left = shown.deadwood
    dead = [0] * table.players
    dead[knocker] = left
    seat = (knocker + 1) % table.players
    while seat != knocker:
        if left == 0:
            dead[seat] = deadwood(hands[seat])
        else:
            plan = best_layoffs(hands[seat], melds)
            melds = list(plan.melds)
            dead[seat] = plan.deadwood
        seat = (seat + 1) % table.players
    ending = Outcome.GIN if left == 0 else Outcome.KNOCK
    return score_hand(table.rules, ending, knocker, dead, table.multiplier).points


def finish_turn(table: Table, world: World, seat: int, taken: int) -> tuple[int, ...] | None:
    """``seat`` (holding one card too many) discards or knocks by the quick policy.

    Returns the points when the hand ends (a knock, or a void stock), else None.
    """
    left, card = discard_without(world.hands[seat], taken)
    limit = table.knock_limit
    if seat == table.gin_seeker and len(world.stock) > STOCK_FLOOR + table.players:
        limit = 0
    if left <= limit:
        return knock_points(table, world.hands, seat, card)
    world.hands[seat] &= ~(1 << card)
    world.pile.append(card)
    if len(world.stock) <= STOCK_FLOOR:
        return (0,) * table.players
    return None


def draw_turn(table: Table, world: World, seat: int) -> tuple[int, ...] | None:
    """``seat`` draws (or takes the top discard when that lowers its deadwood), then
    finishes its turn. Returns the points when the hand ends, else None."""
    hand = world.hands[seat]
    if world.pile and completers(hand) >> world.pile[-1] & 1:
        top = world.pile[-1]
        after, _ = discard_without(hand | 1 << top, top)
        if after < deadwood(hand):
            world.pile.pop()
            world.hands[seat] = hand | 1 << top
            return finish_turn(table, world, seat, top)
    world.hands[seat] = hand | 1 << world.stock.pop()
    return finish_turn(table, world, seat, -1)


def play_out(table: Table, world: World, seat: int, limit: int = 200) -> tuple[int, ...]:
    """Play the hand from ``seat``'s draw to its end. Returns each seat's points."""
    for _ in range(limit):
        points = draw_turn(table, world, seat)
        if points is not None:
            return points
        seat = (seat + 1) % table.players
    return (0,) * table.players


def utility(points: tuple[int, ...], seat: int) -> float:
    """Points won by ``seat`` less the mean of the others' (penalty scoring included): what a
    look-ahead maximises."""
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / len(others)
