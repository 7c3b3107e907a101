"""The room model: a table of two to four seats, its host, its phase, and what each may do.

A room is plain data (saved as JSON with a ``version``); every change is a method that
checks who asks and raises ``RoomError`` with a player's reason, changing nothing, when it
may not happen. Seats hold only their token's hash (see ``seats``).
"""

from __future__ import annotations

import math
import secrets
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from better_profanity import profanity

from okgin.errors import OkginError
from okgin.rules import Rules
from okgin.server.rooms.seats import new_token, seat_of
from okgin.server.rooms.stakes import TableStakes

PHRASES = ("Good game", "Nice!", "Oops", "Hurry up")
COMPUTER_NAMES = ("Ruby", "Sam", "Kit", "Olive", "Max", "Ada")
"""Computer players' names, in the order seats take them (static/words.js holds the same list):
six, so three computer players find free names beside any three people."""
LEVELS = ("easy", "normal", "hard", "expert")
"""The computer players a table offers, weakest first: the one list (the pages read it from the
server: the room frame's ``levels``, and ``/api/rules``)."""
TIMERS = (None, 30, 60, 120)
MAX_NAME = 20
AWAY_GRACE = 60.0
"""Seconds a person must be away before the host may hand the seat to a computer player."""


class RoomError(OkginError):
    """Something a room does not allow now; the message says why."""


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(slots=True)
class Seat:
    """One seat: empty, a person (by name, with a token hash) or a computer player (a level)."""

    kind: str = "empty"
    name: str = ""
    level: str | None = None
    token_hash: str | None = None
    away_since: float | None = None
    stand_in: str | None = None
    """A computer player's level, playing for this away person until they come back."""
    left: bool = False
    """The person left the table during a game: a computer player has the seat, under their name."""
    bot: bool = False
    """The person is a bot account (a program playing through the API, docs/api.md): shown BOT."""

    def to_data(self) -> dict[str, Any]:
        """Every field, as stored (``dataclasses.asdict`` deep-copies each value: six times the cost)."""
        return {"kind": self.kind, "name": self.name, "level": self.level, "token_hash": self.token_hash,
                "away_since": self.away_since, "stand_in": self.stand_in, "left": self.left, "bot": self.bot}

    def public(self, now: float, grace: float) -> dict[str, Any]:
        away = self.kind == "person" and self.away_since is not None
        waited = now - self.away_since if away and self.away_since is not None else 0.0
        return {"kind": self.kind, "name": self.name, "level": self.level, "away": away,
                "away_for": round(waited), "stand_in": self.stand_in, "left": self.left, "bot": self.bot,
                # Seconds until the host may let a computer play (rounded up: never early).
                "takeover_in": math.ceil(max(0.0, grace - waited) * 10) / 10 if away else 0}


