"""okgin: Oklahoma Gin, done properly. The engine: cards, melds, rules, hands, matches, records."""

from okgin.actions import Action, BigGin, Discard, Draw, Knock, Pass, Reshuffle, Take, parse_action
from okgin.cards import DECK, Card, Rank, Suit, parse_card, parse_cards
from okgin.errors import IllegalActionError, NotationError, OkginError, RecordError, RulesError
from okgin.hand import Deal, Hand, HandResult, Phase
from okgin.match import FinalTally, Match
from okgin.rules import PRESETS, Rules, preset
from okgin.scoring import Outcome
from okgin.view import SeatView, seat_view

__all__ = [
    "DECK", "PRESETS", "Action", "BigGin", "Card", "Deal", "Discard", "Draw", "FinalTally",
    "Hand", "HandResult", "IllegalActionError", "Knock", "Match", "NotationError", "OkginError",
    "Outcome", "Pass", "Phase", "Rank", "RecordError", "Reshuffle", "Rules", "RulesError",
    "SeatView", "Suit", "Take", "parse_action", "parse_card", "parse_cards", "preset", "seat_view",
]
