"""Game records (format "okgin/1", see docs/records.md): load, dump, replay, report."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from okgin.actions import parse_action
from okgin.cards import Card, parse_card
from okgin.errors import OkginError, RecordError
from okgin.hand import Deal, Hand
from okgin.match import Match
from okgin.rules import Rules

FORMAT = "okgin/1"


def deal_to_json(deal: Deal) -> dict[str, Any]:
    return {
        "hands": [[str(c) for c in cards] for cards in deal.hands],
        "upcard": str(deal.upcard),
        "stock": [str(c) for c in deal.stock],
    }


def deal_from_json(data: object) -> Deal:
    """Read a deal. Raises RecordError naming the bad field."""
    if not isinstance(data, Mapping):
        raise RecordError("deal must be an object with hands, upcard and stock")
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("deal.hands must be a list of lists of cards")
    try:
        return Deal(
            hands=tuple(tuple(_cards(h)) for h in hands),
            upcard=parse_card(_text(data.get("upcard"), "deal.upcard")),
            stock=tuple(_cards(data.get("stock"))),
        )
    except OkginError as error:
        raise RecordError(f"deal: {error}") from None


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{name} must be a card such as '6S'")
    return value


def _cards(values: object) -> list[Card]:
    if not isinstance(values, list):
        raise RecordError("cards must be given as a list such as ['7S', 'TD']")
    return [parse_card(_text(v, "a card")) for v in values]


def record_head(rules: Rules, players: Sequence[str]) -> dict[str, Any]:
    """A record with no hands yet: the format, the rules and the players."""
    return {"format": FORMAT, "rules": rules.to_json(), "players": list(players), "hands": []}


def match_to_record(match: Match, players: Sequence[str]) -> dict[str, Any]:
    """The record of a match so far (finished hands and the one in progress)."""
    return {
        **record_head(match.rules, players),
        "hands": [
            {
                "dealer": hand.dealer,
                "deal": deal_to_json(hand.deal),
                "actions": [str(a) for a in hand.actions],
            }
            for hand in match.hands
        ],
    }


def dumps(record: Mapping[str, Any]) -> str:
    """A record as JSON text, one hand's actions per line for readable diffs."""
    return json.dumps(record, ensure_ascii=False, indent=1)


def loads(text: str) -> dict[str, Any]:
    """Parse JSON text as a record object. Raises RecordError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise RecordError("not a record: arrays or objects nested too deeply") from None
    except ValueError:  # the only other: Python refuses integers of more than 4,300 digits
        raise RecordError("not a record: a number has more than 4,300 digits") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def replay(record: Mapping[str, Any]) -> tuple[Match, list[str]]:
    """Replay a record; return the match and the player names.

    Raises RecordError naming the hand, the action and the reason for anything malformed
    or illegal.
    """
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    if "rules" not in record:
        raise RecordError("rules is missing: a preset name or an object of rule fields")
    try:
        rules = Rules.from_json(record["rules"])
    except OkginError as error:
        raise RecordError(f"rules: {error}") from None
    players = record.get("players")
    if (
        not isinstance(players, list)
        or len(players) != rules.players
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(f"players must be a list of {rules.players} names")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("hands must be a list")
    match: Match | None = None
    for number, data in enumerate(hands, start=1):
        if not isinstance(data, Mapping):
            raise RecordError(f"hand {number}: must be an object")
        dealer = data.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError(f"hand {number}: dealer must be a seat number")
        if match is None:
            match = _new_match(rules, dealer, number)
        _replay_hand(match, data, dealer, number, last=number == len(hands))
    return match or Match(rules), players


def _new_match(rules: Rules, dealer: int, number: int) -> Match:
    try:
        return Match(rules, first_dealer=dealer)
    except OkginError as error:
        raise RecordError(f"hand {number}: {error}") from None


def _replay_hand(
    match: Match, data: Mapping[str, Any], dealer: int, number: int, last: bool
) -> None:
    try:
        hand: Hand = match.start_hand(deal_from_json(data.get("deal")), dealer)
    except OkginError as error:
        raise RecordError(f"hand {number}: {error}") from None
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"hand {number}: actions must be a list")
    for index, text in enumerate(actions, start=1):
        try:
            match.apply(parse_action(text))
        except OkginError as error:
            raise RecordError(f"hand {number}, action {index} {text!r}: {error}") from None
    if not hand.over and not last:
        raise RecordError(f"hand {number}: ends before the hand is over, yet more hands follow")


def replay_text(text: str) -> tuple[Match, list[str]]:
    """Parse and replay a record's JSON text."""
    return replay(loads(text))


def report(match: Match) -> dict[str, Any]:
    """What ``okgin replay --json`` prints: every hand's result, the totals, the final."""
    hands = []
    for hand in match.hands:
        result = hand.result
        hands.append({
            "outcome": str(result.outcome) if result else None,
            "knocker": result.knocker if result else None,
            "winner": result.winner if result else None,
            "knock_limit": hand.knock_limit,
            "multiplier": hand.multiplier,
            "deadwood": list(result.deadwood) if result else None,
            "layoffs": [[seat, *map(str, cards)] for seat, cards in result.layoffs]
            if result else [],
            "points": list(result.points) if result else None,
        })
    final = None
    if match.final is not None:
        final = {
            "winner": match.final.winner,
            "scores": list(match.final.scores),
            "bonuses": list(match.final.bonuses),
        }
    return {"hands": hands, "totals": list(match.totals), "final": final}
