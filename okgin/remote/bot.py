"""`okgin bot`: one of okgin's computer players as a bot account on a server, through the bot
API alone (docs/api.md). It accepts challenges, plays each game on a thread of its own from that
game's stream (each state made into the seat's ``SeatView`` by ``observe``, the player's move
posted in the API's notation) and stops after ``games`` games (never, by default). With
``seek`` (rules and seats) it also waits in Play online's pool, one table at a time: it seeks
once listening, and again after each game, while it has games left to play. With ``join`` it
enters those tournaments (their hosts opened them to bots) once listening; their tables come on
its event stream like any other game.

A refused token, a server that does not answer as the API does, or a state it cannot read
ends it with one line (status 2: ``OkginError`` through the command line)."""

from __future__ import annotations

import queue
import random
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from okgin.bots import Player, make_player
from okgin.errors import OkginError
from okgin.remote.api import Api, ApiError
from okgin.remote.observe import api_notation, seat_view_of

REOPENS = 3
"""How often a game stream that ended before the game's end is opened again."""
MOVE_HARMLESS = ("stale", "refused")
"""Refusals of a move that say the table moved first (the next state comes); an illegal move
is okgin's own fault and ends the command."""
DEAL_HARMLESS = ("stale", "refused", "illegal")
"""Refusals of the next hand's deal that say the other player dealt it first."""
CHALLENGE_HARMLESS = ("refused", "no_challenge")
"""A challenge answered already, run out or withdrawn."""


@dataclass(frozen=True)
class Ended:
    """A game thread's end: the game's final tally (None: the table went before its end)."""

    room: str
    final: dict[str, Any] | None
    line: str


@dataclass(frozen=True)
class Failed:
    error: BaseException


@dataclass(frozen=True)
class Event:
    event: dict[str, Any] | None
    """None: the event stream ended."""


Message = Ended | Failed | Event


def bot_command(server: str, token: str, level: str, games: int = 0, seed: int | None = None,
                seek: tuple[str, int] | None = None, join: Sequence[str] = ()) -> int:
    """Play as the token's bot account at ``server`` with the ``level`` player until ``games``
    games have ended (0: for ever), seeking tables of ``seek`` (rules, seats) in the pool too,
    and entering the tournaments ``join`` names. Raises OkginError with one clear line."""
    if games < 0:
        raise OkginError(f"--games {games}: give 0 (play for ever) or more")
    make_player(level)  # an unknown level stops here, before the server is asked anything
    api = Api(server, token)
    account = api.get("/api/account")
    name = str(account.get("username"))
    if account.get("bot") is not True:
        raise OkginError(f"{name} is not a bot account: make it one on its profile page")
    waits = "waiting for challenges" + (f" and seeking {seek[0]} with {seek[1]} in the pool" if seek else "")
    print(f"okgin bot: {name} plays as {level} at {api.server}, {waits}", flush=True)
    session = Session(api, level, games, random.Random(seed), seek)
    _listen(api, session.inbox)
    for code in join:  # listening first: a table dealt at once still comes on the stream
        api.post(f"/api/tournament/{code}/join")
        print(f"okgin bot: {name} joined tournament {code}", flush=True)
    session.seek_table()
    ended = 0
    while True:
        message = session.inbox.get()
        if isinstance(message, Failed):
            raise _said(message.error)
        if isinstance(message, Ended):
            ended += 1
            print(message.line, flush=True)
            if games and ended >= games:
                return 0
            session.playing.discard(message.room)
            session.seek_table()
            continue
        try:
            session.answer(message.event)
        except (KeyError, TypeError, AttributeError) as error:
            raise _said(error) from None


@dataclass
class Session:
    """The command's state: the games it has begun, and the messages of its threads."""

    api: Api
    level: str
    games: int
    rng: random.Random
    seek: tuple[str, int] | None = None
    rooms: set[str] = field(default_factory=set)
    playing: set[str] = field(default_factory=set)
    inbox: queue.Queue[Message] = field(default_factory=queue.Queue)

    @property
    def full(self) -> bool:
        """As many games begun as it is to play."""
        return bool(self.games) and len(self.rooms) >= self.games

    def seek_table(self) -> None:
        """Wait in the pool for a table of ``seek`` (if asked to), while no game is being played
        and games are left (the open event stream keeps the seek; its table comes there)."""
        if self.seek is None or self.playing or self.full:
            return
        rules, seats = self.seek
        found = self.api.post("/api/pool/seek", {"rules": rules, "seats": seats})
        print(f"okgin bot: seeking {rules} with {seats} in the pool (rating {found.get('rating')})",
              flush=True)

    def answer(self, event: dict[str, Any] | None) -> None:
        """Accept a challenge (while not ``full``), play a game started, listen again when the
        event stream has ended (a revoked token is refused then)."""
        if event is None:
            self.api.get("/api/account")
            time.sleep(1.0)
            _listen(self.api, self.inbox)
        elif event.get("type") == "challenge" and event["challenge"].get("status") == "pending":
            if not self.full:
                _accept(self.api, str(event["challenge"]["id"]))
        elif event.get("type") == "gameStart":
            room = str(event["game"]["room"])
            if room not in self.rooms and not self.full:
                self.rooms.add(room)
                self.playing.add(room)
                player = make_player(self.level, random.Random(self.rng.getrandbits(64)))
                threading.Thread(target=_game_thread, args=(self.api, room, player, self.inbox),
                                 daemon=True).start()


