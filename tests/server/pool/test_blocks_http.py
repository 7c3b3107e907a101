"""Blocks over HTTP, on a real server: Ann and Ben are seated together by Play online; Ann
blocks Ben from her profile (its form, with its CSRF token; refused without it), and then the
pool never seats them together again, though it seats Ben with Cat; Ann unblocks him and they
are seated together once more."""

from __future__ import annotations

import re
import sqlite3
import time

import httpx
import pytest
from server_process import Serve, ServerProcess
from test_play_online_http import browser, seated


@pytest.fixture(scope="module")
def site(serve: Serve) -> ServerProcess:
    return serve(extra=("--pool-offer-seconds", "600"))


def seek(web: httpx.Client, name: str) -> str:
    answer = web.post("/play-online/seek", json={"rules": "oklahoma", "seats": 2, "name": name}).json()
    assert answer["state"] == "waiting", answer
    return str(answer["seeker"])


def csrf(web: httpx.Client) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', web.get("/profile").text)
    assert found is not None
    return found.group(1)


def test_a_blocked_player_is_never_seated_with_the_blocker_until_unblocked(site: ServerProcess) -> None:
    ann, ben, cat = browser(site), browser(site), browser(site)
    one, two = seek(ann, "Ann"), seek(ben, "Ben")
    a, b = seated(ann, one), seated(ben, two)
    assert a["state"] == b["state"] == "seated" and a["room"] == b["room"]
    with sqlite3.connect(site.db) as db:
        game = db.execute("SELECT game FROM rooms WHERE code = ?", (a["room"],)).fetchone()[0]
    profile = ann.get("/profile").text
    assert "People in your last games" in profile and f'name="game" value="{game}"' in profile
    form = {"game": game, "seat": str(b["seat"])}
    assert ann.post("/profile/block", data={**form, "csrf": "wrong"}).status_code == 403
    own_seat = {**form, "seat": str(a["seat"]), "csrf": csrf(ann)}
    assert ann.post("/profile/block", data=own_seat).status_code == 400
    with sqlite3.connect(site.db) as db:
        assert db.execute("SELECT count(*) FROM player_blocks").fetchone()[0] == 0
    assert ann.post("/profile/block", data={**form, "csrf": csrf(ann)}).status_code == 303
    listed = ann.get("/profile").text
    assert "Players you blocked" in listed and "Ben, blocked" in listed

    first, second = seek(ann, "Ann"), seek(ben, "Ben")
    time.sleep(3)  # many looks of the pool (a tick is well under a second)
    for web, seeker in ((ann, first), (ben, second)):
        assert web.post(f"/play-online/seek/{seeker}").json()["state"] == "waiting"
    c = seated(cat, seek(cat, "Cat"))
    paired = [web.post(f"/play-online/seek/{seeker}").json() for web, seeker in ((ann, first), (ben, second))]
    assert c["state"] == "seated" and [p["state"] for p in paired].count("seated") == 1
    assert c["room"] in [p.get("room") for p in paired]
    waiting = first if paired[0]["state"] == "waiting" else second
    (ann if waiting == first else ben).post(f"/play-online/seek/{waiting}/cancel")

    key = re.search(r'name="key" value="([^"]+)"', listed)
    assert key is not None
    assert ann.post("/profile/unblock", data={"key": key.group(1), "csrf": csrf(ann)}).status_code == 303
    assert "Ben, blocked" not in ann.get("/profile").text
    one, two = seek(ann, "Ann"), seek(ben, "Ben")
    again = seated(ann, one), seated(ben, two)
    assert again[0]["state"] == again[1]["state"] == "seated" and again[0]["room"] == again[1]["room"]
