"""Passkeys over HTTP, with a passkey in software: added on the profile, signing in on another
browser, removed; and refused, with nothing changed, as an attacker would try them: no or a
wrong CSRF token, another site's Origin, a replayed challenge, an answer for another relying
party or origin, a removed passkey, a sign count going backwards, malformed or huge bodies."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import new_guest, run
from server_process import ServerProcess
from soft_passkey import SoftPasskey
from starlette.applications import Starlette
from test_accounts import PASSWORD, Browser, _csrf_of, _failures, _game_of, _player, servers_on

from okgin.server import create_app
from okgin.server.players.accounts import ADDRESS_FREE, Accounts
from okgin.server.players.identity import Players
from okgin.server.players.passkeys import Passkeys
from okgin.server.store.storage import Store

HOST = "http://localhost"

def _call(browser: Browser, path: str, body: object, **kwargs: Any) -> httpx.Response:
    """A JSON POST as the profile page's script sends it (its CSRF token in the header)."""
    headers = {"content-type": "application/json", "x-csrf-token": kwargs.pop("csrf", browser.csrf())}
    return browser.go("POST", path, content=json.dumps(body).encode(), headers=headers, **kwargs)


def _account(app: Starlette, address: str = "127.0.0.1") -> Browser:
    ann = Browser(app, address=address, base=HOST)
    ann.go("GET", "/")
    assert ann.post("/account/create", username="ann", password=PASSWORD).status_code == 303
    return ann


def _added(ann: Browser, key: SoftPasskey, name: str = "my phone") -> httpx.Response:
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    return _call(ann, "/account/passkeys/register", {"name": name, "credential": key.created(options, HOST)})


def _guest(app: Starlette, address: str = "10.0.0.9") -> Browser:
    phone = Browser(app, address=address, base=HOST)
    phone.go("GET", "/")
    return phone


def _signed_in(phone: Browser, key: SoftPasskey, **answer: Any) -> httpx.Response:
    options = _call(phone, "/account/passkeys/sign-in/options", {}).json()
    return _call(phone, "/account/passkeys/sign-in", {"credential": key.asserted(options, HOST, **answer)})


