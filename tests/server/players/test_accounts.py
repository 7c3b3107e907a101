"""Accounts, tried as an attacker would: session fixation, a stolen cookie, brute force, user
enumeration, the stored hash, passwords in logs, and deletion down to the last row."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from real_servers import Postgres
from scripted_client import new_guest, run
from server_process import ServerProcess
from sqlalchemy import create_engine, select
from starlette.applications import Starlette
from stored_games import store_record
from test_coach_server import finished_record

from okgin.errors import sentence
from okgin.server.players.accounts import ADDRESS_FREE, FORMER, WRONG
from okgin.server.players.identity import Players
from okgin.server.store.schema import sign_in_limits
from okgin.server.store.storage import Store

BASE = "http://127.0.0.1"
PASSWORD = "correct horse battery"


@dataclass
class Browser:
    """One browser: its cookie jar, the address it comes from, what it last got."""

    app: Starlette
    address: str = "127.0.0.1"
    cookies: dict[str, str] = field(default_factory=dict)
    base: str = BASE
    """The server's address as this browser reaches it (passkeys need a name: http://localhost)."""

    def go(self, method: str, path: str, form: dict[str, str] | None = None,
           origin: str | None = "", content: bytes | None = None,
           headers: dict[str, str] | None = None) -> httpx.Response:
        """Send a request as this browser; ``origin`` "" is the page's own, None none at all."""
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app, client=(self.address, 5000))
            async with httpx.AsyncClient(transport=transport, base_url=self.base) as web:
                for name, value in self.cookies.items():
                    web.cookies.set(name, value)
                sent = {**({"origin": origin or self.base} if origin is not None else {}), **(headers or {})}
                answer = await web.request(method, path, data=form, content=content, headers=sent)
                for name, value in answer.cookies.items():
                    self.cookies[name] = value
                if 'okgin_session=""' in answer.headers.get("set-cookie", "") or "Max-Age=0" in \
                        answer.headers.get("set-cookie", ""):
                    self.cookies.pop("okgin_session", None)
                return answer
        return run(send())

    def post(self, path: str, **form: str) -> httpx.Response:
        return self.go("POST", path, {"csrf": self.csrf(), **form})

    def csrf(self) -> str:
        """The session's CSRF token, as the profile page's forms carry it."""
        found = re.search(r'name="csrf" value="([^"]+)"', self.go("GET", "/profile").text)
        assert found
        return found.group(1)

    @property
    def cookie(self) -> str:
        return self.cookies["okgin_session"]



def _player(db: Path, cookie: str) -> str:
    store = Store(f"sqlite:///{db}")
    session = Players(store.engine).session(cookie)
    store.close()
    assert session is not None
    return session.player


def _game_of(db: Path, *cookies: str) -> str:
    """A finished game in the store, its seats taken by the players of ``cookies``."""
    store = Store(f"sqlite:///{db}")
    store_record(store, "g1", finished_record(1), ["simple"])
    store.close()
    seats = {seat: _player(db, cookie) for seat, cookie in enumerate(cookies)}
    store = Store(f"sqlite:///{db}")
    Players(store.engine).sat_in_game("g1", seats)
    store.close()
    return "g1"


def _signed_up(app: Starlette, username: str = "ann") -> Browser:
    ann = Browser(app)
    ann.go("GET", "/")
    assert ann.post("/account/create", username=username, password=PASSWORD).status_code == 303
    return ann


def test_an_account_keeps_the_same_player_and_history_on_another_device(app: Starlette, db: Path) -> None:
    ann = Browser(app)
    ann.go("GET", "/")
    game = _game_of(db, ann.cookie)
    guest_cookie = ann.cookie
    assert ann.post("/account/create", username="Ann", password=PASSWORD).status_code == 303
    assert ann.cookie != guest_cookie  # a new session id when the guest becomes an account
    assert "signed in as <b>ann</b>" in ann.go("GET", "/profile").text
    phone = Browser(app, address="10.0.0.9")
    phone.go("GET", "/")
    assert game not in phone.go("GET", "/history").text
    before = phone.cookie
    assert phone.post("/account/sign-in", username="ANN ", password=PASSWORD).status_code == 303
    assert phone.cookie != before  # session fixation: the id the browser had is not signed in
    assert f"/games/{game}/replay" in phone.go("GET", "/history").text
    assert phone.go("GET", f"/games/{game}/record").status_code == 200
    fixed = Browser(app, cookies={"okgin_session": before})
    assert "signed in" not in fixed.go("GET", "/profile").text  # the old id is nobody now


