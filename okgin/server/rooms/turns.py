"""The room's rule for a person's turn against the clock: whose turn the timer runs for, and
its deadline, saved with the move that begins the turn (so every process shows the same one)."""

from __future__ import annotations

from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room

Turn = tuple[str, int, tuple[int, int]]
"""A person's turn a timer runs for: (game id, seat, moves)."""


def timed_turn(room: Room, game: Game | None) -> Turn | None:
    """The person's turn a timer would run for: (game, seat, moves), or None (no timer, no
    game being played, or a computer player to act)."""
    if room.timer is None or game is None or room.phase is not Phase.PLAYING:
        return None
    seat = game.to_act()
    if seat is None or room.levels()[seat] is not None:
        return None
    return game.id, seat, game.moves


def turn_deadline(room: Room, game: Game | None, now: float) -> float | None:
    """A new turn's deadline, saved with the move that starts the turn (None: no timer)."""
    timer = room.timer
    return now + timer if timer and timed_turn(room, game) is not None else None
