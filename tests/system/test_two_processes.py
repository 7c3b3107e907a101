"""Two `okgin serve` processes on one real PostgreSQL and one real Redis: players on different
processes finish a game together; then one process is SIGKILLed mid-hand and the game is
finished on the other, with every acknowledged action in the store."""

from __future__ import annotations

import asyncio
from typing import Any

import websockets
from scripted_client import Client, choose, run
from server_process import ServerProcess

from okgin.server.store.storage import Store

SHORT = {"preset": "oklahoma", "target": 60}



class Player:
    """A scripted person in a room, keeping the actions the server acknowledged."""

    def __init__(self, client: Client, acked: list[tuple[int, str]]) -> None:
        self.client = client
        self.acked = acked
        self.refused: list[dict[str, Any]] = []

    async def move(self) -> bool:
        """Make one move (or press next); False when the game is over."""
        state = await self.client.wait_my_move()
        message = choose(state)
        if message is None:
            return False
        answer = await self.client.request(message)
        if answer["type"] == "ack" and message["type"] == "act":
            self.acked.append((state["hand_number"], f"{self.client.seat} {message['action']}"))
        elif answer["type"] == "error":
            # Both press "next": one is first. Two processes may also race on one version (the
            # compare-and-set save refuses the later one, nothing changed): look again, retry.
            raced = answer["code"] == "stale"
            assert message["type"] == "next" or raced, answer
            self.refused.append(message)
            await self.client.request({"type": "options", "coach": False})  # the state as it is now
        return True


async def seat_two(host_url: str, guest_url: str, seed: int) -> tuple[Client, Client, str]:
    """A room made on one process, its second seat taken on the other, the game started."""
    host = await Client.connect(host_url)
    await host.request({"type": "create", "players": 2, "name": "Ana", "rules": SHORT})
    while host.room is None or host.token is None:
        await host.receive()
    guest = await Client.connect(guest_url)
    answer = await guest.request({"type": "enter", "room": host.room})
    assert answer["type"] == "ack", answer
    answer = await guest.request({"type": "sit", "seat": 1, "name": "Ben"})
    assert answer["type"] == "ack", answer
    answer = await host.request({"type": "start", "seed": seed})
    assert answer["type"] == "ack", answer
    for client in (host, guest):
        while client.state is None:
            await client.receive()
    return host, guest, host.room


def stored_record(url: str, game: str) -> dict[str, Any]:
    store = Store(url)
    stored = store.load(game)
    store.close()
    assert stored is not None, f"game {game} is not in PostgreSQL"
    return stored.record


def assert_acknowledged_stored(record: dict[str, Any], acked: list[tuple[int, str]]) -> None:
    """Each seat's acknowledged actions are in the stored hands, in that seat's order (the two
    seats' acknowledgements may reach the test in either order, so seats are checked apart)."""
    hands = [hand["actions"] for hand in record["hands"]]
    position: dict[tuple[int, str], int] = {}
    for number, action in acked:
        seat = action.split()[0]
        own = [a for a in hands[number - 1] if a.split()[0] == seat]
        start = position.get((number, seat), 0)
        assert action in own[start:], f"acknowledged {action!r} of hand {number} was lost"
        position[number, seat] = own.index(action, start) + 1


def test_players_on_two_processes_finish_a_game_together(pair: tuple[ServerProcess, ...]) -> None:
    one, two = pair

    async def go() -> tuple[dict[str, Any], dict[str, Any], list[tuple[int, str]], str]:
        host, guest, _ = await seat_two(one.ws_url, two.ws_url, seed=7)
        acked: list[tuple[int, str]] = []
        ana, ben = Player(host, acked), Player(guest, acked)
        await asyncio.wait_for(asyncio.gather(play(ana), play(ben)), 240)
        assert host.state is not None and guest.state is not None and host.game is not None
        await host.close()
        await guest.close()
        return host.state, guest.state, acked, host.game

    host_final, guest_final, acked, game = run(go())
    assert host_final["final"] is not None and host_final["final"] == guest_final["final"]
    assert host_final["totals"] == guest_final["totals"]
    assert {seat for _, seat_action in acked for seat in seat_action[:1]} == {"0", "1"}
    record = stored_record(one.db_url, game)  # type: ignore[attr-defined]
    assert_acknowledged_stored(record, acked)
    assert sum(len(hand["actions"]) for hand in record["hands"]) >= len(acked)


