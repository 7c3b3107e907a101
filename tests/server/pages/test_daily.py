"""The daily deal (docs/daily.md): a seeded day played through the real app by two players, their
duplicate scores worked out by hand; one attempt a player a day (the database's key, two starts
at the same moment too); bad input refused changing nothing; the seed in no page before the day
ends, then published, and `okgin sim --daily` dealing exactly the deals played."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import html
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from pathlib import Path

import httpx
import pytest
from daily_days import DAY, NEXT_DAY, SECRET, choose, clock_file, seeded_store
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_client import Client, run
from server_process import ServerProcess, web_client
from sqlalchemy import insert, select
from starlette.applications import Starlette
from test_accounts import Browser

from okgin import daily
from okgin.actions import parse_action
from okgin.errors import OkginError
from okgin.record import deal_to_json
from okgin.server import create_app
from okgin.server.pages import daily_play
from okgin.server.players.identity import Players
from okgin.server.store.daily_store import AlreadyStarted, Attempt, DailyStore
from okgin.server.store.schema import daily_attempts, player_bans
from okgin.server.store.storage import Store
from okgin.server.wire.limits import Limits

SEED = hmac.new(bytes.fromhex(SECRET), f"okgin daily {DAY}".encode(), hashlib.sha256).hexdigest()
"""The test day's seed, worked out here as docs/daily.md says (HMAC-SHA256 of the date)."""
KNOCKER = [-1, -66, -42, -158, -69]
STEADY = [-54, -97, -68, -200, -94]
"""The two fixed players' points on the day's five deals (hard won every one). By hand: the
knocker's total is -1 - 66 - 42 - 158 - 69 = -336, the steady player's -54 - 97 - 68 - 200 - 94 =
-513; their average is (-336 - 513) / 2 = -424.5, so the knocker's day score is -336 + 424.5 =
+88.5 and the steady player's -513 + 424.5 = -88.5."""


def test_the_duplicate_score_is_the_total_less_the_days_average_worked_by_hand() -> None:
    # Three players: totals 30, -10 and 10; their average 10; scores +20, -20 and 0.
    scores = daily.duplicate({"a": 30, "b": -10, "c": 10})
    assert scores == {"a": Fraction(20), "b": Fraction(-20), "c": Fraction(0)}
    # Two: -395 and -300 average -347.5.
    assert daily.duplicate({"k": -395, "s": -300}) == {"k": Fraction(-95, 2), "s": Fraction(95, 2)}
    assert [daily.shown(s) for s in (Fraction(95, 2), Fraction(-95, 2), Fraction(0), Fraction(1, 3),
                                      Fraction(-1, 20), Fraction(-2, 3))] == \
        ["+47.5", "-47.5", "0.0", "+0.3", "-0.1", "-0.7"]
    assert daily.duplicate({}) == {}


@given(totals=st.lists(st.integers(-2000, 2000), min_size=1, max_size=30), shift=st.integers(-500, 500))
def test_day_scores_sum_to_nothing_and_ignore_the_days_luck(totals: list[int], shift: int) -> None:
    """Day scores add up to zero, and a day whose cards give everyone ``shift`` points more
    leaves every score as it was: only the difference to the others counts."""
    players = {f"p{n}": total for n, total in enumerate(totals)}
    scores = daily.duplicate(players)
    assert sum(scores.values()) == 0
    assert daily.duplicate({p: t + shift for p, t in players.items()}) == scores
    ranked = sorted(players, key=lambda p: players[p])
    assert sorted(players, key=lambda p: scores[p]) == ranked


def test_the_days_seed_is_the_hmac_of_its_date_and_a_published_seed_is_checked() -> None:
    assert daily.day_seed(bytes.fromhex(SECRET), date.fromisoformat(DAY)) == SEED
    assert daily.day_seed(bytes.fromhex(SECRET), date(2026, 12, 8)) != SEED
    assert daily.check_seed(SEED.upper()) == SEED
    for bad in ("", "12", SEED + "0", "g" * 64):
        with pytest.raises(OkginError, match="64 hexadecimal digits"):
            daily.check_seed(bad)


