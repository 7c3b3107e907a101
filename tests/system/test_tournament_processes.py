"""A tournament on two `okgin serve` processes sharing PostgreSQL and Redis: the process running
its tables is SIGKILLed mid-round, the other takes the tournament over once the lease runs out
and plays it to the end, and every match finished before the kill is kept as it was."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from real_servers import Postgres
from server_process import ServerProcess
from sqlalchemy import create_engine, select
from test_tournament_server import assert_played_out
from tournament_client import FAST, Browser

from okgin.server.store.chips import Wallets
from okgin.server.store.schema import tournaments
from okgin.server.store.storage import Store
from okgin.server.store.tournament_store import Entrant, Moved, TableRow, TournamentStore

SLOWER = {**FAST, "target": "100", "levels": "normal"}
"""Matches long enough that a round is still being played when the kill comes."""


def driver_pid(db_url: str, code: str) -> int | None:
    """The process id of the process that holds the tournament's lease (its ``PROCESS`` name)."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as db:
            driver = db.execute(select(tournaments.c.driver).where(tournaments.c.code == code)).scalar()
    finally:
        engine.dispose()
    return int(str(driver).split("-")[0]) if driver else None


def mid_round(state: dict[str, Any]) -> bool:
    """Some match is over and the current round still has a table playing."""
    finished = [t for t in state["tables"] if t["result"] is not None]
    playing = [t for t in state["tables"] if t["round"] == state["round"] and t["result"] is None]
    return state["status"] == "running" and bool(finished) and bool(playing)


def test_a_killed_process_loses_no_match_and_the_tournament_ends_on_the_other(
    pair: tuple[ServerProcess, ...],
) -> None:
    one, two = pair
    url: str = one.db_url  # type: ignore[attr-defined]
    host = Browser(one.url)
    code = host.create(SLOWER)
    assert host.post(f"/t/{code}/start", {}).status_code == 303
    deadline = time.monotonic() + 300
    state = host.state(code)
    while not mid_round(state) and time.monotonic() < deadline:
        time.sleep(0.05)
        state = host.state(code)
    assert mid_round(state), f"never caught a round in progress: {state['status']}, round {state['round']}"
    pid = driver_pid(url, code)
    victim, survivor = (one, two) if pid == one.process.pid else (two, one)  # type: ignore[union-attr]
    assert pid == victim.process.pid  # type: ignore[union-attr]
    victim.kill()  # SIGKILL the process running the tables, in the middle of a round
    before = {t["room"]: t["result"] for t in Browser(survivor.url).state(code)["tables"] if t["result"]}
    assert before, "no match had finished before the kill"
    final = Browser(survivor.url).wait(code, seconds=600)
    assert driver_pid(url, code) == survivor.process.pid  # type: ignore[union-attr]
    after = {t["room"]: t["result"] for t in final["tables"]}
    assert all(after[room] == result for room, result in before.items()), "a finished match changed"
    assert [len([t for t in final["tables"] if t["round"] == n]) for n in (1, 2, 3)] == [4, 2, 1]
    assert len(after) > len(before), "nothing was played after the kill"
    assert_played_out(final, url)


def test_two_processes_deciding_the_next_round_at_once_write_it_once(postgres: Postgres) -> None:
    """The last two tables finishing together on two processes: both pair round 2 from the same
    version, at the same moment, each on its own connection; PostgreSQL's row lock and the
    compare-and-set let exactly one write it. Then both finish the tournament at once: its pool
    of entry fees is paid once."""
    store = Store(postgres.fresh_database())
    events = TournamentStore(store.engine)
    events.create("T1", "host", {"format": "swiss"}, fee=100)
    people = [Entrant(seed, f"E{seed}", player=f"p{seed}") for seed in range(2)]
    for version, person in enumerate(people):
        events.join("T1", version, person, fee=100)
    computers = [Entrant(seed, f"E{seed}", level="easy") for seed in range(2, 4)]
    events.begin_round("T1", 2, 1, (), [TableRow(1, 0, "A", (0, 1)), TableRow(1, 1, "B", (2, 3))], computers)
    outcomes = at_once(lambda room: events.begin_round(
        "T1", 3, 2, (), [TableRow(2, 0, room, (0, 2)), TableRow(2, 1, room + "2", (1, 3))]), ("C", "D"))
    event = events.load("T1")
    assert sorted(outcomes) == ["moved", "wrote"]
    assert event is not None and event.version == 4 and event.round == 2
    assert len(event.tables_of(2)) == 2 and len({t.room[0] for t in event.tables_of(2)}) == 1
    finished = at_once(lambda shares: events.finish("T1", 4, 2, shares),
                       ({"p0": 150, "p1": 50}, {"p0": 50, "p1": 150}))
    wallets = Wallets(store.engine)
    balances = sorted(wallets.balance(p) for p in ("p0", "p1"))
    pool = events.pool("T1")
    store.close()
    assert sorted(finished) == ["moved", "wrote"]
    assert balances == [950, 1050] and pool is not None and sorted(pool[1].values()) == [50, 150]


def at_once(change: Callable[[Any], None], arguments: tuple[Any, Any]) -> list[str]:
    """``change`` with each of two arguments on two threads released together: what each did."""
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def attempt(argument: Any) -> None:
        start.wait()
        try:
            change(argument)
            outcomes.append("wrote")
        except Moved:
            outcomes.append("moved")

    threads = [threading.Thread(target=attempt, args=(argument,)) for argument in arguments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
