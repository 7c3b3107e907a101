"""The crash test: SIGKILL the server at random points in 20 games, restart it, and check
that every acknowledged action is in the store and that every game goes on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import websockets
from scripted_client import Client, choose, run
from server_process import ServerProcess

from okgin.server.store.storage import Store

GAMES = 20
ROUNDS = 3


class Tracked:
    """A game and the person's actions the server acknowledged: (hand number, notation)."""

    def __init__(self) -> None:
        self.game: str | None = None
        self.token: str | None = None
        self.acked: list[tuple[int, str]] = []


async def play_until_killed(url: str, tracked: Tracked, seed: int) -> None:
    try:
        client = await Client.connect(url)
        if tracked.game is None:
            await client.open_game({"type": "new", "opponents": ["normal"], "seed": seed})
            tracked.game, tracked.token = client.game, client.token
        else:
            await client.open_game({"type": "join", "game": tracked.game, "token": tracked.token})
        while True:
            state = await client.wait_my_move()
            message = choose(state)
            if message is None:
                return
            answer = await client.request(message)
            assert answer["type"] == "ack", answer
            if message["type"] == "act":
                tracked.acked.append((state["hand_number"], "0 " + message["action"]))
    except (websockets.ConnectionClosed, OSError, TimeoutError):
        return


def stored_actions(db: Path, game: str) -> list[list[str]]:
    store = Store(f"sqlite:///{db}")
    stored = store.load(game)
    store.close()
    assert stored is not None, f"game {game} is not in the store"
    return [hand["actions"] for hand in stored.record["hands"]]


def assert_all_acknowledged_stored(db: Path, tracked: Tracked) -> None:
    if tracked.game is None:  # killed before its game was opened: nothing was acknowledged
        assert not tracked.acked
        return
    hands = stored_actions(db, tracked.game)
    position: dict[int, int] = {}
    for number, action in tracked.acked:
        actions = hands[number - 1]
        start = position.get(number, 0)
        assert action in actions[start:], f"acknowledged {action!r} of hand {number} was lost"
        position[number] = actions.index(action, start) + 1


def test_acknowledged_actions_survive_sigkill(tmp_path: Path) -> None:
    rng = random.Random(2024)
    server = ServerProcess(tmp_path / "crash.db", allow_seeds=True).start()
    games = [Tracked() for _ in range(GAMES)]
    try:
        for _ in range(ROUNDS):
            async def round_() -> None:
                players = [asyncio.create_task(play_until_killed(server.ws_url, t, i))
                           for i, t in enumerate(games)]
                # Some moves acknowledged first (however loaded the machine), then a random
                # moment: the kill lands mid-game, wherever each game happens to be.
                before = sum(len(t.acked) for t in games)
                for _ in range(600):
                    if sum(len(t.acked) for t in games) >= before + GAMES:
                        break
                    await asyncio.sleep(0.05)
                await asyncio.sleep(rng.uniform(0.0, 1.0))
                server.kill()
                await asyncio.wait_for(asyncio.gather(*players), 60)

            run(round_())
            for tracked in games:
                assert_all_acknowledged_stored(server.db, tracked)
            server.start()
        moved = sum(len(t.acked) for t in games)
        assert moved > GAMES * ROUNDS, "the games hardly moved: the test did not test anything"

        async def go_on(tracked: Tracked) -> str:
            if tracked.game is None:
                return "over"
            client = await Client.connect(server.ws_url)
            state = await client.open_game({"type": "join", "game": tracked.game, "token": tracked.token})
            await client.wait_my_move()
            message = choose(client.state or state)
            if message is not None:
                answer = await client.request(message)
                assert answer["type"] == "ack", answer
            await client.close()
            return str(answer["type"]) if message is not None else "over"

        async def all_go_on() -> list[str]:
            return list(await asyncio.gather(*(go_on(t) for t in games)))

        assert set(run(all_go_on())) <= {"ack", "over"}
    finally:
        server.stop()