@dataclass(slots=True)
class Room:
    """A room; ``version`` grows by one with every saved change (compare-and-set)."""

    code: str
    rules: Rules
    seats: list[Seat]
    host: int = 0
    phase: Phase = Phase.LOBBY
    timer: int | None = None
    game: str | None = None
    solo: bool = False
    version: int = 0
    games: list[str] = field(default_factory=list)
    away_grace: float = AWAY_GRACE
    deadline: float | None = None
    """With a turn timer: when the person to act runs out of time (Unix time), the same for
    every process, so that no arrival or reconnection anywhere gives more time."""
    stakes: TableStakes = field(default_factory=TableStakes)
    staked: list[int] = field(default_factory=list)
    """The seats whose players staked the current game (its pool: the stake times as many)."""
    chips: dict[str, Any] | None = None
    """The last staked game's settlement: {"game", "pool", "shares" (chips per seat, None for a
    seat that did not stake)}."""
    tournament: str | None = None
    """A tournament's table (its code): one match, no host, no rematch; its computer players
    play on with nobody watching, deal the next hand when no person is there to, and stand in
    for a person away past ``away_grace`` without anyone asking (see ``autoplay``)."""
    rematch_yes: list[int] = field(default_factory=list)
    """A game over: the seats whose people said yes to a rematch, the offer's first; the next
    game is dealt once every person seated has (a computer player always would)."""
    coach: bool = False
    """The coach's help in play (hints, advice) is allowed: a game against the computer always, a
    friends' room if its host chose so, a tournament's table never. Such a game is not rated."""
    listed: bool = False
    """An open table (its host's choice): listed for anyone to join while its lobby has a free
    seat, and among the games being played now once it plays (``pages/tables``). A private
    room (the default) is found by its link only. Chosen when the room is made; never changed."""
    pool: bool = False
    """Seated by Play online (rated, public): as at a tournament's table, a person away past
    ``away_grace`` is stood in for by a computer player without anyone asking; one whose seat a
    computer player still plays when the game ends (away, or left) abandoned it (``abandoned``)."""
    _rules_json: tuple[Rules, str | dict[str, Any]] | None = field(default=None, compare=False, repr=False)
    """``rules.to_json()`` and the rules it was made from: written at every change and frame."""

    # -- making one ----------------------------------------------------------------------

    @classmethod
    def create(
        cls, rules: Rules, players: int, host_name: str, timer: int | None = None,
        away_grace: float = AWAY_GRACE, coach: bool = False, listed: bool = False,
    ) -> tuple[Room, str]:
        """A room in its lobby with the host seated at seat 0; returns it and the host's token.
        ``coach``: the host allows the coach (its games are then not rated); ``listed``: an open
        table, listed for anyone to join (else by its link only)."""
        if players not in (2, 3, 4):
            raise RoomError("a room has 2 to 4 seats")
        if timer not in TIMERS:
            raise RoomError("the turn timer is off, 30, 60 or 120 seconds")
        if not isinstance(coach, bool):
            raise RoomError("the coach is allowed (true) or not (false)")
        if not isinstance(listed, bool):
            raise RoomError("a table is open to anyone (true) or by its link only (false)")
        rules = rules.replace(players=players) if rules.players != players else rules
        room = cls(new_code(), rules, [Seat() for _ in range(players)], timer=timer, away_grace=away_grace,
                   coach=coach, listed=listed)
        return room, room.sit(0, host_name)

    @classmethod
    def solo_game(cls, rules: Rules, levels: list[str]) -> tuple[Room, str]:
        """A game against the computer: the person at seat 0, playing at once."""
        names = COMPUTER_NAMES
        computers = [Seat("computer", name, level) for name, level in zip(names, levels, strict=False)]
        room = cls(new_code(), rules, [Seat("person", "You"), *computers], phase=Phase.PLAYING, solo=True,
                   coach=True)
        token, hashed = new_token()
        room.seats[0].token_hash = hashed
        return room, token

    @classmethod
    def for_table(
        cls, code: str, rules: Rules, seats: list[Seat], tournament: str, game_id: str,
        away_grace: float = AWAY_GRACE, timer: int | None = None,
    ) -> Room:
        """A tournament's table, playing at once: ``seats`` are its people (their seats found by
        their player, so each token is made and thrown away) and its computer players."""
        if len(seats) not in (2, 3, 4):
            raise RoomError("a room has 2 to 4 seats")
        for seat in seats:
            if seat.kind == "person":
                seat.token_hash = new_token()[1]
        rules = rules.replace(players=len(seats)) if rules.players != len(seats) else rules
        if timer not in TIMERS:
            raise RoomError("the turn timer is off, 30, 60 or 120 seconds")
        room = cls(code, rules, seats, host=-1, phase=Phase.PLAYING, timer=timer, away_grace=away_grace,
                   tournament=tournament)
        room.deadline = time.time() + timer if timer else None  # the first turn's, if a person's
        room._begin(game_id)
        return room

    # -- what it says ---------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def levels(self) -> list[str | None]:
        """Who plays each seat's moves by computer: its level, a stand-in's, or None (a person)."""
        return [seat.level if seat.kind == "computer" else seat.stand_in for seat in self.seats]

    def seat_for(self, token: str | None) -> int | None:
        return seat_of(token, [seat.token_hash for seat in self.seats])

    def public(self, you: int | None) -> dict[str, Any]:
        """The room as every client sees it (no token hash), and which seat is ``you``."""
        now = time.time()
        return {
            "type": "room", "code": self.code, "phase": str(self.phase), "host": self.host,
            "seats": [seat.public(now, self.away_grace) for seat in self.seats],
            "rules": self.rules_json(), "target": self.rules.target,
            "timer": self.timer, "game": self.game, "you": you, "solo": self.solo,
            "version": self.version, "phrases": list(PHRASES), "levels": list(LEVELS),
            "away_grace": self.away_grace, "tournament": self.tournament, **self.stakes.to_json(),
            "staked": list(self.staked), "chips": self.chips, "rematch": list(self.rematch_yes),
            "coach": self.coach, "closing": self.closing(),
            "listed": self.listed,
        }

    # -- changes (each checks, then changes) ------------------------------------------------

    def sit(self, seat: int, name: str) -> str:
        """Take an empty seat in the lobby; returns the new token for it."""
        self._check_seat(seat)
        if self.phase is not Phase.LOBBY:
            raise RoomError("the game has started: you can watch")
        if self.seats[seat].kind != "empty":
            raise RoomError(f"seat {seat} is taken")
        token, hashed = new_token()
        self.seats[seat] = Seat("person", clean_name(name), token_hash=hashed)
        if self.seats[self.host].kind != "person":  # the host left before anyone else sat
            self.host = seat
        return token

    def leave(self, seat: int) -> None:
        """A person gives up their seat for good (their token no longer opens it).

        In the lobby the seat is emptied; once a game has started a ``normal`` computer player
        takes it under the same name (``left``), so the game goes on; the next game is dealt
        without the seat while more than two stay (``closing``), else the computer plays it on.
        The host's role passes to the next person seated after them."""
        self._check_seat(seat)
        if self.solo:
            raise RoomError("a game against the computer has no table to leave: start a new game")
        if self.seats[seat].kind != "person":
            raise RoomError(f"seat {seat} has no person to leave it")
        name = self.seats[seat].name
        in_game = self.phase is not Phase.LOBBY
        self.seats[seat] = Seat("computer", name, "normal", left=True) if in_game else Seat()
        if seat in self.rematch_yes:
            self.rematch_yes.remove(seat)
        if self.host == seat:
            count = len(self.seats)
            after = [(seat + step) % count for step in range(1, count)]
            self.host = next((s for s in after if self.seats[s].kind == "person"), seat)

    @property
    def people(self) -> int:
        """How many people (not computer players) hold a seat."""
        return sum(1 for seat in self.seats if seat.kind == "person")

    def set_computer(self, by: int | None, seat: int, level: str, now: float) -> None:
        """Host: a computer player in an empty seat (lobby), or standing in for an away person."""
        self._host_only(by)
        self._check_seat(seat)
        if level not in LEVELS:
            raise RoomError("the level is one of: " + ", ".join(LEVELS))
        target = self.seats[seat]
        if self.phase is Phase.LOBBY and target.kind in ("empty", "computer"):
            name = target.name if target.kind == "computer" else self._free_name()
            self.seats[seat] = Seat("computer", name, level)
            return
        if target.kind != "person" or target.away_since is None:
            raise RoomError(f"seat {seat} is not empty and its player is not away")
        if now - target.away_since < self.away_grace:
            wait = round(self.away_grace - (now - target.away_since))
            raise RoomError(f"{target.name} has been away only a moment: wait {wait} more seconds")
        target.stand_in = level

    def due_stand_in(self, seat: int, now: float) -> bool:
        """At a tournament's or Play online's table (nobody hosts it to ask), is the person at
        ``seat`` away past the grace with no computer player standing in yet?"""
        target = self.seats[seat]
        unhosted = self.tournament is not None or self.pool
        return (unhosted and target.kind == "person" and target.stand_in is None
                and target.away_since is not None and now - target.away_since >= self.away_grace)

    def stand_in_for(self, seat: int, now: float) -> bool:
        """A ``normal`` computer player plays for a person ``due_stand_in`` (the result counts).
        True if it changed the seat."""
        if not self.due_stand_in(seat, now):
            return False
        self.seats[seat].stand_in = "normal"
        return True

    def abandoned(self) -> tuple[int, ...]:
        """At Play online's table, the people whose seat a computer player plays now (away past
        the grace, or left the table): at the game's end, they abandoned it."""
        return abandoned_seats(self.seats) if self.pool else ()

    def clear(self, by: int | None, seat: int) -> None:
        """Host, in the lobby: empty a computer player's seat."""
        self._host_only(by)
        self._check_seat(seat)
        if self.phase is not Phase.LOBBY or self.seats[seat].kind != "computer":
            raise RoomError("only a computer player's seat can be emptied, before the game")
        self.seats[seat] = Seat()

    def set_stakes(self, by: int | None, stakes: TableStakes) -> None:
        """Host, in the lobby: the stake in chips per person (0: none) and the prize rule."""
        self.may_set_stakes(by)
        self.stakes = stakes

    def may_coach(self) -> None:
        """Refuse a coach's hint or advice at a table where the coach is off."""
        if not self.coach:
            where = "a tournament's table" if self.tournament is not None else "this table"
            raise RoomError(f"the coach is off at {where}: its games are rated")

    def may_set_stakes(self, by: int | None) -> None:
        """Raise RoomError unless ``by`` may set the table's stake now."""
        self._host_only(by)
        if self.solo:
            raise RoomError("a game against the computer has no stake")
        if self.phase is not Phase.LOBBY:
            raise RoomError("the stake is set in the lobby, before the first game")

    def staking_seats(self, stakes: TableStakes | None = None) -> list[int]:
        """The seats that stake in a game begun now (under ``stakes``, default the table's):
        the people's, if there is a stake."""
        if not (stakes or self.stakes).stake:
            return []
        return [i for i, seat in enumerate(self.seats) if seat.kind == "person"]

    def start(self, by: int | None, game_id: str) -> None:
        self._host_only(by)
        if self.phase is not Phase.LOBBY:
            raise RoomError("the game has already started")
        if any(seat.kind == "empty" for seat in self.seats):
            raise RoomError("every seat needs a player: invite someone or add a computer player")
        self._begin(game_id)

    def accept_rematch(self, by: int | None) -> bool:
        """A seated person's yes to a rematch (the first yes is the offer the others answer);
        True when every person seated has said yes, so the next game may be dealt
        (``begin_rematch``). Raises RoomError, changing nothing, when it may not be."""
        if by is None or not 0 <= by < len(self.seats) or self.seats[by].kind != "person":
            raise RoomError("only the players can ask for a rematch")
        if self.phase is not Phase.FINISHED:
            raise RoomError("the game is not over yet: a rematch is offered once it is")
        if self.tournament is not None:
            raise RoomError("a tournament's table plays one match: the next round is on its page")
        if by in self.rematch_yes:
            raise RoomError("you have said yes to the rematch already: the others are asked")
        self.rematch_yes.append(by)
        return self.rematch_ready()

    def rematch_ready(self) -> bool:
        """Has a rematch been offered, and has every person seated said yes to it?"""
        if self.phase is not Phase.FINISHED or not self.rematch_yes:
            return False
        return all(i in self.rematch_yes for i, seat in enumerate(self.seats) if seat.kind == "person")

    def closing(self) -> list[int]:
        """Between games: the seats the next game is dealt without, their people having left
        (the last such seat first, while more than two seats would stay). The computer players
        the host seated stay; a seat left during a game is played to its end by a computer."""
        if self.phase is not Phase.FINISHED or self.tournament is not None:
            return []
        gone = [i for i, seat in enumerate(self.seats) if seat.left]
        return sorted(gone[::-1][:max(0, len(self.seats) - 2)])

    def close_up(self) -> tuple[int, ...] | None:
        """The rematch about to be dealt: the seats ``closing`` names taken away, the others
        moved up in order (their tokens with them), the host's and the yeses' numbers and the
        rules' ``players`` following. Returns the old numbers of the seats kept, in their new
        order (None: every seat stays, nothing changed)."""
        if not self.rematch_ready():
            raise RoomError("the rematch waits for every player's yes")
        going = self.closing()
        if not going:
            return None
        kept = tuple(i for i in range(len(self.seats)) if i not in going)
        self.seats = [self.seats[i] for i in kept]
        self.host = kept.index(self.host) if self.host in kept else 0
        self.rematch_yes = [kept.index(i) for i in self.rematch_yes if i in kept]
        self.rules = self.rules.replace(players=len(kept))
        return kept

    def begin_rematch(self, game_id: str) -> None:
        """The rematch everyone seated said yes to: the next game, the seats ``close_up`` kept."""
        if not self.rematch_ready():
            raise RoomError("the rematch waits for every player's yes")
        self._begin(game_id)

    def finish(self) -> None:
        self.phase = Phase.FINISHED

    def came_back(self, seat: int) -> None:
        """The seat's owner is here again: no longer away, no stand-in."""
        self.seats[seat].away_since = None
        self.seats[seat].stand_in = None

    def went_away(self, seat: int, now: float) -> None:
        if self.seats[seat].kind == "person" and self.seats[seat].away_since is None:
            self.seats[seat].away_since = now

    def _begin(self, game_id: str) -> None:
        self.phase = Phase.PLAYING
        self.game = game_id
        self.games.append(game_id)
        self.staked = self.staking_seats()
        self.rematch_yes = []

    def _free_name(self) -> str:
        """The first computer player's name no seat uses (people's names compared without case)."""
        taken = {seat.name.casefold() for seat in self.seats if seat.kind != "empty"}
        return next(name for name in COMPUTER_NAMES if name.casefold() not in taken)

    def _host_only(self, by: int | None) -> None:
        if by != self.host:
            raise RoomError("only the host can do that")

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise RoomError(f"seat must be a number from 0 to {len(self.seats) - 1}")

    # -- storage --------------------------------------------------------------------------

    def rules_json(self) -> str | dict[str, Any]:
        """The rules' record form (made once for the rules the room holds; do not change it)."""
        if self._rules_json is None or self._rules_json[0] is not self.rules:
            self._rules_json = (self.rules, self.rules.to_json())
        return self._rules_json[1]

    def to_data(self) -> dict[str, Any]:
        """Everything but ``version`` and ``code`` (their own columns), as JSON-ready data."""
        return {"rules": self.rules_json(), "seats": [seat.to_data() for seat in self.seats],
                "host": self.host, "phase": str(self.phase), "timer": self.timer, "game": self.game,
                "solo": self.solo, "games": list(self.games), "away_grace": self.away_grace,
                "deadline": self.deadline, "stakes": self.stakes.to_json(), "staked": list(self.staked),
                "chips": self.chips, "tournament": self.tournament,
                "rematch": list(self.rematch_yes), "coach": self.coach, "listed": self.listed,
                "pool": self.pool}

    @classmethod
    def from_data(cls, code: str, version: int, data: dict[str, Any]) -> Room:
        return cls(code, Rules.from_json(data["rules"]), [Seat(**seat) for seat in data["seats"]],
                   data["host"], Phase(data["phase"]), data["timer"], data["game"], data["solo"],
                   version, list(data["games"]), float(data.get("away_grace", AWAY_GRACE)),
                   data.get("deadline"), TableStakes.from_json(data.get("stakes")),
                   list(data.get("staked", [])), data.get("chips"), data.get("tournament"),
                   rematch_yes=list(data.get("rematch", [])), coach=_coach_of(data),
                   listed=data.get("listed") is True, pool=data.get("pool") is True)