def test_sign_out_other_devices_revokes_a_stolen_cookie(app: Starlette, db: Path) -> None:
    ann = _signed_up(app)
    _game_of(db, ann.cookie)
    thief = Browser(app, address="10.6.6.6", cookies={"okgin_session": ann.cookie})
    laptop = Browser(app, address="10.0.0.2")
    laptop.go("GET", "/")
    laptop.post("/account/sign-in", username="ann", password=PASSWORD)
    thief.cookies = {"okgin_session": laptop.cookie}  # stolen from the laptop
    assert "/games/g1/replay" in thief.go("GET", "/history").text
    profile = ann.go("GET", "/profile").text
    assert profile.count("<li>") == 2 and "(this one)" in profile
    assert ann.post("/account/sign-out-others").status_code == 303
    assert "/games/g1/replay" not in thief.go("GET", "/history").text
    assert thief.go("GET", "/games/g1/record").status_code == 404
    assert "/games/g1/replay" in ann.go("GET", "/history").text  # this device stays signed in
    assert ann.post("/account/sign-out").status_code == 303
    assert "/games/g1/replay" not in ann.go("GET", "/history").text


@pytest.mark.slow
def test_brute_force_is_delayed_and_limited_and_the_owner_still_gets_in(app: Starlette) -> None:
    _signed_up(app)
    attacker = Browser(app, address="10.6.6.6")
    attacker.go("GET", "/")
    answers = [attacker.post("/account/sign-in", username="ann", password=f"guess-{i:04d}-xyz")
               for i in range(100)]
    statuses = [a.status_code for a in answers]
    assert statuses[:5] == [403] * 5 and set(statuses[5:]) == {429}
    assert "Too many failed sign-ins from your address: try again in" in answers[-1].text
    assert attacker.post("/account/sign-in", username="ann", password=PASSWORD).status_code == 429
    owner = Browser(app, address="10.0.0.7")
    owner.go("GET", "/")
    assert owner.post("/account/sign-in", username="ann", password=PASSWORD).status_code == 303
    assert "signed in as <b>ann</b>" in owner.go("GET", "/profile").text


@pytest.mark.slow
def test_a_right_password_is_no_failure_of_its_address(app: Starlette) -> None:
    """Each try is counted before its password is checked; a right one gives it back, so the
    address still has its fifth failure to come after four wrong and one right."""
    _signed_up(app)
    someone = Browser(app, address="10.0.0.8")
    someone.go("GET", "/")
    wrong = [someone.post("/account/sign-in", username="ann", password=f"guess-{i}-xyz").status_code
             for i in range(ADDRESS_FREE - 1)]
    assert wrong == [403] * (ADDRESS_FREE - 1)
    assert someone.post("/account/sign-in", username="ann", password=PASSWORD).status_code == 303
    assert someone.post("/account/sign-in", username="ann", password="guess-last-xyz").status_code == 403
    assert someone.post("/account/sign-in", username="ann", password=PASSWORD).status_code == 429


def _csrf_of(base: str, cookie: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"',
                      httpx.get(base + "/profile", cookies={"okgin_session": cookie}).text)
    assert found
    return found.group(1)


def _failures(url: str) -> dict[str, int]:
    """The stored failed sign-ins, by what they are kept against ("address:…", "account:…")."""
    keys = {hashlib.sha256(what.encode()).hexdigest(): what for what in ("address:127.0.0.1", "account:ann")}
    engine = create_engine(url)
    with engine.connect() as db:
        rows = db.execute(select(sign_in_limits.c.key, sign_in_limits.c.failures)).all()
    engine.dispose()
    return {keys.get(key, key): failures for key, failures in rows}


