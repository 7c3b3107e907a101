"""The director's looks (okgin/server/tournaments/director.py): while no tournament runs it
looks every idle tick, or sooner when an open tournament's set start time comes first, and
starts that tournament at its time, not an idle tick later."""

from __future__ import annotations

import asyncio
import datetime
import time

from scripted_client import run
from starlette.applications import Starlette
from test_tournament_server import SWISS, cookie_of, make

from okgin.server.store.tournament_store import TournamentStore
from okgin.server.tournaments.director import Director


def test_with_nothing_running_the_director_waits_for_the_next_set_start_and_starts_it_then(
        app: Starlette) -> None:
    director: Director = app.state.director
    director.idle_tick = 60.0
    store: TournamentStore = app.state.tournaments.store
    assert run(director.look()) == 60.0  # nothing open, nothing running: the idle tick
    # 4 to 5 s ahead: not yet due at the first look, with seconds to spare
    starts = datetime.datetime.now(datetime.UTC).replace(microsecond=0) + datetime.timedelta(seconds=5)
    code = make(app, cookie_of(app), {**SWISS, "starts": starts.strftime("%Y-%m-%dT%H:%M:%S")})

    async def scenario() -> tuple[float, float, float, str]:
        before = time.time()
        wait = await director.look()  # not due yet: the time until it is
        after = time.time()
        await asyncio.sleep(wait)
        await director.look()
        event = store.load(code)
        return before, wait, after, event.status if event is not None else "gone"

    before, wait, after, status = run(scenario())
    assert starts.timestamp() - after <= wait <= starts.timestamp() - before
    assert status == "running"
