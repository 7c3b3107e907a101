"""Leaving a rated game of Play online, on a real server: Ann and Ben are seated together; Ben
closes his page, a computer player stands in for him after the grace and plays his seat to the
end while Ann plays hers; the game is rated with Ben last (a loss, whatever his stand-in
scored) and his abandonment kept; a second abandonment within the day makes his next seek wait,
refused with the wait in words and nothing changed."""

from __future__ import annotations

import sqlite3
import time

import pytest
from scripted_client import Client, run, until
from server_process import Serve, ServerProcess
from test_blocks_http import seek
from test_play_online_http import browser, seated, seekers


@pytest.fixture(scope="module")
def site(serve: Serve) -> ServerProcess:
    return serve(extra=("--pool-offer-seconds", "600", "--away-seconds", "1"))


def rows(server: ServerProcess, query: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(server.db) as db:
        return list(db.execute(query, args).fetchall())


@pytest.mark.slow
def test_a_player_who_leaves_is_played_for_rated_last_and_made_to_wait(site: ServerProcess) -> None:
    ann, ben = browser(site), browser(site)
    told = "a game you leave, or are still away from at its end, counts as a loss"
    assert told in ann.get("/play-online").text  # said before anyone seeks
    one, two = seek(ann, "Ann"), seek(ben, "Ben")
    a, b = seated(ann, one), seated(ben, two)
    assert a["state"] == b["state"] == "seated" and a["room"] == b["room"]
    room, seat_of_ben = str(a["room"]), int(str(b["seat"]))

    async def play() -> dict[str, object]:
        anns = await Client.connect(site.ws_url, ann.cookies["okgin_session"])
        bens = await Client.connect(site.ws_url, ben.cookies["okgin_session"])
        for client in (anns, bens):
            answer = await client.request({"type": "enter", "room": room})
            assert answer["type"] == "ack", answer
        await bens.close()  # Ben closes his page for good
        final = await anns.play()
        await anns.close()
        return final

    final = run(play())
    assert final["final"] is not None
    game = str(final["game"])
    players = dict(rows(site, "SELECT seat, player FROM game_players WHERE game = ?", game))
    ben_player, ann_player = players[seat_of_ben], players[1 - seat_of_ben]
    run(until(lambda: len(rows(site, "SELECT 1 FROM rating_history WHERE game = ?", game)) == 2,
              "the game rated"))
    places = dict(rows(site, "SELECT player, place FROM rating_history WHERE game = ?", game))
    assert places == {ann_player: 1, ben_player: 2}
    assert [r[0] for r in rows(site, "SELECT player FROM abandonments WHERE game = ?", game)] == [ben_player]

    # One abandonment in a day costs no wait; a second one an hour later... two minutes.
    again = seek(ben, "Ben")
    assert ben.post(f"/play-online/seek/{again}/cancel").json()["state"] == "cancelled"
    with sqlite3.connect(site.db) as db:
        db.execute("INSERT INTO abandonments (game, seat, player, created) VALUES (?, ?, ?, ?)",
                   ("an-earlier-game", 0, ben_player, time.time()))
    before = seekers(site)
    refused = ben.post("/play-online/seek", json={"rules": "oklahoma", "seats": 2, "name": "Ben"})
    assert refused.status_code == 400
    assert refused.json()["error"] == ("You left 2 rated games to a computer player in the last 24 hours: "
                                       "you may play online again in 2 minutes.")
    assert seekers(site) == before
    assert seek(ann, "Ann")  # Ann, who stayed, seeks at once
