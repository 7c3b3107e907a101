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

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.memo import LIMIT, deadwood, discard_without
from okgin.bots.normal import patient_limit
from okgin.cards import mask_of
from okgin.hand import STOCK_FLOOR, Phase
from okgin.layoffs import best_layoffs
from okgin.melds import arrangement_of_mask
from okgin.rules import Rules
from okgin.scoring import Outcome, score_hand

Points = tuple[int, ...]
"""Each seat's points at the end of a play-out."""


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


def knock_points(table: Table, hands: list[int], knocker: int, card: int) -> Points:
    """Each seat's points when ``knocker`` knocks with ``card`` (its hand still holds it)."""
    shown, left = _shown(hands[knocker] & ~(1 << card))
    melds = list(shown)
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
    return _points(table.rules, ending, knocker, tuple(dead), table.multiplier)


_SHOWN: dict[int, tuple[tuple[int, ...], int]] = {}


def _shown(hand: int) -> tuple[tuple[int, ...], int]:
    """The knocker's melds (as masks) and deadwood for ``hand``, remembered by mask as
    ``memo`` remembers the solver's other answers (the play-outs meet the same knocks often)."""
    known = _SHOWN.get(hand)
    if known is None:
        if len(_SHOWN) >= LIMIT:
            _SHOWN.clear()
        shown = arrangement_of_mask(hand)
        known = _SHOWN[hand] = (tuple(mask_of(meld) for meld in shown.melds), shown.deadwood)
    return known


@lru_cache(maxsize=1 << 14)
def _points(rules: Rules, ending: Outcome, knocker: int, dead: tuple[int, ...], multiplier: int) -> Points:
    """``score_hand``'s points alone (its score sheet's words are no use to a play-out),
    remembered: few endings recur across thousands of play-outs."""
    return score_hand(rules, ending, knocker, dead, multiplier).points


def finish_turn(table: Table, world: World, seat: int, taken: int) -> Points | None:
    """``seat`` (holding one card too many) discards or knocks by the quick policy.

    Returns the points when the hand ends (a knock, or a void stock), else None.
    """
    ends: list[Points] = [(0,) * table.players]
    going = [0]
    return None if _finish_each((table,), world, seat, taken, going, ends) else ends[0]


def _finish_each(
    tables: Sequence[Table], world: World, seat: int, taken: int, going: list[int], ends: list[Points]
) -> bool:
    """``seat`` finishes its turn under each of the tables numbered in ``going``: where its
    policy knocks, that table's points go in ``ends`` and it leaves ``going``; the others
    share the discard. Returns whether the hand goes on for the tables still ``going``."""
    left, card = discard_without(world.hands[seat], taken)
    # No policy knocks above the hand's limit (most turns): only then is each table asked.
    knocking = [i for i in going if left <= knock_limit(tables[i], world, seat)] if (
        left <= tables[0].knock_limit) else []
    if knocking:
        points = knock_points(tables[0], world.hands, seat, card)
        for i in knocking:
            ends[i] = points
            going.remove(i)
        if not going:
            return False
    world.hands[seat] &= ~(1 << card)
    world.pile.append(card)
    return len(world.stock) > STOCK_FLOOR


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


def _partners(card: int) -> tuple[int, tuple[int, ...]]:
    """The cards of ``card``'s rank in the other suits, and each pair of cards of its suit
    that makes a run with it: what ``completers`` looks at for this one card."""
    suit, rank = divmod(card, 13)
    same = sum(1 << (13 * other + rank) for other in range(4) if other != suit)
    pairs = tuple(
        1 << (13 * suit + rank + a) | 1 << (13 * suit + rank + b)
        for a, b in ((1, 2), (-2, -1), (-1, 1)) if 0 <= rank + a <= 12 and 0 <= rank + b <= 12
    )
    return same, pairs


PARTNERS = tuple(_partners(card) for card in range(52))


def melds_with(hand: int, card: int) -> bool:
    """Whether ``card`` (not in ``hand``) would form or extend a meld with two cards of
    ``hand``: ``completers(hand) >> card & 1`` for one card, without the other 51."""
    same, pairs = PARTNERS[card]
    return (hand & same).bit_count() >= 2 or any(hand & pair == pair for pair in pairs)


def wants(hand: int, top: int) -> bool:
    """Whether the quick policy takes ``top``: it melds and lowers the deadwood kept."""
    if hand >> top & 1 or not melds_with(hand, top):
        return False
    after, _ = discard_without(hand | 1 << top, top)
    return after < deadwood(hand)


