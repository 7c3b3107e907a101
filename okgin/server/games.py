"""Games in play: the authoritative Match of each game, its computer players and watchers.

Every change goes: verify with the engine, apply, save the record, then tell the seats.
Computer players decide off the event loop (``thinking``: a thread, or a process for
`hard`), so a slow decision in one game never holds up another game's acknowledgement.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any

from okgin.actions import PlayerAction, parse_action
from okgin.coach import advice, hint
from okgin.errors import IllegalActionError
from okgin.hand import Hand, play_chance
from okgin.match import Match
from okgin.record import deal_to_json, match_to_record, record_head, replay
from okgin.rules import Rules
from okgin.server.protocol import (
    advice_json,
    final_json,
    notation_with_seat,
    sheet_json,
    view_json,
)
from okgin.server.storage import Store
from okgin.server.thinking import Thinking, computer_player

HUMAN = 0
NAMES = ("You", "Ruby", "Sam", "Olive")

Send = Callable[[dict[str, Any]], None]


class Watcher:
    """One connection's window on a game: where its messages go and what it asked for."""

    def __init__(self, send: Send, coach: bool = False) -> None:
        self.send = send
        self.coach = coach


class Game:
    """One game: seat 0 is the person, the other seats are computer players."""

    def __init__(
        self, game_id: str, match: Match, levels: Sequence[str], store: Store,
        thinking: Thinking, rng: random.Random | None = None,
    ) -> None:
        self.id = game_id
        self.match = match
        self.levels = tuple(levels)
        self.names = NAMES[: match.rules.players]
        self.store = store
        self.thinking = thinking
        self.rng = rng or random.Random()
        self.bots = {
            seat: computer_player(level, random.Random(self.rng.getrandbits(64)))
            for seat, level in enumerate(levels, 1)
        }
        self.watchers: set[Watcher] = set()
        self.lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._written: list[dict[str, Any]] = []
        self._current: tuple[Hand, dict[str, Any]] | None = None
        self.on_idle: Callable[[Game], None] | None = None
        """Called when nobody watches and no computer player is thinking (to free memory)."""

    @property
    def idle(self) -> bool:
        task = self._bot_task
        thinking = task is not None and not task.done() and task is not asyncio.current_task()
        return not self.watchers and not thinking

    def leave(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        if self.idle and self.on_idle is not None:
            self.on_idle(self)

    # -- what the page is sent ------------------------------------------------------------

    def state(self, watcher: Watcher, event: str | None = None) -> dict[str, Any]:
        """The state message for the person's seat: only what that seat may see."""
        view = self.match.view(HUMAN)
        message: dict[str, Any] = {
            "type": "state", "game": self.id, "names": list(self.names),
            "levels": list(self.levels), "rules": self.match.rules.to_json(),
            "hand_number": len(self.match.hands), "event": event,
            "view": view_json(view), "totals": list(self.match.totals),
            "won": list(self.match.won),  # what counts toward the target (penalties do not)
            "sheet": sheet_json(self.match.hands),
            "final": final_json(self.match.final, self.match.rules) if self.match.final else None,
            "coach": advice_json(advice(view, self.names)) if watcher.coach else None,
        }
        return message

    def hint(self) -> str:
        return hint(self.match.view(HUMAN))

    def broadcast(self, event: str | None) -> None:
        for watcher in list(self.watchers):
            watcher.send(self.state(watcher, event))

    # -- changes --------------------------------------------------------------------------

    async def act(self, text: str) -> None:
        """Play the person's action. Raises OkginError (changing nothing) when it is not legal."""
        async with self.lock:
            action = _own_action(text, HUMAN)
            self._apply(action)
        self.broadcast(notation_with_seat(action))
        self.wake_bots()

    async def next_hand(self) -> None:
        """Deal the next hand once the last one is over."""
        async with self.lock:
            if self.match.over:
                raise IllegalActionError("the game is over: start a new game")
            if self.match.current is not None:
                raise IllegalActionError("the hand in progress is not over")
            self.match.deal_next(self.rng)
            self.save()
        self.broadcast("deal")
        self.wake_bots()

    def _apply(self, action: PlayerAction) -> None:
        self.match.apply(action)
        hand = self.match.hands[-1]
        play_chance(hand, self.rng)
        self.save()

    def record(self) -> dict[str, Any]:
        """The game record (with the deal: hidden cards). Finished hands are written once."""
        hands = self.match.hands
        for number in range(len(self._written), len(hands)):
            if not hands[number].over:
                break
            self._written.append(_hand_record(hands[number]))
        record = record_head(self.match.rules, self.names)
        record["hands"] = self._written + [self._current_record(h) for h in hands[len(self._written):]]
        return record

    def _current_record(self, hand: Hand) -> dict[str, Any]:
        """The record of the hand being played, its deal and action texts written once each."""
        if self._current is None or self._current[0] is not hand:
            self._current = (hand, {"dealer": hand.dealer, "deal": _deal(hand), "actions": []})
        entry = self._current[1]
        texts: list[str] = entry["actions"]
        texts.extend(sys.intern(str(action)) for action in hand.actions[len(texts):])
        return {**entry, "actions": list(texts)}

    def save(self) -> None:
        record = self.record()
        final = self.match.final
        if final is None:
            self.store.save(self.id, record)
        else:
            self.store.save(self.id, record, final.winner, final.scores)

    # -- computer players -----------------------------------------------------------------

    def wake_bots(self) -> None:
        """Start the computer players if it is their turn (one task per game at a time)."""
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._play_bots())

    def _bot_to_act(self) -> int | None:
        hand = self.match.current
        if hand is None or hand.to_act is None or hand.to_act == HUMAN:
            return None
        return hand.to_act

    async def _play_bots(self) -> None:
        try:
            await self._bot_turns()
        finally:
            if self.idle and self.on_idle is not None:
                self.on_idle(self)

    async def _bot_turns(self) -> None:
        while True:
            async with self.lock:
                seat = self._bot_to_act()
                if seat is None:
                    return
                view = self.match.view(seat)
                hand = self.match.hands[-1]
                moves = len(hand.actions)
            level = self.levels[seat - 1]
            action = await self.thinking.decide(level, self.bots[seat], view, self.rng)
            async with self.lock:
                if self.match.hands[-1] is not hand or len(hand.actions) != moves:
                    continue  # the game moved on meanwhile: never apply a stale decision
                self._apply(action)
            self.broadcast(notation_with_seat(action))


