"""A room's watchers in this process and the frames each is sent.

Each change's frames are made once for every watcher who sees the same thing: the room frame
once per (seat, holds the link), the state once per distinct (seat, coach). What the spectators
were last sent is kept (``Spectators``), so a spectator asking for the table again is answered
from it, never waiting for the room's lock behind a change being saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.rooms.turns import timed_turn

Send = Callable[[dict[str, Any]], None]
Frames = list[list[dict[str, Any]]]
"""Each watcher's frames, in the order of the watchers they were made for."""
MOVES = ("deal", "reshuffle")
"""The events besides a seat's action that a state frame shows as a move."""


class Watcher:
    """One connection's window on a room: its seat (None: a spectator) and where frames go.

    ``only_game``: a spectator who came by a game's id, not the room's link: shown that game
    and nothing else (never the room's code, nor its next game)."""

    def __init__(
        self, send: Send, seat: int | None, coach: bool = False, only_game: str | None = None,
    ) -> None:
        self.send = send
        self.seat = seat
        self.coach = coach
        self.only_game = only_game
        self.holds: str | None = None
        """The token hash of the seat it watches from (``LiveRoom.attach``): the seat it follows
        when the room closes up between games (``follow_seats``)."""
        self._room_shown: dict[str, Any] | None = None

    def room_changed(self, frame: dict[str, Any]) -> bool:
        """Is the room ``frame`` shows new to this watcher (its version aside)? A move leaves
        the room as it was: the page is then sent the state alone."""
        shown = {**frame, "version": None}
        if shown == self._room_shown:
            return False
        self._room_shown = shown
        return True


@dataclass(frozen=True, slots=True)
class Spectators:
    """What the spectators were last sent, at room ``version``: the room frame by whether the
    spectator holds the link, and the game's state (None before a game), its move left out."""

    version: int
    game: str | None
    rooms: dict[bool, dict[str, Any]]
    state: dict[str, Any] | None

    def frames_for(self, watcher: Watcher) -> list[dict[str, Any]] | None:
        """The table again for spectator ``watcher``, as it was last shown (None: not kept for
        a spectator like this one)."""
        if watcher.only_game is not None and watcher.only_game != self.game:
            return []  # came by an earlier game's id: not carried into the next one
        room = self.rooms.get(watcher.only_game is None)
        if room is None:
            return None
        sent = [room] if watcher.room_changed(room) else []
        return sent + ([self.state] if self.state is not None else [])


def room_frame(room: Room, game: Game | None, seat: int | None, linked: bool = True) -> dict[str, Any]:
    """The room for ``seat``; its code only for someone who holds the link (``linked``)."""
    frame = room.public(seat)
    frame["deadline"] = room.deadline if timed_turn(room, game) is not None else None
    if not linked:
        frame["code"] = None
    return frame


def follow_seats(room: Room, watchers: Sequence[Watcher]) -> bool:
    """The room closed up between games (``Room.close_up``): each seated watcher moves to the
    seat its token's seat has now, and one whose seat went (or is another's now) watches as a
    spectator, never shown another's cards. True if any watcher moved."""
    places = {seat.token_hash: i for i, seat in enumerate(room.seats) if seat.token_hash is not None}
    moved = False
    for watcher in watchers:
        seat = watcher.seat
        if seat is None or watcher.holds is None:
            continue
        if seat < len(room.seats) and room.seats[seat].token_hash in (watcher.holds, None):
            continue  # still its seat (or left during a game: a computer plays it, as ever)
        watcher.seat = places.get(watcher.holds)
        moved = True
    return moved


def make_frames(
    room: Room, game: Game | None, watchers: Sequence[Watcher], event: str | None,
) -> tuple[Frames, Spectators | None]:
    """Each watcher's room (when it changed for them) and state messages; each room frame
    made once (with each seat's ``you``, and the code for those with the link), each state
    once per distinct (seat, coach). With them, what the spectators among them were shown."""
    if event and not (event[0].isdigit() or event in MOVES):
        event = None  # a room's own event (a seat taken, someone away): not a move to show
    shown = [w for w in watchers if w.only_game is None or w.only_game == room.game]
    # (A spectator who came by an earlier game's id is not carried into the next one.)
    rooms: dict[tuple[int | None, bool], dict[str, Any]] = {}
    if shown:
        made = room_frame(room, game, None)
        for seat, linked in dict.fromkeys((w.seat, w.only_game is None) for w in shown):
            rooms[seat, linked] = {**made, "you": seat, "code": made["code"] if linked else None}
    states: dict[tuple[int | None, bool], dict[str, Any]] = {}
    coached = room.coach  # a page's coach option gives it advice only where the coach is allowed
    if game is not None:
        states = game.frames(list(dict.fromkeys((w.seat, w.coach and coached) for w in shown)),
                             room.names, room.levels(), event)
        for (seat, _coach), state in states.items():
            if seat is None:  # the watchers' odds, a move late: a spectator's alone
                state["odds"] = game.late_odds.frame(game.match)
    out: Frames = []
    for watcher in watchers:
        sent = []
        if watcher in shown:
            frame = rooms[watcher.seat, watcher.only_game is None]
            if watcher.room_changed(frame):
                sent.append(frame)
            if states:
                sent.append(states[watcher.seat, watcher.coach and coached])
        out.append(sent)
    return out, _spectators(room, rooms, states)


def _spectators(room: Room, rooms: dict[tuple[int | None, bool], dict[str, Any]],
                states: dict[tuple[int | None, bool], dict[str, Any]]) -> Spectators | None:
    seen = {linked: frame for (seat, linked), frame in rooms.items() if seat is None}
    if not seen:
        return None
    state = states.get((None, False)) or states.get((None, True))
    return Spectators(room.version, room.game, seen,
                      {**state, "event": None} if state is not None else None)


def send(watchers: Sequence[Watcher], frames: Frames) -> None:
    """Each watcher its frames (in the order made: under the room's lock, version by version)."""
    for watcher, sent in zip(watchers, frames, strict=True):
        for frame in sent:
            watcher.send(frame)
