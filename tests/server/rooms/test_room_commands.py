"""The rooms' commands as pure operations on a room and its game: each called directly, with no
store, hall, lock or event loop, checked by the ``Change`` it returns and the room it leaves."""

from __future__ import annotations

import pytest

from okgin.rules import preset
from okgin.server.rooms import commands
from okgin.server.rooms.changes import Stale
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room, RoomError, new_code
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
    change = commands.leave(room, 2)  # Cy leaves: the next game is dealt to the two who stayed
    assert change.event == "left" and change.dealt is not None and room.phase is Phase.PLAYING
    assert room.names == ["Ann", "Ben"] and room.people == 2 and change.kept == (0, 1)
    assert room.rules.players == 2 and change.dealt.match.rules.players == 2


def _three_tokens() -> tuple[Room, list[str]]:
    """Ann, Ben and Cy at a table whose game is over, with their seats' tokens."""
    room, ann = Room.create(preset("oklahoma"), 3, "Ann")
    tokens = [ann, commands.sit(room, 1, "Ben").token or "", commands.sit(room, 2, "Cy").token or ""]
    commands.begin(room, 0, 4, rematch=False)
    room.finish()
    return room, tokens


def test_a_leaver_between_the_others_closes_the_table_up_and_each_token_follows_its_seat() -> None:
    room, tokens = _three_tokens()
    commands.begin(room, 0, None, rematch=True)  # Ann offers
    left = commands.leave(room, 1)  # Ben leaves: his seat goes at the next deal, not before
    assert left.dealt is None and len(room.seats) == 3 and room.public(0)["closing"] == [1]
    dealt = commands.begin(room, 2, 7, rematch=True)  # Cy says yes: dealt to Ann and Cy
    assert dealt.dealt is not None and dealt.kept == (0, 2)
    assert room.names == ["Ann", "Cy"] and room.rules.players == 2 and room.public(0)["closing"] == []
    assert [room.seat_for(token) for token in tokens] == [0, None, 1]
    assert room.host == 0 and room.staked == [] and room.rematch_yes == []


def test_the_host_who_leaves_at_the_offer_passes_the_host_on_to_a_seat_that_stays() -> None:
    room, tokens = _three_tokens()
    commands.begin(room, 1, None, rematch=True)  # Ben offers
    commands.leave(room, 0)  # Ann, the host, leaves
    assert commands.begin(room, 2, 7, rematch=True).kept == (1, 2)
    assert room.names == ["Ben", "Cy"] and room.host == 0 and room.seat_for(tokens[1]) == 0


def test_a_room_never_closes_up_below_two_seats_nor_sends_the_hosts_computer_players_away() -> None:
    two, _game = _playing()
    two.finish()
    commands.begin(two, 0, None, rematch=True)
    change = commands.leave(two, 1)  # Ben leaves a table of two: a computer plays his seat on
    assert change.dealt is not None and change.kept is None
    assert two.names == ["Ann", "Ben"] and two.seats[1].kind == "computer" and two.rules.players == 2
    room, _tokens = _three_tokens()
    commands.begin(room, 0, None, rematch=True)
    commands.leave(room, 1)
    change = commands.leave(room, 2)  # both leave Ann: one seat goes, the other stays a computer's
    assert change.kept == (0, 1) and room.names == ["Ann", "Ben"] and room.seats[1].kind == "computer"
    with_computer, _ = Room.create(preset("oklahoma"), 3, "Ann")
    commands.computer(with_computer, 0, 1, "easy", 0.0)  # the host's computer player stays
    commands.sit(with_computer, 2, "Cy")
    commands.begin(with_computer, 0, 4, rematch=False)
    with_computer.finish()
    commands.begin(with_computer, 0, None, rematch=True)
    assert commands.leave(with_computer, 2).kept == (0, 1)
    assert with_computer.names == ["Ann", "Ruby"] and with_computer.levels() == [None, "easy"]


def test_a_leaver_during_a_game_keeps_its_seat_to_the_end_and_is_not_dealt_the_next() -> None:
    room, _tokens = _three_tokens()
    room.phase = Phase.PLAYING  # the game goes on: Cy leaves it, a computer player finishes it
    commands.leave(room, 2)
    assert room.names == ["Ann", "Ben", "Cy"] and room.public(0)["closing"] == []
    room.finish()
    assert room.public(0)["closing"] == [2]
    commands.begin(room, 0, None, rematch=True)
    assert commands.begin(room, 1, 3, rematch=True).kept == (0, 1) and room.names == ["Ann", "Ben"]


@pytest.mark.parametrize(("hand_size", "cards"), [(None, 10), (7, 7)])
def test_a_three_player_preset_dealt_to_two_keeps_its_rules_with_two_players_cards(
    hand_size: int | None, cards: int,
) -> None:
    rules = preset("oklahoma-multiplayer").replace(hand_size=hand_size)
    room, _ = Room.create(rules, 3, "Ann")
    commands.sit(room, 1, "Ben")
    commands.sit(room, 2, "Cy")
    commands.begin(room, 0, 4, rematch=False)
    room.finish()
    commands.begin(room, 0, None, rematch=True)
    commands.leave(room, 1)
    dealt = commands.begin(room, 2, 5, rematch=True).dealt
    assert dealt is not None and room.rules == rules.replace(players=2) and room.rules.preset == rules.preset
    assert room.rules.cards_each == cards and len(dealt.match.view(0).hand) == cards


def test_a_rematch_nobody_left_keeps_every_seat_and_deals_the_seeded_game_as_ever() -> None:
    room, _tokens = _three_tokens()
    before = room.to_data()
    for seat in (0, 1):
        commands.begin(room, seat, None, rematch=True)
    change = commands.begin(room, 2, 5, rematch=True)
    assert change.kept is None and change.dealt is not None
    after = room.to_data()
    assert {key: after[key] for key in ("rules", "seats", "host")} == \
        {key: before[key] for key in ("rules", "seats", "host")}
    fresh = Game.deal(preset("oklahoma").replace(players=3), 5)
    names = ["Ann", "Ben", "Cy"]
    assert change.dealt.record(names)["hands"] == fresh.record(names)["hands"]


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


def test_codes_never_start_with_a_dash() -> None:
    """A room's or tournament's code is typed as an option's value (`okgin bot --join CODE`),
    where one starting with "-" is read as an option: one in 64 did (a loaded run's
    `okgin bot --join` failed on such a code)."""
    assert not [code for code in (new_code() for _ in range(2_000)) if code.startswith("-")]
    assert len(new_code()) == 16  # as many random bits as before, but for the first character's
