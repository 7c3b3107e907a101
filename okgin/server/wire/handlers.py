"""What each message does: one handler for each message type (``HANDLERS``), called by the
connection (``sockets``) with the message read and checked (``messages``).

A handler calls the live room's commands with the message's typed fields, and the page's
seats through ``players.seating``; it answers None (an ``ack`` if the message had an id) or
a frame of its own (the coach's). It never writes to the socket itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from okgin.server.refusals import Code, ProtocolError, WireError
from okgin.server.rooms.live import LiveRoom
from okgin.server.rooms.room import RoomError
from okgin.server.wire import messages as m
from okgin.server.wire.limits import ConnectionLimits

if TYPE_CHECKING:
    from okgin.server.wire.sockets import Connection

Answer = dict[str, Any] | None


async def on_new(c: Connection, message: m.New) -> Answer:
    """A game against the computer: a room of its own, the person at seat 0 with a token."""
    rules = message.rules
    if rules.players != len(message.opponents) + 1:
        rules = rules.replace(players=len(message.opponents) + 1)
    live, token = await c.hall.solo(rules, list(message.opponents), _seed(c, message.seed),
                                     c.player_id)
    await c.watch(live, 0, token)
    return None


async def on_open(c: Connection, message: m.Join | m.Enter) -> Answer:
    """join (a game by its id) or enter (a room by its link's code): with a seat's token to
    play; without one, to watch. A game's id shows that game only (an id is not the room's
    link: see ``Watcher.only_game``), and a finished game only to its players."""
    by_game = isinstance(message, m.Join)
    key = message.game if isinstance(message, m.Join) else message.room
    find = c.hall.by_game if by_game else c.hall.get
    live = await find(key) if m.is_id(key) else None
    if live is None:
        raise (WireError("no such game: start a new game", Code.NO_GAME) if by_game
               else WireError("no such room: check the link", Code.NO_ROOM))
    seat = await _seat_of(c, live, message.token)
    if by_game and not await c.seating.may_open(key, _finished(live), seat is not None):
        raise WireError("no such game: start a new game", Code.NO_GAME)  # as if there were none
    await c.watch(live, seat, None, only_game=key if by_game and seat is None else None)
    return None


async def on_options(c: Connection, message: m.Options) -> Answer:
    c.watcher.coach = message.coach
    if c.live is not None:
        await c.live.show(c.watcher)
    return None


async def on_create(c: Connection, message: m.Create) -> Answer:
    players = message.players if message.players is not None else message.rules.players
    name = _name(c, message.name)
    live, token = await c.hall.open(message.rules, players, name, message.timer, c.settings.away_grace,
                                     c.player_id, message.coach, message.listed)
    await c.seating.named(name)
    await c.watch(live, 0, token)
    return None


async def on_sit(c: Connection, message: m.Sit) -> Answer:
    live = c.room()
    if c.watcher.seat is not None:
        raise RoomError("you already have a seat")
    name = _name(c, message.name)
    if live.room.stakes.stake:
        await c.seating.check_stake(live.room.stakes.stake, _shown(name))
    change = await live.sit(message.seat, name, c.player_id)
    await c.seating.named(name)
    await c.watch(live, message.seat, change.token)  # the token saved, if the change was re-run
    return None


async def on_stake(c: Connection, message: m.Stake) -> Answer:
    """Host, in the lobby: the stake in chips per person and the prize rule."""
    await c.room().set_stakes(c.watcher.seat, message.stake, message.split, message.cutoff)
    return None


async def on_computer(c: Connection, message: m.Computer) -> Answer:
    await c.room().set_computer(c.watcher.seat, message.seat, message.level)
    return None


async def on_clear(c: Connection, message: m.Clear) -> Answer:
    await c.room().clear(c.watcher.seat, message.seat)
    return None


async def on_start(c: Connection, message: m.Start | m.Rematch) -> Answer:
    """start, and rematch (the same seats again)."""
    live = c.room()
    await live.begin(c.watcher.seat, _seed(c, message.seed), rematch=isinstance(message, m.Rematch))
    return None


async def on_leave(c: Connection, message: m.Leave) -> Answer:
    """A person leaves the table for good; this page goes on watching it as a spectator."""
    live, seat = c.room(), c.seat()
    await live.leave(seat)
    await c.watch(live, None, None)
    return None


async def on_say(c: Connection, message: m.Say) -> Answer:
    live, seat = c.room(), c.seat()
    await live.say(seat, message.phrase)
    return None


async def on_act(c: Connection, message: m.Act) -> Answer:
    live, seat = c.room(), c.seat()
    await live.apply(seat, message.action)
    return None


async def on_next(c: Connection, message: m.Next) -> Answer:
    live = c.room()
    c.seat()
    await live.next_hand(message.hand)
    return None


async def on_coach(c: Connection, message: m.Hint | m.Advice | m.Review) -> Answer:
    """hint, advice and review: the coach's answers for this connection's own seat."""
    named = isinstance(message, m.Review) and message.hand is not m.LAST_HAND
    data = {"hand": message.hand} if isinstance(message, m.Review) and named else {}
    return await c.room().coach(c.seat(), message.TYPE, message.id, data)


async def _seat_of(c: Connection, live: LiveRoom, token: str | None) -> int | None:
    """The seat whose ``token`` this is; without one, the seat this page's player took (from
    any device they are signed in on), else None (watching). A player coming back is counted
    against its seat's connection budget, not its address's (see ``limits``)."""
    room = live.room
    if token is None:
        seat = await c.seating.held_seat(room.code, room.game)
        if seat is None or not 0 <= seat < len(room.seats) or room.seats[seat].kind != "person":
            return None  # handed to a computer player or cleared since: watch
    else:
        seat = room.seat_for(token or None)
    if seat is None:
        raise WireError("that seat token is not valid here: open the link again to watch",
                        Code.BAD_TOKEN)
    c.limits.returned(f"{room.code}:{seat}")
    c.limits.player(_owner(c, live, seat))
    return seat


def _owner(c: Connection, live: LiveRoom, seat: int) -> str:
    """Whose budgets a seated page spends: its session's player, else (a program that came
    back with a seat token) its seat's. A page without a session that only made a game is
    not known to be a person: it stays on its address's budgets (see ``limits``)."""
    return f"player {c.player_id}" if c.player_id is not None else f"seat {live.room.code}:{seat}"


