"""Moderation (issue 26, items 4 and 5), on the app and the `okgin admin` command: Ann reports Ben
from her profile (refused, nothing kept, for a reason not offered, herself or a stranger's game);
the operator reads the report, bans Ben (then he can neither seek, join a tournament nor be on the
leaderboard, also after a new name and from a fresh browser signed in to his account), lifts the
ban and marks the report handled, every action in the audit; a bad admin action is one line and
status 2, changing nothing."""

from __future__ import annotations

import html
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from test_accounts import PASSWORD, Browser
from test_passkeys import HOST
from test_privacy import _tournament

from okgin.server import create_app
from okgin.server.players.moderation import BANNED


def admin(db: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "okgin.cli", "admin", *words, "--db", f"sqlite:///{db}"],
                          capture_output=True, text=True, timeout=60)


def seek(browser: Browser) -> httpx.Response:
    token = browser.csrf()
    body = json.dumps({"rules": "oklahoma", "seats": 2}).encode()
    return browser.go("POST", "/play-online/seek", content=body,
                      headers={"X-CSRF-Token": token, "content-type": "application/json"})


def rows(db: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as con:
        return list(con.execute(query).fetchall())


@pytest.mark.slow
def test_a_report_read_a_ban_held_across_names_and_browsers_lifted_and_audited(tmp_path: Path) -> None:
    db = tmp_path / "okgin.db"
    app = create_app(f"sqlite:///{db}")
    ann, ben = Browser(app, base=HOST), Browser(app, address="10.0.0.4", base=HOST)
    for browser in (ann, ben):
        browser.go("GET", "/")
    assert ben.post("/account/create", username="ben.b", password=PASSWORD).status_code == 303
    assert ben.post("/profile/name", name="Ben B").status_code == 303
    assert ann.post("/profile/name", name="Ann").status_code == 303
    players = app.state.players
    a, b = players.session(ann.cookie).player, players.session(ben.cookie).player
    with sqlite3.connect(db) as con:  # a game they played together, and Ben past his provisional games
        con.executemany("INSERT INTO game_players (game, seat, player) VALUES (?, ?, ?)",
                        [("shared-game", 0, a), ("shared-game", 1, b), ("bens-game", 0, b)])
        con.execute("INSERT INTO ratings (player, family, mu, sigma, ordinal, bucket, games, updated) "
                    "VALUES (?, 'two-player', 30, 2, 24, 240, 8, 0)", (b,))

    shared = {"game": "shared-game", "seat": "1"}
    for refused, said in (({**shared, "reason": "spam"}, "Say what the report is for"),
                          ({**shared, "seat": "0", "reason": "name"}, "You cannot report yourself"),
                          ({"game": "bens-game", "seat": "0", "reason": "name"}, "a person from a game")):
        answer = ann.post("/profile/report", **refused, text="")
        assert answer.status_code == 400 and said in answer.text
    assert rows(db, "SELECT count(*) FROM player_reports") == [(0,)]
    answer = ann.post("/profile/report", **shared, reason="name", text="  a   rude name ")
    assert answer.status_code == 303 and answer.headers["location"] == "/profile?reported=1#blocked"
    thanked = html.unescape(ann.go("GET", "/profile?reported=1").text)
    assert "the server's operator will read your report" in thanked
    listed = admin(db, "reports")
    assert listed.returncode == 0 and f"player {b} (Ben B) for their name: a rude name" in listed.stdout

    assert "Ben B" in ann.go("GET", "/leaderboard").text
    assert admin(db, "ban", b, "--why", "an offensive name").returncode == 0
    assert "Ben B" not in ann.go("GET", "/leaderboard").text
    code = _tournament(ann, (ann, "Ann"))
    for attempt in range(2):  # banned by his account: after a new name too
        refused = seek(ben)
        assert refused.status_code == 400 and refused.json()["error"] == BANNED
        joined = ben.post(f"/t/{code}/join", name="Ben")
        assert joined.status_code == 400 and BANNED in html.unescape(joined.text)
        if attempt == 0:
            assert admin(db, "rename", b, "Benedict", "--why", "the old name was offensive").returncode == 0
    assert rows(db, f"SELECT name FROM players WHERE id = '{b}'") == [("Benedict",)]
    fresh = Browser(app, address="10.0.0.9", base=HOST)  # a new browser, a new guest, then his account
    fresh.go("GET", "/")
    assert seek(fresh).status_code == 200
    assert fresh.post("/account/sign-in", username="ben.b", password=PASSWORD).status_code == 303
    assert seek(fresh).json()["error"] == BANNED
    assert rows(db, "SELECT count(*) FROM pool_seekers WHERE player = '" + b + "'") == [(0,)]

    assert admin(db, "unban", b, "--why", "renamed, and sorry").returncode == 0
    assert seek(fresh).json()["state"] == "waiting"
    assert admin(db, "handled", "1", "--why", "renamed and banned a while").returncode == 0
    assert admin(db, "reports").stdout == ""
    assert "[handled" in admin(db, "reports", "--all").stdout
    audit = rows(db, "SELECT action, player, detail, why FROM moderation_audit ORDER BY id")
    assert audit == [("ban", b, "", "an offensive name"),
                     ("rename", b, "Ben B -> Benedict", "the old name was offensive"),
                     ("unban", b, "", "renamed, and sorry"),
                     ("handled", b, "report 1", "renamed and banned a while")]
    shown = admin(db, "audit").stdout.splitlines()
    assert len(shown) == 4 and shown[1].endswith(f"rename {b} Ben B -> Benedict: the old name was offensive")

    for words, said in ((("ban", "nobody", "--why", "x"), "there is no player nobody"),
                        (("ban", b, "--why", " "), "say why"),
                        (("unban", b, "--why", "again"), f"player {b} is not banned"),
                        (("rename", b, "Ann", "--why", "x"), "looks like it"),
                        (("handled", "7", "--why", "x"), "there is no report 7")):
        answer = admin(db, *words)
        assert answer.returncode == 2 and answer.stdout == ""
        assert said in answer.stderr and len(answer.stderr.strip().splitlines()) == 1, answer.stderr
    assert len(rows(db, "SELECT * FROM moderation_audit")) == 4


def test_an_id_that_begins_with_a_dash_is_a_player_not_an_option(tmp_path: Path) -> None:
    """Player ids are base64url, so one in 64 begins with "-": pasted from `okgin admin reports`,
    it must still name the player (argparse alone reads it as an unknown option)."""
    db = tmp_path / "okgin.db"
    create_app(f"sqlite:///{db}")  # the schema
    dashed = "-vLPBbAPBMwqUz3FwhVSVw"
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO players (id, created, name) VALUES (?, 0, 'Dash')", (dashed,))
    assert admin(db, "ban", dashed, "--why", "-a reason with a dash-").returncode == 0
    assert admin(db, "rename", dashed, "Dasher", "--why", "x").returncode == 0
    answer = admin(db, "unban", "--why", "lifted", dashed)
    assert answer.returncode == 0 and f"player {dashed} is no longer banned" in answer.stdout
    assert rows(db, "SELECT action, player, why FROM moderation_audit ORDER BY id") == [
        ("ban", dashed, "-a reason with a dash-"), ("rename", dashed, "x"), ("unban", dashed, "lifted")]
    wrong = admin(db, "ban", dashed, "--wy", "x")
    assert wrong.returncode == 2 and "required: --why" in wrong.stderr
    assert len(rows(db, "SELECT * FROM moderation_audit")) == 3