@contextlib.contextmanager
def servers_on(where: str, tmp_path: Path, request: pytest.FixtureRequest,
               ) -> Iterator[tuple[str, list[ServerProcess]]]:
    """The store's URL and the servers on it for ``where``: one on SQLite, one on a throwaway
    PostgreSQL, or two sharing that PostgreSQL ("postgresql, two processes"); stopped after."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    if where != "sqlite":
        postgres: Postgres = request.getfixturevalue("postgres")
        url = postgres.fresh_database()
    servers = [ServerProcess(tmp_path / f"{n}.db", extra=("--db", url)).start()
               for n in range(2 if "two" in where else 1)]
    try:
        yield url, servers
    finally:
        for server in servers:
            server.stop()


async def _wrong_sign_ins_at_once(bases: list[str], count: int) -> list[int]:
    """``count`` sign-ins to ann with wrong passwords, all sent together from one address (one
    guest a server, the requests shared out between the servers in turn): their statuses."""
    guests = [(base, new_guest(base)) for base in bases]
    forms = [(base, cookie, _csrf_of(base, cookie)) for base, cookie in guests]
    async with httpx.AsyncClient() as web:
        async def one(i: int) -> int:
            base, cookie, csrf = forms[i % len(forms)]
            answer = await web.post(base + "/account/sign-in",
                                    headers={"origin": base, "cookie": f"okgin_session={cookie}"},
                                    data={"csrf": csrf, "username": "ann", "password": f"guess-{i:04d}-xyz"})
            return answer.status_code
        return list(await asyncio.gather(*(one(i) for i in range(count))))


@pytest.mark.parametrize("where", ["sqlite", "postgresql", "postgresql, two processes"])
@pytest.mark.slow
def test_wrong_passwords_sent_at_once_are_checked_no_more_than_the_limit_and_counted_exactly(
    tmp_path: Path, request: pytest.FixtureRequest, where: str,
) -> None:
    """The address's limit is taken before any password is checked, in one statement: of 24
    wrong passwords sent at once (to one process or shared between two on one PostgreSQL) the
    first ADDRESS_FREE are checked and the others refused, however they interleave, and the
    store counts exactly the ones checked, against the address and against the account."""
    with servers_on(where, tmp_path, request) as (url, servers):
        owner = new_guest(servers[0].url)
        base = servers[0].url
        made = httpx.post(base + "/account/create",
                          headers={"origin": base, "cookie": f"okgin_session={owner}"},
                          data={"csrf": _csrf_of(base, owner), "username": "ann", "password": PASSWORD})
        assert made.status_code == 303
        statuses = run(_wrong_sign_ins_at_once([s.url for s in servers], 24))
    checked = [status for status in statuses if status != 429]
    assert checked == [403] * ADDRESS_FREE, (statuses, _failures(url))
    assert _failures(url) == {"address:127.0.0.1": ADDRESS_FREE, "account:ann": ADDRESS_FREE}


def test_an_unknown_username_gets_the_same_answer_as_a_wrong_password(app: Starlette) -> None:
    _signed_up(app)
    someone = Browser(app, address="10.0.0.3")
    someone.go("GET", "/")
    wrong = someone.post("/account/sign-in", username="ann", password="not the password")
    unknown = someone.post("/account/sign-in", username="nobody-here", password="not the password")
    assert wrong.status_code == unknown.status_code == 403
    strip = re.compile(r'name="csrf" value="[^"]+"')
    assert strip.sub("", wrong.text) == strip.sub("", unknown.text) and sentence(WRONG) in wrong.text
    taken = Browser(app)
    taken.go("GET", "/")
    answer = taken.post("/account/create", username="ann", password=PASSWORD + "!")
    assert answer.status_code == 400 and "taken" in answer.text  # the one place a name may show


def test_an_unknown_username_costs_the_same_argon2_work_as_a_wrong_password(app: Starlette) -> None:
    """No timing tells a username exists: an unknown one is checked against a dummy argon2id
    hash, so both cost one hash's CPU. Measured as this process's CPU time (the app runs in it,
    its worker threads included), which a loaded machine does not stretch as it does wall
    time; without the dummy hash the unknown name would cost a small fraction of the wrong
    password (argon2id's 64 MiB and 3 passes are tens of milliseconds; a refusal without it
    under one)."""
    _signed_up(app)
    someone = Browser(app, address="10.0.0.4")
    someone.go("GET", "/")

    def cpu_of(username: str) -> float:
        started = time.process_time()
        answer = someone.post("/account/sign-in", username=username, password="not the password")
        assert answer.status_code == 403
        return time.process_time() - started

    # Two tries each (an address is checked 5 times before its sign-ins wait), turn about.
    costs: dict[str, float] = {"ann": 0.0, "nobody-here": 0.0}
    for name in ("ann", "nobody-here", "ann", "nobody-here"):
        costs[name] += cpu_of(name)
    assert costs["nobody-here"] > 0.5 * costs["ann"], costs


def test_the_stored_hash_is_argon2id_and_the_password_is_in_no_log_and_no_row(
    app: Starlette, db: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.DEBUG):
        ann = _signed_up(app)
        ann.post("/account/sign-in", username="ann", password=PASSWORD)
        ann.post("/account/password", current=PASSWORD, password=PASSWORD + " two")
    with sqlite3.connect(db) as connection:
        (stored,) = connection.execute("SELECT hash FROM accounts").fetchone()
        dump = "\n".join(connection.iterdump())
    assert stored.startswith("$argon2id$")
    assert PASSWORD not in dump and PASSWORD not in caplog.text
    assert all(PASSWORD not in str(record.args) for record in caplog.records)


def test_a_changed_password_is_the_only_one_that_signs_in(app: Starlette) -> None:
    ann = _signed_up(app)
    wrong = ann.post("/account/password", current="not my password", password="a brand new one")
    assert wrong.status_code == 403 and "current password" in wrong.text
    assert ann.post("/account/password", current=PASSWORD, password="a brand new one").status_code == 303
    other = Browser(app, address="10.0.0.5")
    other.go("GET", "/")
    assert other.post("/account/sign-in", username="ann", password=PASSWORD).status_code == 403
    assert other.post("/account/sign-in", username="ann", password="a brand new one").status_code == 303


@pytest.mark.parametrize(("password", "why"), [
    ("short1", "at least 10 characters"),
    ("password123", "among the most common"),
    ("QWERTYUIOP", "among the most common"),
    ("my ann-secret", "holds your username"),
])
def test_a_weak_password_makes_no_account(app: Starlette, db: Path, password: str, why: str) -> None:
    ann = Browser(app)
    ann.go("GET", "/")
    answer = ann.post("/account/create", username="ann", password=password)
    assert answer.status_code == 400 and why in answer.text
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM accounts").fetchone() == (0,)


@pytest.mark.parametrize("extra,why", [
    (b"&username=ann&password=\xff\xfe", "the form is not UTF-8 text"),
    (b"&a=1" * 30, "the form has more than 20 fields"),
])
def test_a_form_that_cannot_be_read_says_why_and_makes_nothing(
    app: Starlette, db: Path, extra: bytes, why: str,
) -> None:
    """A form whose body is not UTF-8, or has more fields than any form of ours, is refused with
    what was wrong with it (before, both got "the form could not be read")."""
    ann = Browser(app)
    ann.go("GET", "/")
    body = f"csrf={ann.csrf()}".encode() + extra
    answer = ann.go("POST", "/account/create", content=body,
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 400 and sentence(why) in answer.text
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM accounts").fetchone() == (0,)


def test_deleting_the_account_leaves_no_personal_row_and_the_game_for_the_other(
    app: Starlette, db: Path,
) -> None:
    ann = _signed_up(app)
    assert ann.post("/profile/name", name="Ann Q").status_code == 303
    bob = Browser(app, address="10.0.0.4")
    bob.go("GET", "/")
    player = _player(db, ann.cookie)
    game = _game_of(db, ann.cookie, bob.cookie)
    cross_site = ann.go("POST", "/account/delete", {"password": PASSWORD}, origin="https://evil.example")
    assert cross_site.status_code == 403
    assert ann.post("/account/delete", password="wrong password").status_code == 403
    assert ann.post("/account/delete", password=PASSWORD).status_code == 303
    with sqlite3.connect(db) as connection:
        dump = "\n".join(connection.iterdump())
    assert player not in dump and "Ann Q" not in dump and "'ann'" not in dump
    record = bob.go("GET", f"/games/{game}/record").json()
    assert record["players"] == [FORMER, "Ruby"]
    gone = Browser(app, cookies={"okgin_session": "x" * 43})
    assert gone.post("/account/sign-in", username="ann", password=PASSWORD).status_code == 403
