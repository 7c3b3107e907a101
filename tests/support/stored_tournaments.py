"""Tournaments written straight into a store, for page tests that need one running or finished
without playing it: each round paired by the server's own code (``plan.next_round``), each table
won by its lowest seed (10 points a place), written through ``TournamentStore`` as the director
writes them. Write them before a server opens the store (its director would play on)."""

from __future__ import annotations

from okgin.rules import preset
from okgin.server.rooms.room import new_code
from okgin.server.store.storage import Store
from okgin.server.store.tournament_store import Entrant, TableRow, TournamentStore
from okgin.server.tournaments.plan import next_round, pool_shares
from okgin.server.tournaments.settings import Settings


def write_tournament(url: str, fmt: str, names: list[str], table: int = 2, rounds: int = 3,
                     played: int | None = None, fee: int = 0, name: str | None = None) -> str:
    """A tournament of computer players called ``names`` (by seed), ``played`` rounds in (None:
    to the end, finished); returns its code. ``name``: its own name (None: none given)."""
    store = Store(url)  # an empty store is made at the head revision
    tournaments = TournamentStore(store.engine)
    settings = Settings(fmt, table, len(names), preset("oklahoma"), rounds, ("easy",), False, fee=fee)
    code = new_code()
    if name is None:
        tournaments.create(code, "host", settings.to_data(), fee)
    else:
        tournaments.create(code, "host", settings.to_data(), fee, name)
    computers = [Entrant(seed, n, level="easy") for seed, n in enumerate(names)]
    while True:
        event = tournaments.load(code)
        assert event is not None
        if played is not None and event.round == played:
            break
        first = event.round == 0
        if first:
            event.entrants = computers
        upcoming = next_round(event, settings)
        if upcoming is None:
            tournaments.finish(code, event.version, event.round, pool_shares(event, settings))
            break
        number = event.round + 1
        rows = [TableRow(number, i, new_code(), seats) for i, seats in enumerate(upcoming.tables)]
        tournaments.begin_round(code, event.version, number, upcoming.byes, rows, computers if first else ())
        for row in rows:
            order = sorted(row.seats)
            result = {"order": order, "points": [10 * (len(order) - p) for p in range(len(order))],
                      "penalties": [5 * p for p in range(len(order))]}
            assert tournaments.record(code, number, row.number, result, f"game-{row.room}")
    store.close()
    return code
