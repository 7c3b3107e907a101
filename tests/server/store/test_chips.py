"""Play chips in the store: the daily grant, stakes all or none, a pool paid or refunded once,
balances never below zero (two threads on PostgreSQL too), and no chip made or lost."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from real_servers import Postgres
from sqlalchemy import func, select, text, update
from sqlalchemy.exc import IntegrityError

from okgin.prizes import PrizeRules
from okgin.server.players.identity import Players
from okgin.server.rooms.stakes import split_among
from okgin.server.store import chips
from okgin.server.store.chips import DAILY_CHIPS, ChipsError, Short, Wallets
from okgin.server.store.schema import chip_ledger, chip_pools, chip_wallets
from okgin.server.store.storage import Store
from okgin.server.store.tournament_store import TournamentStore
from okgin.server.tournaments.events import Tournaments
from okgin.server.tournaments.settings import TournamentError, read_settings

DAY = 1_800_000_000.0  # a Unix time; DAY + 86_400 is the next UTC day


def _store(url: str) -> tuple[Store, Wallets, Players]:
    store = Store(url)
    return store, Wallets(store.engine), Players(store.engine)


def _seat(players: Players, room: str, names: list[str]) -> None:
    for seat, player in enumerate(names):
        players.sat_in_room(room, seat, player)


def _stake(store: Store, game: str, room: str, stake: int, seats: list[int]) -> int:
    with store.engine.begin() as db:
        return chips.take_stakes(db, game, room, stake, seats)


def _snapshot(store: Store) -> tuple[object, ...]:
    with store.engine.connect() as db:
        wallets = sorted(db.execute(select(chip_wallets)).all())
        ledger = db.execute(select(func.count()).select_from(chip_ledger)).scalar()
        pools = sorted(db.execute(select(chip_pools.c.game, chip_pools.c.status)).all())
    return tuple(wallets), ledger, tuple(pools)


def conserved(store: Store) -> tuple[int, int, int]:
    """(balances + held pools, grants, the least balance); each wallet equals its ledger's sum."""
    with store.engine.connect() as db:
        balances = dict(db.execute(select(chip_wallets.c.player, chip_wallets.c.balance)).all())
        sums = dict(db.execute(select(chip_ledger.c.player, func.sum(chip_ledger.c.amount))
                               .group_by(chip_ledger.c.player)).all())
        held = db.execute(select(func.coalesce(func.sum(chip_pools.c.total), 0))
                          .where(chip_pools.c.status == "held")).scalar()
        grants = db.execute(select(func.coalesce(func.sum(chip_ledger.c.amount), 0))
                            .where(chip_ledger.c.kind == "grant")).scalar()
    assert {p: b for p, b in balances.items() if b} == {p: s for p, s in sums.items() if s}
    return sum(balances.values()) + int(held or 0), int(grants or 0), min(balances.values(), default=0)


def test_the_daily_grant_tops_up_once_a_utc_day(tmp_path: Path) -> None:
    store, wallets, _ = _store(f"sqlite:///{tmp_path / 'c.db'}")
    assert wallets.balance("ann", DAY) == DAILY_CHIPS
    assert wallets.balance("ann", DAY + 60) == DAILY_CHIPS  # the same day: nothing more
    with store.engine.begin() as db:
        db.execute(update(chip_wallets).values(balance=250))  # as if 750 were staked and lost
    assert wallets.balance("ann", DAY + 120) == 250
    assert wallets.balance("ann", DAY + 86_400) == DAILY_CHIPS  # the next day: topped up
    assert [(line.kind, line.amount, line.balance) for line in wallets.ledger("ann")] == [
        ("grant", 750, 1000), ("grant", 1000, 1000)]


