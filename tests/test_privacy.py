"""Everything per player: history, statistics, records, reviews and replays are open to a
game's players only; a spectator never learns a player's id."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, new_guest, open_room, run, take_seat, wait_for
from server_process import ServerProcess
from test_migrations import old_store
from test_players import browse, db_rows

from okgin.server import create_app
from okgin.server.store.migrate import upgrade

SHORT = {"preset": "oklahoma", "target": 10}


@pytest.fixture(scope="module")
def ann_game(server: ServerProcess) -> tuple[str, str]:
    """Ann's cookie and a game she finished against the computer."""
    ann = new_guest(server.url)

    async def go() -> str:
        client = await Client.connect(server.ws_url, ann)
        await client.open_game({"type": "new", "opponents": ["easy"], "seed": 3, "rules": SHORT})
        assert (await client.play())["final"] is not None
        await client.close()
        assert client.game is not None
        return client.game

    return ann, run(go())


def _get(server: ServerProcess, path: str, cookie: str | None) -> httpx.Response:
    return httpx.get(server.url + path, cookies={"okgin_session": cookie} if cookie else None)


def _pages(game: str) -> list[str]:
    return [f"/games/{game}/record", f"/games/{game}/review?hand=1", f"/games/{game}/replay",
            f"/api/games/{game}/replay"]


def test_history_lists_only_the_games_you_sat_in(server: ServerProcess, ann_game: tuple[str, str]) -> None:
    ann, game = ann_game
    bob = new_guest(server.url)
    assert f"/games/{game}/replay" in _get(server, "/history", ann).text
    for cookie in (bob, None):
        page = _get(server, "/history", cookie).text
        assert game not in page and "No finished games yet." in page


def test_a_games_record_review_and_replay_are_its_players_only(
    server: ServerProcess, ann_game: tuple[str, str],
) -> None:
    ann, game = ann_game
    bob = new_guest(server.url)
    for path in _pages(game):
        assert _get(server, path, ann).status_code == 200, path
        for cookie in (bob, None):
            answer = _get(server, path, cookie)
            assert answer.status_code == 404, (path, cookie)
            assert "Ruby" not in answer.text  # nothing of the game, not even its players' names
    # Not there at all answers the same: a stranger cannot tell a game from none.
    assert _get(server, "/games/nope/record", bob).json() == _get(server, f"/games/{game}/record", bob).json()


def test_over_the_websocket_a_finished_game_opens_to_its_players_only(
    server: ServerProcess, ann_game: tuple[str, str],
) -> None:
    """Joining a finished game by its id is refused to a stranger exactly as a game that does
    not exist is (its record answers him 404): not even its players' names reach him."""
    ann, game = ann_game

    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any], list[str]]:
        theirs = await Client.connect(server.ws_url, ann)
        await theirs.open_game({"type": "join", "game": game})
        stranger = await Client.connect(server.ws_url, new_guest(server.url))
        refused = await stranger.request({"type": "join", "game": game})
        missing = await stranger.request({"type": "join", "game": "nope"})
        program = await Client.connect(server.ws_url)
        unsigned = await program.request({"type": "join", "game": game})
        for client in (theirs, stranger, program):
            await client.close()
        assert theirs.state is not None
        return theirs.state, refused, missing, unsigned, stranger.frames + program.frames

    state, refused, missing, unsigned, frames = run(go())
    assert state["final"] is not None and state["game"] == game
    for answer in (refused, unsigned):
        assert {**answer, "id": None} == {**missing, "id": None}
    assert missing["code"] == "no_game"
    assert "Ruby" not in "".join(frames) and '"joined"' not in "".join(frames)


def test_statistics_are_your_own(server: ServerProcess, ann_game: tuple[str, str]) -> None:
    ann, _game = ann_game
    deadline = time.monotonic() + 60  # the rows are written from a worker thread after the game
    while "Game 1" not in (mine := _get(server, "/stats", ann).text) and time.monotonic() < deadline:
        time.sleep(0.3)
    assert "Game 1" in mine and "in 1 finished game" in mine
    for cookie in (new_guest(server.url), None):
        theirs = _get(server, "/stats", cookie).text
        assert "Game 1" not in theirs and "No finished games yet" in theirs


def test_over_the_websocket_a_spectator_gets_no_review_and_no_players_id(
    server: ServerProcess, ann_game: tuple[str, str],
) -> None:
    ann, game = ann_game
    bob, carol = new_guest(server.url), new_guest(server.url)

    async def go() -> tuple[dict[str, Any], Client]:
        watcher = await Client.connect(server.ws_url, bob)
        host = await open_room(server.ws_url, 2, "Ann", cookie=ann)
        assert host.room
        guest = await take_seat(server.ws_url, host.room, 1, "Carol", cookie=carol)
        await watcher.request({"type": "enter", "room": host.room})
        review = await watcher.request({"type": "review", "hand": 1})
        await host.request({"type": "start", "seed": 5})
        await wait_for(watcher, lambda m: m["type"] == "state" and m["game"] != game)
        for client in (watcher, host, guest):
            await client.close()
        return review, watcher

    review, watcher = run(go())
    assert review["type"] == "error" and "watching" in review["message"]
    with sqlite3.connect(server.db) as db:
        ids = [player for (player,) in db.execute("SELECT id FROM players")]
    frames = "".join(watcher.frames)
    assert len(ids) >= 3 and not any(player in frames for player in ids)


def test_an_upgraded_store_keeps_its_games_attached_to_no_player(tmp_path: Path) -> None:
    url = old_store("sqlite", tmp_path)
    upgrade(url)
    db = Path(url.removeprefix("sqlite:///"))
    finished = [game for (game,) in db_rows(db, "SELECT id FROM games WHERE status = 'finished'")]
    assert finished and db_rows(db, "SELECT count(*) FROM game_players") == [(0,)]
    app = create_app(url)
    paths = ["/history", *[f"/games/{g}/record" for g in finished]]
    history, *records = browse(app, "http://127.0.0.1", paths)
    assert "No finished games yet." in history.text and not any(g in history.text for g in finished)
    assert [r.status_code for r in records] == [404] * len(finished)
    assert len(db_rows(db, "SELECT id FROM games WHERE status = 'finished'")) == len(finished)  # still stored