def _take(world: World, seat: int) -> int:
    """``seat`` takes the top discard; returns the card (the one it may not discard)."""
    top = world.pile.pop()
    world.hands[seat] |= 1 << top
    if world.draws:
        world.draws[seat] += 1
    return top


def _draw(world: World, seat: int) -> int:
    """``seat`` draws from the stock; returns -1 (no card it may not discard)."""
    world.hands[seat] |= 1 << world.stock.pop()
    if world.draws:
        world.draws[seat] += 1
    return -1


def _play_out_each(
    tables: Sequence[Table], world: World, seat: int, going: list[int], ends: list[Points],
    limit: int = 200,
) -> list[Points]:
    """Play the hand from ``seat``'s draw to its end under each table still ``going``: each
    seat draws (or takes the top discard when that lowers its deadwood) and finishes its turn.
    The tables share every turn up to the one where their policies part (a knock under one,
    playing on under another). Returns each table's points (a void hand after ``limit``)."""
    for _ in range(limit):
        top = world.pile[-1] if world.pile else -1
        taken = _take(world, seat) if top >= 0 and wants(world.hands[seat], top) else _draw(world, seat)
        if not _finish_each(tables, world, seat, taken, going, ends):
            return ends
        seat = (seat + 1) % tables[0].players
    return ends


def play_move(
    table: Table, world: World, seat: int, action: PlayerAction, phase: Phase, dealer: int
) -> Points:
    """Apply ``seat``'s ``action`` (made in ``phase``, ``dealer`` dealing) in ``world`` and
    play the hand out as the rules play it. Returns each seat's points."""
    return play_move_each((table,), world, seat, action, phase, dealer)[0]


def play_move_each(
    tables: Sequence[Table], world: World, seat: int, action: PlayerAction, phase: Phase, dealer: int
) -> list[Points]:
    """``play_move`` under each of ``tables`` (the same rules, limit and multiplier; they
    differ in who plays for gin and who knocks as `normal` does), in one pass over ``world``:
    a turn the tables play alike is played once. Each table's points are exactly those
    ``play_move`` gives under it alone (the play-outs draw no random number)."""
    table = tables[0]
    void: Points = (0,) * table.players
    ends = [void] * len(tables)
    going = list(range(len(tables)))
    following = (seat + 1) % table.players
    if isinstance(action, Knock):
        return [knock_points(table, world.hands, seat, action.card.index)] * len(tables)
    if isinstance(action, BigGin):
        dead = [0 if s == seat else deadwood(hand) for s, hand in enumerate(world.hands)]
        return [score_hand(table.rules, Outcome.BIG_GIN, seat, dead, table.multiplier).points] * len(tables)
    if isinstance(action, Discard):
        world.hands[seat] &= ~action.card.mask
        world.pile.append(action.card.index)
        if len(world.stock) <= STOCK_FLOOR:
            return ends
        return _play_out_each(tables, world, following, going, ends)
    if isinstance(action, Pass):
        if phase == Phase.LAST_CHANCE:
            return ends
        return _rest_of_offer(tables, world, seat, dealer, going, ends)
    if not isinstance(action, (Take, Draw)):
        raise ValueError(f"no play-out for {action}")
    taken = _take(world, seat) if isinstance(action, Take) else _draw(world, seat)
    if not _finish_each(tables, world, seat, taken, going, ends):
        return ends
    return _play_out_each(tables, world, following, going, ends)


def _rest_of_offer(
    tables: Sequence[Table], world: World, seat: int, dealer: int, going: list[int],
    ends: list[Points],
) -> list[Points]:
    """After ``seat`` passed the upcard: the seats after it up to the dealer are offered it
    in turn (each takes it by the quick policy), and when all pass the non-dealer draws."""
    players = tables[0].players
    offered = seat
    while offered != dealer:
        offered = (offered + 1) % players
        if wants(world.hands[offered], world.pile[-1]):
            taken = _take(world, offered)
            if not _finish_each(tables, world, offered, taken, going, ends):
                return ends
            return _play_out_each(tables, world, (offered + 1) % players, going, ends)
    first = (dealer + 1) % players
    if not _finish_each(tables, world, first, _draw(world, first), going, ends):
        return ends
    return _play_out_each(tables, world, (first + 1) % players, going, ends)


def utility(points: tuple[int, ...], seat: int) -> float:
    """Points won by ``seat`` less the mean of the others' (penalty scoring included): what a
    look-ahead maximises."""
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / len(others)