def test_a_killed_process_loses_nothing_and_the_game_ends_on_the_other(
    pair: tuple[ServerProcess, ...],
) -> None:
    one, two = pair

    async def go() -> tuple[dict[str, Any], list[tuple[int, str]], str, int, bool]:
        host, guest, room = await seat_two(one.ws_url, two.ws_url, seed=11)
        token, acked = host.token, []
        finals: list[dict[str, Any]] = []

        async def host_plays() -> None:
            try:
                await play(Player(host, acked))
                return
            except (websockets.ConnectionClosed, OSError, TimeoutError):
                pass  # the process under us was killed: come back through the other one
            again = await Client.connect(two.ws_url)
            await again.request({"type": "enter", "room": room, "token": token})
            while again.state is None:
                await again.receive()
            await play(Player(again, acked))
            assert again.state is not None
            finals.append(again.state)
            await again.close()

        playing = asyncio.gather(host_plays(), play(Player(guest, acked)))
        while len(acked) < 6:
            await asyncio.sleep(0.01)
        mid_hand = guest.state is not None and guest.state["view"]["result"] is None
        await asyncio.to_thread(one.kill)  # SIGKILL, wherever the host's request happens to be
        killed_at = len(acked)
        await asyncio.wait_for(playing, 240)
        await guest.close()
        assert guest.game is not None
        return finals[0], acked, guest.game, killed_at, mid_hand

    final, acked, game, killed_at, mid_hand = run(go())
    assert mid_hand, "the kill came between hands: the test did not test a hand in progress"
    assert final["final"] is not None, "the game did not finish on the surviving process"
    assert len(acked) > killed_at + 6, "hardly anything was played after the kill"
    assert_acknowledged_stored(stored_record(two.db_url, game), acked)  # type: ignore[attr-defined]


async def play(player: Player) -> None:
    while await player.move():
        pass


def test_seats_taken_at_the_same_moment_on_two_processes_both_keep_their_tokens(
    pair: tuple[ServerProcess, ...],
) -> None:
    """Two spectators on two processes sit at once: one save wins, the other is re-run on the
    stored room. Each must be handed the token that was saved, so both can come back."""
    one, two = pair

    async def race() -> list[tuple[int | None, int | None, str]]:
        host = await Client.connect(one.ws_url)
        await host.request({"type": "create", "players": 3, "name": "Ana", "rules": SHORT})
        while host.room is None:
            await host.receive()
        bo, cy = await Client.connect(one.ws_url), await Client.connect(two.ws_url)
        for client in (bo, cy):
            assert (await client.request({"type": "enter", "room": host.room}))["type"] == "ack"
        sat = await asyncio.gather(bo.request({"type": "sit", "seat": 1, "name": "Bo"}),
                                   cy.request({"type": "sit", "seat": 2, "name": "Cy"}))
        assert [answer["type"] for answer in sat] == ["ack", "ack"], sat
        back = []
        for client, url in ((bo, one.ws_url), (cy, two.ws_url)):
            again = await Client.connect(url)
            answer = await again.request({"type": "enter", "room": host.room, "token": client.token})
            back.append((client.seat, again.seat, answer.get("message", "")))
            await again.close()
        for client in (host, bo, cy):
            await client.close()
        return back

    async def go() -> list[tuple[int | None, int | None, str]]:
        return [seat for _ in range(4) for seat in await race()]

    for taken, again, refusal in run(go()):
        assert taken == again, f"seat {taken} taken, but its token comes back as {again}: {refusal}"
