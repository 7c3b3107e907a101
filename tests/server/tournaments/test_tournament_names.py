"""A tournament's name: given by the host on the form (else "<host>'s Swiss", "…'s knockout"),
bounded and checked (a bad one refused with why, nothing stored), kept in the store's
``tournaments.name`` (migration 0010, which names the tournaments made before it), shown
escaped on its page, on /t and in the chips ledger ("Entry fee, Ann's Swiss")."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from starlette.applications import Starlette
from test_tournament_server import SWISS, cookie_of, make, tournaments, visit

from okgin.server.store.migrate import HEAD, alembic_config, upgrade
from okgin.server.store.tournament_store import TournamentStore


def stored(app: Starlette, code: str) -> str:
    store: TournamentStore = app.state.tournaments.store
    event = store.load(code)
    assert event is not None
    return event.name


def named_host(app: Starlette, name: str) -> str:
    """A browser whose player is called ``name`` (as after sitting at a table under it)."""
    cookie = cookie_of(app)
    code = make(app, cookie, SWISS)
    store: TournamentStore = app.state.tournaments.store
    event = store.load(code)
    assert event is not None
    app.state.players.set_name(event.host, name)
    return cookie


def test_the_name_the_host_gives_is_kept_and_shown_escaped_on_its_page_and_on_the_list(
    app: Starlette,
) -> None:
    cookie = cookie_of(app)
    code = make(app, cookie, {**SWISS, "name": "  Friday   <b>night</b> cup "})
    assert stored(app, code) == "Friday <b>night</b> cup"
    page, listing = (a.text for a in visit(app, [("GET", f"/t/{code}", {}), ("GET", "/t", {})], cookie))
    for shown in (page, listing):
        assert "Friday &lt;b&gt;night&lt;/b&gt; cup" in shown and "<b>night</b>" not in shown
    assert "<h1>Friday &lt;b&gt;night&lt;/b&gt; cup</h1>" in page


@pytest.mark.parametrize(("fmt", "name"), [("swiss", "Ann's Swiss"), ("knockout", "Ann's knockout"),
                                           ("round-robin", "Ann's round robin")])
def test_without_a_name_it_is_the_hosts_format(app: Starlette, fmt: str, name: str) -> None:
    cookie = named_host(app, "Ann")
    code = make(app, cookie, {**SWISS, "format": fmt, "name": " "})
    assert stored(app, code) == name


def test_a_host_without_a_name_makes_a_tournament_named_by_its_format(app: Starlette) -> None:
    code = make(app, cookie_of(app), {**SWISS, "format": "knockout"})
    assert stored(app, code) == "Knockout"


@pytest.mark.parametrize(("name", "said"), [
    ("x" * 41, "the tournament's name must be 1 to 40 characters, not 41"),
    ("Cup\x07", "the tournament's name may not hold control characters"),
])
def test_a_bad_name_is_refused_with_why_and_nothing_is_stored(app: Starlette, name: str, said: str) -> None:
    cookie = cookie_of(app)
    answer = visit(app, [("GET", "/t", {}), ("POST", "/t", {**SWISS, "name": name})], cookie)[1]
    assert answer.status_code == 400
    assert said in html.unescape(answer.text)
    assert tournaments(app) == []


def test_the_chips_ledger_names_the_tournament(app: Starlette) -> None:
    host = named_host(app, "Ann")
    code = make(app, host, {**SWISS, "fee": "10"})
    answers = visit(app, [("GET", "/t", {}), ("POST", f"/t/{code}/join", {"name": "Ann"}),
                          ("POST", f"/t/{code}/leave", {}), ("GET", "/profile", {})], host)
    assert [a.status_code for a in answers[1:3]] == [303, 303]
    ledger = html.unescape(answers[3].text)
    assert "Entry fee, Ann's Swiss" in ledger and "Entry fee given back, Ann's Swiss" in ledger
    assert f"tournament {code}" not in ledger


def test_migration_0010_names_the_tournaments_made_before_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as db:
        command.upgrade(alembic_config(db), "0009")
        for code, fmt in (("T1", "swiss"), ("T2", "knockout"), ("T3", "round-robin")):
            db.execute(text("INSERT INTO tournaments (code, version, created, updated, status, host, data, "
                            "round) VALUES (:code, 0, 0, 0, 'open', 'h', :data, 0)"),
                       {"code": code, "data": json.dumps({"format": fmt})})
    assert upgrade(url) == ("0009", HEAD)
    with engine.connect() as db:
        names = dict(db.execute(text("SELECT code, name FROM tournaments")).all())
    assert names == {"T1": "Swiss", "T2": "Knockout", "T3": "Round robin"}
    with engine.begin() as db:
        command.downgrade(alembic_config(db), "0009")
    with engine.connect() as db:
        assert "name" not in {row[1] for row in db.execute(text("PRAGMA table_info(tournaments)"))}
    engine.dispose()