def test_stakes_are_taken_all_or_none_and_a_pool_is_paid_once(tmp_path: Path) -> None:
    store, wallets, players = _store(f"sqlite:///{tmp_path / 'c.db'}")
    _seat(players, "room", ["ann", "bob", "cy"])
    _seat(players, "other", ["cy"])
    _stake(store, "g0", "other", 970, [0])  # cy's other table holds 970 of her chips
    before = _snapshot(store)
    with pytest.raises(Short, match="seat 2 has 30 chips, fewer than the stake of 50"):
        _stake(store, "g1", "room", 50, [0, 1, 2])
    assert _snapshot(store) == before  # ann's and bob's stakes were not taken either
    assert _stake(store, "g1", "room", 20, [0, 1, 2]) == 60
    assert [wallets.balance(p) for p in ("ann", "bob", "cy")] == [980, 980, 10]
    with store.engine.begin() as db:
        assert chips.pay_out(db, "g1", {0: 45, 1: 15, 2: 0})
    with store.engine.begin() as db:  # a re-run change, a rematch, a process catching up
        assert not chips.pay_out(db, "g1", {0: 45, 1: 15, 2: 0})
        assert not chips.refund(db, "g1")
    assert [wallets.balance(p) for p in ("ann", "bob", "cy")] == [1025, 995, 10]
    assert wallets.pool("g1") == (60, "paid")
    assert conserved(store)[:2] == (3000, 3000)


def test_shares_that_do_not_split_the_pool_pay_nothing(tmp_path: Path) -> None:
    store, _, players = _store(f"sqlite:///{tmp_path / 'c.db'}")
    _seat(players, "room", ["ann", "bob"])
    _stake(store, "g1", "room", 100, [0, 1])
    before = _snapshot(store)
    for shares in ({0: 150, 1: 0}, {0: 200}, {0: 201, 1: -1}, {0: 100, 2: 100}):
        with pytest.raises(ChipsError, match="do not split the pool of 200"), store.engine.begin() as db:
            chips.pay_out(db, "g1", shares)
        assert _snapshot(store) == before
    for stake in (0, -5, 2.5, True, "50"):
        with pytest.raises(ChipsError, match="a stake is a whole number of chips above 0"):
            _stake(store, "g2", "room", stake, [0, 1])  # type: ignore[arg-type]
    assert _snapshot(store) == before


def test_a_balance_below_zero_is_refused_by_the_database(tmp_path: Path) -> None:
    store, wallets, _ = _store(f"sqlite:///{tmp_path / 'c.db'}")
    wallets.balance("ann")
    with pytest.raises(IntegrityError), store.engine.begin() as db:
        db.execute(text("UPDATE chip_wallets SET balance = -1"))
    assert wallets.balance("ann") == DAILY_CHIPS


