"""Tournaments on the server (okgin/server/tournaments/, pages/tournaments.py): the forms refuse
bad input and change nothing; a knockout of 8 computer players runs to the end through a real
server; a person plays their table from their own session; an absent person's match is played
by a stand-in and counts, and one who never presses Next hand holds up nothing; a round is
written once however many processes decide it."""

from __future__ import annotations

import datetime
import html
import itertools
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, choose, run
from server_process import ServerProcess
from sqlalchemy import select
from starlette.applications import Starlette
from test_chips import conserved
from tournament_client import FAST, Browser

from okgin.server.players.accounts import FORMER
from okgin.server.players.accounts import _forget as forget_player
from okgin.server.store.chips import DAILY_CHIPS, Wallets, pay_entries
from okgin.server.store.schema import tournament_rounds
from okgin.server.store.storage import Store
from okgin.server.store.tournament_store import Entrant, Moved, TableRow, TournamentStore
from okgin.server.tournaments.settings import Settings

BASE = "http://127.0.0.1"
SWISS = {"format": "swiss", "places": "4", "table": "2", "preset": "oklahoma", "target": "100",
         "levels": "normal"}



def visit(app: Starlette, steps: list[tuple[str, str, dict[str, str]]], cookie: str | None = None,
          headers: dict[str, str] | None = None) -> list[httpx.Response]:
    """One browser: each (method, path, form) in turn, the CSRF token of its last page sent
    with each form unless the form names its own."""
    async def go() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE,
                                     headers=headers if headers is not None else {"origin": BASE}) as web:
            if cookie:
                web.cookies.set("okgin_session", cookie)
            csrf = ""
            answers = []
            for method, path, form in steps:
                data = {"csrf": csrf, **form} if method == "POST" else None
                answer = await web.request(method, path, data=data)
                found = answer.text.split('name="csrf" value="', 1)
                if len(found) == 2:
                    csrf = found[1].split('"', 1)[0]
                answers.append(answer)
            return answers

    return run(go())


def cookie_of(app: Starlette) -> str:
    return str(visit(app, [("GET", "/t", {})])[0].cookies["okgin_session"])


def tournaments(app: Starlette) -> list[tuple[str, dict[str, Any], int]]:
    store: TournamentStore = app.state.tournaments.store
    return store.listed("open") + store.listed("running")


def make(app: Starlette, cookie: str, fields: dict[str, str]) -> str:
    answer = visit(app, [("GET", "/t", {}), ("POST", "/t", fields)], cookie)[1]
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"]).removeprefix("/t/")


@pytest.mark.parametrize(("change", "said"), [
    ({"format": "ladder"}, "format must be one of: swiss, knockout, round-robin"),
    ({"table": "5"}, "table must be a whole number from 2 to 4"),
    ({"places": "1"}, "places must be a whole number from 2 to 64"),
    ({"places": "65"}, "places must be a whole number from 2 to 64"),
    ({"target": "-3"}, "target must be a whole number from 5 to 1000"),
    ({"preset": "poker"}, "preset must be one of"),
    ({"house": "[1]"}, "house rules must be a JSON object of rule fields"),
    ({"house": '{"gin_bonus": "lots"}'}, "house rules: rule gin_bonus"),
    ({"house": '{"colour": 1}'}, "house rules: unknown rule field"),
    ({"house": "[" * 1100}, "house rules must be a JSON object of rule fields: nested too deep"),
    ({"levels": "normal genius"}, "levels (the computer players for empty places): one or more of"),
    ({"rounds": "4"}, "rounds must be a whole number from 1 to 3"),
    # ² and ① are digits to str.isdigit, not to int()
    ({"table": "\u00b2"}, "table must be a whole number from 2 to 4, not '\u00b2'"),
    ({"places": "\u2460"}, "places must be a whole number from 2 to 64, not '\u2460'"),
    ({"target": "\u00b2"}, "target must be a whole number from 5 to 1000, not '\u00b2'"),
    ({"rounds": "\u00b2"}, "rounds must be a whole number from 1 to 3, not '\u00b2'"),
    ({"timer": "45"}, "timer must be off or one of 30, 60, 120 seconds"),
    ({"fee": "-5"}, "the entry fee is a whole number of chips (0: free), not '-5'"),
    ({"fee": "1001"}, "the entry fee is a whole number of chips from 0 to 1000, not 1001"),
    ({"fee": "12.5"}, "the entry fee is a whole number of chips (0: free), not '12.5'"),
    ({"fee": "\u00b2"}, "the entry fee is a whole number of chips (0: free), not '\u00b2'"),
    ({"fee": "10", "cutoff": "\u2460"}, "the cutoff is a whole number of penalty points, not '\u2460'"),
    ({"fee": "10", "split": "even"}, 'the split is "scaled" or "proportional"'),
    ({"fee": "10", "cutoff": "0"}, "the cutoff is a whole number of penalty points from 1 to 500"),
    ({"starts": "tomorrow"}, "must be a date and time within the next 30 days, not 'tomorrow'"),
    ({"starts": "2020-01-01T12:00Z"}, "the start time must be a date and time within the next 30 days"),
    ({"starts_local": "2020-01-01T12:00"}, "the start time must be a date and time within the next 30 days"),
])
def test_a_bad_create_form_says_what_was_wrong_and_stores_nothing(
    app: Starlette, change: dict[str, str], said: str,
) -> None:
    cookie = cookie_of(app)
    answer = visit(app, [("GET", "/t", {}), ("POST", "/t", {**SWISS, **change})], cookie)[1]
    assert answer.status_code == 400
    assert said in html.unescape(answer.text)
    assert tournaments(app) == []


