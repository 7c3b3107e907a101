"""One hand as a state machine: the deal, legal actions, applying them, and the result.

Legality lives in one place: ``verify`` raises IllegalActionError saying why, ``can`` asks,
``apply`` verifies then changes the state. Chance is explicit: the deal is given whole, and
a reshuffle of the discard pile is a ``Reshuffle`` action (see ``reshuffle_action``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from okgin.actions import Action, BigGin, Discard, Draw, Knock, Pass, PlayerAction, Reshuffle, Take
from okgin.cards import DECK, Card, cards_of_mask, mask_of, shuffled_deck
from okgin.errors import IllegalActionError, RecordError
from okgin.layoffs import best_layoffs
from okgin.melds import (
    Arrangement,
    arrangement_of_mask,
    deadwood_of_mask,
    discard_deadwood_of_mask,
    meld_kind_of_mask,
)
from okgin.rules import Rules
from okgin.scoring import HandScore, Outcome, Term, score_hand, void_score

STOCK_FLOOR = 2
"""The stock is never drawn below two cards: the hand ends (or, once, the pile is reshuffled)."""


class Phase(StrEnum):
    OFFER = "offer"
    """The first upcard is offered to ``to_act``: take it or pass."""
    DRAW = "draw"
    """``to_act`` draws from the stock or takes the top discard."""
    DISCARD = "discard"
    """``to_act`` holds one card more than a hand and discards, knocks or goes Big Gin."""
    LAST_CHANCE = "last-chance"
    """The stock is down to two: ``to_act`` may take the final discard to knock, or pass."""
    RESHUFFLE = "reshuffle"
    """Chance: the discard pile must become the new stock (a ``Reshuffle`` action)."""
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards as dealt: each seat's hand, the first upcard and the stock (top first)."""

    hands: tuple[tuple[Card, ...], ...]
    upcard: Card
    stock: tuple[Card, ...]

    @classmethod
    def shuffle(cls, rules: Rules, rng: random.Random) -> Deal:
        """A random deal for ``rules``, drawn from ``rng``."""
        deck = shuffled_deck(rng)
        size = rules.cards_each
        hands = tuple(tuple(deck[i * size:(i + 1) * size]) for i in range(rules.players))
        rest = deck[rules.players * size:]
        return cls(hands, rest[0], tuple(rest[1:]))

    def check(self, rules: Rules) -> None:
        """Raise RecordError unless this deal fits ``rules`` and holds each card once."""
        if len(self.hands) != rules.players:
            raise RecordError(f"the deal has {len(self.hands)} hands for {rules.players} players")
        for seat, cards in enumerate(self.hands):
            if len(cards) != rules.cards_each:
                raise RecordError(
                    f"seat {seat} is dealt {len(cards)} cards, the rules deal {rules.cards_each}"
                )
        every = [c for cards in self.hands for c in cards] + [self.upcard, *self.stock]
        if len(set(every)) != len(every):
            twice = sorted({c for c in every if every.count(c) > 1})
            raise RecordError(f"the deal holds {twice[0]} twice")
        if len(every) != len(DECK):
            raise RecordError(f"the deal holds {len(every)} cards, not 52")


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended. ``deadwood`` is after layoffs; ``shown`` each seat's final melds."""

    outcome: Outcome
    knocker: int | None
    winner: int | None
    knock_limit: int
    multiplier: int
    deadwood: tuple[int, ...]
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...]
    points: tuple[int, ...]
    boxes: tuple[int, ...]
    working: tuple[str | None, ...]
    terms: tuple[tuple[Term, ...] | None, ...]
    """Each term of each seat's ``working``, named (``okgin.scoring.Term``)."""
    shown: tuple[Arrangement, ...]
    knocker_melds: tuple[tuple[Card, ...], ...]
    """The knocker's melds with every laid-off card added (empty unless knocked)."""


