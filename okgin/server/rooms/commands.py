"""What the table does to a room, each one change: pure functions of the room and its game.

Each checks, changes the room (and its game) in memory and returns the ``Change`` to save,
or raises (``RoomError``, the engine's ``OkginError``) before it changes anything. None reads
or writes the store, waits or takes a lock: ``LiveRoom.commit`` runs them under its lock and
saves what they return, so each can be tried on a room made in a test, as an operation of a
game's state is (what a command needs from the store, such as a seat's chips, it is handed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from okgin.actions import PlayerAction
from okgin.server.rooms.changes import Change, Stale
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room, RoomError
from okgin.server.rooms.stakes import TableStakes, game_penalties, split_among, stake_refusal

Seen = tuple[Game, tuple[int, int]]
"""The game and its moves a computer player's decision was made on."""


def sit(room: Room, seat: int, name: str, player: str | None = None) -> Change:
    """Take ``seat``; the change carries the seat's token (and the seat's player, if known)."""
    token = room.sit(seat, name)
    return Change("sit", token=token, seated={seat: player} if player is not None else None)


def computer(room: Room, by: int | None, seat: int, level: str, now: float) -> Change:
    room.set_computer(by, seat, level, now)
    return Change("room")


def clear(room: Room, by: int | None, seat: int) -> Change:
    room.clear(by, seat)
    return Change("room")


def leave(room: Room, seat: int) -> Change:
    """A person leaves the table for good (a computer player takes the seat). A game over with
    a rematch offered: once the people still seated have all said yes, it is dealt (without the
    seats of those who left, while two stay: ``_deal_rematch``)."""
    room.leave(seat)
    if room.rematch_ready():
        return _deal_rematch(room, None, "left")
    return Change("left")


def stakes(room: Room, by: int | None, table: TableStakes, players: Mapping[int, str],
           balance_of: Callable[[str], int]) -> Change:
    """Host, in the lobby: the table's stake and prize rule. Every seated person must have the
    chips (``players``: each seat's player; ``balance_of``: a player's chips, asked seat by seat
    until one is short): a table nobody can start is refused now, not at the start."""
    room.may_set_stakes(by)
    for seat in room.staking_seats(table):
        player = players.get(seat)
        balance = None if player is None else balance_of(player)
        if balance is None or balance < table.stake:
            raise stake_refusal(room.names[seat], table.stake, balance)
    room.set_stakes(by, table)
    return Change("room")


def begin(room: Room, by: int | None, seed: int | None, rematch: bool) -> Change:
    """Start the room's game (or say yes to a rematch with the same seats: ``rematch_yes``):
    a fresh deal, the change's ``dealt``."""
    if rematch:
        return rematch_yes(room, by, seed)
    game = Game.deal(room.rules, seed)
    room.start(by, game.id)
    return Change("start", game=True, new_game=True, dealt=game)


def rematch_yes(room: Room, by: int | None, seed: int | None) -> Change:
    """A person's yes to a rematch (the first offers it): the others are shown who said yes;
    the last yes deals the next game."""
    if not room.accept_rematch(by):
        return Change("rematch")
    return _deal_rematch(room, seed, "start")


def _deal_rematch(room: Room, seed: int | None, event: str) -> Change:
    """The rematch every person seated said yes to, dealt to the seats that stay: those whose
    people left between games are taken away first (``Room.close_up``; the change's ``kept``)."""
    kept = room.close_up()
    game = Game.deal(room.rules, seed)
    room.begin_rematch(game.id)
    return Change(event, game=True, new_game=True, dealt=game, kept=kept)


def play(room: Room, game: Game | None, seat: int, action: str | PlayerAction,
         seen: Seen | None = None) -> Change:
    """``seat``'s move: a person's text, or a computer player's (or the turn timer's) decision
    with ``seen``, the game and moves it was made on (Stale if the game has moved on since)."""
    if seen is not None:
        if game is not seen[0] or game.moves != seen[1]:
            raise Stale("the game moved on")
    elif game is None or room.phase is not Phase.PLAYING:
        raise RoomError("the game has not started" if game is None else "the game is over")
    assert game is not None
    if isinstance(action, str):
        action = game.act(seat, action)
    else:
        game.apply(action)
    if game.match.over:
        room.finish()
        return Change(str(action).strip(), game=True, payout=settle(room, game))
    return Change(str(action).strip(), game=True)


def settle(room: Room, game: Game) -> dict[int, int] | None:
    """A staked game just over: its pool's split (paid with the move's save), shown to all."""
    final = game.match.final
    if not room.staked or final is None:
        return None
    pool = room.stakes.stake * len(room.staked)
    shares = split_among(pool, room.staked, game_penalties(game.match), final.scores, final.winner,
                         room.stakes.prizes)
    room.chips = {"game": game.id, "pool": pool,
                  "shares": [shares.get(seat) for seat in range(len(room.seats))]}
    return shares


def next_hand(room: Room, game: Game | None, seen: object) -> Change:
    """Deal the next hand. ``seen``: the hand number the asker saw end (another may have asked first)."""
    if game is None:
        raise RoomError("the game has not started")
    dealt = isinstance(seen, int) and len(game.match.hands) > seen
    if dealt or (seen is None and not room.solo and game.match.current is not None):
        return Change(None, save=False)  # another player asked first: the next hand is already dealt
    game.next_hand()
    return Change("deal", game=True)


def came_back(room: Room, seat: int) -> Change:
    """The seat's page is here: no longer away (nothing changes if it was not)."""
    if room.seats[seat].away_since is None and room.seats[seat].stand_in is None:
        return Change(save=False)
    room.came_back(seat)
    return Change("back")


def went_away(room: Room, seat: int, now: float) -> Change:
    if room.seats[seat].kind != "person" or room.seats[seat].away_since is not None:
        return Change(save=False)  # marked by another process meanwhile
    room.went_away(seat, now)
    return Change("away")


def stand_in(room: Room, seat: int, now: float) -> Change:
    """A tournament's table: a computer player for a person away past the grace, if one is."""
    return Change("room") if room.stand_in_for(seat, now) else Change(save=False)
