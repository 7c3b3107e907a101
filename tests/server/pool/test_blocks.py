"""Blocks in Play online's pool: the pairing never puts two players at one table where either
blocked the other (any seekers, any blocks: hypothesis), read from a real store."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from okgin.server.players.blocks import BlockError, Blocks
from okgin.server.pool.seekers import Seeker
from okgin.server.pool.window import compatible, tables, unblocked
from okgin.server.store.schema import game_players, games
from okgin.server.store.storage import Store

PLAYERS = [f"p{i}" for i in range(6)]


def _seeker(n: int, player: str, rating: int, seats: int) -> Seeker:
    return Seeker(f"s{n}", player, player, "oklahoma", seats, rating, float(n), 1e12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PLAYERS), st.integers(1400, 1600)), max_size=10),
       st.sets(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS))),
       st.sampled_from([2, 3, 4]))
def test_no_table_seats_two_players_where_either_blocked_the_other(
    wanted: list[tuple[str, int]], blocks: set[tuple[str, str]], seats: int,
) -> None:
    seekers = [_seeker(n, player, rating, seats) for n, (player, rating) in enumerate(wanted)]
    blocked = {frozenset(pair) for pair in blocks}
    for table in tables(seekers, 100.0, unblocked(compatible, blocked)):
        people = [s.player for s in table]
        assert len(table) == seats
        assert not any(frozenset((a, b)) in blocked for a in people for b in people if a != b)


def test_without_blocks_the_pairing_is_the_same() -> None:
    seekers = [_seeker(n, player, 1500, 2) for n, player in enumerate(PLAYERS)]
    assert tables(seekers, 0.0, unblocked(compatible, set())) == tables(seekers, 0.0)


def _store_with_a_game(tmp_path: Path) -> Store:
    store = Store(f"sqlite:///{tmp_path / 'okgin.db'}")
    with store.engine.begin() as db:
        db.execute(games.insert().values(id="g1", created=1.0, updated=1.0, status="finished", levels="[]",
                                           head="{}", version=0))
        db.execute(game_players.insert(), [{"game": "g1", "seat": 0, "player": "ann"},
                                           {"game": "g1", "seat": 1, "player": "ben"}])
    return store


def test_a_block_from_a_shared_game_is_read_by_the_pool_and_lifted_by_its_key(tmp_path: Path) -> None:
    blocks = Blocks(_store_with_a_game(tmp_path).engine)
    assert blocks.among(["ann", "ben", "cat"]) == set()
    assert [o.seat for o in blocks.opponents("ann")] == [1]
    assert blocks.block_seat("ann", "g1", "1") == "ben"
    assert blocks.block_seat("ann", "g1", "1") == "ben"  # again: the same, one row
    assert blocks.among(["ben", "ann", "cat"]) == {frozenset(("ann", "ben"))}
    assert blocks.among(["ben", "cat"]) == set()
    [row] = blocks.listed("ann")
    assert blocks.listed("ben") == [] and blocks.opponents("ann")[0].blocked
    assert not blocks.unblock("ben", row.key) and not blocks.unblock("ann", "nonsense")
    assert blocks.unblock("ann", row.key)
    assert blocks.among(["ann", "ben"]) == set()


def test_a_block_not_from_a_shared_game_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    blocks = Blocks(_store_with_a_game(tmp_path).engine)
    for player, game, seat in [("cat", "g1", "1"), ("ann", "g1", "0"), ("ann", "g1", "5"),
                               ("ann", "g2", "1"), ("ann", "g1", "-1"), ("ann", None, "1"),
                               ("ann", "g1", "\u00b2"), ("ann", "g1", "\u2460")]:  # digits to isdigit only
        try:
            blocks.block_seat(player, game, seat)
        except BlockError as error:
            assert str(error)
        else:
            raise AssertionError(f"{player} blocked {game}/{seat}")
    assert blocks.among(["ann", "ben", "cat"]) == set() and blocks.listed("ann") == []
