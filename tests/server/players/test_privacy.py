"""Everything per player: history, statistics, records, reviews and replays are open to a
game's players only; a spectator never learns a player's id; a deleted account leaves no row of
any table holding its id or its names (every column of the schema classified, so none is missed)."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from real_servers import Postgres
from scripted_client import Client, new_guest, open_room, run, take_seat, wait_for
from server_process import ServerProcess
from soft_passkey import SoftPasskey
from sqlalchemy import select
from test_accounts import PASSWORD, Browser
from test_coach_server import finished_record
from test_migrations import old_store
from test_passkeys import HOST, _added, _call
from test_players import browse, db_rows

from okgin.puzzles.puzzle import shipped
from okgin.server import create_app
from okgin.server.players.accounts import FORMER
from okgin.server.players.identity import Players
from okgin.server.players.rating_store import RatingStore
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.store.migrate import upgrade
from okgin.server.store.name_keys import name_key
from okgin.server.store.room_store import GameWrite, RoomTable
from okgin.server.store.schema import (
    abandonments,
    metadata,
    moderation_audit,
    player_bans,
    player_blocks,
    player_reports,
    pool_seekers,
    puzzles,
)
from okgin.server.store.storage import Store

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


PLAYER_IDS = {
    "players.id", "sessions.player", "accounts.player", "game_players.player", "room_players.player",
    "ratings.player", "rating_history.player", "passkeys.player", "chip_wallets.player",
    "chip_ledger.player", "tournaments.host", "tournament_entrants.player", "api_tokens.player",
    "bot_accounts.player", "challenges.challenger_player", "challenges.bot_player", "pool_seekers.player",
    "player_blocks.blocker", "player_blocks.blocked", "abandonments.player", "player_reports.reporter",
    "player_reports.reported", "player_bans.player", "moderation_audit.player", "daily_attempts.player",
    "puzzles.owner", "puzzle_ratings.player", "puzzle_attempts.player",
}
"""The columns that hold a player's id."""
NAMES = {
    "players.name", "accounts.username", "passkeys.name", "tournament_entrants.name",
    "tournaments.name", "games.head", "rooms.data", "pool_seekers.name", "moderation_audit.detail",
    "players.name_key",
}
"""The columns that hold a name a person gave (display name, username, a passkey's name, a name
typed to join, a tournament's name, by default its host's), or JSON holding one (a game's
record head, a room's seats)."""
SESSIONS = {"sessions.id_hash", "passkey_challenges.session"}
"""The columns that hold a session's id (hashed): a browser of the player, not the player."""
NEITHER = {"rating_counts.players": "how many players are rated in a bucket"}
"""Columns whose name speaks of players or names that hold neither, and why."""
PERSONAL = re.compile(r"(^|_)(players?|(user)?names?|hosts?|users?|sessions?|who)(_|$)")
"""A column's name that speaks of a player, a name, a host, a user or a session."""


def _column_names() -> set[str]:
    return {f"{table.name}.{column.name}" for table in metadata.sorted_tables for column in table.columns}


def test_every_column_that_can_name_a_player_is_declared() -> None:
    """A new column named for a player, a name, a host, a user or a session fails here until it
    is declared above (and the deletion test below then shows it forgotten)."""
    columns = _column_names()
    declared = PLAYER_IDS | NAMES | SESSIONS | set(NEITHER)
    assert declared <= columns, declared - columns  # nothing declared that is not there
    speaking = {c for c in columns if PERSONAL.search(c.split(".")[1])}
    assert speaking <= declared, speaking - declared


def _rows(store: Store) -> dict[str, list[str]]:
    """Every value of every column of every table of the schema, as text, by column."""
    found: dict[str, list[str]] = {column: [] for column in _column_names()}
    with store.engine.connect() as db:
        for table in metadata.sorted_tables:
            for row in db.execute(select(table)).mappings():
                for column, value in row.items():
                    found[f"{table.name}.{column}"].append(str(value))
    return found


def _finished_game_in_a_room(store: Store, player: str, name: str) -> str:
    """A finished solo game of ``player``, seated as ``name`` in its room and its record, rated."""
    record = {**finished_record(1), "players": [name, "Ruby"]}
    game = Game.from_record("g-ann", record)
    room, _token = Room.solo_game(game.match.rules, ["normal"])
    room.seats[0].name = name
    room.game = game.id
    room.games.append(game.id)
    room.finish()
    final = game.match.final
    assert final is not None
    RoomTable(store, Room.from_data).create(room, GameWrite(game.id, 0, game.unsaved(), room.levels(),
                                            head=game.head(record["players"]), winner=final.winner,
                                            scores=final.scores))
    Players(store.engine).sat_in_room(room.code, 0, player)
    Players(store.engine).sat_in_game(game.id, {0: player})
    assert RatingStore(store.engine).rate_game(game.id, solo=True)
    return game.id


SWISS = {"format": "swiss", "places": "4", "table": "2", "preset": "oklahoma", "target": "100",
         "levels": "normal", "fee": "10", "bots": "on"}
"""Open to bots: Ann, whose rows are counted, is a bot account by the time she joins."""


