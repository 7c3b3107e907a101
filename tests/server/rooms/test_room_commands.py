"""The rooms' commands as pure operations on a room and its game: each called directly, with no
store, hall, lock or event loop, checked by the ``Change`` it returns and the room it leaves."""

from __future__ import annotations

import pytest

from okgin.rules import preset
from okgin.server.rooms import commands
from okgin.server.rooms.changes import Stale
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room, RoomError
from okgin.server.rooms.stakes import CannotPay, TableStakes


def _lobby() -> Room:
    room, _token = Room.create(preset("oklahoma"), 2, "Ann")
    return room


def _playing(seed: int = 4) -> tuple[Room, Game]:
    room = _lobby()
    commands.sit(room, 1, "Ben")
    change = commands.begin(room, 0, seed, rematch=False)
    assert change.dealt is not None
    return room, change.dealt


def test_sit_carries_the_token_and_the_seats_player() -> None:
    room = _lobby()
    change = commands.sit(room, 1, "Ben", player="p-ben")
    assert change.event == "sit" and change.save and change.token is not None
    assert room.seat_for(change.token) == 1 and room.names[1] == "Ben"
    assert change.seated == {1: "p-ben"}
    assert commands.sit(_lobby(), 1, "Cy").seated is None  # a program's seat: nobody's row


def test_the_lobby_commands_change_the_room_and_refuse_before_changing_anything() -> None:
    room = _lobby()
    assert commands.computer(room, 0, 1, "easy", 0.0).event == "room"
    assert room.levels() == [None, "easy"]
    with pytest.raises(RoomError):
        commands.clear(room, 1, 1)  # only the host clears a seat
    assert room.levels() == [None, "easy"]
    assert commands.clear(room, 0, 1).event == "room" and room.seats[1].kind == "empty"


def test_stakes_ask_each_staking_seats_chips_and_refuse_a_seat_short() -> None:
    room = _lobby()
    commands.sit(room, 1, "Ben")
    table = TableStakes.read(50, "scaled", 50)
    asked: list[str] = []

    def balance(player: str) -> int:
        asked.append(player)
        return {"p-ann": 500, "p-ben": 20}[player]

    with pytest.raises(CannotPay, match="Ben has 20 chips, fewer than the stake of 50"):
        commands.stakes(room, 0, table, {0: "p-ann", 1: "p-ben"}, balance)
    assert asked == ["p-ann", "p-ben"] and not room.stakes.stake
    with pytest.raises(CannotPay, match="Ben has no wallet for chips"):
        commands.stakes(room, 0, table, {0: "p-ann"}, balance)
    assert commands.stakes(room, 0, table, {0: "p-ann", 1: "p-ben"}, {"p-ann": 90, "p-ben": 60}.__getitem__)
    assert room.stakes.stake == 50


def test_begin_deals_a_game_of_its_own_and_play_moves_it() -> None:
    room, game = _playing()
    assert room.phase is Phase.PLAYING and room.game == game.id
    seat = game.to_act()
    assert seat is not None
    text = str(game.match.view(seat).legal[0]).split(" ", 1)[1]
    before = game.moves
    change = commands.play(room, game, seat, text)
    assert change.game and change.save and change.event == f"{seat} {text}"
    assert game.moves != before and change.payout is None


def test_a_decision_about_a_game_that_moved_on_is_stale() -> None:
    room, game = _playing()
    seat = game.to_act()
    assert seat is not None
    seen = (game, game.moves)
    action = game.match.view(seat).legal[0]
    commands.play(room, game, seat, str(action).split(" ", 1)[1])
    with pytest.raises(Stale):
        commands.play(room, game, seat, action, seen)


def test_the_next_hand_is_dealt_once_however_many_ask() -> None:
    room, game = _playing()
    with pytest.raises(RoomError, match="has not started"):
        commands.next_hand(room, None, 1)
    assert not commands.next_hand(room, game, 0).save  # hand 1 is dealt already
    assert not commands.next_hand(room, game, None).save  # a friends' hand still being played
    assert len(game.match.hands) == 1