def test_a_form_from_another_site_or_without_the_token_is_refused(app: Starlette) -> None:
    cookie = cookie_of(app)
    forged = visit(app, [("POST", "/t", {**SWISS, "csrf": "guessed"})], cookie)[0]
    assert forged.status_code == 403 and "out of date" in forged.text
    elsewhere = visit(app, [("GET", "/t", {}), ("POST", "/t", SWISS)], cookie,
                      headers={"origin": "https://evil.example"})[1]
    assert elsewhere.status_code == 403 and "okgin&#39;s own page" in elsewhere.text
    assert tournaments(app) == []


def test_a_host_making_tournaments_without_end_is_held_and_nothing_more_is_stored(app: Starlette) -> None:
    """Five at once, then one a minute: the sixth form is refused with why, and not stored."""
    cookie = cookie_of(app)
    answers = visit(app, [("GET", "/t", {}), *[("POST", "/t", SWISS)] * 6], cookie)[1:]
    assert [a.status_code for a in answers] == [303] * 5 + [429]
    assert "too many tournaments made: wait a minute" in answers[-1].text
    assert len(tournaments(app)) == 5


def test_players_join_by_link_and_the_last_place_starts_a_tournament_that_starts_when_full(
    app: Starlette,
) -> None:
    host = cookie_of(app)
    code = make(app, host, {**SWISS, "places": "3", "auto": "on"})
    ann, ben = cookie_of(app), cookie_of(app)
    page = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "<b>Ann</b>"})], ann)
    assert page[1].status_code == 303
    shown = visit(app, [("GET", f"/t/{code}", {})], ann)[0].text
    assert "&lt;b&gt;Ann&lt;/b&gt;" in shown and "<b>Ann</b>" not in shown
    again = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "Ann"})], ann)[1]
    assert again.status_code == 400 and "already joined" in again.text
    store: TournamentStore = app.state.tournaments.store
    before = store.load(code)
    assert before is not None and before.status == "open" and len(before.entrants) == 1
    for bad in ("", "x" * 21, "a\x07b"):
        refused = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": bad})], ben)[1]
        assert refused.status_code == 400
    assert store.load(code) == before  # nothing changed
    visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "Ben"})], ben)
    carl = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "Carl"})], host)[1]
    assert carl.status_code == 303
    event = store.load(code)
    assert event is not None and event.status == "running" and event.round == 1
    assert [e.name for e in event.entrants] == ["<b>Ann</b>", "Ben", "Carl"]
    assert len(event.tables_of(1)) == 1 and len(event.byes[1]) == 1  # three at tables of 2: a bye
    late = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "Dan"})],
                 cookie_of(app))[1]
    assert late.status_code == 400 and "has started" in late.text
    missing = visit(app, [("GET", "/t", {}), ("POST", "/t/nosuchtournament/join", {"name": "Dan"})], ann)[1]
    assert missing.status_code == 404


