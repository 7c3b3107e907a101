"""Over 500 random whole games, no frame the server would send to a seat or a spectator holds
a card that seat may not know. Frames are built the way the server builds them, in process."""

from __future__ import annotations

import json
import random
import re

import pytest

from okgin.bots import make_player
from okgin.cards import DECK
from okgin.rules import preset
from okgin.server.rooms.games import Game

GAMES = 500
PRESETS = ("oklahoma", "oklahoma-multiplayer", "oklahoma-reshuffle", "gin")


CARDS = frozenset(str(card) for card in DECK)
_WORDS = re.compile(r"[^0-9A-Z]+")


def cards_in(frame: dict[str, object]) -> set[str]:
    """Every card written anywhere in the frame as it goes on the wire (as a word of its own);
    the game id is random text that could hold "4D" by chance, so it is left out."""
    return set(_WORDS.split(json.dumps({**frame, "game": None}))) & CARDS


def check_frames(game: Game, names: list[str], public: set[str], event: str | None) -> int:
    """Every seat's frame (with the coach) and a spectator's: only its own and public cards."""
    hand = game.match.hands[-1]
    if hand.result is not None:
        return 0  # the hand is over: every hand is shown to all
    levels: list[str | None] = [None] * len(names)
    checked = 0
    for seat in [None, *range(len(names))]:
        # The coach (advice from the seat's own view) is checked for the seat to act.
        frame = game.frame(seat, names, levels, coach=seat == hand.to_act, event=event)
        own: set[str] = set()
        if seat is not None:
            own = set(frame["view"]["hand"])
            assert own == {str(c) for c in game.match.view(seat).hand}
        leaked = cards_in(frame) - public - own
        assert not leaked, f"seat {seat} was sent {sorted(leaked)}"
        checked += 1
    return checked


def play(seed: int) -> int:
    rng = random.Random(seed)
    players = rng.choice((2, 2, 3, 4))
    name = rng.choice(PRESETS) if players == 2 else rng.choice(PRESETS[1:3])
    # A low target keeps 500 whole games quick: most end with the first hand anyone wins.
    rules = preset(name).replace(players=players, target=rng.choice((1, 1, 1, 20)))
    game = Game.deal(rules, seed)
    names = [f"P{seat}" for seat in range(players)]
    bots = [make_player("simple", random.Random(seed * 10 + s)) for s in range(players)]
    checked, public, dealt = 0, set[str](), 0
    event: str | None = None
    while not game.match.over:
        if dealt != len(game.match.hands):
            dealt, public = len(game.match.hands), {str(game.match.hands[-1].deal.upcard)}
        hand = game.match.hands[-1]
        public |= {str(c) for c in hand.discards} | {str(c) for taken in hand.picked for c in taken}
        checked += check_frames(game, names, public, event)
        if game.match.current is None:
            game.next_hand()
            event = "deal"
            continue
        seat = hand.to_act
        assert seat is not None
        action = bots[seat].act(game.match.view(seat))
        game.apply(action)
        event = str(action)
    return checked


@pytest.mark.slow
def test_no_frame_holds_a_card_its_seat_may_not_know() -> None:
    frames = sum(play(seed) for seed in range(GAMES))
    assert frames > GAMES * 50