def test_away_back_and_stand_in() -> None:
    room, _game = _playing()
    assert commands.went_away(room, 1, 100.0).event == "away" and room.seats[1].away_since == 100.0
    assert commands.went_away(room, 1, 200.0).save is False  # marked already (another process)
    assert commands.came_back(room, 1).event == "back" and room.seats[1].away_since is None
    assert commands.stand_in(room, 1, 300.0).save is False  # a friends' table: never without its host
    assert commands.leave(room, 1).event == "left" and room.seats[1].kind == "computer"


def _three_over() -> Room:
    """Ann, Ben and Cy at a table whose game is over."""
    room, _token = Room.create(preset("oklahoma"), 3, "Ann")
    commands.sit(room, 1, "Ben")
    commands.sit(room, 2, "Cy")
    commands.begin(room, 0, 4, rematch=False)
    room.finish()
    return room


def test_a_rematch_is_an_offer_dealt_once_every_person_seated_says_yes() -> None:
    room = _three_over()
    first = room.game
    offered = commands.begin(room, 1, None, rematch=True)  # Ben offers
    assert offered.event == "rematch" and offered.dealt is None and not offered.new_game
    assert room.phase is Phase.FINISHED and room.game == first and room.public(0)["rematch"] == [1]
    assert commands.begin(room, 0, None, rematch=True).dealt is None and room.rematch_yes == [1, 0]
    again = Room.from_data(room.code, 1, room.to_data())  # the answers are stored with the room
    assert again.rematch_yes == [1, 0]
    dealt = commands.begin(room, 2, 5, rematch=True)  # the last yes deals
    assert dealt.event == "start" and dealt.dealt is not None and dealt.new_game
    assert room.phase is Phase.PLAYING and room.game == dealt.dealt.id != first and room.rematch_yes == []


def test_a_person_who_leaves_instead_lets_the_rematch_go_on_without_them() -> None:
    room = _three_over()
    commands.begin(room, 0, None, rematch=True)  # Ann offers
    commands.begin(room, 1, None, rematch=True)  # Ben says yes
    change = commands.leave(room, 2)  # Cy leaves: the computer always says yes for the seat
    assert change.event == "left" and change.dealt is not None and room.phase is Phase.PLAYING
    assert room.seats[2].kind == "computer" and room.seats[2].left and room.people == 2


def test_a_leaver_who_had_said_yes_is_no_longer_counted_and_nobody_offering_deals_nothing() -> None:
    room = _three_over()
    commands.begin(room, 2, None, rematch=True)  # Cy offers, then leaves
    assert commands.leave(room, 2).dealt is None and room.rematch_yes == []
    assert commands.leave(room, 1).dealt is None and room.phase is Phase.FINISHED  # no offer stands


@pytest.mark.parametrize(("by", "words"), [
    (None, "only the players"), (5, "only the players"), (-1, "only the players"),
])
def test_a_rematch_from_no_seated_person_is_refused_and_changes_nothing(by: int | None, words: str) -> None:
    room = _three_over()
    before = room.to_data()
    with pytest.raises(RoomError, match=words):
        commands.begin(room, by, None, rematch=True)
    assert room.to_data() == before


def test_a_rematch_offered_before_the_game_is_over_or_twice_is_refused_and_changes_nothing() -> None:
    room, _game = _playing()
    before = room.to_data()
    with pytest.raises(RoomError, match="the game is not over yet"):
        commands.begin(room, 0, None, rematch=True)
    assert room.to_data() == before and room.phase is Phase.PLAYING
    over = _three_over()
    commands.begin(over, 0, None, rematch=True)
    said = over.to_data()
    with pytest.raises(RoomError, match="said yes to the rematch already"):
        commands.begin(over, 0, None, rematch=True)
    assert over.to_data() == said