def _said(error: BaseException) -> BaseException:
    """An error as the command says it: okgin's own as they are, a frame without the fields the
    API sends (a KeyError, a TypeError) as one line saying so."""
    if isinstance(error, OkginError) or not isinstance(error, (KeyError, TypeError, AttributeError)):
        return error
    return ApiError(f"the server sent a frame okgin cannot read ({type(error).__name__}: {error})")


def _listen(api: Api, inbox: queue.Queue[Message]) -> None:
    """Read the event stream on a thread of its own into ``inbox``."""

    def read() -> None:
        try:
            for event in api.stream("/api/stream/event"):
                inbox.put(Event(event))
            inbox.put(Event(None))
        except BaseException as error:  # said by the main thread
            inbox.put(Failed(error))

    threading.Thread(target=read, daemon=True).start()


def _accept(api: Api, ident: str) -> None:
    try:
        room = api.post(f"/api/challenge/{ident}/accept").get("room")
        print(f"okgin bot: accepted challenge {ident}: room {room}", flush=True)
    except ApiError as error:
        if error.code not in CHALLENGE_HARMLESS:
            raise
        print(f"okgin bot: challenge {ident} not accepted: {error}", file=sys.stderr, flush=True)


def _game_thread(api: Api, room: str, player: Player, inbox: queue.Queue[Message]) -> None:
    try:
        inbox.put(play_game(api, room, player))
    except BaseException as error:  # said by the main thread
        inbox.put(Failed(error))


def play_game(api: Api, room: str, player: Player) -> Ended:
    """Play the bot's seat in ``room`` until the game's final state."""
    acted: set[tuple[Any, ...]] = set()
    for attempt in range(REOPENS + 1):
        try:
            for frame in api.stream(f"/api/bot/game/stream/{room}"):
                if frame.get("type") != "state":
                    continue
                if frame.get("final") is not None:
                    return Ended(room, frame["final"], _final_line(room, frame))
                _answer(api, room, player, frame, acted)
        except ApiError as error:
            if error.code == "no_game" and attempt:
                break
            if error.status is not None or attempt == REOPENS:
                raise
        time.sleep(1.0)
    return Ended(room, None, f"room {room}: the table closed before its game ended")


def _answer(api: Api, room: str, player: Player, frame: dict[str, Any], acted: set[tuple[Any, ...]]) -> None:
    """Our move in ``frame``'s state if it is our turn; the next hand's deal if a hand is over.
    Each state is answered once (a frame sent again is not a second move)."""
    view = frame["view"]
    key = (frame.get("game"), frame.get("hand_number"), len(view["history"]), view["phase"],
           view["result"] is None)
    if key in acted:
        return
    acted.add(key)
    if view["result"] is not None:
        _post(api, f"/api/bot/game/{room}/next", {"hand": frame["hand_number"]}, DEAL_HARMLESS)
    elif view["seat"] is not None and view["to_act"] == view["seat"] and view["legal"]:
        action = player.act(seat_view_of(frame))
        _post(api, f"/api/bot/game/{room}/act", {"action": api_notation(action)}, MOVE_HARMLESS)


def _post(api: Api, path: str, body: dict[str, Any], harmless: tuple[str, ...]) -> None:
    try:
        api.post(path, body)
    except ApiError as error:
        if error.code not in harmless:
            raise


def _final_line(room: str, frame: dict[str, Any]) -> str:
    final, names = frame["final"], frame.get("names") or []
    scores = [seat["score"] for seat in final["seats"]]
    winner = final["winner"]
    who = names[winner] if isinstance(winner, int) and winner < len(names) else f"seat {winner}"
    return f"game over in room {room}: {who} won, {' to '.join(str(s) for s in scores)}"