def _coach_of(data: dict[str, Any]) -> bool:
    """A stored room's coach: as saved, or (saved before rooms said) as it was then, on for a
    game against the computer and for friends' rooms, off at a tournament's table."""
    if "coach" in data:
        return bool(data["coach"])
    return data.get("tournament") is None


def abandoned_seats(seats: Sequence[Seat]) -> tuple[int, ...]:
    """The seats a computer player plays for their person: stood in for, or left the table."""
    return tuple(i for i, seat in enumerate(seats)
                 if (seat.kind == "person" and seat.stand_in is not None) or seat.left)


def new_code() -> str:
    """An unguessable room (and tournament) code (96 random bits), safe in a URL and as an
    option's value: never starting with "-", which argparse reads as an option
    (`okgin bot --join CODE`)."""
    while True:
        code = secrets.token_urlsafe(12)
        if not code.startswith("-"):
            return code


def clean_name(name: object) -> str:
    """A player's name: 1 to 20 printable characters, spaces folded."""
    if not isinstance(name, str):
        raise RoomError("your name must be text")
    text = " ".join(name.split())
    if not text or len(text) > MAX_NAME:
        raise RoomError(f"your name must be 1 to {MAX_NAME} characters")
    if any(unicodedata.category(char)[0] == "C" for char in text):
        raise RoomError("your name may not hold control characters")
    if profanity.contains_profanity(text):
        raise RoomError("choose another name: that one holds a word the tables do not allow")
    return text