@settings(max_examples=8, deadline=None)
@given(deal=st.integers(0, daily.DEALS - 1), seed=st.binary(min_size=32, max_size=32),
       choices=st.lists(st.integers(0, 20), min_size=60, max_size=60))
def test_the_same_moves_get_the_same_answers_from_hard(deal: int, seed: bytes, choices: list[int]) -> None:
    """A person's moves chosen at random, played twice on the same deal: hard answers the same."""
    day = seed.hex()

    def played() -> list[str]:
        match = daily.dealt(day, deal)
        moves = daily.play(day, deal, match, None)
        for pick in choices:
            if match.current is None:
                break
            legal = match.view(daily.PERSON).legal
            moves += daily.play(day, deal, match, legal[pick % len(legal)])
        return moves

    first = played()
    assert played() == first
    again = daily.replayed(day, deal, first)
    assert [str(a) for a in again.hands[-1].actions] == first
    assert daily.dealt(day, deal).hands[0].dealer == daily.dealer(deal)


# -- the day played through the app ------------------------------------------------------------


def _field(page: str, name: str) -> str:
    found = re.search(rf'name={name} value="([^"]+)"', page)
    assert found, page[-1500:]
    return html.unescape(found.group(1))


def _play_day(browser: Browser, knocker: bool, seen: list[str]) -> str:
    """Play today's five deals as one of the two fixed players, by the page's buttons; every page
    and answer is kept in ``seen``. The last page."""
    page = browser.go("GET", "/daily").text
    seen.append(page)
    csrf = _field(page, "csrf")
    answer = browser.go("POST", "/daily/start", {"csrf": csrf})
    assert answer.status_code == 303, answer.text
    while True:
        page = browser.go("GET", "/daily").text
        seen.append(page)
        if "id=daily-done" in page:
            return page
        version = _field(page, "version")
        if "id=daily-next" in page:
            answer = browser.go("POST", "/daily/next", {"csrf": csrf, "version": version})
        else:
            moves = [html.unescape(m) for m in re.findall(r'name=move value="([^"]+)"', page)]
            answer = browser.go("POST", "/daily/move", {"csrf": csrf, "version": version,
                                                        "move": choose(moves, knocker)})
        seen.append(answer.text)
        assert answer.status_code == 303, answer.text[-1500:]


@pytest.fixture
def day(tmp_path: Path) -> Iterator[tuple[Starlette, Path, str]]:
    url = seeded_store(tmp_path / "games.db")
    clock = clock_file(tmp_path)
    app = create_app(url, allow_seeds=True, clock_file=str(clock))
    yield app, clock, url
    _stop_thinking(app)


def _stop_thinking(app: Starlette) -> None:
    """The processes where the app's `hard` thought (its lifespan would stop them; a test's
    requests go to the app without one)."""
    app.state.hall.services.thinking.close()


def _attempts(url: str) -> list[dict[str, object]]:
    store = Store(url)
    with store.engine.connect() as db:
        query = select(daily_attempts).order_by(daily_attempts.c.started)
        rows = [dict(row._mapping) for row in db.execute(query)]
    store.close()
    return rows


