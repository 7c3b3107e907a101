"""Names checked at the edge (issue 26, item 5): a chosen name that looks like another player's
is refused, whatever script, width, accent, invisible character or case makes the difference;
a name holding a word from the word list is refused wherever a name is typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from okgin.server.players.identity import Players
from okgin.server.rooms.room import RoomError, clean_name
from okgin.server.store import schema as tables
from okgin.server.store.name_keys import name_key
from okgin.server.store.storage import Store


@pytest.mark.parametrize("alike", [
    "Anna",
    "ANNA", "anna",  # case
    "\u0410nna", "Ann\u0430",  # Cyrillic А and а
    "An\u200bna", "A\u200dnna",  # a zero-width space, a zero-width joiner
    "\uff21\uff4e\uff4e\uff41",  # fullwidth
    "Ánna", "Anna\u0301",  # an accent, precomposed or combining
    "  Anna  ",
])
def test_look_alikes_share_a_key(alike: str) -> None:
    assert name_key(alike) == name_key("Anna") == "anna"


@pytest.mark.parametrize(("one", "other"),
                         [("Bill", "BiII"), ("Bill", "Bi11"), ("Bob", "B0b"), ("Bob", "BOB")])
def test_ascii_letters_that_read_alike_share_a_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize("different", ["Anne", "Ann", "Hanna", "Anna B", "Аnya"])
def test_different_names_keep_different_keys(different: str) -> None:
    assert name_key(different) != name_key("Anna")


def test_a_chosen_name_is_refused_when_another_players_looks_like_it(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'names.db'}")
    players = Players(store.engine)
    (ann_session, _), (eve_session, _) = players.new_guest(), players.new_guest()
    ann, eve = ann_session.player, eve_session.player
    assert players.set_name(ann, "Anna") == "Anna"
    for alike in ("anna", "\u0410nna", "\uff21nna", "Ánna"):
        with pytest.raises(RoomError, match="looks like it"):
            players.set_name(eve, alike)
    assert players.set_name(ann, "ANNA") == "ANNA"  # one's own name, in another case
    players.name_once(eve, "Anna")  # a name typed at a table: not hers to keep, and no error
    with store.engine.connect() as db:
        assert db.execute(select(tables.players.c.name).where(tables.players.c.id == eve)).scalar() is None
    assert players.set_name(eve, "Eve") == "Eve"
    store.close()


@pytest.mark.parametrize("name", ["fuck", "Sh1t head", "a55hole"])
def test_a_word_from_the_list_is_refused_wherever_a_name_is_typed(name: str) -> None:
    with pytest.raises(RoomError, match="a word the tables do not allow"):
        clean_name(name)


@pytest.mark.parametrize("name", ["Ann", "Scunthorpe", "Cassius", "Shitake Sam"])
def test_ordinary_names_pass(name: str) -> None:
    assert clean_name(name) == name
