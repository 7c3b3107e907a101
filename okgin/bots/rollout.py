"""Fast play-outs of a hand whose every card is placed (a guess), for the `hard` player.

A ``World`` holds masks and card indices only; every seat plays the quick policy of the
`simple` baseline (take a discard that melds and lowers the deadwood, discard the
least-deadwood card, knock as soon as the limit allows), except that a seat may knock the way
`normal` does (``Table.patient``: with less deadwood as the others draw) and one seat may play
for gin (``Table.gin_seeker``). A stock run down to two ends the hand void.

``play_move`` plays one move of the seat to act and the hand after it as the rules play it:
a pass at the upcard offer gives the next seats the offer, then the non-dealer draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.knowledge import completers
from okgin.bots.memo import deadwood, discard_without
from okgin.bots.normal import patient_limit
from okgin.cards import mask_of
from okgin.hand import STOCK_FLOOR, Phase
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
    draws: list[int] = field(default_factory=list)
    """Per seat: its draws and takes this hand (what a patient seat's knock rule reads);
    empty when nobody has drawn."""

    def copy(self) -> World:
        return World(self.hands[:], self.stock[:], self.pile[:], self.draws[:])


@dataclass(frozen=True, slots=True)
class Table:
    """What a play-out needs to know of the hand's rules."""

    rules: Rules
    knock_limit: int
    multiplier: int
    gin_seeker: int = -1
    """A seat that plays for gin: it knocks only with gin until the stock runs low (when a
    void hand is near), where every other seat knocks as soon as it may. -1: none."""
    patient: int = 0
    """Seats (one bit each) that knock as `normal` does: up to the limit early on, with one
    point less for every draw of the others' beyond three (``patient_limit``), gin always,
    and as soon as they may when the stock runs low."""

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
    if left <= knock_limit(table, world, seat):
        return knock_points(table, world.hands, seat, card)
    world.hands[seat] &= ~(1 << card)
    world.pile.append(card)
    if len(world.stock) <= STOCK_FLOOR:
        return (0,) * table.players
    return None


def knock_limit(table: Table, world: World, seat: int) -> int:
    """The most deadwood ``seat`` knocks with now, by its policy in the play-outs."""
    limit = table.knock_limit
    if len(world.stock) <= STOCK_FLOOR + table.players:
        return limit  # a void hand is near: every seat takes what a knock gives
    if seat == table.gin_seeker:
        return 0
    if table.patient >> seat & 1:
        draws = world.draws or [0] * table.players
        turns = max(d for s, d in enumerate(draws) if s != seat)
        return min(limit, patient_limit(limit, turns, table.multiplier, table.players))
    return limit


def _count_draw(world: World, seat: int) -> None:
    if world.draws:
        world.draws[seat] += 1


def wants(hand: int, top: int) -> bool:
    """Whether the quick policy takes ``top``: it melds and lowers the deadwood kept."""
    if not completers(hand) >> top & 1:
        return False
    after, _ = discard_without(hand | 1 << top, top)
    return after < deadwood(hand)


def take_turn(table: Table, world: World, seat: int) -> tuple[int, ...] | None:
    """``seat`` takes the top discard and finishes its turn (None: the hand goes on)."""
    top = world.pile.pop()
    world.hands[seat] |= 1 << top
    _count_draw(world, seat)
    return finish_turn(table, world, seat, top)


def stock_turn(table: Table, world: World, seat: int) -> tuple[int, ...] | None:
    """``seat`` draws from the stock and finishes its turn (None: the hand goes on)."""
    world.hands[seat] |= 1 << world.stock.pop()
    _count_draw(world, seat)
    return finish_turn(table, world, seat, -1)


def draw_turn(table: Table, world: World, seat: int) -> tuple[int, ...] | None:
    """``seat`` draws (or takes the top discard when that lowers its deadwood), then
    finishes its turn. Returns the points when the hand ends, else None."""
    if world.pile and wants(world.hands[seat], world.pile[-1]):
        return take_turn(table, world, seat)
    return stock_turn(table, world, seat)


def play_out(table: Table, world: World, seat: int, limit: int = 200) -> tuple[int, ...]:
    """Play the hand from ``seat``'s draw to its end. Returns each seat's points."""
    for _ in range(limit):
        points = draw_turn(table, world, seat)
        if points is not None:
            return points
        seat = (seat + 1) % table.players
    return (0,) * table.players


def play_move(
    table: Table, world: World, seat: int, action: PlayerAction, phase: Phase, dealer: int
) -> tuple[int, ...]:
    """Apply ``seat``'s ``action`` (made in ``phase``, ``dealer`` dealing) in ``world`` and
    play the hand out as the rules play it. Returns each seat's points."""
    following = (seat + 1) % table.players
    if isinstance(action, Knock):
        return knock_points(table, world.hands, seat, action.card.index)
    if isinstance(action, BigGin):
        dead = [0 if s == seat else deadwood(hand) for s, hand in enumerate(world.hands)]
        return score_hand(table.rules, Outcome.BIG_GIN, seat, dead, table.multiplier).points
    if isinstance(action, Discard):
        world.hands[seat] &= ~action.card.mask
        world.pile.append(action.card.index)
        if len(world.stock) <= STOCK_FLOOR:
            return (0,) * table.players
        return play_out(table, world, following)
    if isinstance(action, Pass):
        if phase == Phase.LAST_CHANCE:
            return (0,) * table.players
        return _rest_of_offer(table, world, seat, dealer)
    if not isinstance(action, (Take, Draw)):
        raise ValueError(f"no play-out for {action}")
    turn = take_turn if isinstance(action, Take) else stock_turn
    ended = turn(table, world, seat)
    return ended if ended is not None else play_out(table, world, following)


def _rest_of_offer(table: Table, world: World, seat: int, dealer: int) -> tuple[int, ...]:
    """After ``seat`` passed the upcard: the seats after it up to the dealer are offered it
    in turn (each takes it by the quick policy), and when all pass the non-dealer draws."""
    offered = seat
    while offered != dealer:
        offered = (offered + 1) % table.players
        if wants(world.hands[offered], world.pile[-1]):
            ended = take_turn(table, world, offered)
            following = (offered + 1) % table.players
            return ended if ended is not None else play_out(table, world, following)
    first = (dealer + 1) % table.players
    ended = stock_turn(table, world, first)
    return ended if ended is not None else play_out(table, world, (first + 1) % table.players)


def utility(points: tuple[int, ...], seat: int) -> float:
    """Points won by ``seat`` less the mean of the others' (penalty scoring included): what a
    look-ahead maximises."""
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / len(others)