def test_two_players_play_the_seeded_day_and_get_the_duplicate_scores_worked_by_hand(
    day: tuple[Starlette, Path, str],
) -> None:
    app, clock, url = day
    knocker, steady = Browser(app), Browser(app, address="10.0.0.2")
    seen: list[str] = []
    knocker.go("GET", "/")
    steady.go("GET", "/")
    assert knocker.post("/profile/name", name="Ann").status_code == 303  # named: on the leaderboard
    done = _play_day(knocker, True, seen)
    assert "-336</b> points over the five deals (-1, -66, -42, -158, -69)" in done
    assert "id=daily-score>0.0<" in done  # alone so far: the average is their own total
    done = _play_day(steady, False, seen)
    assert "-513</b> points over the five deals (-54, -97, -68, -200, -94)" in done
    assert "id=daily-score>-88.5<" in done
    rows = _attempts(url)
    assert [json.loads(str(r["points"])) for r in rows] == [KNOCKER, STEADY]
    assert [r["total"] for r in rows] == [-336, -513]
    # The points are the hands' own, as the engine scores them from the moves stored.
    for row in rows:
        moves = json.loads(str(row["moves"]))
        assert [daily.points(daily.replayed(SEED, n, m)) for n, m in enumerate(moves)] == \
            json.loads(str(row["points"]))
    results = knocker.go("GET", f"/daily/{DAY}").text
    seen.append(results)
    assert re.search(r"<td>1</td><td>Ann \(you\)</td><td>-336</td><td class=score>\+88\.5</td>", results)
    assert re.search(r"<td>2</td><td>A guest</td><td>-513</td><td class=score>-88\.5</td>", results)
    assert "id=daily-average>-424.5<" in results
    board = knocker.go("GET", "/leaderboard").text
    seen.append(board)
    # The week's best lists the named (Ann), not the guest, whose score counts all the same.
    week = board[board.index('id=daily'):]
    assert re.search(r"<tr class=you><td>1</td><td>Ann \(you\)</td><td>\+88\.5</td><td>1</td></tr>", week)
    assert "-88.5" not in week
    assert "Your week: <b>+88.5</b> over 1 day." in week
    theirs = steady.go("GET", "/leaderboard").text
    assert "Your week: <b>-88.5</b> over 1 day. You are listed once you choose a name" in theirs
    store = Store(url)
    with store.engine.begin() as db:  # the operator bans Ann from the leaderboard
        db.execute(insert(player_bans).values(player=rows[0]["player"], reason="test", created=0.0))
    store.close()
    week = knocker.go("GET", "/leaderboard").text.split("id=daily", 1)[1]
    assert "Ann" not in week and "Nobody is listed this week yet" in week
    code = str(rows[0]["code"])
    for path in (f"/daily/{DAY}/replay/{code}", f"/api/daily/{DAY}/{code}/replay"):
        closed = knocker.go("GET", path)
        seen.append(closed.text)
        assert closed.status_code == 404 and "once the day is over" in closed.text
    # Before the day ends the seed is in nothing anyone was sent.
    assert not any(SEED in text for text in seen)

    clock.write_text(NEXT_DAY, encoding="utf-8")
    results = steady.go("GET", f"/daily/{DAY}").text
    assert f"id=daily-seed class=seed>{SEED}<" in results
    assert f"okgin sim --daily {SEED}" in results
    replay = steady.go("GET", f"/api/daily/{DAY}/{code}/replay").json()
    assert [hand["number"] for hand in replay["hands"]] == [1, 2, 3, 4, 5]
    assert replay["names"] == ["Ann", "hard"]  # the knocker's, by the name she chose
    printed = subprocess.run([sys.executable, "-m", "okgin.cli", "sim", "--daily", SEED],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    records = [json.loads(line) for line in printed]
    assert len(records) == daily.DEALS
    for number, (record, hand) in enumerate(zip(records, replay["hands"], strict=True)):
        moves = json.loads(str(rows[0]["moves"]))[number]
        played = daily.replayed(SEED, number, moves).hands[-1]
        assert record["hands"][0]["deal"] == deal_to_json(played.deal)
        assert record["hands"][0]["dealer"] == played.dealer == hand["dealer"]
        assert [sorted(cards) for cards in hand["steps"][0]["hands"]] == \
            [sorted(cards) for cards in record["hands"][0]["deal"]["hands"]]
    # The next day is a new day: its own deals, and the seed of the day before on its page.
    today = steady.go("GET", "/daily").text
    assert "id=daily-start" in today


def test_an_attempt_resumes_where_it_was_and_a_second_after_finishing_is_refused(
    day: tuple[Starlette, Path, str],
) -> None:
    app, _clock, url = day
    player = Browser(app)
    player.go("GET", "/")
    page = player.go("GET", "/daily").text
    csrf = _field(page, "csrf")
    assert player.go("POST", "/daily/start", {"csrf": csrf}).status_code == 303
    page = player.go("GET", "/daily").text
    moves = [html.unescape(m) for m in re.findall(r'name=move value="([^"]+)"', page)]
    assert player.go("POST", "/daily/move", {"csrf": csrf, "version": _field(page, "version"),
                                             "move": moves[0]}).status_code == 303
    before = player.go("GET", "/daily").text
    # Leaving and coming back (a start again, another tab): the same attempt at the same point.
    assert player.go("POST", "/daily/start", {"csrf": csrf}).status_code == 303
    assert player.go("GET", "/daily").text == before
    assert len(_attempts(url)) == 1
    done = _play_day(player, True, [])
    assert "id=daily-done" in done
    # A guest who played is a player: the sweep of idle guests (who never sat down) keeps them.
    store = Store(url)
    Players(store.engine).forget_idle_guests(time.time() + 3600)
    store.close()
    assert "id=daily-done" in player.go("GET", "/daily").text
    stored = _attempts(url)
    again = player.go("POST", "/daily/start", {"csrf": csrf})
    assert again.status_code == 409
    assert "You have played today&#39;s daily deal: one attempt a day." in again.text
    assert _attempts(url) == stored


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_two_starts_at_the_same_moment_keep_one_attempt(
    tmp_path: Path, request: pytest.FixtureRequest, database: str,
) -> None:
    if database == "postgresql":
        url = request.getfixturevalue("postgres").fresh_database()
        create_app(url)  # made at the schema's head
    else:
        url = seeded_store(tmp_path / "games.db")
    store = DailyStore(Store(url).engine)
    today = date.fromisoformat(DAY)
    for round_ in range(4):
        player = f"player-{round_}"
        gate = threading.Barrier(2)
        got: list[Attempt] = []

        def start(player: str = player, gate: threading.Barrier = gate, got: list[Attempt] = got) -> None:
            gate.wait()
            got.append(daily_play.start(store, today, player))

        threads = [threading.Thread(target=start) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(got) == 2 and got[0].code == got[1].code  # both are the one attempt kept
        assert got[0].moves == got[1].moves
    with store.engine.connect() as db:
        rows = db.execute(select(daily_attempts.c.player)).all()
    assert sorted(p for (p,) in rows) == [f"player-{n}" for n in range(4)]
    # The key itself: a second row for the same player and day is refused by the database.
    with pytest.raises(AlreadyStarted):
        store.start(Attempt(DAY, "player-0", "another-code", 0.0, [[]]))


def test_bad_input_is_refused_and_changes_nothing(day: tuple[Starlette, Path, str]) -> None:
    app, _clock, url = day
    player = Browser(app)
    player.go("GET", "/")
    csrf = _field(player.go("GET", "/daily").text, "csrf")
    early = player.go("POST", "/daily/move", {"csrf": csrf, "version": "0", "move": "0 pass"})
    assert early.status_code == 409 and "You have not started today" in early.text
    assert _attempts(url) == []
    assert player.go("POST", "/daily/start", {"csrf": csrf}).status_code == 303
    page = player.go("GET", "/daily").text
    version = _field(page, "version")
    stored = _attempts(url)
    refused = [
        ({"csrf": csrf, "version": version, "move": "0 knock AS"}, 400, "That move cannot be played"),
        ({"csrf": csrf, "version": version, "move": "1 pass"}, 400, "play seat 0 in the daily deal"),
        ({"csrf": csrf, "version": version, "move": "0 discard ZZ"}, 400, "That move cannot be played"),
        ({"csrf": csrf, "version": version, "move": "<script>"}, 400, "That is not a move"),
        ({"csrf": csrf, "version": version, "move": "0 pass" * 40}, 400, "That is not a move"),
        ({"csrf": csrf, "version": str(int(version) + 1), "move": "0 pass"}, 409, "out of date"),
        ({"csrf": csrf, "move": "0 pass"}, 400, "missing the deal&#39;s version"),
        ({"csrf": csrf, "version": "\u00b2", "move": "0 pass"}, 400, "missing the deal&#39;s version"),
        ({"csrf": "forged", "version": version, "move": "0 pass"}, 403, "out of date"),
    ]
    for form, status, words in refused:
        answer = player.go("POST", "/daily/move", form)
        assert (answer.status_code, words in answer.text) == (status, True), (form, answer.text[-800:])
        assert "Traceback" not in answer.text
    nexting = player.go("POST", "/daily/next", {"csrf": csrf, "version": version})
    assert nexting.status_code == 409 and "Finish this deal first" in nexting.text
    from_elsewhere = player.go("POST", "/daily/move", {"csrf": csrf, "version": version, "move": "0 pass"},
                               origin="https://evil.example")
    assert from_elsewhere.status_code == 403
    assert _attempts(url) == stored
    for path in ("/daily/2026-13-01", "/daily/tomorrow", "/daily/2026-12-08", "/daily/9999-01-01",
                 "/daily/0001-01-01/replay/abc", "/api/daily/2026-12-07/abc/replay"):
        assert player.go("GET", path).status_code == 404
    first = player.go("GET", "/daily/0001-01-01")  # the first day there is: no day before it
    assert first.status_code == 200 and "The day before" not in first.text


def test_moves_past_the_rate_limit_are_refused(tmp_path: Path) -> None:
    url = seeded_store(tmp_path / "games.db")
    app = create_app(url, allow_seeds=True, clock_file=str(clock_file(tmp_path)),
                     limits=Limits(daily_moves=0.001, daily_move_burst=1))
    player = Browser(app)
    player.go("GET", "/")
    csrf = _field(player.go("GET", "/daily").text, "csrf")
    assert player.go("POST", "/daily/start", {"csrf": csrf}).status_code == 303
    version = _field(player.go("GET", "/daily").text, "version")
    first = player.go("POST", "/daily/move", {"csrf": csrf, "version": version, "move": "0 pass"})
    assert first.status_code == 303
    stored = _attempts(url)
    second = player.go("POST", "/daily/move", {"csrf": csrf, "version": version, "move": "0 pass"})
    _stop_thinking(app)
    assert second.status_code == 429 and "Too many moves" in second.text
    assert _attempts(url) == stored


def test_the_clock_file_is_for_tests_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs allow_seeds"):
        create_app(f"sqlite:///{tmp_path / 'games.db'}", clock_file=str(clock_file(tmp_path)))
    told = subprocess.run([sys.executable, "-m", "okgin.cli", "serve", "--clock-file", "x"],
                          capture_output=True, text=True)
    assert told.returncode == 2 and "--clock-file is for tests only" in told.stderr


def test_a_real_store_makes_its_own_secret_once(tmp_path: Path) -> None:
    store = DailyStore(Store(f"sqlite:///{tmp_path / 'games.db'}").engine)
    secret = store.secret()
    assert len(secret) == 32 and store.secret() == secret


@contextlib.contextmanager
def _started_on_a_real_server(
    tmp_path: Path, clock: Path,
) -> Iterator[tuple[ServerProcess, httpx.Client, str, list[str]]]:
    """A real `okgin serve` reading the day from ``clock``, and a guest who started the day's
    deals: the server, the guest's client, its form token, and the two pages it was sent (the
    first /daily and the start's answer)."""
    seeded_store(tmp_path / "games.db")
    server = ServerProcess(tmp_path / "games.db", allow_seeds=True, extra=("--clock-file", str(clock)))
    server.start()
    try:
        with web_client(server.url) as web:
            web.get("/")
            page = web.get("/daily").text
            csrf = _field(page, "csrf")
            started = web.post("/daily/start", data={"csrf": csrf}, headers={"origin": server.url})
            assert started.status_code == 303
            yield server, web, csrf, [page, started.text]
    finally:
        server.stop()


def test_the_seed_is_in_no_page_or_frame_of_a_real_server_before_the_day_ends(tmp_path: Path) -> None:
    """A real `okgin serve` with the clock file: the day's pages, the leaderboard, the replay
    data asked for too early, and the WebSocket's frames of a game the same player plays meanwhile;
    none carries the seed (nor the secret)."""
    clock = clock_file(tmp_path)
    with _started_on_a_real_server(tmp_path, clock) as (server, web, _, texts):
        texts += [web.get(p).text for p in (
            "/daily", f"/daily/{DAY}", "/leaderboard", f"/api/daily/{DAY}/x/replay")]
        cookie = web.cookies["okgin_session"]

        async def game_frames() -> list[str]:
            client = await Client.connect(server.ws_url, cookie)
            await client.open_game({"type": "new", "opponents": ["easy"], "seed": 3,
                                    "rules": {"preset": "oklahoma", "target": 10}})
            await client.play()
            await client.close()
            return client.frames

        texts += run(game_frames())
        assert not any(SEED in text or SECRET in text for text in texts)
        assert "Deal 1 of 5" in texts[2]
        clock.write_text(NEXT_DAY, encoding="utf-8")
        assert SEED in web.get(f"/daily/{DAY}").text


def test_a_hand_hard_ends_before_the_person_moves_is_scored() -> None:
    """Every deal of many days starts with the person to play or is already scored (a knock on
    the upcard by hard, speaking first where the person deals)."""
    for n in range(12):
        seed = hashlib.sha256(str(n).encode()).hexdigest()
        for deal in range(daily.DEALS):
            match = daily.dealt(seed, deal)
            daily.play(seed, deal, match, None)
            assert match.current is None or match.current.to_act == daily.PERSON
            assert match.current is not None or daily.points(match) is not None
    assert parse_action("0 pass")


def test_an_attempt_unfinished_at_midnight_is_closed_and_not_scored(day: tuple[Starlette, Path, str]) -> None:
    app, clock, url = day
    player = Browser(app)
    player.go("GET", "/")
    csrf = _field(player.go("GET", "/daily").text, "csrf")
    assert player.go("POST", "/daily/start", {"csrf": csrf}).status_code == 303
    version = _field(player.go("GET", "/daily").text, "version")
    stored = _attempts(url)
    clock.write_text(NEXT_DAY, encoding="utf-8")
    late = player.go("POST", "/daily/move", {"csrf": csrf, "version": version, "move": "0 pass"})
    assert late.status_code == 409 and "You have not started today" in late.text  # a new day
    assert "id=daily-start" in player.go("GET", "/daily").text
    results = player.go("GET", f"/daily/{DAY}").text
    assert "Nobody has finished this day" in results
    assert "1 player has started and not finished (not scored: the day is over)" in results
    assert _attempts(url) == stored


def test_two_moves_at_the_same_moment_play_one(tmp_path: Path) -> None:
    """Two tabs send a move from the same page at once: one is played, the other refused as out
    of date (compare-and-set on the attempt's version), never both."""
    url = seeded_store(tmp_path / "games.db")
    store = DailyStore(Store(url).engine)
    today = date.fromisoformat(DAY)
    attempt = daily_play.start(store, today, "player-a")
    gate = threading.Barrier(2)
    answers: list[str] = []

    def move(text: str) -> None:
        gate.wait()
        try:
            daily_play.move(store, today, "player-a", text, attempt.version)
            answers.append("played")
        except daily_play.DailyRefused as refused:
            answers.append(str(refused))

    threads = [threading.Thread(target=move, args=(text,)) for text in ("0 pass", "0 take")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == sorted(["played", daily_play.OUT_OF_DATE])
    stored = store.attempt(DAY, "player-a")
    assert stored is not None and stored.version == attempt.version + 1
    assert [m for m in stored.moves[0] if m.startswith("0 ")] in (["0 pass"], ["0 take"])


def _thinking_processes(server: int) -> list[int]:
    """The processes ``server`` started to think in (multiprocessing's spawned workers)."""
    children = [int(pid) for task in Path(f"/proc/{server}/task").iterdir()
                for pid in (task / "children").read_text().split()]
    return [pid for pid in children if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def test_hards_answers_in_the_daily_deal_are_worked_out_in_a_process_of_their_own(tmp_path: Path) -> None:
    """`hard` searches (a daily move's CPU p95 172 ms, docs/daily.md): as at a room's table, it
    thinks in the server's thinking processes, never in the server's own, which answers everyone
    else."""
    with _started_on_a_real_server(tmp_path, clock_file(tmp_path)) as (server, web, csrf, _):
        assert server.process is not None
        thought = []
        for _ in range(5):  # the person's first moves, each answered by `hard`
            page = web.get("/daily").text
            moves = [html.unescape(m) for m in re.findall(r'name=move value="([^"]+)"', page)]
            answer = web.post("/daily/move", headers={"origin": server.url}, data={
                "csrf": csrf, "version": _field(page, "version"), "move": choose(moves, False)})
            assert answer.status_code == 303, answer.text[-800:]
            thinkers = _thinking_processes(server.process.pid)
            assert thinkers, "hard thought in the server's own process"
            thought.append(sum(_cpu_seconds(pid) for pid in thinkers))
        assert thought[-1] > thought[0], thought  # the later answers' searches ran there too