def _hand_record(hand: Hand) -> dict[str, Any]:
    return {"dealer": hand.dealer, "deal": _deal(hand), "actions": [sys.intern(str(a)) for a in hand.actions]}


def _deal(hand: Hand) -> dict[str, Any]:
    """The deal's record, its card texts shared (interned): games keep many of them."""
    deal = deal_to_json(hand.deal)
    return {
        "hands": [[sys.intern(card) for card in cards] for cards in deal["hands"]],
        "upcard": sys.intern(deal["upcard"]),
        "stock": [sys.intern(card) for card in deal["stock"]],
    }


def _own_action(text: str, seat: int) -> PlayerAction:
    """Read an action for ``seat``: "discard 7S" or, with the seat, "0 discard 7S"."""
    words = text.split()
    if words and words[0].isdigit() and int(words[0]) != seat:
        raise IllegalActionError(f"{text!r}: you play seat {seat}, not seat {words[0]}")
    if not words or not words[0].isdigit():
        text = f"{seat} {text}"
    action = parse_action(text)
    if not isinstance(action, PlayerAction):
        raise IllegalActionError(f"{text!r}: only the server shuffles")
    return action


class Games:
    """Every game the server knows, loaded from the store on first use."""

    def __init__(self, store: Store, thinking: Thinking | None = None) -> None:
        self.store = store
        self.thinking = thinking or Thinking()
        self._games: dict[str, Game] = {}

    def new(self, rules: Rules, levels: Sequence[str], seed: int | None = None) -> Game:
        rules = rules.replace(players=len(levels) + 1) if rules.players != len(levels) + 1 else rules
        rng = random.Random(seed)
        match = Match(rules, first_dealer=rng.randrange(rules.players))
        match.deal_next(rng)
        game = Game(secrets.token_urlsafe(12), match, levels, self.store, self.thinking, rng)
        self.store.create(game.id, levels, match_to_record(match, game.names))
        return self._keep(game)

    def get(self, game_id: str) -> Game | None:
        """The game, from memory or replayed from its stored record; None when unknown."""
        if game_id in self._games:
            return self._games[game_id]
        stored = self.store.load(game_id)
        if stored is None:
            return None
        match, _ = replay(stored.record)
        if match.current is None and not match.hands:
            match.deal_next(random.Random())
        return self._keep(Game(game_id, match, stored.levels, self.store, self.thinking))

    def __len__(self) -> int:
        return len(self._games)

    def _keep(self, game: Game) -> Game:
        game.on_idle = self._forget
        self._games[game.id] = game
        return game

    def _forget(self, game: Game) -> None:
        """Drop a game from memory once nobody watches it (it stays in the store)."""
        if self._games.get(game.id) is game:
            del self._games[game.id]
