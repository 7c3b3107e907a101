"""The play-out model `hard` and the coach share: moves played out as the rules play them, and
seats that knock the way their level knocks."""

from __future__ import annotations

import random

from okgin.actions import Draw, Pass, Take
from okgin.bots.knowledge import completers
from okgin.bots.rollout import Table, World, knock_limit, melds_with, play_move, play_move_each
from okgin.cards import DECK, mask_of, parse_cards
from okgin.hand import STOCK_FLOOR, Phase
from okgin.rules import preset

GIN_WAITING = "3C 4C 5C 7D 7H 7C 9H TH JH 2H"
"""Nine cards melded and the 2♥: the 8♥ or the Q♥ makes gin."""
LOOSE = "AD 2S 4D 6S 8C TC QD JS QC 5H"
"""A hand the K♠ and the 8♥ do nothing for."""


def _mask(text: str) -> int:
    return mask_of(parse_cards(text))


def _world(hands: tuple[str, str], upcard: str, stock_top: str, stock: int) -> World:
    """A world whose stock holds ``stock`` cards with ``stock_top`` drawn first."""
    used = _mask(" ".join(hands)) | _mask(upcard) | _mask(stock_top)
    rest = [c.index for c in DECK if not used >> c.index & 1][: stock - 1]
    top = parse_cards(stock_top)[0].index
    return World([_mask(hands[0]), _mask(hands[1])], [*rest, top], [parse_cards(upcard)[0].index])


def test_after_the_non_dealer_passes_the_dealer_is_offered_then_the_non_dealer_draws() -> None:
    # Seat 1 deals. Seat 0 passes the K♠; seat 1 does not want it and passes; seat 0 draws the
    # 8♥ from the stock and goes gin (a model that let the dealer draw first handed it the 8♥).
    table = Table(preset("oklahoma"), 10, 2)
    world = _world((GIN_WAITING, LOOSE), "KS", "8H", 20)
    points = play_move(table, world, 0, Pass(0), Phase.OFFER, dealer=1)
    assert points == (2 * (25 + 66), 0)  # gin, doubled by the spade: 25 and seat 1's 66


def test_after_the_dealer_passes_the_non_dealer_must_draw_from_the_stock() -> None:
    # Seat 0 deals and passes the 8♥ (seat 1 passed it first). Seat 1 would go gin with the 8♥
    # but may only draw: the K♦. With one card to spare in the stock and gin only (an ace
    # upcard), seat 1 cannot knock and the hand is void.
    table = Table(preset("oklahoma"), 0, 1)
    world = _world((LOOSE, GIN_WAITING), "8H", "KD", STOCK_FLOOR + 1)
    assert play_move(table, world, 0, Pass(0), Phase.OFFER, dealer=0) == (0, 0)


def test_a_patient_seat_knocks_with_less_as_the_others_draw() -> None:
    table = Table(preset("oklahoma"), 10, 1, patient=0b10)
    world = World([0, 0], list(range(20)), [], draws=[9, 9])
    assert knock_limit(table, world, 0) == 10  # seat 0 knocks as soon as it may
    assert knock_limit(table, world, 1) == 4  # `normal`'s rule: 10 less (9 - 3) draws
    doubled = Table(preset("oklahoma"), 10, 2, patient=0b10)
    assert knock_limit(doubled, world, 1) == 3  # an undercut would cost twice as much
    world.stock = world.stock[: STOCK_FLOOR + 2]
    assert knock_limit(table, world, 1) == 10  # the last turns: take what a knock gives


def test_one_pass_for_several_tables_gives_each_table_its_own_play_out() -> None:
    # The coach plays a guess out once for its three ways of playing on (play_move_each);
    # each table's points must be those of playing the guess out under that table alone.
    rng = random.Random(24)
    for players in (2, 3, 4):
        rules = preset("oklahoma") if players == 2 else preset("oklahoma-multiplayer").replace(
            players=players
        )
        each = 10 if players == 2 else 7
        for _ in range(150):
            cards = list(range(52))
            rng.shuffle(cards)
            hands = [sum(1 << c for c in cards[s * each:(s + 1) * each]) for s in range(players)]
            rest = cards[players * each:]
            world = World(hands, rest[1:], rest[:1], [rng.randrange(4) for _ in range(players)])
            seat, limit = rng.randrange(players), rng.choice((1, 5, 10))
            tables = (
                Table(rules, limit, 1, patient=0b1110),
                Table(rules, limit, 1, patient=0b1111),
                Table(rules, limit, 1, gin_seeker=seat, patient=0b1110),
            )
            for action in (Draw(seat), Take(seat), Pass(seat)):
                alone = [play_move(t, world.copy(), seat, action, Phase.DRAW, 0) for t in tables]
                assert play_move_each(tables, world.copy(), seat, action, Phase.DRAW, 0) == alone


def test_the_quick_policy_sees_a_meld_for_one_card_as_completers_does() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        hand = sum(1 << c for c in rng.sample(range(52), rng.choice((3, 7, 10, 11))))
        card = rng.choice([c for c in range(52) if not hand >> c & 1])
        assert melds_with(hand, card) == bool(completers(hand) >> card & 1)