class Hand:
    """One hand of Oklahoma Gin from the deal to its result.

    >>> hand = Hand(Rules(), dealer=1, deal=Deal.shuffle(Rules(), random.Random(7)))
    >>> [str(a) for a in hand.legal_actions()]
    ['0 pass', '0 take']
    """

    def __init__(self, rules: Rules, dealer: int, deal: Deal) -> None:
        deal.check(rules)
        if not 0 <= dealer < rules.players:
            raise RecordError(f"dealer {dealer} is not a seat of {rules.players} players")
        self.rules = rules
        self.dealer = dealer
        self.deal = deal
        self.knock_limit = rules.knock_limit_for(deal.upcard)
        self.multiplier = rules.multiplier_for(deal.upcard)
        self.phase = Phase.OFFER
        self.to_act: int | None = self.next_seat(dealer)
        self.actions: list[Action] = []
        self.public_actions: list[Action] = []
        """``actions`` as every player saw them: a reshuffle without its order."""
        self.result: HandResult | None = None
        self.taken: Card | None = None
        """The card ``to_act`` took from the pile this turn: it cannot be discarded."""
        self.picked: list[list[Card]] = [[] for _ in range(rules.players)]
        """The cards each seat took from the pile (all players saw them)."""
        self._hands = [mask_of(cards) for cards in deal.hands]
        self._stock = list(reversed(deal.stock))  # top card last, so drawing is a pop
        self._discards = [deal.upcard]
        self._passes = 0
        self._must_draw = False
        self._final_take = False

    # -- what anyone may read --------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard pile, bottom first: its top card is last."""
        return tuple(self._discards)

    @property
    def top_discard(self) -> Card | None:
        """The top card of the discard pile (None when the pile is empty)."""
        return self._discards[-1] if self._discards else None

    @property
    def must_draw(self) -> bool:
        """Whether ``to_act``, drawing, must draw from the stock: everyone passed the upcard."""
        return self._must_draw

    def hand_size(self, seat: int) -> int:
        return self._hands[seat].bit_count()

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.rules.players

    # -- what only the engine, a record or a finished hand may read -------------------------

    def hand_mask(self, seat: int) -> int:
        """Seat's cards as a mask. Hidden information: give players a view instead."""
        return self._hands[seat]

    def cards_of(self, seat: int) -> list[Card]:
        """Seat's cards. Hidden information: give players a view instead."""
        return list(cards_of_mask(self._hands[seat]))

    def stock(self) -> list[Card]:
        """The stock, top card first. Hidden information."""
        return list(reversed(self._stock))

    # -- legality ---------------------------------------------------------------------------

    def legal_actions(self) -> list[PlayerAction]:
        """Every action the player to act may take now (knocks show their best melds)."""
        seat = self.to_act
        if seat is None:
            return []
        if self.phase in (Phase.OFFER, Phase.LAST_CHANCE):
            return [Pass(seat), Take(seat)]
        if self.phase == Phase.DRAW:
            return [Draw(seat)] if self._must_draw else [Draw(seat), Take(seat)]
        hand = self._hands[seat]
        cards = [c for c in cards_of_mask(hand) if c != self.taken]
        actions: list[PlayerAction] = [Discard(seat, c) for c in cards]
        if discard_deadwood_of_mask(hand) <= self.knock_limit:
            limit = self.knock_limit
            actions += [Knock(seat, c) for c in cards if deadwood_of_mask(hand ^ c.mask) <= limit]
        if self.rules.big_gin_bonus is not None and deadwood_of_mask(hand) == 0:
            actions.append(BigGin(seat))
        return actions

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise IllegalActionError, saying why, unless ``action`` is legal now."""
        if self.phase == Phase.OVER:
            raise IllegalActionError(f"{action}: the hand is over")
        if isinstance(action, Reshuffle):
            self._verify_reshuffle(action)
            return
        if self.phase == Phase.RESHUFFLE:
            raise IllegalActionError(f"{action}: the discard pile must be reshuffled first")
        if action.seat != self.to_act:
            raise IllegalActionError(
                f"{action}: it is seat {self.to_act}'s turn to {self._doing()}"
            )
        allowed = {
            Phase.OFFER: (Pass, Take),
            Phase.LAST_CHANCE: (Pass, Take),
            Phase.DRAW: (Draw, Take),
            Phase.DISCARD: (Discard, Knock, BigGin),
        }[self.phase]
        if not isinstance(action, allowed):
            raise IllegalActionError(f"{action}: seat {action.seat} must {self._doing()} now")
        if isinstance(action, Take) and self._must_draw:
            raise IllegalActionError(
                f"{action}: everyone passed the upcard, so seat {action.seat} draws from the stock"
            )
        if isinstance(action, Discard | Knock):
            self._verify_discard(action.card)
        if isinstance(action, Knock):
            self._knock_arrangement(action)
        if isinstance(action, BigGin):
            self._verify_big_gin(action)

    def _doing(self) -> str:
        return {
            Phase.OFFER: "take or pass the upcard",
            Phase.LAST_CHANCE: "take the final discard to knock, or pass",
            Phase.DRAW: "draw from the stock or take the discard",
            Phase.DISCARD: "discard",
            Phase.RESHUFFLE: "reshuffle",
            Phase.OVER: "nothing",
        }[self.phase]

    def _verify_discard(self, card: Card) -> None:
        if not self._hands[self.to_act or 0] & card.mask:
            raise IllegalActionError(f"cannot discard {card}: it is not in the hand")
        if card == self.taken:
            raise IllegalActionError(
                f"cannot discard {card}: it was just taken from the discard pile"
            )

    def _knock_arrangement(self, action: Knock) -> Arrangement:
        rest = self._hands[action.seat] & ~action.card.mask
        named = action.melds is not None
        shown = _named_arrangement(action, rest) if named else arrangement_of_mask(rest)
        if shown.deadwood > self.knock_limit:
            if self.knock_limit == 0:
                raise IllegalActionError(
                    f"cannot knock: {shown.deadwood} deadwood, and only gin ends this hand"
                )
            raise IllegalActionError(
                f"cannot knock: {shown.deadwood} deadwood, the limit is {self.knock_limit}"
            )
        return shown

    def _verify_big_gin(self, action: BigGin) -> None:
        if self.rules.big_gin_bonus is None:
            raise IllegalActionError("cannot go Big Gin: these rules have no Big Gin")
        left = deadwood_of_mask(self._hands[action.seat])
        if left:
            raise IllegalActionError(f"cannot go Big Gin: {left} deadwood in the hand")

    def _verify_reshuffle(self, action: Reshuffle) -> None:
        if self.phase != Phase.RESHUFFLE:
            raise IllegalActionError(f"{action}: the discard pile is not being reshuffled now")
        expected = sorted(self._discards[:-1])
        if sorted(action.stock) != expected:
            raise IllegalActionError(
                "reshuffle: the new stock must be the discard pile but its top card, "
                f"{len(expected)} cards"
            )

    # -- applying ---------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action``. Raises IllegalActionError (changing nothing) if it is not legal."""
        self.verify(action)
        if isinstance(action, Reshuffle):
            self.actions.append(action)
            self.public_actions.append(Reshuffle(()))
            self._stock[:0] = list(reversed(action.stock))
            self._discards = self._discards[-1:]
            self._start_turn(self.next_seat(self._last_discarder()))
            return
        action = _shared(action)
        self.actions.append(action)
        self.public_actions.append(action)
        self._play(action)

    def apply_legal(self, action: PlayerAction) -> None:
        """Play ``action`` without checking it: for a caller that has just taken it from
        ``legal_actions()`` (or a mask made from them) for this very state, such as the RL
        environment's step. Anything else (a player, a record, the network) goes through
        ``apply``: an illegal action here leaves the hand in a state the rules never reach.
        The action is kept as given (``apply`` shares one instance of each plain action).
        """
        self.actions.append(action)
        self.public_actions.append(action)
        self._play(action)

    def _play(self, action: PlayerAction) -> None:
        """Change the state for a player action already checked (and recorded)."""
        if isinstance(action, Discard):  # the commonest first: this is the hot path
            self._apply_discard(action)
        elif isinstance(action, Draw):
            self._hands[action.seat] |= self._stock.pop().mask
            self.taken = None
            self._must_draw = False
            self.phase = Phase.DISCARD
        elif isinstance(action, Pass):
            self._apply_pass(action.seat)
        elif isinstance(action, Take):
            card = self._discards.pop()
            self._hands[action.seat] |= card.mask
            self.picked[action.seat].append(card)
            self.taken = card
            self._final_take = self.phase == Phase.LAST_CHANCE
            self.phase = Phase.DISCARD
        elif isinstance(action, Knock):
            shown = self._knock_arrangement(action)
            self._hands[action.seat] &= ~action.card.mask
            self._finish(action.seat, shown, Outcome.GIN if shown.deadwood == 0 else Outcome.KNOCK)
        else:
            whole = arrangement_of_mask(self._hands[action.seat])
            self._finish(action.seat, whole, Outcome.BIG_GIN)

    def _apply_pass(self, seat: int) -> None:
        if self.phase == Phase.LAST_CHANCE:
            self._void()
            return
        self._passes += 1
        if self._passes == self.players:
            self._must_draw = True
            self._start_turn(self.next_seat(self.dealer))
        else:
            self.to_act = self.next_seat(seat)

    def _apply_discard(self, action: Discard) -> None:
        self._hands[action.seat] &= ~action.card.mask
        self._discards.append(action.card)
        if self._final_take:  # the last chance was taken but not used to knock
            self._void()
        elif len(self._stock) > STOCK_FLOOR:
            self._start_turn(self.next_seat(action.seat))
        elif self.rules.stock_end == "reshuffle" and not self._reshuffled():
            self.phase, self.to_act, self.taken = Phase.RESHUFFLE, None, None
        elif self.rules.last_chance_knock:
            self.phase, self.taken = Phase.LAST_CHANCE, None
            self.to_act = self.next_seat(action.seat)
        else:
            self._void()

    def _start_turn(self, seat: int) -> None:
        self.phase, self.to_act, self.taken = Phase.DRAW, seat, None

    def _reshuffled(self) -> bool:
        """Whether the pile was reshuffled already: it is only once, so a hand always ends."""
        return any(isinstance(action, Reshuffle) for action in self.actions)

    def _last_discarder(self) -> int:
        for action in reversed(self.actions):
            if isinstance(action, Discard):
                return action.seat
        raise AssertionError("a reshuffle always follows a discard")

    def _void(self) -> None:
        self._settle(void_score(self.players), None, (), ())

    def _finish(self, knocker: int, shown: Arrangement, ending: Outcome) -> None:
        melds = [mask_of(meld) for meld in shown.melds]
        layoffs: list[tuple[int, tuple[Card, ...]]] = []
        deadwood = [0] * self.players
        deadwood[knocker] = shown.deadwood
        seat = self.next_seat(knocker)
        while seat != knocker:
            hand = self._hands[seat]
            if ending == Outcome.KNOCK:
                plan = best_layoffs(hand, melds)
                if plan.laid:
                    layoffs.append((seat, cards_of_mask(plan.laid)))
                    self._hands[seat] = hand & ~plan.laid
                melds = list(plan.melds)
                deadwood[seat] = plan.deadwood
            else:
                deadwood[seat] = deadwood_of_mask(hand)
            seat = self.next_seat(seat)
        score = score_hand(self.rules, ending, knocker, deadwood, self.multiplier)
        extended = tuple(cards_of_mask(m) for m in melds)
        self._settle(score, knocker, tuple(layoffs), extended, shown)

    def _settle(
        self,
        score: HandScore,
        knocker: int | None,
        layoffs: tuple[tuple[int, tuple[Card, ...]], ...],
        knocker_melds: tuple[tuple[Card, ...], ...],
        knocker_shown: Arrangement | None = None,
    ) -> None:
        shown = tuple(
            knocker_shown if seat == knocker and knocker_shown else arrangement_of_mask(hand)
            for seat, hand in enumerate(self._hands)
        )
        deadwood = tuple(arrangement.deadwood for arrangement in shown)
        self.result = HandResult(
            outcome=score.outcome, knocker=knocker, winner=score.winner,
            knock_limit=self.knock_limit, multiplier=self.multiplier,
            deadwood=deadwood,
            layoffs=layoffs, points=score.points, boxes=score.boxes, working=score.working,
            terms=score.terms,
            shown=shown, knocker_melds=knocker_melds,
        )
        self.phase, self.to_act, self.taken = Phase.OVER, None, None


