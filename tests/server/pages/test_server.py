"""The web server over real WebSockets: games, fair views, bad input, restarts, records."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import CARD, Client, assert_fair, choose, new_guest, run
from server_process import ServerProcess

SHORT = {"preset": "oklahoma", "target": 40}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "games.db", allow_seeds=True).start()
    yield process
    process.stop()


def test_a_new_game_shows_only_my_cards(server: ServerProcess) -> None:
    async def go() -> dict[str, Any]:
        client = await Client.connect(server.ws_url)
        state = await client.open_game({"type": "new", "opponents": ["normal"], "seed": 5})
        await client.close()
        return state

    state = run(go())
    view = state["view"]
    assert state["names"] == ["You", "Ruby"]
    assert len(view["hand"]) == 10 and view["hand_sizes"][1] in (10, 11)
    assert view["stock_count"] == 31 - sum(1 for a in view["history"] if a.endswith("draw"))
    assert "\"deal\"" not in json.dumps(state) and "stock" not in view
    assert len(set(CARD.findall(json.dumps(state)))) <= 10 + len(view["discards"]) + 1


def test_bad_messages_get_errors_and_change_nothing(server: ServerProcess) -> None:
    async def go() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        client = await Client.connect(server.ws_url)
        before = await client.open_game({"type": "new", "opponents": ["easy"], "seed": 9})
        before = await client.wait_my_move()
        errors = []
        for raw in ("not json", "[1]", json.dumps({"type": "fly"}), json.dumps({"type": "act"}),
                    json.dumps({"type": "act", "action": "1 draw", "id": 3}),
                    json.dumps({"type": "act", "action": "discard ZZ", "id": 4}),
                    json.dumps({"type": "act", "action": "knock " + before["view"]["hand"][0], "id": 5}),
                    json.dumps({"type": "next", "id": 6}), "x" * 20000):
            await client.socket.send(raw)
            answer = await client.receive()
            assert answer["type"] == "error", raw
            errors.append(answer["message"])
        await client.socket.send(b"\x00binary")
        errors.append((await client.receive())["message"])
        rejoin = await Client.connect(server.ws_url)
        after = await rejoin.open_game({"type": "join", "game": client.game, "token": client.token})
        await client.close()
        await rejoin.close()
        return errors, before, after

    errors, before, after = run(go())
    assert errors[0].startswith("not JSON")
    assert "unknown message type 'fly'" in errors[2]
    assert "needs 'action'" in errors[3]
    assert "you play seat 0, not seat 1" in errors[4]
    assert "'ZZ' is not a card" in errors[5]
    assert "the hand in progress is not over" in errors[7]
    assert "message too long" in errors[8] and "binary" in errors[9]
    assert after["view"] == before["view"]


def test_an_illegal_action_is_refused_then_a_legal_one_acknowledged(server: ServerProcess) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        client = await Client.connect(server.ws_url)
        await client.open_game({"type": "new", "opponents": ["normal"], "seed": 11})
        state = await client.wait_my_move()
        wrong = "draw" if "draw" not in state["view"]["legal"] else "discard " + state["view"]["hand"][0]
        refused = await client.request({"type": "act", "action": wrong})
        message = choose(state)
        assert message is not None
        accepted = await client.request(message)
        await client.close()
        return refused, accepted, state

    refused, accepted, _ = run(go())
    assert refused["type"] == "error" and refused["message"]
    assert accepted["type"] == "ack"


@pytest.mark.slow
def test_a_second_tab_sees_the_same_game(server: ServerProcess) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        first = await Client.connect(server.ws_url)
        await first.open_game({"type": "new", "opponents": ["normal"], "seed": 2})
        await first.wait_my_move()
        second = await Client.connect(server.ws_url)
        await second.open_game({"type": "join", "game": first.game, "token": first.token})
        message = choose(first.state or {})
        assert message is not None
        await first.request(message)
        await first.wait_my_move()
        await asyncio.sleep(0.3)
        while True:  # drain the second tab's frames
            try:
                await second.receive(timeout=0.3)
            except TimeoutError:
                break
        assert first.state and second.state
        await first.close()
        await second.close()
        return first.state, second.state

    one, two = run(go())
    assert one["view"] == two["view"]


@pytest.mark.slow
def test_a_full_game_is_fair_saved_and_downloadable(server: ServerProcess) -> None:
    cookie = new_guest(server.url)

    async def go() -> tuple[Client, dict[str, Any]]:
        client = await Client.connect(server.ws_url, cookie)
        await client.open_game({"type": "new", "opponents": ["normal"], "rules": SHORT, "seed": 4})
        final = await client.play()
        await client.close()
        return client, final

    client, final = run(go())
    assert final["final"]["winner"] in (0, 1)
    assert max(final["totals"]) >= 40
    seats = final["final"]["seats"]
    assert sum(s["score"] for s in seats) == sum(final["totals"]) + sum(
        s["hand_bonus"] + s["game_bonus"] + s["shutout_bonus"] + s["box_bonus"] for s in seats)
    assert_fair(client.frames)
    mine = {"okgin_session": cookie}
    record = httpx.get(f"{server.url}/games/{client.game}/record", cookies=mine).json()
    assert record["format"] == "okgin/1" and len(record["hands"]) == final["hand_number"]
    history = httpx.get(f"{server.url}/history", cookies=mine).text
    assert client.game is not None and client.game in history


def test_record_of_an_unfinished_game_is_never_sent(server: ServerProcess) -> None:
    cookie = new_guest(server.url)

    async def go() -> str | None:
        client = await Client.connect(server.ws_url, cookie)
        await client.open_game({"type": "new", "opponents": ["normal"]})
        await client.close()
        return client.game

    game = run(go())
    mine = {"okgin_session": cookie}
    assert httpx.get(f"{server.url}/games/{game}/record", cookies=mine).status_code == 403
    assert httpx.get(f"{server.url}/games/{game}/record").status_code == 404  # not theirs
    assert httpx.get(f"{server.url}/games/nope/record", cookies=mine).status_code == 404


@pytest.mark.slow
def test_a_restarted_server_resumes_the_game(server: ServerProcess) -> None:
    async def play_some() -> tuple[str | None, str | None, dict[str, Any]]:
        client = await Client.connect(server.ws_url)
        await client.open_game({"type": "new", "opponents": ["normal"], "seed": 7})
        for _ in range(6):
            await client.step()
        state = await client.wait_my_move()
        await client.close()
        return client.game, client.token, state

    game, token, before = run(play_some())
    server.kill()
    server.start()

    async def rejoin() -> dict[str, Any]:
        client = await Client.connect(server.ws_url)
        state = await client.open_game({"type": "join", "game": game, "token": token})
        await client.step()
        await client.close()
        return state

    after = run(rejoin())
    assert after["view"] == before["view"]


@pytest.mark.parametrize("opponents", [["easy", "hard"], ["normal", "normal", "easy"]])
@pytest.mark.slow
def test_several_computer_players(server: ServerProcess, opponents: list[str]) -> None:
    async def go() -> dict[str, Any]:
        client = await Client.connect(server.ws_url)
        await client.open_game({"type": "new", "opponents": opponents,
                                "rules": "oklahoma-multiplayer", "seed": 3})
        for _ in range(8):
            await client.step()
        await client.close()
        assert client.state is not None
        return client.state

    state = run(go())
    assert len(state["names"]) == len(opponents) + 1
    assert len(state["view"]["hand_sizes"]) == len(opponents) + 1