def _tournament(host: Browser, *joining: tuple[Browser, str]) -> str:
    made = host.post("/t", **SWISS)
    assert made.status_code == 303, made.text
    code = made.headers["location"].removeprefix("/t/")
    for browser, name in joining:
        assert browser.post(f"/t/{code}/join", name=name).status_code == 303
    return code


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_deleted_account_leaves_no_row_of_any_table_holding_its_id_or_its_names(
    db: Path, request: pytest.FixtureRequest, database: str,
) -> None:
    """Ann sits in a room and its game (rated), has chips, hosts a tournament and enters it and
    another, has a passkey and a passkey ceremony waiting: before her delete every declared
    column holds her id or a name of hers; after it, no value of any table holds one, and the
    tournaments show "a former player" in her place."""
    url = f"sqlite:///{db}"
    if database == "postgresql":
        postgres: Postgres = request.getfixturevalue("postgres")
        url = postgres.fresh_database()
    app = create_app(url)
    ann, bob = Browser(app, base=HOST), Browser(app, address="10.0.0.4", base=HOST)
    ann.go("GET", "/")
    bob.go("GET", "/")
    assert ann.post("/account/create", username="ann.quinn", password=PASSWORD).status_code == 303
    assert ann.post("/profile/name", name="Ann Quinn").status_code == 303
    store = Store(url)
    session = Players(store.engine).session(ann.cookie)
    assert session is not None
    player = session.player
    assert ann.post("/account/bot", confirm="yes").status_code == 303  # before her rated game
    assert ann.post("/account/tokens").status_code == 200  # an API token (shown once)
    made = bob.post("/bots/ann.quinn/challenge", preset="oklahoma", target="50")
    assert made.status_code == 303, made.text  # Bob challenges her bot
    bob_challenge = made.headers["location"]
    carl = Browser(app, address="10.0.0.5", base=HOST)
    carl.go("GET", "/")
    assert carl.post("/account/create", username="carl.bot", password=PASSWORD).status_code == 303
    assert carl.post("/account/bot", confirm="yes").status_code == 303
    assert ann.post("/bots/carl.bot/challenge", preset="gin", target="50").status_code == 303  # hers to Carl
    game = _finished_game_in_a_room(store, player, "Ann Quinn")
    assert ann.post("/daily/start").status_code == 303  # today's daily deal, started
    assert _added(ann, SoftPasskey(), name="Ann's phone").json()["ok"]
    _call(ann, "/account/passkeys/register/options", {})  # a ceremony left waiting
    hosted = _tournament(ann, (ann, "Quinn at cards"), (bob, "Bob"))
    entered = _tournament(bob, (bob, "Bob"), (ann, "Quinn at cards"))
    with store.engine.begin() as rows:  # a place waiting in Play online's pool (the database's)
        rows.execute(pool_seekers.insert().values(
            id="seeker-ann", player=player, name="Ann Quinn", preset="oklahoma", seats=2, rating=1500,
            joined=0.0, lease=0.0, state="waiting", changed=0.0))
        rows.execute(player_blocks.insert(), [{"blocker": player, "blocked": "someone", "created": 0.0},
                                              {"blocker": "someone", "blocked": player, "created": 0.0}])
        rows.execute(abandonments.insert().values(game="a-game", seat=1, player=player, created=0.0))
        rows.execute(player_reports.insert(), [
            {"reporter": player, "reported": "someone", "game": "a-game", "seat": 0, "reason": "name",
             "text": "", "created": 0.0},
            {"reporter": "someone", "reported": player, "game": "a-game", "seat": 1, "reason": "other",
             "text": "", "created": 0.0}])
        rows.execute(player_bans.insert().values(player=player, reason="spam", created=0.0))
        rows.execute(moderation_audit.insert().values(action="rename", player=player,
                                                      detail="Ann -> Ann Quinn", why="asked", created=0.0))
        rows.execute(puzzles.insert().values(  # a puzzle mined from a private game of hers
            id="ann-mined", data="{}", game="a-game", owner=player, mu=25.0, sigma=8.3, attempts=0,
            created=0.0))
    puzzle = shipped()[0]  # her puzzle rating and her answer
    assert ann.post(f"/puzzles/{puzzle.id}", move=puzzle.answer).status_code == 303
    names = ("Ann Quinn", "ann.quinn", "Ann's phone", "Quinn at cards")
    before = _rows(store)
    for column in sorted(PLAYER_IDS):
        assert any(player in value for value in before[column]), f"{column} never held her id"
    names = (*names, *(name_key(n) for n in names))  # a name's look-alike key is hers too
    for column in sorted(NAMES):
        assert any(n in value for value in before[column] for n in names), f"{column} never held her name"
    assert any(session.id_hash in value for value in before["passkey_challenges.session"])

    assert ann.post("/account/delete", password=PASSWORD).status_code == 303
    after = _rows(store)
    store.close()
    left = [(column, value) for column, values in after.items() for value in values
            if any(secret in value for secret in (player, session.id_hash, *names))]
    assert left == []
    for code in (hosted, entered):
        shown = bob.go("GET", f"/t/{code}").text
        assert FORMER in shown and "Quinn" not in shown
        entrants = bob.go("GET", f"/t/{code}/state").json()["entrants"]
        assert sorted(e["name"] for e in entrants) == sorted([FORMER, "Bob"])
    # The tournament she named after herself is called by its format, in Bob's ledger too.
    assert "<title>Swiss" in bob.go("GET", f"/t/{hosted}").text
    assert bob.go("GET", "/profile").text.count("Entry fee, Swiss") == 2  # hers and his own (he has no name)
    assert bob.go("GET", f"/games/{game}/record").status_code == 404  # only its players'; she is gone
    assert bob.go("GET", bob_challenge).status_code == 404  # his challenge to her bot went with her