PLAYERS = ["p0", "p1", "p2", "p3"]
steps = st.lists(st.one_of(
    st.tuples(st.just("stake"), st.integers(1, 700), st.lists(st.sampled_from(range(4)), min_size=1,
                                                               max_size=4, unique=True)),
    st.tuples(st.just("pay"), st.integers(0, 10), st.lists(st.integers(0, 120), min_size=4, max_size=4)),
    st.tuples(st.just("refund"), st.integers(0, 10), st.just([])),
    st.tuples(st.just("day"), st.integers(1, 3), st.just([])),
), max_size=25)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
@pytest.mark.slow
def test_no_chip_is_made_or_lost_but_by_the_grant(moves: list[tuple[str, int, list[int]]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store, wallets, players = _store(f"sqlite:///{Path(folder) / 'c.db'}")
        now, games = DAY, []
        for room in range(4):  # room r: seat s is player (r + s) % 4
            _seat(players, f"r{room}", [PLAYERS[(room + s) % 4] for s in range(4)])
        for kind, number, values in moves:
            if kind == "stake":
                game = f"g{len(games)}"
                for player in PLAYERS:
                    wallets.balance(player, now)
                try:
                    _stake(store, game, f"r{number % 4}", number, values)
                    games.append((game, sorted(values)))
                except Short:
                    pass
            elif kind == "pay" and games:
                game, seats = games[number % len(games)]
                pool = wallets.pool(game)
                assert pool is not None
                # The table's split: penalty points drawn, a winner who may be a computer seat.
                shares = split_among(pool[0], seats, values, [0] * 4, number % 4, PrizeRules())
                with store.engine.begin() as db:
                    chips.pay_out(db, game, shares)
            elif kind == "refund" and games:
                wallets.refund(games[number % len(games)][0])
            elif kind == "day":
                now += 86_400 * number
                for player in PLAYERS:
                    wallets.balance(player, now)
            total, granted, least = conserved(store)
            assert total == granted and least >= 0
        store.close()


def _start_at_once(store: Store, barrier: threading.Barrier, results: list[int], room: str,
                   game: str) -> None:
    """Stake 600 of seat 0's player in ``room`` once the other thread is ready too: the pool,
    or the balance that was short."""
    barrier.wait()
    try:
        results.append(_stake(store, game, room, 600, [0]))
    except Short as short:
        results.append(short.balance)


def test_two_stakes_of_the_same_chips_at_once_on_postgresql_take_them_once(postgres: Postgres) -> None:
    store, wallets, players = _store(postgres.fresh_database())
    rounds, outcomes = 12, []
    for number in range(rounds):
        player = f"p{number}"
        assert wallets.balance(player) == DAILY_CHIPS
        for room in ("a", "b"):
            players.sat_in_room(f"{room}{number}", 0, player)
        barrier, results = threading.Barrier(2), []
        threads = [threading.Thread(target=_start_at_once, args=(store, barrier, results, f"{room}{number}",
                                                                 f"{room}g{number}")) for room in ("a", "b")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        outcomes.append((sorted(results), wallets.balance(player)))
    # One start took 600 (its pool); the other saw 400 left, fewer than 600, and took nothing.
    assert outcomes == [([400, 600], 400)] * rounds
    assert conserved(store) == (rounds * DAILY_CHIPS, rounds * DAILY_CHIPS, 400)
    store.close()


def test_two_paid_entries_of_the_same_chips_at_once_on_postgresql_take_them_once(postgres: Postgres) -> None:
    """Two tournaments' fees of 600 from a wallet of 1000, joined at the same moment on two
    connections: one entry is written with its fee, the other refused, taking nothing."""
    store, wallets, _ = _store(postgres.fresh_database())
    events = Tournaments(TournamentStore(store.engine))
    swiss = {"format": "swiss", "places": "4", "table": "2", "preset": "oklahoma", "target": "100",
             "levels": "easy", "fee": "600"}
    outcomes = []
    for number in range(6):
        player = f"q{number}"
        codes = [events.create("host", read_settings(swiss), "Swiss") for _ in range(2)]
        barrier, said = threading.Barrier(2), []

        def enter(code: str, player: str = player, barrier: threading.Barrier = barrier,
                  said: list[str] = said) -> None:
            barrier.wait()
            try:
                events.join(code, player, "Quinn")
                said.append("in")
            except TournamentError as error:
                said.append(str(error))

        threads = [threading.Thread(target=enter, args=(code,)) for code in codes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        entered = sorted(len(events.load(code).entrants) for code in codes)
        outcomes.append((sorted(said), entered, wallets.balance(player)))
    refused = "the entry fee is 600 chips and you have 400: you can join another day, or a free tournament"
    assert outcomes == [(["in", refused], [0, 1], 400)] * 6
    assert conserved(store) == (6 * DAILY_CHIPS, 6 * DAILY_CHIPS, 400)
    store.close()


def test_a_deleted_players_chips_pass_to_nobody_and_stay_counted(tmp_path: Path) -> None:
    store, wallets, players = _store(f"sqlite:///{tmp_path / 'c.db'}")
    _seat(players, "room", ["ann", "bob"])
    _stake(store, "g1", "room", 100, [0, 1])
    with store.engine.begin() as db:
        chips.forget(db, "ann")
    with store.engine.begin() as db:  # her held stake still pays out, into the wallet naming nobody
        assert chips.pay_out(db, "g1", {0: 150, 1: 50})
    with store.engine.connect() as db:
        named = db.execute(select(func.count()).select_from(chip_ledger)
                           .where(chip_ledger.c.player == "ann")).scalar()
        gone = db.execute(select(chip_wallets.c.balance).where(chip_wallets.c.player.like("gone-%"))).all()
    assert named == 0 and gone == [(1050,)] and wallets.balance("bob") == 950
    assert conserved(store)[:2] == (2000, 2000)
