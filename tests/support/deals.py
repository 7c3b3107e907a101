"""Readable hand-written deals and records for the tests (the one place that builds them)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from okgin.actions import Action, parse_action
from okgin.cards import DECK, Card, parse_card, parse_cards
from okgin.hand import Deal, Hand
from okgin.match import Match
from okgin.record import FORMAT, deal_to_json, replay, report
from okgin.rules import Rules


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def deal(
    hands: Sequence[str], upcard: str, stock_top: str = "", at: dict[int, str] | None = None
) -> Deal:
    """A deal from each seat's cards (one string a seat), the upcard and the top of the stock.

    The stock is ``stock_top`` (top first) followed by every card not yet named, in deck order;
    ``at`` puts named cards at given places in the stock (0 is the top).
    """
    dealt = [tuple(parse_cards(h)) for h in hands]
    up = parse_card(upcard)
    top = parse_cards(stock_top)
    placed = {index: parse_card(text) for index, text in (at or {}).items()}
    named = [c for h in dealt for c in h] + [up, *top, *placed.values()]
    assert len(set(named)) == len(named), f"a card is named twice in {named}"
    stock = top + [c for c in DECK if c not in set(named)]
    for index in sorted(placed):
        stock.insert(index, placed[index])
    return Deal(tuple(dealt), up, tuple(stock))


def play(
    rules: Rules, dealer: int, the_deal: Deal, actions: Sequence[str | Action]
) -> Hand:
    """A hand with ``actions`` (notation or values) applied in order."""
    hand = Hand(rules, dealer, the_deal)
    for action in actions:
        hand.apply(parse_action(action) if isinstance(action, str) else action)
    return hand


def hand_entry(dealer: int, the_deal: Deal, actions: Sequence[str]) -> dict[str, Any]:
    return {"dealer": dealer, "deal": deal_to_json(the_deal), "actions": list(actions)}


def record(
    hands: Sequence[dict[str, Any]],
    rules: str | dict[str, Any] = "oklahoma",
    players: Sequence[str] | None = None,
) -> dict[str, Any]:
    """An "okgin/1" record; ``players`` defaults to as many names as the rules seat."""
    if players is None:
        count = Rules.from_json(rules).players
        players = ["Ann", "Bob", "Cy", "Di"][:count]
    return {"format": FORMAT, "rules": rules, "players": list(players), "hands": list(hands)}


def replayed(rec: dict[str, Any]) -> dict[str, Any]:
    """``report(replay(record))``, after a trip through JSON (as a file would take)."""
    match, _ = replay(json.loads(json.dumps(rec)))
    return report(match)


def replay_match(rec: dict[str, Any]) -> Match:
    return replay(json.loads(json.dumps(rec)))[0]


def opening(dealer: int, players: int = 2) -> list[str]:
    """Everyone passes the upcard, in offer order (the seat after the dealer first, dealer last)."""
    return [f"{(dealer + i) % players} pass" for i in range(1, players + 1)]


def draw_and_discard(the_deal: Deal, first: int, start: int, count: int, players: int = 2) -> list[str]:
    """``count`` turns from seat ``first``, each drawing stock card ``start + i`` and discarding it.

    Hands do not change; only the stock runs down. ``start`` is the index in ``the_deal.stock``.
    """
    actions = []
    for i in range(count):
        seat = (first + i) % players
        card = the_deal.stock[start + i]
        actions += [f"{seat} draw", f"{seat} discard {card}"]
    return actions


def win_hand(
    dealer: int, winner: int, winner_cards: str, loser_cards: str, upcard: str,
    knock: str, discard: str | None = None, spare: str | None = None,
) -> dict[str, Any]:
    """A two-player hand in which ``winner`` draws ``knock`` from the stock and knocks with it.

    Both pass the upcard. When the winner deals, the non-dealer first draws ``spare`` and
    throws it back, so neither hand changes. ``discard`` is the card knocked (default: the
    card drawn).
    """
    loser = 1 - winner
    hands = [winner_cards, loser_cards] if winner == 0 else [loser_cards, winner_cards]
    actions = opening(dealer)
    if winner == dealer:
        assert spare is not None, "the non-dealer needs a spare card to draw and throw back"
        top = f"{spare} {knock}"
        actions += [f"{loser} draw", f"{loser} discard {spare}"]
    else:
        top = knock
    actions += [f"{winner} draw", f"{winner} knock {discard or knock}"]
    return hand_entry(dealer, deal(hands, upcard, top), actions)


# Two-player hands from the worked examples of our rules (seed 000). The knocker's melds are
# 2C-3C-4C, 7D-7H-7S and TH-JH-QH; none of the defenders below holds a card that lays off on them.
KNOCKER_6 = "2C 3C 4C 7D 7H 7S TH JH QH 6C"
"""Knocks with 6 deadwood (the 6C) after drawing and discarding any card."""
KNOCKER_9 = "2C 3C 4C 7D 7H 7S TH JH QH 9S"
GIN_10 = "2C 3C 4C 7D 7H 7S TH JH QH KH"
"""Already gin: draws any card and knocks it for gin (or draws 5C for Big Gin)."""
DEFENDER_14 = "4D 5D 6D 8S 8D 8H 5S 2D 3H 4H"
DEFENDER_4 = "4D 5D 6D 8S 8D 8H JC QC KC 4S"
DEFENDER_6 = "4D 5D 6D 8S 8D 8H JC QC KC 6H"
DEFENDER_18 = "4D 5D 6D 8S 8D 8H 5S 2D 2H 9C"
DEFENDER_21 = "4D 5D 6D 8S 8D 8H 9S 2D 3H 7C"
DEFENDER_30 = "4D 5D 6D 8S 8D 8H KS QD 9C AH"
