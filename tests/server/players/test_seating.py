"""players/seating: who may open a finished game by its id (its players, or anyone once it is
public: as its record), and the one check that a seat can pay a table's stake."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted_client import run
from sqlalchemy import update
from stored_games import store_record
from test_coach_server import finished_record

from okgin.server.players.identity import Players
from okgin.server.players.seating import Seating
from okgin.server.players.sharing import Sharing
from okgin.server.rooms.stakes import CannotPay, check_stake
from okgin.server.store.chips import Wallets
from okgin.server.store.schema import chip_wallets
from okgin.server.store.storage import Store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'seating.db'}")


def test_a_finished_game_opens_to_its_players_and_to_everyone_once_public(store: Store) -> None:
    players = Players(store.engine)
    (ann, _), (bob, _) = players.new_guest(), players.new_guest()
    store_record(store, "game1", finished_record(1), ["simple"])  # Ann against the computer
    players.sat_in_game("game1", {0: ann.player})

    def may(player: str | None, finished: bool = True, seated: bool = False) -> bool:
        seating = Seating(players, Wallets(store.engine), player, None)
        return run(seating.may_open("game1", finished, seated))

    assert may(ann.player) and not may(bob.player) and not may(None)
    assert may(bob.player, finished=False)  # a game in play may be watched by its id
    assert may(None, seated=True)  # a program with the seat's token played it
    Sharing(store.engine).say(ann.player, "game1", True)
    assert may(bob.player) and may(None)


def test_one_check_and_one_wording_for_a_seat_that_cannot_pay(store: Store) -> None:
    players, wallets = Players(store.engine), Wallets(store.engine)
    cy, _ = players.new_guest()
    assert wallets.balance(cy.player) == 1000  # today's grant
    check_stake(wallets, cy.player, "Cy", 100)
    check_stake(wallets, None, "Cy", 0)  # no stake: nothing to pay
    with store.engine.begin() as db:
        db.execute(update(chip_wallets).where(chip_wallets.c.player == cy.player).values(balance=40))
    with pytest.raises(CannotPay) as short:
        check_stake(wallets, cy.player, "Cy", 100)
    assert str(short.value) == ("Cy has 40 chips, fewer than the stake of 100: "
                                "lower the stake, or wait for tomorrow's chips")
    with pytest.raises(CannotPay) as nobody:
        check_stake(wallets, None, "Cy", 100)
    assert str(nobody.value) == ("Cy has no wallet for chips: a table that plays for chips is for "
                                 "players in a browser")