def _rows(db: Path, query: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(query).fetchall()


def test_a_passkey_added_on_the_profile_signs_in_on_another_browser(app: Starlette, db: Path) -> None:
    ann = _account(app)
    game = _game_of(db, ann.cookie)
    key = SoftPasskey()
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    assert options["rp"]["id"] == "localhost"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert _player(db, ann.cookie) not in json.dumps(options)  # the user handle is not the player id
    added = _call(ann, "/account/passkeys/register",
                  {"name": "my phone", "credential": key.created(options, HOST)})
    assert added.status_code == 200 and "my phone" in added.json()["ok"]
    assert "my phone, added" in ann.go("GET", "/profile").text
    phone = _guest(app)
    before = phone.cookie
    answer = _signed_in(phone, key)
    assert answer.status_code == 200 and answer.json()["to"] == "/profile"
    assert phone.cookie != before  # a new session id, as a password sign-in gives
    fixed = Browser(app, base=HOST, cookies={"okgin_session": before})
    assert "signed in" not in fixed.go("GET", "/profile").text  # the old id is nobody now
    assert "signed in as <b>ann</b>" in phone.go("GET", "/profile").text
    assert f"/games/{game}/replay" in phone.go("GET", "/history").text
    ((count, used),) = _rows(db, "SELECT sign_count, last_used FROM passkeys")
    assert count == 1 and used is not None
    assert "last used" in phone.go("GET", "/profile").text
    assert _rows(db, "SELECT count(*) FROM passkey_challenges") == [(0,)]  # both used up


def test_a_guest_cannot_add_a_passkey(app: Starlette, db: Path) -> None:
    guest = _guest(app)
    answer = _call(guest, "/account/passkeys/register/options", {})
    assert answer.status_code == 400 and "make an account first" in answer.json()["error"]
    assert _rows(db, "SELECT count(*) FROM passkey_challenges") == [(0,)]


@pytest.mark.parametrize(("how", "kwargs", "why"), [
    ("no token", {"csrf": ""}, "CSRF token"),
    ("a made-up token", {"csrf": "x" * 43}, "CSRF token"),
    ("another site", {"origin": "https://evil.example"}, "okgin's own page"),
    ("no Origin", {"origin": None}, "okgin's own page"),
])
def test_passkey_requests_without_the_token_or_from_another_site_change_nothing(
    app: Starlette, db: Path, how: str, kwargs: dict[str, Any], why: str,
) -> None:
    ann = _account(app)
    key = SoftPasskey()
    refused = _call(ann, "/account/passkeys/register/options", {}, **kwargs)
    assert refused.status_code == 403 and why in refused.json()["error"], how
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    body = {"name": "x", "credential": key.created(options, HOST)}
    assert _call(ann, "/account/passkeys/register", body, **kwargs).status_code == 403
    assert _rows(db, "SELECT count(*) FROM passkeys") == [(0,)]
    assert _call(ann, "/account/passkeys/register", body).status_code == 200  # the challenge was kept
    phone = _guest(app)
    options = _call(phone, "/account/passkeys/sign-in/options", {}).json()
    body = {"credential": key.asserted(options, HOST)}
    before = phone.cookie
    assert _call(phone, "/account/passkeys/sign-in", body, **kwargs).status_code == 403
    assert phone.cookie == before and "signed in" not in phone.go("GET", "/profile").text
    another = Browser(app, address="10.0.0.8", base=HOST, cookies={"okgin_session": ann.cookie})
    stolen = _call(phone, "/account/passkeys/sign-in", body, csrf=another.csrf())  # another session's token
    assert stolen.status_code == 403 and phone.cookie == before


def test_a_replayed_answer_finds_no_challenge(app: Starlette, db: Path) -> None:
    ann = _account(app)
    key = SoftPasskey()
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    body = {"name": "one", "credential": key.created(options, HOST)}
    assert _call(ann, "/account/passkeys/register", body).status_code == 200
    again = _call(ann, "/account/passkeys/register", body)
    assert again.status_code == 400 and "was used or has expired" in again.json()["error"]
    phone = _guest(app)
    options = _call(phone, "/account/passkeys/sign-in/options", {}).json()
    answer = {"credential": key.asserted(options, HOST)}
    assert _call(phone, "/account/passkeys/sign-in", answer).status_code == 200
    thief = _guest(app, address="10.6.6.6")
    _call(thief, "/account/passkeys/sign-in/options", {})  # a challenge of its own, not that one
    replayed = _call(thief, "/account/passkeys/sign-in", answer)
    assert replayed.status_code == 403 and "signed in" not in thief.go("GET", "/profile").text
    assert _call(phone, "/account/passkeys/sign-in", answer).status_code == 400  # used once only
    assert _rows(db, "SELECT count(*), max(sign_count) FROM passkeys") == [(1, 1)]


@pytest.mark.parametrize(("rp_id", "origin"), [
    ("evil.example", HOST), ("localhost", "http://evil.example"), ("localhost", "https://localhost"),
    ("localhost", "http://localhost:8000"),
])
def test_an_answer_for_another_relying_party_or_origin_is_refused(
    app: Starlette, db: Path, rp_id: str, origin: str,
) -> None:
    ann = _account(app)
    key = SoftPasskey()
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    forged = _call(ann, "/account/passkeys/register",
                   {"name": "x", "credential": key.created(options, origin, rp_id=rp_id)})
    assert forged.status_code == 400 and "not accepted" in forged.json()["error"]
    assert _rows(db, "SELECT count(*) FROM passkeys") == [(0,)]
    assert _added(ann, key).status_code == 200
    phone = _guest(app)
    options = _call(phone, "/account/passkeys/sign-in/options", {}).json()
    forged = _call(phone, "/account/passkeys/sign-in",
                   {"credential": key.asserted(options, origin, rp_id=rp_id)})
    assert forged.status_code == 403 and "signed in" not in phone.go("GET", "/profile").text
    assert _rows(db, "SELECT sign_count, last_used FROM passkeys") == [(0, None)]


def test_no_passkey_ceremony_by_an_ip_address(app: Starlette, db: Path) -> None:
    ann = Browser(app)  # http://127.0.0.1: WebAuthn refuses an IP address as the relying party
    ann.go("GET", "/")
    ann.post("/account/create", username="ann", password=PASSWORD)
    answer = _call(ann, "/account/passkeys/register/options", {})
    assert answer.status_code == 400 and "not by an IP address" in answer.json()["error"]
    assert _rows(db, "SELECT count(*) FROM passkey_challenges") == [(0,)]


def test_a_removed_passkey_signs_nobody_in(app: Starlette, db: Path) -> None:
    ann = _account(app)
    key, other = SoftPasskey(), SoftPasskey()
    assert _added(ann, key, "laptop").status_code == 200
    assert _added(ann, other, "phone").status_code == 200
    (laptop,) = _rows(db, "SELECT id FROM passkeys WHERE name = 'laptop'")[0]
    stranger = _guest(app, address="10.0.0.3")
    stranger.post("/account/create", username="bob", password=PASSWORD)
    assert stranger.post("/account/passkeys/remove", passkey=laptop).status_code == 404  # not his
    assert ann.post("/account/passkeys/remove", passkey=laptop).status_code == 303
    assert _rows(db, "SELECT name FROM passkeys") == [("phone",)]
    phone = _guest(app)
    refused = _signed_in(phone, key)
    assert refused.status_code == 403 and "removed" in refused.json()["error"]
    assert _signed_in(phone, other).status_code == 200


def test_a_sign_count_going_backwards_is_refused(app: Starlette, db: Path) -> None:
    ann = _account(app)
    key = SoftPasskey()
    _added(ann, key)
    assert _signed_in(_guest(app), key, sign_count=5).status_code == 200
    clone = _guest(app, address="10.0.0.5")
    for count in (3, 5):  # behind, and not ahead
        answer = _signed_in(clone, key, sign_count=count)
        assert answer.status_code == 403 and "not accepted" in answer.json()["error"]
    assert "signed in" not in clone.go("GET", "/profile").text
    assert _rows(db, "SELECT sign_count FROM passkeys") == [(5,)]
    assert _signed_in(clone, key, sign_count=6).status_code == 200


def test_failed_passkey_sign_ins_count_in_the_address_limit(app: Starlette) -> None:
    ann = _account(app)
    key = SoftPasskey()
    _added(ann, key)
    attacker = _guest(app, address="10.6.6.6")
    unknown = SoftPasskey()
    assert [_signed_in(attacker, unknown).status_code for _ in range(5)] == [403] * 5
    limited = _signed_in(attacker, key)
    assert limited.status_code == 429 and "too many failed sign-ins" in limited.json()["error"]
    assert _signed_in(_guest(app, address="10.0.0.7"), key).status_code == 200


def test_a_right_or_malformed_passkey_answer_is_no_failure_of_its_address(app: Starlette) -> None:
    """Each passkey sign-in's try is taken before anything is read; a right answer, a malformed
    one and one with no challenge waiting give it back, so after four refused passkeys and
    those three the address still has its fifth failure to come."""
    ann = _account(app)
    key = SoftPasskey()
    _added(ann, key)
    someone = _guest(app, address="10.0.0.8")
    unknown = SoftPasskey()
    assert [_signed_in(someone, unknown).status_code for _ in range(ADDRESS_FREE - 1)] == [403] * 4
    assert _signed_in(someone, key).status_code == 200
    assert _call(someone, "/account/passkeys/sign-in", {"credential": {"id": 7}}).status_code == 400
    unanswered = _call(someone, "/account/passkeys/sign-in", {"credential": key.asserted({"challenge": "x"},
                                                                                          HOST, "localhost")})
    assert unanswered.status_code == 400 and "no passkey request" in unanswered.json()["error"]
    assert _signed_in(someone, unknown).status_code == 403
    assert _signed_in(someone, key).status_code == 429


class Served:
    """A browser of a real `okgin serve` reached by the name ``localhost`` (passkeys need a
    name), its requests sent to the loopback address the server listens on; a new guest, or the
    session of ``cookie``."""

    def __init__(self, server: ServerProcess, cookie: str | None = None) -> None:
        self.url = server.url
        self.cookie = cookie or new_guest(server.url)
        self.origin = f"http://localhost:{server.port}"
        self.headers = {"host": f"localhost:{server.port}", "origin": self.origin,
                        "cookie": f"okgin_session={self.cookie}",
                        "x-csrf-token": _csrf_of(server.url, self.cookie)}

    def call(self, path: str, body: object) -> httpx.Response:
        return httpx.post(self.url + path, headers=self.headers, json=body)


def _added_to_a_new_account(server: ServerProcess, key: SoftPasskey) -> None:
    guest = Served(server)
    made = httpx.post(guest.url + "/account/create", headers=guest.headers,
                      data={"csrf": guest.headers["x-csrf-token"], "username": "ann", "password": PASSWORD})
    assert made.status_code == 303
    ann = Served(server, made.cookies["okgin_session"])
    options = ann.call("/account/passkeys/register/options", {}).json()
    assert ann.call("/account/passkeys/register", {"credential": key.created(options, ann.origin)}).is_success


def _forged_answers_at_once(guests: list[Served], forger: SoftPasskey) -> list[int]:
    """A passkey sign-in by each guest, all sent together, each answering its own challenge
    with the ``forger``'s signature: their statuses."""
    bodies = [{"credential": forger.asserted(guest.call("/account/passkeys/sign-in/options", {}).json(),
                                             guest.origin)} for guest in guests]

    async def all_at_once() -> list[int]:
        async with httpx.AsyncClient() as web:
            async def one(guest: Served, body: dict[str, Any]) -> int:
                answer = await web.post(guest.url + "/account/passkeys/sign-in", headers=guest.headers,
                                        json=body)
                return answer.status_code
            return list(await asyncio.gather(*(one(g, b) for g, b in zip(guests, bodies, strict=True))))
    return run(all_at_once())


@pytest.mark.parametrize("where", ["sqlite", "postgresql", "postgresql, two processes"])
@pytest.mark.slow
def test_failing_passkeys_sent_at_once_are_verified_no_more_than_the_limit_and_counted_exactly(
    tmp_path: Path, request: pytest.FixtureRequest, where: str,
) -> None:
    """The address's limit is taken before any passkey's answer is verified, as a password's
    is: of 24 forged answers (ann's passkey's id, another key's signature) sent at once from one
    address, to one process or shared between two on one PostgreSQL, the first ADDRESS_FREE
    are verified (and refused, 403), the others refused unverified (429), and the store counts
    exactly the ones verified, against the address and against the account."""
    with servers_on(where, tmp_path, request) as (url, servers):
        key = SoftPasskey()
        _added_to_a_new_account(servers[0], key)
        forger = SoftPasskey()
        forger.id, forger.user_handle = key.id, key.user_handle
        guests = [Served(servers[n % len(servers)]) for n in range(24)]
        statuses = _forged_answers_at_once(guests, forger)
    verified = [status for status in statuses if status != 429]
    assert verified == [403] * ADDRESS_FREE, (statuses, _failures(url))
    assert _failures(url) == {"address:127.0.0.1": ADDRESS_FREE, "account:ann": ADDRESS_FREE}


@pytest.mark.parametrize(("body", "status", "why"), [
    (b"{not json", 400, "not JSON"),
    (b"[1, 2]", 400, "a JSON object"),
    (b'{"credential": 5}', 400, "must be a JSON object"),
    (b'{"credential": {"id": 7}}', 400, "no credential id"),
    (b'{"name": 5, "credential": {}}', 400, "name is text"),
    (b'{"name": "' + b"x" * 70 + b'", "credential": {}}', 400, "1 to 60"),
    (b'{"credential": {"id": "abc", "response": "x"}}', 400, "not accepted"),
    (b'{"credential": "' + b"x" * 20_000 + b'"}', 413, "too large"),
])
def test_bad_input_gets_a_clear_400_and_changes_nothing(
    app: Starlette, db: Path, body: bytes, status: int, why: str,
) -> None:
    ann = _account(app)
    key = SoftPasskey()
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    headers = {"content-type": "application/json", "x-csrf-token": ann.csrf()}
    path = "/account/passkeys/sign-in" if b'"id": 7' in body else "/account/passkeys/register"
    answer = ann.go("POST", path, content=body, headers=headers)
    assert answer.status_code == status and why in answer.json()["error"]
    assert _rows(db, "SELECT count(*) FROM passkeys") == [(0,)]
    if why != "not accepted":  # a refused answer uses its challenge up; nothing else does
        body_ok = {"name": "kept", "credential": key.created(options, HOST)}
        assert _call(ann, "/account/passkeys/register", body_ok).status_code == 200  # challenge kept


def test_deleting_the_account_deletes_its_passkeys(app: Starlette, db: Path) -> None:
    ann = _account(app)
    player = _player(db, ann.cookie)
    key = SoftPasskey()
    _added(ann, key)
    _call(ann, "/account/passkeys/register/options", {})  # a challenge left waiting
    assert ann.post("/account/delete", password=PASSWORD).status_code == 303
    assert _rows(db, "SELECT count(*) FROM passkeys") == [(0,)]
    assert _rows(db, "SELECT count(*) FROM passkey_challenges") == [(0,)]
    with sqlite3.connect(db) as connection:
        assert player not in "\n".join(connection.iterdump())
    refused = _signed_in(_guest(app), key)
    assert refused.status_code == 403


def test_an_expired_challenge_is_refused_and_swept(app: Starlette, db: Path) -> None:
    ann = _account(app)
    key = SoftPasskey()
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE passkey_challenges SET expires = ?", (time.time() - 1,))
    late = _call(ann, "/account/passkeys/register", {"name": "x", "credential": key.created(options, HOST)})
    assert late.status_code == 400 and "has expired" in late.json()["error"]
    assert _rows(db, "SELECT count(*) FROM passkeys") == [(0,)]
    _call(ann, "/account/passkeys/sign-in/options", {})
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE passkey_challenges SET expires = ?", (time.time() - 1,))
    store = Store(f"sqlite:///{db}")
    assert Passkeys(Accounts(Players(store.engine))).forget_expired(time.time()) == 1
    store.close()
    assert _rows(db, "SELECT count(*) FROM passkey_challenges") == [(0,)]


def test_the_relying_party_is_the_allowed_host_the_request_came_by(db: Path) -> None:
    app = create_app(f"sqlite:///{db}", hosts=("localhost", "gin.example.org"))
    ann = Browser(app, base="http://gin.example.org")
    ann.go("GET", "/")
    ann.post("/account/create", username="ann", password=PASSWORD)
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    assert options["rp"]["id"] == "gin.example.org"
    key = SoftPasskey()
    wrong = _call(ann, "/account/passkeys/register", {"credential": key.created(options, HOST)})
    assert wrong.status_code == 400 and "origin" in wrong.json()["error"]
    options = _call(ann, "/account/passkeys/register/options", {}).json()
    right = key.created(options, "http://gin.example.org")
    assert _call(ann, "/account/passkeys/register", {"credential": right}).status_code == 200
    elsewhere = Browser(app, base="http://evil.example")  # a Host not allowed: refused before us
    assert elsewhere.go("POST", "/account/passkeys/sign-in/options").status_code == 400
    assert _rows(db, "SELECT count(*) FROM passkey_challenges") == [(0,)]