def _name(c: Connection, typed: object) -> Any:
    """The name typed at the table, or else the player's display name (``Room`` checks it)."""
    return typed if isinstance(typed, str) and typed.strip() else (c.name or typed or "")


def _shown(name: object) -> str:
    """A name typed at the table, as a refusal names its seat before the room has checked it."""
    return name.strip() if isinstance(name, str) and name.strip() else "this seat"


def _seed(c: Connection, seed: int | None) -> int | None:
    if seed is not None and not c.settings.allow_seeds:
        raise ProtocolError("seeds are off on this server (okgin serve --allow-seeds is for tests)",
                            Code.BAD_FIELD)
    return seed


def _finished(live: LiveRoom) -> bool:
    """Is the room's game over? (Then its id opens it only to its players: ``Seating.may_open``.)"""
    return live.game is not None and live.game.match.over


Handler = Callable[["Connection", Any], Awaitable[Answer]]
Budget = Callable[[ConnectionLimits], None]
HANDLERS: dict[str, tuple[Handler, Budget | None]] = {
    "new": (on_new, ConnectionLimits.new_game),
    "join": (on_open, None),
    "act": (on_act, None),
    "next": (on_next, None),
    "hint": (on_coach, ConnectionLimits.coach),
    "options": (on_options, None),
    "create": (on_create, ConnectionLimits.new_game),
    "enter": (on_open, None),
    "sit": (on_sit, None),
    "computer": (on_computer, None),
    "clear": (on_clear, None),
    "start": (on_start, None),
    "rematch": (on_start, None),
    "say": (on_say, None),
    "stake": (on_stake, None),
    "advice": (on_coach, ConnectionLimits.coach),
    "review": (on_coach, ConnectionLimits.coach),
    "leave": (on_leave, None),
}
"""Each message type (``messages.TYPES``, in its order): its handler, and the budget it spends
besides the message itself (a new game or room, or a coach's answer); a test walks it."""