_SHARED: dict[PlayerAction, PlayerAction] = {}


def _shared(action: PlayerAction) -> PlayerAction:
    """One instance of each plain action for all hands: a server keeps many games' actions.

    Knocks naming their melds are kept as they come (there are too many to share).
    """
    if isinstance(action, Knock) and action.melds is not None:
        return action
    return _SHARED.setdefault(action, action)


def _named_arrangement(action: Knock, rest: int) -> Arrangement:
    """The arrangement a knock names, checked: real melds, of the knocker's own cards."""
    used = 0
    melds: list[tuple[Card, ...]] = []
    for meld in action.melds or ():
        meld_mask = mask_of(meld)
        if len(meld) != meld_mask.bit_count() or meld_kind_of_mask(meld_mask) is None:
            raise IllegalActionError(
                f"cannot knock: {'-'.join(map(str, meld))} is not a set or a run"
            )
        if meld_mask & ~rest:
            stray = cards_of_mask(meld_mask & ~rest)[0]
            raise IllegalActionError(f"cannot knock: {stray} is not among the cards kept")
        if meld_mask & used:
            twice = cards_of_mask(meld_mask & used)[0]
            raise IllegalActionError(f"cannot knock: {twice} is in two melds")
        used |= meld_mask
        melds.append(tuple(sorted(meld)))
    return Arrangement(tuple(melds), cards_of_mask(rest & ~used))


def reshuffle_action(hand: Hand, rng: random.Random) -> Reshuffle:
    """The chance action for a hand in the RESHUFFLE phase: the pile in a random order."""
    cards = sorted(hand.discards[:-1])
    rng.shuffle(cards)
    return Reshuffle(tuple(cards))


def play_chance(hand: Hand, rng: random.Random) -> None:
    """Apply chance actions until a player is to act or the hand is over."""
    while hand.phase == Phase.RESHUFFLE:
        hand.apply(reshuffle_action(hand, rng))