def test_only_the_host_starts_and_the_start_fills_the_empty_places_with_computers(app: Starlette) -> None:
    host, other = cookie_of(app), cookie_of(app)
    code = make(app, host, {**SWISS, "places": "5", "levels": "easy hard"})
    visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "Ann"})], other)
    refused = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/start", {})], other)[1]
    assert refused.status_code == 400 and "only the host" in refused.text
    store: TournamentStore = app.state.tournaments.store
    event = store.load(code)
    assert event is not None and event.status == "open" and len(event.entrants) == 1
    started = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/start", {})], host)[1]
    assert started.status_code == 303
    event = store.load(code)
    assert event is not None and event.status == "running"
    assert [(e.player is not None, e.level) for e in event.entrants] == [
        (True, None), (False, "easy"), (False, "hard"), (False, "easy"), (False, "hard")]
    seated = sorted(s for t in event.tables_of(1) for s in t.seats) + list(event.byes[1])
    assert sorted(seated) == [0, 1, 2, 3, 4]
    twice = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/start", {})], host)[1]
    assert twice.status_code == 400 and "already started" in twice.text
    assert store.load(code) == event


def test_a_paid_tournament_takes_fees_on_entry_gives_them_back_and_pays_its_pool_once(
    app: Starlette,
) -> None:
    """A fee of 300: joining takes it (refused, changing nothing, when short), withdrawing and a
    cancel give it back, computer players pay none; the end pays the pool by 004's rule once,
    however many directors finish it, and no chip is made or lost."""
    store: TournamentStore = app.state.tournaments.store
    wallets = Wallets(store.engine)
    host, ann, ben, poor = (cookie_of(app) for _ in range(4))
    player = {c: app.state.players.session(c).player for c in (ann, ben, poor)}
    code = make(app, host, {**SWISS, "fee": "950"})

    def post(cookie: str, what: str, form: dict[str, str] | None = None) -> httpx.Response:
        return visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/{what}", form or {})], cookie)[1]

    assert post(poor, "join", {"name": "Poor"}).status_code == 303  # 50 chips left
    code = make(app, host, {**SWISS, "table": "4", "rounds": "1", "fee": "300"})
    for cookie, name in ((ann, "Ann"), (ben, "Ben")):
        assert post(cookie, "join", {"name": name}).status_code == 303
    assert [wallets.balance(player[c]) for c in (ann, ben)] == [700, 700]
    assert post(ann, "leave").status_code == 303 and wallets.balance(player[ann]) == DAILY_CHIPS
    assert post(ann, "join", {"name": "Ann"}).status_code == 303  # back in, after Ben, paying again
    before = store.load(code)
    short = post(poor, "join", {"name": "Poor"})
    assert short.status_code == 400 and "the entry fee is 300 chips and you have 50" in short.text
    assert store.load(code) == before and wallets.balance(player[poor]) == 50
    assert store.pool(code) == (600, {})
    assert "2 entrants, entry 300 chips" in visit(app, [("GET", "/t", {})], poor)[0].text
    assert post(host, "start").status_code == 303
    event = store.load(code)
    assert event is not None and [e.name for e in event.entrants][:2] == ["Ben", "Ann"]
    assert store.pool(code) == (600, {})  # the computer players paid nothing
    (table,) = event.tables_of(1)
    assert sorted(table.seats) == [0, 1, 2, 3]
    # Ann wins; Ben is third, 30 penalty points behind her: 004's rule, scaled, gives him
    # 150 × (50 − 30) / 50 = 60 of the 150 beyond her 75%; she takes the other 540.
    assert store.record(code, 1, 0, {"order": [1, 2, 0, 3], "points": [100, 60, 40, 10],
                                      "penalties": [0, 10, 30, 60]}, "G1")
    settings = Settings.from_data(event.data)
    with store.engine.begin() as db:  # Ben deletes his account before the end: his chips go on
        forget_player(db, player[ben])
    gone = next(e.player for e in store.load(code).entrants if e.name == FORMER)  # Ben, forgotten
    assert gone is not None and gone.startswith("gone-")
    done = store.load(code)
    assert done is not None
    for _ in range(2):  # two directors finishing it at once: the second finds it moved on
        app.state.director._advance(done, settings)
    with store.engine.begin() as db:
        assert not pay_entries(db, code, {player[ann]: 600, gone: 0})  # paid once
    assert store.pool(code) == (600, {player[ann]: 540, gone: 60})
    assert [wallets.balance(p) for p in (player[ann], gone)] == [1240, 760]
    shown = visit(app, [("GET", f"/t/{code}", {})], ann)[0].text
    assert 'data-chips="600"' in shown
    assert "<td class=won>540</td>" in shown and "<td class=won>60</td>" in shown
    total, granted, least = conserved(app.state.store)
    assert total == granted == 3 * DAILY_CHIPS and least >= 0

    code = make(app, host, {**SWISS, "fee": "250"})
    assert post(ann, "join", {"name": "Ann"}).status_code == 303 and wallets.balance(player[ann]) == 990
    assert post(ann, "cancel").status_code == 400  # only the host
    assert post(host, "cancel").status_code == 303 and wallets.balance(player[ann]) == 1240
    late = post(poor, "join", {"name": "Poor"})
    assert late.status_code == 400 and "cancelled by its host" in late.text
    assert store.pool(code) == (250, {}) and conserved(app.state.store)[:2] == (total, granted)


