"""The open tables and the games being played now, read from the store (so every process lists
the same): the public rooms waiting for players, and the public games in play, best-rated first.

A room is listed only if its host made it an open table (``Room.listed``). It waits for players while
it is in its lobby with a free seat and its host is there (not away); it leaves the list when
its seats are filled, its game starts or its host goes. Once it plays it is among the games
being played now, ordered by the mean rating of the people seated (one with no rating in the
family counts as a new player, ``SHOWN_NEW``), until its game is over. Blocking: run
``read_lists`` in a thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from okgin.rules import Rules
from okgin.server.players.rating_store import RatingStore
from okgin.server.players.ratings import SHOWN_NEW, family
from okgin.server.rooms.room import Room
from okgin.server.store.room_store import RoomTable
from okgin.server.tournaments.words import preset_name

LISTED = 50
"""The most tables each list shows."""
READ = 200
"""The most public rooms of a phase read to make a list (the last made first): rooms filled or
left by their host are read and skipped."""


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A public table waiting for players, as the list shows it."""

    code: str
    host: str
    seats: int
    free: int
    rules: str
    target: int
    timer: int | None
    coach: bool
    stake: int


@dataclass(frozen=True, slots=True)
class Player:
    """A seat of a game being played: a person with their rating shown, or a computer player."""

    name: str
    rating: int | None
    level: str | None


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A public game being played now: its seats, the mean rating of its people, its rules."""

    code: str
    players: tuple[Player, ...]
    rating: int
    rules: str
    target: int
    timer: int | None


@dataclass(frozen=True, slots=True)
class Lists:
    waiting: tuple[OpenTable, ...]
    playing: tuple[LiveGame, ...]


def rules_in_words(rules: Rules) -> str:
    """The rules as the lobby says them (static/words.js ``rulesName``): the preset's name, and
    "with house rules" when any rule but the target and the seats is changed."""
    named = preset_name(rules.preset).split(" (")[0]
    changed = {name for name in rules.changes() if name not in ("target", "players")}
    return f"{named}, with house rules" if changed else named


def waiting(room: Room) -> OpenTable | None:
    """``room`` as a table waiting for players, or None when it is not one (private, playing,
    full, or its host is away)."""
    host = room.seats[room.host] if 0 <= room.host < len(room.seats) else None
    free = sum(1 for seat in room.seats if seat.kind == "empty")
    if (not room.listed or room.solo or room.tournament is not None or room.phase.value != "lobby"
            or not free or host is None or host.kind != "person" or host.away_since is not None):
        return None
    return OpenTable(room.code, host.name, len(room.seats), free, rules_in_words(room.rules),
                     room.rules.target, room.timer, room.coach, room.stakes.stake)


def playing(room: Room, seated: dict[int, str], rated: dict[str, int]) -> LiveGame | None:
    """``room`` as a game being played now, or None when it is not one (private, not playing,
    or with nobody but computer players); ``seated``: its seats' players, ``rated``: their
    shown ratings in its family."""
    if not room.listed or room.solo or room.phase.value != "playing":
        return None
    shown: list[Player] = []
    for number, seat in enumerate(room.seats):
        if seat.kind == "person":
            player = seated.get(number)
            shown.append(Player(seat.name, rated.get(player, SHOWN_NEW) if player else SHOWN_NEW, None))
        else:
            shown.append(Player(seat.name, None, seat.level))
    people = [p.rating for p in shown if p.rating is not None]
    if not people:
        return None
    return LiveGame(room.code, tuple(shown), round(sum(people) / len(people)), rules_in_words(room.rules),
                    room.rules.target, room.timer)


def best_first(games: Sequence[LiveGame]) -> list[LiveGame]:
    """The games by their people's mean rating, the best first (equal ones as they came)."""
    return sorted(games, key=lambda game: -game.rating)


def read_lists(rooms: RoomTable[Room], ratings: RatingStore, limit: int = LISTED) -> Lists:
    """Both lists as the store holds them now. Blocking: run it in a thread."""
    open_tables = [table for room, _ in rooms.listed_rooms("lobby", READ)
                   if (table := waiting(room)) is not None]
    in_play = rooms.listed_rooms("playing", READ)
    by_family: dict[str, set[str]] = {}
    for room, seated in in_play:
        by_family.setdefault(family(len(room.seats)), set()).update(seated.values())
    shown = {kind: {player: rating.shown for player, rating in ratings.ratings_in(kind, players).items()}
             for kind, players in by_family.items()}
    games = [game for room, seated in in_play
             if (game := playing(room, seated, shown.get(family(len(room.seats)), {}))) is not None]
    return Lists(tuple(open_tables[:limit]), tuple(best_first(games)[:limit]))
