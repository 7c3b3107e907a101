"""Bring a game in memory up to the store by applying only the log rows after its version.

Another process saved a change: replaying the whole game to see it costs the whole game's
actions (tens of milliseconds late in a game, for every event, on every other process);
applying the new rows costs one action (or one deal) each, and reading them reads only them.
A game holding changes the store never took (a change of ours it refused), or rows that do
not apply, answer False, and the caller loads the game from the start.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from okgin.actions import parse_action
from okgin.errors import OkginError
from okgin.record import deal_from_json
from okgin.server.rooms.games import Game
from okgin.server.store.storage import LogRow, Store


def catch_up(game: Game, rows: Sequence[LogRow]) -> bool:
    """Apply to ``game`` the log ``rows`` that follow its version; False when they cannot be.

    After False the game may be half changed: the caller must replace it.
    """
    if game.unsaved():
        return False
    match = game.match
    try:
        for hand, entry in rows:
            if hand == len(match.hands) + 1:
                data = json.loads(entry)
                match.start_hand(deal_from_json(data["deal"]), data["dealer"])
            elif hand == len(match.hands):
                match.apply(parse_action(entry))
            else:
                return False
    except (OkginError, KeyError, TypeError, ValueError):
        return False
    game.saved(len(rows))
    return True


def stored_game(store: Store, game_id: str | None, game: Game | None) -> Game | None:
    """The room's game ``game_id`` as stored: ``game`` caught up if it is that game and its
    new rows apply, else read from the start (None: no game, or it is gone)."""
    if game_id is None:
        return None
    if game is not None and game.id == game_id and catch_up(game, store.log_after(game.id, game.version)):
        return game
    stored = store.load(game_id)
    return Game.from_record(stored.id, stored.record, stored.version) if stored else None