def test_a_round_is_written_once_when_two_processes_decide_it_together(tmp_path: Path) -> None:
    """The compare-and-set on the tournament's version: the same next round decided twice (two
    processes finishing the last two tables at once) is written by the first only."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    events = TournamentStore(store.engine)
    events.create("T1", "host", {"format": "swiss"})
    events.begin_round("T1", 0, 1, (), [TableRow(1, 0, "R1", (0, 1))], [Entrant(0, "A", level="easy"),
                                                                           Entrant(1, "B", level="easy")])
    with pytest.raises(Moved):
        events.begin_round("T1", 0, 1, (), [TableRow(1, 0, "R2", (1, 0))])
    event = events.load("T1")
    assert event is not None and event.version == 1 and [t.room for t in event.tables] == ["R1"]
    assert events.record("T1", 1, 0, {"order": [1, 0], "points": [10, 0], "penalties": [0, 9]}, "G1")
    assert not events.record("T1", 1, 0, {"order": [0, 1], "points": [10, 0], "penalties": [0, 9]}, "G2")
    events.begin_round("T1", 1, 2, (), [TableRow(2, 0, "R3", (0, 1))])
    with pytest.raises(Moved):
        events.begin_round("T1", 1, 2, (), [TableRow(2, 0, "R4", (0, 1))])
    event = events.load("T1")
    assert event is not None and [t.room for t in event.tables] == ["R1", "R3"]
    assert event.tables[0].result == {"order": [1, 0], "points": [10, 0], "penalties": [0, 9]}
    store.close()


def assert_played_out(state: dict[str, Any], db_url: str) -> None:
    """Every table has a result that its stored, finished game agrees with."""
    store = Store(db_url)
    names = {e["seed"]: e["name"] for e in state["entrants"]}
    try:
        for table in state["tables"]:
            result = table["result"]
            assert result is not None, table
            stored = store.load(table["game"])
            assert stored is not None and stored.finished and stored.scores is not None
            players = stored.record["players"]
            assert players == [names[s] for s in table["seats"]]
            winner_seed = table["seats"][stored.winner]
            assert result["order"][0] == winner_seed
            by_seed = dict(zip(table["seats"], stored.scores, strict=True))
            assert result["points"] == [by_seed[s] for s in result["order"]]
    finally:
        store.close()


@pytest.mark.slow
def test_a_knockout_of_8_computer_players_is_played_to_the_end_through_the_server(tmp_path: Path) -> None:
    """Set to start a few seconds ahead, it is started by the director then, nobody pressing Start."""
    server = ServerProcess(tmp_path / "t.db").start()
    starts = datetime.datetime.now(datetime.UTC).replace(microsecond=0) + datetime.timedelta(seconds=3)
    try:
        host = Browser(server.url)
        code = host.create({**FAST, "starts": starts.strftime("%Y-%m-%dT%H:%M:%S")})
        shown = host.web.get(f"/t/{code}").text
        assert f'it starts at <time class=local datetime="{starts:%Y-%m-%dT%H:%M:%SZ}">' in shown
        state = host.wait(code)
        page = httpx.get(f"{server.url}/t/{code}")
    finally:
        server.stop()
    store = Store(f"sqlite:///{server.db}")
    with store.engine.connect() as db:
        started = db.execute(select(tournament_rounds.c.started).where(
            tournament_rounds.c.tournament == code, tournament_rounds.c.round == 1)).scalar()
    store.close()
    assert started is not None and started >= starts.timestamp()
    assert state["round"] == 3
    rounds = [[t for t in state["tables"] if t["round"] == n] for n in (1, 2, 3)]
    assert [len(r) for r in rounds] == [4, 2, 1]
    assert sorted(s for t in rounds[0] for s in t["seats"]) == list(range(8))
    for earlier, later in itertools.pairwise(rounds):
        winners = sorted(t["result"]["order"][0] for t in earlier)
        assert sorted(s for t in later for s in t["seats"]) == winners
    champion = rounds[2][0]["result"]["order"][0]
    assert state["final"][0] == champion and sorted(state["final"]) == list(range(8))
    assert state["final"][1] == rounds[2][0]["result"]["order"][1]
    assert_played_out(state, f"sqlite:///{server.db}")
    assert "<h2>Final table</h2>" in page.text and "Buchholz" not in page.text
    assert page.text.count("<h3>Round ") == 2 and page.text.count("<h3>Final</h3>") == 1
    names = {e["seed"]: e["name"] for e in state["entrants"]}
    assert f"{names[champion]} wins Knockout</strong>" in page.text


@pytest.mark.slow
def test_a_person_plays_their_table_and_an_absent_persons_match_is_played_for_them(tmp_path: Path) -> None:
    """Ann plays her table from her own session (the link seats her: no token); Ben never comes,
    so after the away grace a computer player plays his matches, and the results count."""
    server = ServerProcess(tmp_path / "t.db", extra=("--away-seconds", "0.5")).start()
    try:
        host = Browser(server.url)
        code = host.create({**SWISS, "places": "3", "target": "25", "rounds": "2"})
        ann, ben = Browser(server.url), Browser(server.url)
        assert ann.post(f"/t/{code}/join", {"name": "Ann"}).status_code == 303
        assert ben.post(f"/t/{code}/join", {"name": "Ben"}).status_code == 303
        assert host.post(f"/t/{code}/start", {}).status_code == 303
        played = 0
        for number in (1, 2):
            state = host.wait(code, "running") if number == 1 else host.state(code)
            while state["round"] < number and state["status"] == "running":
                time.sleep(0.2)
                state = host.state(code)
            mine = [t for t in state["tables"] if t["round"] == number and 0 in t["seats"]]
            if not mine:
                continue  # Ann's bye this round
            while not mine[0]["ready"]:  # the link is shown once its room is made
                time.sleep(0.1)
                mine = [t for t in host.state(code)["tables"] if t["room"] == mine[0]["room"]]
            final = run(_play_table(server.ws_url, ann.cookie, mine[0]["room"], mine[0]["seats"].index(0)))
            assert final["final"] is not None
            played += 1
        state = host.wait(code)
        history = ann.web.get("/history").text
    finally:
        server.stop()
    assert played >= 1
    anns = [t for t in state["tables"] if 0 in t["seats"]]
    assert all(f"/games/{t['game']}/record" in history for t in anns)  # her tables are her games
    assert_played_out(state, f"sqlite:///{server.db}")
    bens = [t for t in state["tables"] if 1 in t["seats"]]
    assert bens and all(t["result"] is not None for t in bens)
    assert {s["entrant"] for s in state["standings"]} == {0, 1, 2}


async def _play_table(ws_url: str, cookie: str, room: str, seat: int) -> dict[str, Any]:
    client = await Client.connect(ws_url, cookie)
    try:
        answer = await client.request({"type": "enter", "room": room})
        assert answer["type"] == "ack", answer
        assert client.seat == seat  # seated by her player, with no token
        client.seat = seat
        while client.state is None:
            await client.receive()
        return await _play(client)
    finally:
        await client.close()


async def _play(client: Client) -> dict[str, Any]:
    while True:
        state = await client.wait_my_move(timeout=120)
        message = choose(state)
        if message is None:
            return state
        answer = await client.request(message)
        if answer["type"] == "error":  # the next hand dealt by another, or the game moved on
            assert message["type"] == "next" or answer["code"] == "stale", answer
            await client.request({"type": "options", "coach": False})


def test_an_unknown_tournament_is_404_on_every_page(app: Starlette) -> None:
    cookie = cookie_of(app)
    answers = visit(app, [("GET", "/t/nosuchcode1", {}), ("GET", "/t/nosuchcode1/live", {}),
                          ("GET", "/t/nosuchcode1/state", {}), ("GET", "/t", {}),
                          ("POST", "/t/nosuchcode1/start", {}), ("GET", "/t/bad%00code", {})], cookie)
    assert [a.status_code for a in answers] == [404, 404, 404, 200, 404, 404]
    assert "No such tournament" in answers[0].text and answers[2].json() == {"error": "no such tournament"}


def test_the_live_part_shows_the_entrants_to_anyone_and_the_host_alone_may_start(app: Starlette) -> None:
    host = cookie_of(app)
    code = make(app, host, SWISS)
    visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "Ann"})], cookie_of(app))
    live = visit(app, [("GET", f"/t/{code}/live", {})])[0]  # no session at all: a watcher
    assert live.status_code == 200 and 'data-status="open"' in live.text and "<li>Ann</li>" in live.text
    assert "form" not in live.text and "3 places left" in live.text
    page_for_host = visit(app, [("GET", f"/t/{code}", {})], host)[0].text
    page_for_other = visit(app, [("GET", f"/t/{code}", {})], cookie_of(app)).pop().text
    assert "class=start" in page_for_host
    assert "class=start" not in page_for_other and "class=join" in page_for_other


@pytest.mark.slow
def test_a_person_who_never_presses_next_hand_does_not_hold_up_the_round(tmp_path: Path) -> None:
    """Ann plays her moves but never presses Next hand: after the away grace the next hand is
    dealt for her table anyway (a page left open on a finished hand cannot stop a round)."""
    server = ServerProcess(tmp_path / "t.db", extra=("--away-seconds", "0.5")).start()
    try:
        host = Browser(server.url)
        code = host.create({**SWISS, "places": "2", "target": "1000", "rounds": "1", "levels": "easy"})
        ann = Browser(server.url)
        assert ann.post(f"/t/{code}/join", {"name": "Ann"}).status_code == 303
        assert host.post(f"/t/{code}/start", {}).status_code == 303
        table = host.wait(code, "running")["tables"][0]
        while not table["ready"]:
            time.sleep(0.1)
            table = host.state(code)["tables"][0]
        dealt = run(_play_without_next(server.ws_url, ann.cookie, table["room"]))
    finally:
        server.stop()
    assert dealt == 2


async def _play_without_next(ws_url: str, cookie: str, room: str) -> int:
    """Play the first hand's moves, never pressing Next hand; the hand number dealt next."""
    client = await Client.connect(ws_url, cookie)
    try:
        assert (await client.request({"type": "enter", "room": room}))["type"] == "ack"
        while True:
            state = await client.wait_my_move(timeout=60)
            message = choose(state)
            assert message is not None, "the match ended in its first hand: choose a larger target"
            if message["type"] == "next":
                break
            answer = await client.request(message)
            if answer["type"] == "error":
                await client.request({"type": "options", "coach": False})
        while client.state is None or client.state["hand_number"] < 2:
            await client.receive(timeout=60)
        return int(client.state["hand_number"])
    finally:
        await client.close()


def test_a_tournaments_page_makes_a_guest_and_its_live_part_and_data_do_not(app: Starlette) -> None:
    code = make(app, cookie_of(app), SWISS)
    page, live, data = (visit(app, [("GET", f"/t/{code}{part}", {})]) for part in ("", "/live", "/state"))
    assert "okgin_session" in page[0].cookies
    assert "okgin_session" not in live[0].cookies and "okgin_session" not in data[0].cookies
